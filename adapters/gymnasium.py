"""Any rules file as a single-agent Gymnasium environment: a learner plays one seat, the other
seats are played by opponents (`pip install 'amunre[gymnasium]'`).

    import gymnasium
    import amunre.adapters.gymnasium                    # registers amunre/<shipped name>-v0
    env = gymnasium.make(f"amunre/{NAME}-v0", opponents="greedy")    # NAME: `amunre editions`
    observation, info = env.reset(seed=7)
    action = int(numpy.flatnonzero(info["action_mask"])[0])
    observation, reward, terminated, truncated, info = env.step(action)

`gymnasium.make(f"amunre.adapters.gymnasium:amunre/{NAME}-v0")` imports and registers in
one go, and `gymnasium.make_vec(f"amunre/{NAME}-v0", num_envs=8)` gives Gymnasium's own
vector environment. Every shipped rules file is registered; a local one is played by
`AmunreGymEnv(rules="path/to/file.yaml", ...)` or `gymnasium.make("amunre/game-v0",
rules=...)`.

The observation is the learner's `observation_tensor` as a flat float32 Box (named by
`env.unwrapped.game.observation_layout()`), the same facts the seat may see and nothing else;
the legal actions are `info["action_mask"]` (int8 over the rules file's whole action space,
also `env.unwrapped.action_masks()`, as maskable learners ask for it). Actions are the engine's
integer ids. Between two of the learner's decisions the opponents play: agents named as
`amunre simulate --agents` names them (`greedy`, `ismcts:iterations=50`...: they read the
game only through the engine's API and guess what their seat cannot see), callables
`policy(observation, action_mask) -> id` given that seat's own view, or a `Pool` of past
policies for self-play, drawn anew for every game. The reward comes at the end
(common.REWARDS); an illegal action ends the game with `illegal_reward` (as PettingZoo's
TerminateIllegalWrapper does: a random learner must be able to explore), or raises
IllegalAction when that is None.

`engine` ("auto" by default, "compiled" or "interpreter"; adapters/engine.py) is the engine that
steps the games: the compiled engine where it plays the rules file, else the interpreter. Both
give the very same episodes. Our agents other than `random` (they search over guesses of the
hidden facts with the whole Game API) and rendering read an interpreter Game kept at the same
position; the agents that look ahead (greedy, heuristic, ismcts) do it on the compiled engine
wherever it steps the games, compiling its lookahead on their first decision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from numbers import Real
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:        # pragma: no cover - the message is the point
    raise ImportError("amunre's Gymnasium environment needs Gymnasium: pip install 'amunre[gymnasium]'") from error

from ..interpreter.base.errors import AmunreError, IllegalAction, shown_repr
from ..interpreter.game import Game
from ..interpreter.load.shipped import shipped_names
from ..interpreter.play.setup import check_setup
from ..tools.agents import RandomAgent, check_spec, choose_id, make_agent, split_specs
from .common import (
    DEFAULT_REWARD,
    RulesSource,
    checked_learner_seat,
    checked_players,
    checked_reward,
    final_rewards,
    observation_box,
    options_setup,
    render_view,
    rules_from,
)
from .engine import DEFAULT_ENGINE, InterpreterView, checked_engine, legal_mask, observation32, say_compiling, start

Policy = Callable[[np.ndarray, np.ndarray], Any]       # (observation, action_mask) -> an action id
Opponent = str | Policy


class Pool:
    """Policies to play the opponents' seats, one drawn for each seat at every reset (uniformly,
    from the environment's own seeded generator): self-play against past versions of a learner,
    `pool.add(snapshot)` as training goes on. A policy is a callable (observation, action_mask)
    -> action id, or an agent spec."""

    def __init__(self, policies: Sequence[Opponent] = ()) -> None:
        self.policies: list[Opponent] = []
        for policy in policies:
            self.add(policy)

    def add(self, policy: Opponent) -> None:
        """One more policy to draw from (an agent spec is checked now)."""
        self.policies.append(_checked_opponent(policy))

    def draw(self, rng: np.random.Generator) -> Opponent:
        """One policy, uniformly, from the env's generator (so a seeded reset draws the same)."""
        if not self.policies:
            raise AmunreError("the pool of opponents is empty: add a policy first")
        return self.policies[int(rng.integers(len(self.policies)))]


