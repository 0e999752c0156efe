"""Every shipped rules file as an OpenSpiel game (`pip install 'amunre[openspiel]'`).

    import pyspiel
    from amunre.adapters.openspiel import short_name   # registers every shipped file
    game = pyspiel.load_game(short_name(NAME), {"players": 3})   # "amunre_" + NAME, '-' as '_'

`register(rules, short_name)` registers any other rules file (a house rule, your own).

Parameters: `players`, `reward` (`win_loss`, the default, `win_loss_share` or `points`:
adapters/common.py),
and each option of the rules file under its own name; a bad one raises `pyspiel.SpielError`
(`ParameterError`, an AmunreError too). Actions are the engine's integer ids.
Chance is explicit (adapters/explicit.py): every random draw of the engine (each step of a
shuffle, the start player) is a chance node with uniform outcomes 0..n-1. Observation tensor
and string: the engine's `observation_tensor(seat)` and `observation(seat)` (as JSON) of the
position the seats see (at a chance node inside an action, the position it started from).
Information state: the string is a 128-bit digest of everything the seat has seen, its
observation after every whole move and its own actions (perfect recall: two histories give
the same string exactly when the seat cannot tell them apart, collisions aside); the tensor
is the observation tensor (the position as the seat sees it now; bounded, for networks). A
state serialises as the rules (path and digest), players, set-up and moves, and is restored
by replaying them. `resample_from_infostate` draws anew what a seat cannot see
(tools/determinize.py), so OpenSpiel's search that samples worlds (ISMCTSBot) runs as it is.

Parameter `engine` ("auto" by default, "compiled" or "interpreter"): the actions that draw
nothing are played on the compiled engine where it plays the rules file, the set-up and the
actions that draw (the chance nodes) by the interpreter (adapters/explicit.py). The game is the
same on either: the same chance nodes, legal actions, tensors, strings and returns. The
observation and information-state strings and `action_to_string` read the interpreter's Game
of the position, brought up to date when they are asked for.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as error:        # pragma: no cover - the message is the point
    raise ImportError("amunre's OpenSpiel games need OpenSpiel: pip install 'amunre[openspiel]'") from error

from ..interpreter.base.errors import AmunreError
from ..interpreter.base.limits import MAX_DECISIONS_PER_STEP, MAX_PASSES
from ..interpreter.load.shipped import shipped_names, shipped_path
from ..interpreter.model import Rules
from ..interpreter.play.observe import observation_layout
from ..tools.game_length import most_decisions
from .common import (
    DEFAULT_REWARD,
    ZERO_SUM_REWARDS,
    RulesSource,
    checked_players,
    checked_reward,
    default_players,
    final_rewards,
    reward_bounds,
    rules_from,
)
from .engine import DEFAULT_ENGINE, Stopped, checked_engine, observation32, public32
from .explicit import ExplicitGame

ADAPTER_PARAMS = ("players", "reward", "engine")
_REGISTERED: dict[str, Any] = {}          # short name -> its rules


def _most_actions(rules: Rules, players: int) -> int:
    """The most actions a game of this many players can take, whatever is decided: the bound the
    rules give (tools/game_length.py); where they give none, the engine's limit (it refuses more
    decisions in one phase, and a repeat without a fixed number of passes counts the most a fixed
    one may have), at most a C int."""
    bound = most_decisions(rules, players)
    if bound is None:
        bound = rules.flow.most_phases(MAX_PASSES) * MAX_DECISIONS_PER_STEP
    return min(bound, 2**31 - 1)


def short_name(file_name: str) -> str:
    """`amunre_` and the rules file's name, hyphens as underscores (OpenSpiel's names)."""
    return "amunre_" + Path(file_name).stem.replace("-", "_")


def register(rules: RulesSource, name: str | None = None) -> str:
    """Register a rules file (loaded Rules, a path or a shipped name) as an OpenSpiel game;
    returns its short name (`short_name` of its file unless `name` is given)."""
    rules = rules_from(rules)
    name = name or short_name(rules.path)
    known = _REGISTERED.get(name)
    if known is not None and known.digest != rules.digest:
        raise AmunreError(f"another rules file is registered as {name}")
    clash = sorted(set(rules.options) & set(ADAPTER_PARAMS))
    if clash:
        raise AmunreError(f"the option(s) {', '.join(clash)} would hide the adapter's own parameters")
    _REGISTERED[name] = rules
    # One class per game, as OpenSpiel's own Python games register theirs: a class outlives the
    # interpreter's shutdown, where a closure would be freed too late and crash it.
    game_class = type(f"AmunreGame_{name}", (AmunreGame,), {"rules": rules, "short_name": name})
    pyspiel.register_game(_game_type(rules, name, DEFAULT_REWARD), game_class)
    return name


def _game_type(rules: Rules, name: str, reward: str) -> pyspiel.GameType:
    spec: dict[str, Any] = {"players": default_players(rules), "reward": DEFAULT_REWARD, "engine": DEFAULT_ENGINE}
    spec.update({option: rules.options[option].default for option in rules.options})
    return pyspiel.GameType(
        short_name=name, long_name=f"amunre: {rules.title or rules.id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if reward in ZERO_SUM_REWARDS
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players, min_num_players=rules.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)


def max_draw(rules: Rules) -> int:
    """The most outcomes one draw can have: a shuffle holds at most every card (or every place)
    of the rules; the start player is one of the seats."""
    return max(len(rules.place_ids), sum(card.count for card in rules.cards.values()), rules.max_players)


class ParameterError(pyspiel.SpielError, AmunreError):
    """A game asked for with a bad parameter (a player count the rules do not allow, an unknown
    reward, option or option value): OpenSpiel's SpielError, as its own games raise, and an
    AmunreError, as the rest of amunre raises."""


class AmunreGame(pyspiel.Game):
    """A registered rules file (each has its own subclass, which sets `rules` and `short_name`)."""
    rules: Rules
    short_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        try:
            self._made(dict(params or {}))
        except ParameterError:
            raise
        except AmunreError as error:        # a bad parameter, said as OpenSpiel's games say it
            raise ParameterError(str(error)) from None

    def _made(self, params: dict[str, Any]) -> None:
        """The game of these parameters; AmunreError for a bad one (the caller makes it a SpielError)."""
        rules, name = self.rules, self.short_name
        players = checked_players(rules, params.get("players", default_players(rules)))
        self.reward = checked_reward(params.get("reward", DEFAULT_REWARD))
        self.engine = checked_engine(params.get("engine", DEFAULT_ENGINE))
        self.setup = {"options": {o: params[o] for o in rules.options if o in params}} if rules.options else {}
        unknown = sorted(set(params) - set(ADAPTER_PARAMS) - set(rules.options))
        if unknown:
            raise ParameterError(f"{name} has no parameter {', '.join(unknown)}")
        least, most = reward_bounds(self.reward, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.actions.size, max_chance_outcomes=max_draw(rules), num_players=players,
            min_utility=least, max_utility=most, utility_sum=0.0 if self.reward in ZERO_SUM_REWARDS else None,
            max_game_length=_most_actions(rules, players))
        super().__init__(_game_type(rules, name, self.reward), info, params)
        # The set-up up to its first draw, copied by every new state (OpenSpiel makes one for
        # each clone and each tensor shape it asks for); made now, it checks the options too.
        self.start = ExplicitGame(rules, players, self.setup, self.engine)

    def new_initial_state(self) -> AmunreState:
        return AmunreState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AmunreObserver:
        return AmunreObserver(self, iig_obs_type, params)


class AmunreState(pyspiel.State):
    """A position of an explicit-chance game; all it holds is plain data or copies cheaply."""

    def __init__(self, game: AmunreGame) -> None:
        super().__init__(game)
        self._play = game.start.clone()
        self._reward = game.reward
        self._recall: _Recall | None = None      # made when an information state is first asked for
        self._tensors = _Tensors()

    def current_player(self) -> int:
        if self._play.over:
            return pyspiel.PlayerId.TERMINAL
        if self._play.is_chance:
            return pyspiel.PlayerId.CHANCE
        seat = self._play.to_move
        assert seat is not None             # neither over nor at a chance node: a seat decides
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._play.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._play.chance_size
        if n > self.get_game().max_chance_outcomes():
            raise AmunreError(f"a draw of {n} outcomes exceeds the game's max_chance_outcomes")
        return [(outcome, 1.0 / n) for outcome in range(n)]

    def _apply_action(self, action: int) -> None:
        actor = self._play.to_move
        self._play.apply(int(action))
        if self._recall is not None:
            self._recall.fold(self._play, actor, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        game = self._play.game
        return json.dumps(game.action_from_id(action) if game is not None else action, separators=(",", ":"))

    def is_terminal(self) -> bool:
        return self._play.over

    def returns(self) -> list[float]:
        if not self._play.over:
            return [0.0] * self._play.players
        return final_rewards(self._play.result(), self._reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AmunreState:
        """A state `player_id` cannot tell from this one (the same information state string,
        observation string and tensors for that seat), with everything it cannot see drawn anew:
        other hands, the decks' order, secret choices (tools/determinize.py). OpenSpiel's
        ISMCTSBot searches such states. The draws come from a generator seeded by one call of
        `probability_sampler` (a float in [0, 1), as OpenSpiel passes it), so the same sampler
        gives the same state. The new state plays on (its later draws are chance nodes), but
        it has no past: its `history()` is empty, and it cannot be serialised."""
        if type(player_id) is not int or not 0 <= player_id < self._play.players:
            raise AmunreError(f"a seat of this game is a whole number from 0 to {self._play.players - 1}, "
                              f"not {player_id!r}")
        value = probability_sampler()
        if not 0.0 <= value < 1.0:
            raise AmunreError(f"the probability sampler gives a float in [0, 1), not {value!r}")
        guess = AmunreState(self.get_game())
        guess._play = self._play.guess(player_id, random.Random(int(value * 2**53)))
        guess._recall = self.recall().guessed(player_id, guess._play)
        return guess

    def tensor(self, seat: int | None) -> np.ndarray:
        """The engine's observation tensor of `seat` for the position the seats see, worked out
        once per position: OpenSpiel asks for both tensors, and its rl_environment for every
        seat's at every step, each a full pass over the position."""
        position = self._play.position
        assert position is not None         # the set-up's draws show nothing: the observer says zeros
        try:
            return self._tensors.of(position, seat)
        except Stopped:                     # the compiled engine's machine stopped: the interpreter's
            return self._tensors.of(self._play.game, seat)

    def recall(self) -> _Recall:
        if self._recall is None:
            self._recall = _Recall.replayed(self._play)
        return self._recall

    def __str__(self) -> str:
        play = self._play
        pending = f"chance: {play.chance_size} outcomes, action {play.pending_action()}\n" if play.is_chance else ""
        position = "set-up" if play.game is None else json.dumps(play.game.state.to_json(), sort_keys=True)
        return f"{pending}moves {len(play.moves)}\n{position}"


