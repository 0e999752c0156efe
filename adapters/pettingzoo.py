"""Any rules file as a PettingZoo AEC environment (`pip install 'amunre[pettingzoo]'`).

    from amunre.adapters.pettingzoo import env
    environment = env(NAME, players=4, seed=7)   # a shipped name (amunre editions) or a path

Agents are `player_0` ... `player_{n-1}`, one per seat, and act when the engine says that seat
is to move (a seat may act many times in a row). Each agent observes a dict: `observation`,
the engine's `observation_tensor(seat)` (float32; what that seat may see, named by
`env.unwrapped.game.observation_layout()`), and `action_mask`, int8 over the rules file's
whole action space (`legal_action_ids()`; all zeros when it is not that agent's turn); the
mask is also in the acting agent's `infos[agent]["action_mask"]`. With `env(..., flat=True)` an
observation is the tensor alone, a Box (SuperSuit's observation wrappers take only Boxes), and
the mask is in the acting agent's info only. Actions are the engine's
integer ids (`Discrete(num_distinct_actions())`), of any integral type (a numpy integer too),
never coerced: a float, a text, a bool or None for a live agent raises IllegalAction, as an
illegal id does; the step of an agent whose game is over is `step(None)` (PettingZoo's
convention: anything else there is PettingZoo's ValueError).
Rewards come only at the end (common.REWARDS: `win_loss` by default, `win_loss_share` or
`points`), with the engine's result in every agent's `infos[agent]["result"]`. `reset(seed=s)`
plays the game of seed `s` (the deal of `amunre run --seed s`); a reset without a seed draws
the next seed from the last one given (or from the `seed` given to `env`, else from the
system). Before the first reset, `env.unwrapped.game` is the game of the env's seed (0
without one), to read the layout and the action ids from.

`engine` ("auto" by default, "compiled" or "interpreter"; adapters/engine.py) is the engine that
steps the games: the compiled engine where it plays the rules file, else the interpreter. Both
give the very same episodes (observations, masks, rewards, infos); rendering reads an
interpreter Game kept at the same position.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as error:        # pragma: no cover - the message is the point
    raise ImportError("amunre's PettingZoo environment needs PettingZoo: pip install 'amunre[pettingzoo]'") from error

from ..interpreter.base.errors import AmunreError, IllegalAction, shown_repr
from ..interpreter.play.setup import check_setup
from .common import (
    DEFAULT_REWARD,
    RulesSource,
    checked_players,
    checked_reward,
    final_rewards,
    observation_box,
    options_setup,
    render_view,
    rules_from,
    seat_names,
)
from .engine import DEFAULT_ENGINE, InterpreterView, checked_engine, observation32, start

RENDER_MODES = ("human", "ansi")


def env(rules: RulesSource, players: int | None = None, seed: int | None = None, reward: str = DEFAULT_REWARD,
        render_mode: str | None = None, options: dict[str, Any] | None = None, flat: bool = False,
        engine: str = DEFAULT_ENGINE) -> AECEnv:
    """The environment of a rules file (loaded Rules, a path, or a shipped name), in
    PettingZoo's order-enforcing wrapper. `options` sets the rules file's
    options (`amunre options FILE` lists them). `flat`: each observation is the tensor alone
    (a Box, as SuperSuit's observation wrappers need), the mask only in the acting agent's info.
    `engine`: "auto" (the compiled engine where it plays the rules), "compiled" or "interpreter"."""
    return OrderEnforcingWrapper(raw_env(rules, players, seed, reward, render_mode, options, flat, engine))


def raw_env(rules: RulesSource, players: int | None = None, seed: int | None = None, reward: str = DEFAULT_REWARD,
            render_mode: str | None = None, options: dict[str, Any] | None = None, flat: bool = False,
            engine: str = DEFAULT_ENGINE) -> AmunreEnv:
    """The environment without PettingZoo's wrapper."""
    return AmunreEnv(rules, players, seed, reward, render_mode, options, flat, engine)


class AmunreEnv(AECEnv):
    """One game of a rules file at a time; `game` is the engine's Game being played."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "amunre_v0", "is_parallelizable": False}

    def __init__(self, rules: RulesSource, players: int | None = None, seed: int | None = None,
                 reward: str = DEFAULT_REWARD, render_mode: str | None = None,
                 options: dict[str, Any] | None = None, flat: bool = False, engine: str = DEFAULT_ENGINE) -> None:
        super().__init__()
        self.rules = rules_from(rules)
        self.players = checked_players(self.rules, players)
        self.reward = checked_reward(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise AmunreError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.setup = check_setup(self.rules, self.players, options_setup(options))
        self.engine = checked_engine(engine)
        if seed is not None and type(seed) is not int:
            raise AmunreError(f"a seed is a whole number, not {seed!r}")
        self.metadata = dict(self.metadata, name=f"amunre_{self.rules.id.replace('-', '_')}")
        self.possible_agents = seat_names(self.players)
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self.rules.actions.size
        if type(flat) is not bool:
            raise AmunreError(f"flat is True or False, not {shown_repr(flat, 40)}")
        self.flat = flat
        features = observation_box(self.rules)
        self.observation_spaces = {agent: features if flat else spaces.Dict({
            "observation": features, "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._first_seed = seed
        self._seeds = random.Random(seed)
        # The game being played (None after close()): a Game, or a CompiledGame (the same
        # integer API; the rest of the Game API answered by the interpreter). Left Any: every
        # step reads it, and PettingZoo's wrapper, not a check per step, sees that reset() came
        # first. Before the first reset it is the game of the env's seed (0 if none is given),
        # for what a researcher reads before playing: the layout, the action ids, the rules.
        self.game: Any = start(self.rules, self.players, seed or 0, self.setup, self.engine)
        self._view = InterpreterView(events=True)             # the interpreter's Game of it, to render
        self._legal_mask = np.zeros(actions, np.int8)        # the seat to move's, worked out once per position
        self.seed_played: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the game -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: of `seed` if given, else of the next seed drawn (see the module's doc).
        PettingZoo's `options` are accepted and unused: the rules' options are given to env()."""
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        else:
            seed = self._seeds.getrandbits(63)
        self._first_seed = None
        self.seed_played = seed
        self.game = start(self.rules, self.players, seed, self.setup, self.engine, events=self.render_mode is not None)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self._select()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to move: its step takes one of its legal action ids (None is "
                                "the step of an agent whose game is over, PettingZoo's convention)")
        self.game.apply_id(action)          # an integral id, checked there: never int() of a text or a float
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {other: 0.0 for other in self.agents}
        if self.game.over:
            result = self.game.result()
            for other, value in zip(self.possible_agents, final_rewards(result, self.reward)):
                self.rewards[other] = value
                self.terminations[other] = True
            self.infos = {other: {"result": result} for other in self.agents}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """The agent of the seat to move, and its legal actions in its info."""
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._legal_mask = np.zeros(self.rules.actions.size, np.int8)
        self._legal_mask[self.game.legal_action_ids()] = 1
        self.infos = {agent: {} for agent in self.agents}
        self.infos[self.agent_selection]["action_mask"] = self._legal_mask

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        seat = self._seat(agent)
        features = observation32(self.game, seat)
        if self.flat:
            return features
        moving = not self.game.over and self.game.to_move == seat
        return {"observation": features,
                "action_mask": self._legal_mask.copy() if moving else np.zeros(self.rules.actions.size, np.int8)}

    def _seat(self, agent: Any) -> int:
        """The seat of an agent's name; AmunreError naming the agents for any other value (a
        KeyError would say only the name that is not there)."""
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise AmunreError(f"the agents of this game are {', '.join(self.possible_agents)}, "
                              f"not {shown_repr(agent, 40)}")
        return seat

    # ---- showing it -----------------------------------------------------------------------------
    def render(self) -> str | None:
        """`ansi`: the text of what the seat to move may see (the final scores once the game is
        over); `human`: the same, printed."""
        if self.render_mode is None or self.game is None:
            return None
        return render_view(self._view.at(self.game), self.game.to_move, printed=self.render_mode == "human")

    def close(self) -> None:
        self.game = None
