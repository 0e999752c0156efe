"""A game on the compiled engine, through the integer API the bots, simulations and adapters
use (`legal_action_ids`, `apply_id`, `clone`, `over`, `to_move`, `result`), and its way back
to an interpreter `Game` (`to_game`: the same seed, set-up and actions, replayed).

Where the machine stops (a rule failing as it runs, a number past its range: compiled/core.py
`MachineStop`), the game goes on as an interpreter game from the same seed and actions, so it
stays the interpreter's game in every case; `engine` says which plays it now.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from ..base.errors import AmunreError, IllegalAction, shown_value
from ..game import Game, new_game
from ..model import Rules
from ..play.denominations import payout
from ..play.setup import check_start
from . import hubs, ops
from .core import MachineStop
from .entry import APPLY, RESULT, START, TENSOR
from .lower import Layout, Lowering, lower
from .not_compiled import NotCompiled

_MASK = (1 << 64) - 1
_OVER, _TO_MOVE, _NLEGAL = ops.S_OVER, ops.S_TO_MOVE, ops.S_NLEGAL     # read at every step: no lookups
NATIVE_SETUP = frozenset({"start_player", "options", "resources"})


class CompiledRules:
    """A Rules lowered once for the compiled engine: its tables, the layout of a position, and
    the scratch room its machine code works in (one per process: the machine is not shared
    between threads)."""

    def __init__(self, rules: Rules, notice: Callable[[str], None] | None = None) -> None:
        self.rules = rules
        lowering, self.T = lower(rules)
        self.lowering: Lowering = lowering
        self.layout: Layout = lowering.layout
        self.R = np.zeros(1, dtype=np.int64)
        self.tensor_out = np.zeros(int(self.T[int(self.T[ops.TH_TENSOR]) + ops.TN_SIZE]), dtype=np.int64)
        kinds = {int(self.T[int(self.T[ops.TH_PHASE]) + p * ops.PHASE_FIELDS + ops.PHASE_MECH])
                 for p in range(int(self.T[ops.TH_PHASES]))}
        self.parts = hubs.parts_for(kinds)
        hubs.prepare(self.parts, notice)
        H = hubs.table(kinds)
        self.M = np.zeros(int(self.T[ops.TH_H]) + len(H), dtype=np.int64)     # the tables, the scratch room, H
        self.M[:len(self.T)] = self.T
        self.M[int(self.T[ops.TH_H]):] = H
        self.entry = hubs.machine()
        self.step = hubs.unchecked(self.entry)          # for CompiledGame.apply_id, which checks its id
        self.size = int(self.T[ops.TH_S_SIZE])
        self.legal_at = int(self.T[ops.TH_S_LEGAL])
        self.action_count = rules.actions.size
        self.words = dict(lowering.words)
        self.keys = list(lowering.keys)

    def observing(self) -> None:
        """Make the machine answer TENSOR (its part compiled, or loaded, the first time): only
        callers that read tensors pay for that part (adapters, vector environments, tests)."""
        slot, address = hubs.tensor_address()
        self.M[int(self.T[ops.TH_H]) + slot] = address

    def call(self, S: np.ndarray, command: int, arg: int, R: np.ndarray | None = None) -> int:
        """One command of the machine (compiled/entry.py) on a state."""
        return self.entry(S, self.M, self.R if R is None else R, command, arg)

    def state(self, players: int, seed: int, setup: dict[str, Any]) -> np.ndarray:
        """A new game's state before its set-up runs: players, the generator, options, resources,
        and each seat's start cards of every resource that may be held as cards."""
        rules, S = self.rules, np.zeros(self.size, dtype=np.int64)
        S[ops.S_PLAYERS] = players
        S[ops.S_RNG] = np.uint64(seed & _MASK).view(np.int64)
        S[ops.S_TO_MOVE] = -1
        options = {name: opt.default for name, opt in rules.options.items()}
        options.update(setup.get("options", {}))
        for i, name in enumerate(rules.options):
            S[int(self.T[ops.TH_S_OPTIONS]) + i] = self.lowering.value(options[name])
        nres = len(self.lowering.resources)
        start = {name: [amount] * players for name, amount in rules.resources.items()}
        for name, values in setup.get("resources", {}).items():
            start[name][:len(values)] = values
        at = int(self.T[ops.TH_S_RES])
        for r, name in enumerate(self.lowering.resources):
            for seat in range(players):
                S[at + seat * nres + r] = start[name][seat]
        given = setup.get("resources", {})
        for held, row in zip(rules.denominations.values(), self.lowering.held_rows):
            for seat in range(players):         # as deal_held_cards: the machine keeps them if `when` holds
                amounts = given.get(held.resource, [])
                cards = payout(held.values, amounts[seat]) if seat < len(amounts) else held.start
                at = row[ops.HELD_S] + seat * len(held.values)
                S[at:at + len(held.values)] = [cards.count(value) for value in held.values]
        return S