class _Recall:
    """Per seat, a running digest of what it has seen: its observation after every whole move
    (the engine's observation, as canonical JSON) and its own actions."""

    def __init__(self, players: int) -> None:
        self.hashes = [hashlib.blake2b(digest_size=16) for _ in range(players)]

    @classmethod
    def replayed(cls, play: ExplicitGame) -> _Recall:
        recall = cls(play.players)
        again = ExplicitGame(play.rules, play.players, play.setup, engine="interpreter")   # observed at every move
        for move in play.moves:
            actor = again.to_move
            again.apply(move)
            recall.fold(again, actor, move)
        return recall

    def fold(self, play: ExplicitGame, actor: int | None, move: int) -> None:
        """Take in a move just made (`actor`: the seat that chose it, None for chance)."""
        if actor is not None:
            self.hashes[actor].update(b"action %d;" % move)
        if not play.is_chance:
            game = play.game
            assert game is not None         # outside a chance node there is always a position
            for seat, digest in enumerate(self.hashes):
                digest.update(json.dumps(game.observation(seat), sort_keys=True).encode())

    def guessed(self, seat: int, guess: ExplicitGame) -> _Recall:
        """The digests of a guess at `seat`'s information (ExplicitGame.guess): the seat's own
        goes on from this one, so a search finds its own information states again. Others'
        past in the guess is not known: theirs start from the seat's digest and what they see
        in the guess, so that guesses that give another seat other cards give it other
        information states (and none shows what it saw in the real game)."""
        recall = _Recall(guess.players)
        game = guess.game
        assert game is not None             # a guess is made where there is a position
        for other, digest in enumerate(recall.hashes):
            if other == seat:
                recall.hashes[other] = self.hashes[seat].copy()
            else:
                digest.update(b"guess of seat %d: %s;" % (seat, self.hashes[seat].digest()))
                digest.update(json.dumps(game.observation(other), sort_keys=True).encode())
        return recall

    def string(self, seat: int) -> str:
        return self.hashes[seat].hexdigest()

    def __deepcopy__(self, memo: dict) -> _Recall:
        copy = _Recall.__new__(_Recall)
        copy.hashes = [digest.copy() for digest in self.hashes]
        return copy

    def __reduce__(self) -> tuple:
        return (type(None), ())          # not saved: a restored state works it out again


