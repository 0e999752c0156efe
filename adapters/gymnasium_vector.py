"""Many games of one rules file as one Gymnasium vector environment, stepped in one call of the
compiled engine (`pip install 'amunre[gymnasium]'`): the learner plays one seat of every game,
the random agent the others, inside the machine code.

    from amunre.adapters.gymnasium_vector import AmunreVectorEnv
    envs = AmunreVectorEnv(NAME, num_envs=1024)            # NAME: `amunre editions`, or a path
    observations, infos = envs.reset(seed=7)                 # (1024, width) float32
    actions = envs.random_actions()                          # a random legal action a game
    observations, rewards, terminations, truncations, infos = envs.step(actions)

With `opponents=None` it is self-play instead: the learner plays every seat of every game,
one action a step, observing as the seat to move (`info["seat"]`), rewarded at the end as the
seat whose action ended the game (`info["result"]` has every seat's result).

With random opponents it is the batch of `AmunreGymEnv(rules, ..., opponents="random")`
(adapters/gymnasium.py) that `gymnasium.make_vec(..., vectorization_mode="sync")` builds, game
for game the same: the same
seeds (`reset(seed=s)` seeds game i with s + i, each game's seat, deal and opponents drawn from
its own generator as the single environment draws them), the same observations, action masks,
rewards and next-step autoreset (a game that ended is started afresh at the following step,
whose action is ignored); tests/test_adapter_gymnasium_vector.py holds it to that. What it does
not do: opponents other than `random` (every other agent decides from an interpreter Game,
its guesses set up in Python; use `make_vec`, where greedy looks ahead on the compiled engine),
rendering, and rules the compiled engine does not play (NotCompiled). A game in which the
machine stops (a number past its range) ends there, truncated, with `info["stopped"]`.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:        # pragma: no cover - the message is the point
    raise ImportError("amunre's Gymnasium environment needs Gymnasium: pip install 'amunre[gymnasium]'") from error

from ..interpreter.base.errors import AmunreError, shown_repr
from ..interpreter.compiled import hubs
from ..interpreter.compiled.game import NATIVE_SETUP, compiled, machine_results
from ..interpreter.compiled.mt19937 import MT_WORDS, mt_seed
from ..interpreter.compiled.not_compiled import NotCompiled
from ..interpreter.compiled.vector import ILLEGAL, OVER, STOPPED
from ..interpreter.play.setup import check_setup
from .common import (
    DEFAULT_REWARD,
    RulesSource,
    checked_learner_seat,
    checked_players,
    checked_reward,
    final_rewards,
    observation_box,
    options_setup,
    rules_from,
)
from .engine import compile_ahead

ACTIONS_STREAM = 1          # random_actions' generator: its own stream of reset's seed, not game 0's


class AmunreVectorEnv(VectorEnv):
    """`num_envs` games at once, the learner in `seat` of each (None: drawn per game)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, rules: RulesSource, num_envs: int = 64, players: int | None = None, seat: int | None = 0,
                 opponents: str | None = "random", reward: str = DEFAULT_REWARD, illegal_reward: float = -1.0,
                 options: dict[str, Any] | None = None, copy: bool = True) -> None:
        """`opponents`: "random" (in every other seat), or None for self-play: the learner
        plays every seat, one action a step, observing as the seat to move (`info["seat"]`).
        `copy`, as for Gymnasium's SyncVectorEnv: False returns the environment's own arrays of
        observations and action masks, which the next step writes over (no copy of 3 MB a
        step for 1,024 games of 743 numbers: for a learner that copies them into its own
        buffer anyway, a fifth of a step's time at N = 1024, more when the copies are kept)."""
        if type(num_envs) is not int or num_envs < 1:
            raise AmunreError(f"num_envs is a whole number from 1, not {shown_repr(num_envs, 40)}")
        if opponents not in ("random", None):
            raise AmunreError(f"the vector environment's opponents are 'random' (played in machine code) or None "
                              f"(self-play), not {shown_repr(opponents, 40)}; for other opponents, "
                              f"gymnasium.make_vec steps AmunreGymEnv")
        self.self_play = opponents is None
        self.rules = rules_from(rules)
        self.players = checked_players(self.rules, players)
        self.seat_given, self.reward = checked_learner_seat(seat, self.players), checked_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self.copy = bool(copy)
        self.setup = check_setup(self.rules, self.players, options_setup(options))
        if set(self.setup) - NATIVE_SETUP:
            raise NotCompiled(f"a set-up with {', '.join(sorted(set(self.setup) - NATIVE_SETUP))}")
        compile_ahead(self.rules, "vector", "random legal")
        self.machine = compiled(self.rules)             # NotCompiled where the compiled engine does not play them
        self._step_games, self._random_legal = hubs.vectors(), hubs.random_legals()
        self.num_envs = num_envs
        self.actions = self.rules.actions.size
        box = self.single_observation_space = observation_box(self.rules)
        self.single_action_space = spaces.Discrete(self.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        width = box.shape[0]
        self.S0 = self.machine.state(self.players, 0, self.setup)
        self.S = np.zeros((num_envs, self.S0.shape[0]), dtype=np.int64)
        self.R = np.zeros(max(width, 64), dtype=np.int64)
        self.MT = np.zeros((num_envs * self.players, MT_WORDS), dtype=np.uint32)
        self.obs = np.zeros((num_envs, width), dtype=np.float32)
        self.masks = np.zeros((num_envs, self.actions), dtype=np.int8)
        self.status = np.zeros(num_envs, dtype=np.int64)
        self.observers = np.zeros(num_envs, dtype=np.int64)     # self-play: the seat each game is observed by
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.seeds = np.zeros(num_envs, dtype=np.int64)
        self.draws = np.zeros(num_envs, dtype=np.float64)           # random_actions' uniform numbers
        self.starts = np.zeros(num_envs, dtype=np.int64)
        self.ended = np.ones(num_envs, dtype=bool)       # no game yet: reset() starts them
        self.ending = True                               # whether any game is ended (self.ended.any(), kept)
        self.everywhere = np.ones(num_envs, dtype=bool)  # copied into each step's info
        self.generators: list[np.random.Generator | None] = [None] * num_envs
        self.started = False

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Every game afresh: game i seeded with seed + i (a list: one seed a game; None: fresh
        entropy), as SyncVectorEnv seeds its environments; `np_random` (random_actions') from
        the same seed, in a stream of its own. `options` are not used (the rules' options are
        given to the environment)."""
        seeds = [None if seed is None else seed + i for i in range(self.num_envs)] if not isinstance(seed, list) \
            else list(seed)
        if len(seeds) != self.num_envs:
            raise AmunreError(f"{len(seeds)} seeds given for {self.num_envs} games")
        for i, each in enumerate(seeds):
            if each is not None or self.generators[i] is None:
                self.generators[i] = seeding.np_random(each)[0]
            self._draw_game(i)
        if seed is not None:            # random_actions' generator: seeded by every game's seed given
            given = [each for each in seeds if each is not None]
            known = seed if isinstance(seed, int) else given if len(given) == len(seeds) else None
            # through Gymnasium's setter: its np_random_seed is then -1 (not a seed numpy's generators
            # take alone), and reading it keeps this generator rather than drawing a fresh one
            self.np_random = np.random.default_rng(np.random.SeedSequence(known, spawn_key=(ACTIONS_STREAM,)))
        self.starts[:] = 1
        self._step_games(self.S, self.S0, self.machine.M, self.R, self.MT, np.zeros(self.num_envs, np.int64),
                         self.seats, self.starts, self.seeds, self.obs, self.masks, self.status, self.observers)
        self.started = True
        self.ended = self.status == STOPPED
        self.ending = bool(self.ended.any())
        return self._out(self.obs), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Every game one learner's decision on (a game that ended at the last step starts
        afresh instead, its action ignored)."""
        self._check_started()
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":     # numpy's whole numbers
            raise AmunreError(f"actions are {self.num_envs} whole numbers, one a game, not {shown_repr(actions, 60)}")
        if self.ending:
            for i in np.flatnonzero(self.ended):
                self._draw_game(int(i))
        self.starts[:] = self.ended
        changed = self._step_games(self.S, self.S0, self.machine.M, self.R, self.MT, chosen.astype(np.int64),
                                   self.seats, self.starts, self.seeds, self.obs, self.masks, self.status,
                                   self.observers)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations, truncations = np.zeros(self.num_envs, dtype=bool), np.zeros(self.num_envs, dtype=bool)
        info = self._info()
        if changed:                 # a game ended, stopped or was given an illegal id: else every game goes on
            self._outcomes(chosen, rewards, terminations, truncations, info)
        if changed or self.ending:
            self.ended, self.ending = terminations | truncations, changed > 0
        return self._out(self.obs), rewards, terminations, truncations, info

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for each game's learner, as this step's masks allow (0
        where a game ended: the next step ignores it), from the environment's generator
        (`np_random`, seeded by `reset`'s seed). Drawn in machine code from the legal list the
        masks were made from, 5-30 ns a game: drawing from the masks in numpy (a number for
        every action of every game, then the largest) takes 1.7 us a game at N = 1024, about
        as long as the step, and what it pushes through the caches slows the next step
        (docs/adapters.md, "How fast")."""
        self._check_started()
        actions = np.zeros(self.num_envs, dtype=np.int64)
        self.np_random.random(out=self.draws)
        self._random_legal(self.S, self.machine.M, self.status, self.draws, actions)
        return actions

    def _check_started(self) -> None:
        if not self.started:
            raise AmunreError("no games are being played: reset() starts them")

    def _outcomes(self, chosen: np.ndarray, rewards: np.ndarray, terminations: np.ndarray, truncations: np.ndarray,
                  info: dict[str, Any]) -> None:
        """The games of this step that did not simply go on, into the step's arrays and info. A
        step where every game goes on (most of a small batch's: a game lasts some hundreds of
        steps) skips this, told so by the machine's call: its reading and numpy's calls took some
        0.1 ms a step, against about 0.2 ms for the machine's with 64 games."""
        results: dict[int, dict[str, Any]] = {}
        ended = np.flatnonzero(self.status == OVER)
        for game, result in zip(ended.tolist(), machine_results(self.machine, self.S[ended], self.players)):
            if result is None:      # a state without its actions: no interpreter game can take over
                self.status[game] = STOPPED
                continue
            results[game] = result
            rewards[game] = final_rewards(result, self.reward)[self._seen_by()[game]]
        illegal = self.status == ILLEGAL
        np.logical_or(self.status == OVER, illegal, out=terminations)
        np.equal(self.status, STOPPED, out=truncations)
        rewards[illegal] = self.illegal_reward
        if illegal.any():
            info["illegal"], info["_illegal"] = np.where(illegal, chosen, -1), illegal
        if truncations.any():
            info["stopped"], info["_stopped"] = truncations.copy(), truncations.copy()
        if results:
            listed: list[dict[str, Any] | None] = [None] * self.num_envs
            for game_at, result in results.items():
                listed[game_at] = result
            info["result"] = listed
            info["_result"] = self.status == OVER

    def _out(self, array: np.ndarray) -> np.ndarray:
        """One of the arrays the machine writes each step, as the caller gets it."""
        return array.copy() if self.copy else array

    def _draw_game(self, i: int) -> None:
        """Game i's seat, seed and opponents' generators, drawn from its generator in the order
        AmunreGymEnv.reset draws them."""
        rng = self.generators[i]
        assert rng is not None
        if self.self_play:
            self.seats[i] = -1
            self.seeds[i] = int(rng.integers(2**62))
            return
        self.seats[i] = int(rng.integers(self.players)) if self.seat_given is None else self.seat_given
        self.seeds[i] = int(rng.integers(2**62))
        for other in range(self.players):
            if other != self.seats[i]:
                mt_seed(self.MT[i * self.players + other], int(rng.integers(2**31)))

    def _info(self) -> dict[str, Any]:
        """The learner's legal actions in each game (all 0 where it ended), and its seat."""
        return {"action_mask": self._out(self.masks), "_action_mask": self.everywhere.copy(),
                "seat": self._seen_by().copy(), "_seat": self.everywhere.copy()}

    def _seen_by(self) -> np.ndarray:
        """The seat each game is observed by: the learner's, or in self-play the seat to move
        (the one whose action ended the game, once it ended)."""
        return self.observers if self.self_play else self.seats