_COMPILED: WeakKeyDictionary[Rules, CompiledRules | NotCompiled] = WeakKeyDictionary()


def parts_of(rules: Rules) -> list[str]:
    """The compiled parts a rules file needs (hubs.parts_for), without compiling them;
    NotCompiled if the rules use something the compiled engine does not play."""
    found = _COMPILED.get(rules)
    if isinstance(found, CompiledRules):
        return found.parts
    if isinstance(found, NotCompiled):
        raise found
    _, T = lower(rules)
    kinds = {int(T[int(T[ops.TH_PHASE]) + p * ops.PHASE_FIELDS + ops.PHASE_MECH]) for p in range(int(T[ops.TH_PHASES]))}
    return hubs.parts_for(kinds)


def compiled(rules: Rules, notice: Callable[[str], None] | None = None) -> CompiledRules:
    """The rules lowered for the compiled engine (once per Rules); NotCompiled if they use
    something it does not play. `notice` is told when the machine code must be compiled first
    (a minute or so, once for every rules file: then it is kept)."""
    found = _COMPILED.get(rules)
    if found is None:
        try:
            found = CompiledRules(rules, notice)
        except NotCompiled as error:
            found = error
        _COMPILED[rules] = found
    if isinstance(found, NotCompiled):
        raise found
    return found