class _Tensors:
    """The observation tensors of one position, by seat. A position (ExplicitGame.position: a
    Game, or a compiled position) is an object the adapter never changes (ExplicitGame moves on
    to a new one), so the cache holds as long as the state shows the same one: through the
    chance nodes inside an action too. A copy of
    the state (OpenSpiel's clone deep-copies every attribute) or a saved one starts empty: it
    is quicker to work a tensor out again than to copy it."""

    def __init__(self) -> None:
        self.position: Any = None
        self.by_seat: dict[int | None, np.ndarray] = {}

    def of(self, position: Any, seat: int | None) -> np.ndarray:
        """The seat's tensor (None: the public one)."""
        if position is not self.position:
            self.position, self.by_seat = position, {}
        found = self.by_seat.get(seat)
        if found is None:
            found = self.by_seat[seat] = observation32(position, seat) if seat is not None else public32(position)
        return found

    def __deepcopy__(self, memo: dict) -> _Tensors:
        return _Tensors()

    def __reduce__(self) -> tuple:
        return (_Tensors, ())


class AmunreObserver:
    """OpenSpiel's Python observer: the engine's tensor in its named pieces, and a string. It
    observes for one seat (its private and the public information), or, asked for no private
    information, the public information alone (the engine's public observation: the same for
    every player, as OpenSpiel's public observers are)."""

    def __init__(self, game: AmunreGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.public = kind.private_info == pyspiel.PrivateInfoType.NONE
        if not kind.public_info or kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS or (
                self.public and kind.perfect_recall):
            raise ValueError("amunre observes for one seat (its private and the public information), or the "
                             "public information alone (without perfect recall)")
        self.perfect_recall = kind.perfect_recall
        self.players = game.num_players()
        layout = [piece for piece in observation_layout(game.rules) if piece["size"]]   # OpenSpiel's views
        self.tensor = np.zeros(sum(piece["size"] for piece in layout), np.float32)
        self.dict = {}
        for piece in layout:
            start = piece["offset"]
            self.dict[piece["name"]] = self.tensor[start:start + piece["size"]].reshape(piece["shape"])

    def set_from(self, state: AmunreState, player: int) -> None:
        if state._play.position is None or not 0 <= player < self.players:      # the set-up's draws: nothing to see
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.tensor(None if self.public else player)

    def string_from(self, state: AmunreState, player: int) -> str:
        if self.perfect_recall:
            return state.recall().string(player)
        game = state._play.game
        if game is None:
            return "set-up"
        return json.dumps(game.public_observation() if self.public else game.observation(player), sort_keys=True)


def _register_shipped() -> None:
    for name in shipped_names():
        path = shipped_path(name)
        assert path is not None             # a name shipped_names lists is a shipped file
        register(path, short_name(name))


_register_shipped()