class AmunreGymEnv(gymnasium.Env):
    """One game at a time, from the learner's seat; `game` is the engine's Game being played."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}     # fps: for a viewer that plays the text back

    def __init__(self, rules: RulesSource | None = None, players: int | None = None, seat: int | None = 0,
                 opponents: Opponent | Sequence[Opponent] | Pool = "random", reward: str = DEFAULT_REWARD,
                 illegal_reward: float | None = -1.0, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, engine: str = DEFAULT_ENGINE) -> None:
        """`seat`: the learner's seat, or None for a seat drawn at every reset. `opponents`: one
        opponent for every other seat, a list of one per other seat (specs may be one text,
        comma-separated as on the command line), or a Pool. `engine`: "auto" (the compiled
        engine where it plays the rules), "compiled" or "interpreter"."""
        if rules is None:
            raise AmunreError("amunre/game-v0 plays the rules file given as rules=: gymnasium.make('amunre/game-v0', "
                              "rules='path/to/file.yaml'); a shipped file has its own id, amunre/<name>-v0")
        self.rules = rules_from(rules)
        self.players = checked_players(self.rules, players)
        self.seat_given = checked_learner_seat(seat, self.players)
        self.reward = checked_reward(reward)
        if illegal_reward is not None and (isinstance(illegal_reward, bool) or not isinstance(illegal_reward, Real)):
            raise AmunreError(f"illegal_reward is a number or None (raise), not {shown_repr(illegal_reward, 40)}")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise AmunreError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.setup = check_setup(self.rules, self.players, options_setup(options))
        self.opponents = _opponents(opponents, self.players - 1)
        self.engine = checked_engine(engine)
        self.actions = self.rules.actions.size
        self.observation_space = observation_box(self.rules)
        self.action_space = spaces.Discrete(self.actions)
        # A game from the start, so that `game` (its rules, layout, action dicts) can be read
        # before the first reset; reset() starts the game that is played.
        self.seat = seat if seat is not None else 0
        self.game: Any = start(self.rules, self.players, 0, self.setup, self.engine)   # a Game or a CompiledGame
        # Our bots that look ahead do it on the compiled engine where it plays the game: a learner
        # plays thousands of games, worth its one compile (about half a minute, then kept). Left
        # to itself a bot compiles nothing and looks ahead in the interpreter, 20 times slower.
        self._bots_engine = "auto" if isinstance(self.game, Game) else "compiled"
        self._view = InterpreterView()                   # an interpreter Game of it, for our searching agents
        self._shown = InterpreterView(events=True)       # and with its event log, to render
        self.ended = True                                # until reset(): no step before it
        self._playing: list[Any] = []                    # per seat: the opponent playing it (None: the learner)

    # ---- the game -------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, drawn from the environment's generator (seeded by `seed`): its deal, the
        learner's seat when it is drawn, the opponents from a pool and their own seeds. The
        opponents play until the learner is to move. Gymnasium's `options` are not used: the
        rules' options are given to the environment."""
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(self.players)) if self.seat_given is None else self.seat_given
        self.game = start(self.rules, self.players, int(rng.integers(2**62)), self.setup, self.engine,
                          events=self.render_mode is not None)
        drawn = iter(self.opponents.draw(rng) for _ in range(self.players - 1)) if isinstance(self.opponents, Pool) \
            else iter(self.opponents)
        self._playing = [None if other == self.seat
                         else _player(next(drawn), int(rng.integers(2**31)), self._bots_engine)
                         for other in range(self.players)]
        if any(getattr(bot, "engine", None) == "compiled" for bot in self._playing):
            from ..tools.agents.machine_lookahead import lookahead  # numba: only where the game is compiled
            lookahead(self.rules, compile=True, notice=say_compiling)     # compiled now, saying so, if not kept
        self._play_opponents()
        self.ended = self.game.over
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if self.ended:
            raise AmunreError("no game is being played: reset() starts one (and the next, once one is over)")
        try:
            game.apply_id(action)                  # refuses, the game unchanged, what is no legal id
        except IllegalAction:
            if self.illegal_reward is None:
                raise
            self.ended = True                      # the learner's game ends here, the engine's does not
            info = self._info()
            info["illegal"] = shown_repr(action, 40)
            return self._observation(), self.illegal_reward, True, False, info
        self._play_opponents()
        reward = 0.0
        self.ended = game.over
        info = self._info()
        if game.over:
            result = game.result()
            reward = final_rewards(result, self.reward)[self.seat]
            info["result"] = result
        return self._observation(), reward, game.over, False, info

    def _play_opponents(self) -> None:
        game = self.game
        while not game.over and game.to_move != self.seat:
            seat = game.to_move
            assert seat is not None                 # a game not over has a seat to move
            opponent = self._playing[seat]
            if callable(opponent):
                _play_policy(opponent, game, seat)
            elif isinstance(opponent, RandomAgent):         # the integer API is all it reads
                game.apply_id(choose_id(opponent, game))
            else:
                game.apply_id(choose_id(opponent, self._view.at(game)))

    def _observation(self) -> np.ndarray:
        return observation32(self.game, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as 0/1 over the whole action space (all 0 once the
        game is over)."""
        if not self.ended and self.game.to_move == self.seat:
            return legal_mask(self.game, self.actions)
        return np.zeros(self.actions, np.int8)

    # ---- showing it -----------------------------------------------------------------------------
    def render(self) -> str | None:
        """`ansi`: the text of what the learner's seat may see (the final scores once over)."""
        if self.render_mode is None:
            return None
        return render_view(self._shown.at(self.game), self.seat)


def _player(opponent: Opponent, seed: int, engine: str) -> Any:
    """What plays a seat for one game: one of our agents made afresh from its spec (its own
    seed, so a game replays; an agent is not callable; one that looks ahead does it on
    `engine`, with the same choices on either), or the callable policy itself."""
    return make_agent(opponent, seed, engine) if isinstance(opponent, str) else opponent


def _play_policy(policy: Policy, game: Any, seat: int) -> None:
    """Make the move a callable policy chooses from its seat's own view; IllegalAction naming
    the seat if it is no legal id (an opponent's mistake is not the learner's)."""
    chosen = policy(observation32(game, seat), legal_mask(game, game.rules.actions.size))
    try:
        game.apply_id(chosen)
    except IllegalAction as error:
        raise IllegalAction(f"the opponent in seat {seat}: {error}", chosen) from None


def _checked_opponent(opponent: Any) -> Opponent:
    """An opponent checked when it is given, not when the first game needs it."""
    if isinstance(opponent, str):
        try:
            check_spec(opponent)
        except ValueError as error:
            raise AmunreError(str(error)) from None
        return opponent
    if callable(opponent):
        return opponent
    raise AmunreError(f"an opponent is an agent spec (e.g. 'greedy') or a callable (observation, action_mask) "
                      f"-> action id, not {shown_repr(opponent, 40)}")


def _opponents(given: Any, seats: int) -> list[Opponent] | Pool:
    """The opponents as one per other seat (or the Pool they are drawn from)."""
    if isinstance(given, Pool):
        return given
    if isinstance(given, str):
        given = split_specs(given)
    elif callable(given):
        given = [given]
    if not isinstance(given, Sequence) or not given:
        raise AmunreError(f"opponents are an agent spec, a callable, a list of them or a Pool, "
                          f"not {shown_repr(given, 40)}")
    found = [_checked_opponent(opponent) for opponent in given]
    if len(found) == 1:
        return found * seats
    if len(found) != seats:
        raise AmunreError(f"{len(found)} opponents given for {seats} other seats: give one, or one per other seat")
    return found


def register_shipped() -> list[str]:
    """Register `amunre/<name>-v0` for every shipped rules file (and `amunre/game-v0`, which
    takes `rules=`); the ids registered."""
    ids = []
    for name in (*shipped_names(), "game"):
        env_id = f"amunre/{name}-v0"
        if env_id not in gymnasium.registry:
            kwargs = {} if name == "game" else {"rules": name}
            gymnasium.register(id=env_id, entry_point=f"{__name__}:AmunreGymEnv", kwargs=kwargs)
        ids.append(env_id)
    return ids


REGISTERED = register_shipped()