class CompiledGame:
    """One game on the compiled engine; an interpreter Game takes over where the machine stops."""

    def __init__(self, machine: CompiledRules, S: np.ndarray, players: int, seed: int, setup: dict[str, Any],
                 history: list[int] | None = None) -> None:
        if S.dtype != np.int64 or not S.flags.c_contiguous:      # what machine.step takes unchecked
            raise ValueError("a compiled game's state is one contiguous row of int64")
        self.machine = machine
        self.rules = machine.rules
        self.S = S
        self.players = players
        self.seed = seed
        self.setup = setup
        self.history: list[int] = history if history is not None else []
        self.fallback: Game | None = None
        self._words = memoryview(S.data)            # S's numbers read as Python ints, fast
        self._legal_at = machine.legal_at
        self._replayed: tuple[int, Game] | None = None

    # ---- the integer API --------------------------------------------------------------------------
    @property
    def engine(self) -> str:
        return "interpreter" if self.fallback is not None else "compiled"

    @property
    def over(self) -> bool:
        return self.fallback.over if self.fallback is not None else self._words[_OVER] != 0

    @property
    def to_move(self) -> int | None:
        if self.fallback is not None:
            return self.fallback.to_move
        seat = self._words[_TO_MOVE]
        return None if seat < 0 else seat

    def num_distinct_actions(self) -> int:
        return self.rules.actions.size

    def legal_action_ids(self) -> list[int]:
        if self.fallback is not None:
            return self.fallback.legal_action_ids()
        words, at = self._words, self._legal_at
        return words[at:at + words[_NLEGAL]].tolist()

    def apply_id(self, action_id: int) -> None:
        if self.fallback is not None:
            self.fallback.apply_id(action_id)
            self.history.append(action_id)
            return
        machine = self.machine
        if type(action_id) is not int:
            action_id = _whole(action_id, machine.action_count)
        if not 0 <= action_id < machine.action_count:
            raise IllegalAction(f"action ids are 0 to {machine.action_count - 1}", action_id)
        try:
            legal = machine.step(self.S, machine.M, machine.R, APPLY, action_id)
        except MachineStop:
            self.history.append(action_id)
            self._take_over(self.history)
            return
        if not legal:
            more = " ..." if self.S[ops.S_NLEGAL] > 12 else ""
            raise IllegalAction(f"{shown_value(action_id, 60)} is not among the legal action ids "
                                f"{self.legal_action_ids()[:12]}{more}", action_id)
        self.history.append(action_id)

    def _take_over(self, history: list[int]) -> None:
        """The interpreter plays on from the seed, the set-up and the actions; an action the
        interpreter refuses (a rule failing) raises here as it would have there."""
        game = new_game(self.rules, self.players, self.seed, self.setup, events=False)
        for i, action in enumerate(history):
            try:
                game.apply_id(action)
            except AmunreError:
                del self.history[i:]
                self.fallback = game
                raise
        self.fallback = game

    def clone(self) -> CompiledGame:
        copy = CompiledGame(self.machine, self.S.copy(), self.players, self.seed, self.setup, list(self.history))
        if self.fallback is not None:
            copy.fallback = self.fallback.clone(events=False)
        return copy

    def result(self) -> dict[str, Any]:
        """Scores, winners (after tie-breaks), the resources the rules report, points by source:
        as Game.result gives them."""
        if self.fallback is not None:
            return self.fallback.result()
        found = machine_results(self.machine, self.S[np.newaxis], self.players)[0]
        if found is not None:
            return found
        self._take_over(self.history)
        assert self.fallback is not None
        return self.fallback.result()

    def observation_tensor(self, seat: int) -> list[float]:
        """What the seat may see, as numbers, in the layout of Game.observation_layout()."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise AmunreError(f"a seat of this game is a whole number from 0 to {self.players - 1}, "
                              f"not {shown_value(seat, 40)}")
        return self.tensor(seat).tolist()

    def public_observation_tensor(self) -> list[float]:
        """What every seat sees, as numbers (the observing seat's one-hot and own cards all zero)."""
        return self.tensor(-1).tolist()

    def tensor(self, seat: int) -> np.ndarray:
        """The observation tensor of a seat (-1: the public view) as a float64 array."""
        if self.fallback is not None:
            game = self.fallback
            return np.array(game.observation_tensor(seat) if seat >= 0 else game.public_observation_tensor())
        machine = self.machine
        size = machine.call(self.S, TENSOR, seat, machine.tensor_out)
        if size == -2:                      # the first tensor asked of these rules
            machine.observing()
            size = machine.call(self.S, TENSOR, seat, machine.tensor_out)
        return machine.tensor_out[:size].astype(np.float64)

    # ---- the rest of the Game API, answered by the interpreter --------------------------------------
    def as_game(self) -> Game:
        """An interpreter Game at this position (replayed once per position asked about): what
        answers the API a compiled game has no machine code for (dicts, observations, saves)."""
        if self.fallback is not None:
            return self.fallback
        known = self._replayed
        if known is None or known[0] != len(self.history):
            known = self._replayed = (len(self.history), self.to_game(events=False))
        return known[1]

    def legal_actions(self) -> list[dict[str, Any]]:
        return self.as_game().legal_actions()

    def action_to_id(self, action: dict[str, Any]) -> int:
        return self.as_game().action_to_id(action)

    def action_from_id(self, action_id: int) -> dict[str, Any]:
        return self.as_game().action_from_id(action_id)

    def apply(self, action: dict[str, Any]) -> None:
        """Carry out an action given as a dict (its id found in this position)."""
        game = self.as_game()
        if action not in game.legal_actions():
            game.apply(action)              # raises IllegalAction, saying why
        self.apply_id(game.action_to_id(action))

    def __getattr__(self, name: str) -> Any:
        """Any other read of the Game API (observation, step, to_json...), from the interpreter."""
        if name.startswith("_") or name in ("machine", "rules", "S", "players", "seed", "setup", "history",
                                             "fallback"):
            raise AttributeError(name)
        return getattr(self.as_game(), name)

    def to_game(self, events: bool = True) -> Game:
        """The same game as an interpreter Game (its log, `explain`, `serve`): replayed from the
        seed, the set-up and the actions."""
        game = new_game(self.rules, self.players, self.seed, self.setup, events=events)
        for action in self.history:
            game.apply_id(action)
        return game


def new_compiled_game(rules: Rules, players: int = 4, seed: int = 0,
                      setup: dict[str, Any] | None = None) -> CompiledGame:
    """A new game on the compiled engine (NotCompiled if the rules, or this set-up, are not
    compiled: then play it with interpreter.game.new_game)."""
    machine = compiled(rules)
    setup = check_start(rules, players, seed, setup)
    extra = set(setup) - NATIVE_SETUP
    if extra:
        raise NotCompiled(f"a set-up with {', '.join(sorted(extra))}")
    S = machine.state(players, seed, setup)
    game = CompiledGame(machine, S, players, seed, dict(setup))
    try:
        machine.call(S, START, setup.get("start_player", -1))
    except MachineStop:
        game._take_over([])
    return game


def machine_results(machine: CompiledRules, states: np.ndarray, players: int) -> list[dict[str, Any] | None]:
    """The results of ended games (their states: rows of one player count) as Game.result gives
    them: scores, winners after tie-breaks, the resources the rules report, points by source;
    None for a game whose result the machine cannot read (a number past its range), which a
    caller holding its actions hands over to the interpreter and one without them (a vector
    environment) cannot. Read for all the rows at once, only nonzero points by source made
    Python's numbers: a vector environment reads several a call, and one game at a time that was
    a ninth of its call (82 us a game, Python's own data out of the cache after the machine's
    call); together, about half that."""
    rules, lowering, T = machine.rules, machine.lowering, machine.T
    width = 2 + len(rules.winner.tiebreaks)
    R = np.zeros(players * width, dtype=np.int64)
    found: list[dict[str, Any] | None] = []
    for row in states:
        try:
            machine.call(row, RESULT, 0, R)
        except MachineStop:
            found.append(None)
            continue
        values = R.tolist()
        found.append({"scores": values[0::width], "winners": winners(values, players)})
    nres, nkeys = len(lowering.resources), int(T[ops.TH_KEYS])
    resources_at, sources_at = int(T[ops.TH_S_RES]), int(T[ops.TH_S_SOURCES])
    amounts = states[:, resources_at:resources_at + players * nres].reshape(-1, players, nres)
    reported = {name: amounts[:, :, lowering.resources.index(name)].tolist() for name in rules.winner.report}
    records = states[:, sources_at:sources_at + players * nres * nkeys].reshape(-1, players, nres, nkeys)
    records = records[:, :, lowering.resources.index(rules.winner.score), :]
    breakdowns: list[list[dict[str, int]]] = [[{} for _ in range(players)] for _ in found]
    games, seats, sources = np.nonzero(records)
    for game, seat, source, amount in zip(games.tolist(), seats.tolist(), sources.tolist(),
                                          records[games, seats, sources].tolist()):
        breakdowns[game][seat][machine.keys[source]] = amount
    over = (states[:, ops.S_OVER] != 0).tolist()
    for g, result in enumerate(found):
        if result is not None:
            for name, seats_amounts in reported.items():
                result[name] = seats_amounts[g]
            result["breakdown"], result["over"] = breakdowns[g], over[g]
    return found


def winners(values: list[int], players: int) -> list[int]:
    """The seats that win, from the numbers RESULT writes: per seat its score, then the key it
    is ranked by (the score and the tie-breaks), `len(values) // players` numbers a seat."""
    width = len(values) // players
    keys = [tuple(values[s * width + 1:(s + 1) * width]) for s in range(players)]
    best = max(keys)
    return [s for s in range(players) if keys[s] == best]


def _whole(value: Any, size: int) -> int:
    if isinstance(value, bool):
        raise IllegalAction(f"an action id is a whole number from 0 to {size - 1}, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise IllegalAction(f"an action id is a whole number from 0 to {size - 1}, not {value!r}") from None
