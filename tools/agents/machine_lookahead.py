"""The one-step bots' lookahead on the compiled engine (interpreter/compiled/lookahead.py): a
guess of the hidden facts handed to the machine as its state array (compiled/pack.py), and
every action the bot weighs tried, played on and valued there, in one call a guess; or, where
the machine draws the guesses as Python does (tools/agents/machine_guesses.py), the guesses
drawn there too, a whole decision in one call (`decide`).

The bot makes its choice in Python as before (its generator stays its own, handed to the
machine as its state and taken back), so only what costs moves: the guesses, copies, steps
and valuations, about forty thousand a game of greedy. The numbers are the interpreter's to
the bit (the same draws, the same steps in the same order, the same sums of floats), hence
the same choices. Where the machine cannot take a guess (rules it does not compile, a
forecast of a mechanic it does not know, a region it cannot pack, a rule it stops at) the
caller values that guess in the interpreter, as before.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

import numpy as np

from ...interpreter.base.actions import PLAY, STANDING
from ...interpreter.compiled import hubs, ops
from ...interpreter.compiled.core import MachineStop
from ...interpreter.compiled.entry import APPLY
from ...interpreter.compiled.game import CompiledRules, compiled, parts_of
from ...interpreter.compiled.guess import DONE
from ...interpreter.compiled.lookahead import B_FIELDS, EVERY_SEAT, F_FIELDS, OWN
from ...interpreter.compiled.mt19937 import MT_WORDS
from ...interpreter.compiled.not_compiled import NotCompiled
from ...interpreter.compiled.pack import guess_base, pack, pack_guess
from ...interpreter.game import Game
from ...interpreter.mechanics.income import Income
from ...interpreter.mechanics.score import Score
from ...interpreter.model import Rules
from ..determinize import Guesses
from .forecast import forecasters
from .machine_memo import forecast_memo
from .value import WEIGHT_NAMES, Weights

NO_GUESSES = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.int64))
FORECASTING_KINDS = frozenset({ops.M_INCOME, ops.M_SCORE})      # the hubs that answer ops.CALL_FORECAST


@dataclass
class Lookahead:
    """A rules file's tables for the machine's lookahead, and its room (one per process)."""
    machine: CompiledRules
    F: np.ndarray           # the phases that forecast: phase number, mechanic kind, pays the score
    B: np.ndarray           # per action id: block number, may be a follow-up, is a follow-up
    rows: np.ndarray        # three positions' room
    MT: np.ndarray          # the bot's generator as seeded, and as the machine draws from it
    Q: np.ndarray           # the forecasts kept (tools/agents/machine_memo.py), for every game of these rules
    part: Callable[..., int]
    weight_rows: dict[Weights, np.ndarray] = field(default_factory=dict)   # weights as the machine reads them
    guess_rows: dict[int, np.ndarray] = field(default_factory=dict)       # by guesses drawn a call: their room
    base: tuple[Guesses, tuple[np.ndarray, set[str]]] | None = None    # the position guesses were drawn from, packed
    kept: WeakKeyDictionary[Game, Kept] = field(default_factory=WeakKeyDictionary)   # each game's row, kept

    def worths(self, guess: Game, ids: list[int], seat: int, weights: Weights, secret: bool,
               seed: int, drawn_from: Guesses | None = None) -> list[float | None] | None:
        """What each action is worth to the seat on this guess (None: not legal there), as
        tools/agents/heuristic.py values it; None where the machine cannot value the guess.
        `drawn_from`, the guesses it is one of, when there are several: their position is
        packed once, and each guess only where guesses differ (pack_guess)."""
        S, unknown = self.packed(guess, drawn_from)
        if not packable(unknown):
            return None
        out = np.empty(len(ids), dtype=np.float64)
        try:
            self.part(S, self.machine.M, self.machine.R, self.rows, np.asarray(ids, dtype=np.int64), out,
                      self.weight_row(weights), self.F, self.B, seat, int(secret), seed, self.MT, self.Q, *NO_GUESSES)
        except MachineStop:
            return None
        return _worths(out.tolist())

    def decide(self, base: np.ndarray, D: np.ndarray, seat: int, ids: list[int], weights: Weights, secret: bool,
               samples: int, MT: np.ndarray) -> list[list[float | None]] | None:
        """What each action is worth on each of `samples` guesses of the position `base` (its
        row with the hidden cards out, `D` its deal: machine_guesses.py MachineGuesses) drawn
        from the bot's generator in MT's row OWN (machine_generator.py; with a row after it per
        guess for a secret phase's generators), as heuristic.py `best` draws them: the guesses,
        then a seed per guess; the guesses drawn and valued in one call, and the generator moved
        on as the bot moves it. None, the generator as it was, where the machine cannot draw
        the guesses as Python does: the bot then decides in Python."""
        machine = self.machine
        G = self.guess_rows.get(samples)
        if G is None:
            G = self.guess_rows[samples] = np.zeros((samples + 1, machine.size), dtype=np.int64)
        X = np.zeros(5 * int(D[0]) + samples, dtype=np.int64)
        out = np.empty(samples * len(ids), dtype=np.float64)
        before = MT[OWN].copy()
        try:
            status = self.part(base, machine.M, machine.R, self.rows, np.asarray(ids, dtype=np.int64), out,
                               self.weight_row(weights), self.F, self.B, seat, int(secret), 0, MT, self.Q, D, X, G)
        except MachineStop:
            status = -1
        if status != DONE:
            MT[OWN] = before
            return None
        found = out.tolist()
        return [_worths(found[g * len(ids):(g + 1) * len(ids)]) for g in range(samples)]

    def values(self, S: np.ndarray, players: int, weights: Weights) -> list[float]:
        """Every seat's worth in the packed position S (tools/agents/value.py `values`)."""
        out = np.empty(players, dtype=np.float64)
        self.part(S, self.machine.M, self.machine.R, self.rows, self.B[:0], out, self.weight_row(weights),
                  self.F, self.B, EVERY_SEAT, 0, 0, self.MT, self.Q, *NO_GUESSES)
        return out.tolist()

    def position(self, game: Game) -> tuple[np.ndarray, set[str]]:
        """The game's position as the machine's row (a new array), and the regions it could not
        fill. Packing the position at every decision (compiled/pack.py) was a sixth of a greedy
        game; instead the row of a game packed before is kept, and stepped on by the actions
        taken since (a game's history only grows: Game.apply_id; a step costs a microsecond, a
        pack eighty). The compiled engine plays the same games, so the row reached is the
        position packed (tests/compiled_support.py holds every shipped file to it), but for the
        counts of a study's picks, which the pack leaves out and are set to 0 here. A game that
        draws from outside (`chance`), a step the machine stops at or refuses, or a row that
        does not agree with the game on the seat to move, the step and the decision, is packed
        afresh."""
        kept, history = self.kept.get(game), game.history
        if kept is not None and game.chance is None and kept.done <= len(history):
            machine, S = self.machine, kept.S
            try:
                stepped = all(machine.step(S, machine.M, machine.R, APPLY, action)
                              for action in itertools.islice(history, kept.done, None))
            except MachineStop:
                stepped = False
            kept.done = len(history)
            if (stepped and S[ops.S_TO_MOVE] == (-1 if game.to_move is None else game.to_move)
                    and S[ops.S_STEP] == game.state.step and S[ops.S_NLEGAL] == len(game.legal_action_ids())):
                found = S.copy()
                for at, size in kept.picks:
                    found[at:at + size] = 0
                return found, kept.unknown
        packed, unknown = pack(game, self.machine.lowering, self.machine.T)
        if packable(unknown) and game.chance is None:
            picks = [(at, size) for name, at, size in self.machine.lowering.layout.table() if name in unknown]
            self.kept[game] = Kept(packed.copy(), len(history), picks, unknown)
        else:
            self.kept.pop(game, None)
        return packed, unknown

    def weight_row(self, weights: Weights) -> np.ndarray:
        W = self.weight_rows.get(weights)
        if W is None:
            W = self.weight_rows[weights] = np.array([getattr(weights, name) for name in WEIGHT_NAMES], np.float64)
        return W

    def packed(self, guess: Game, drawn_from: Guesses | None) -> tuple[np.ndarray, set[str]]:
        """The guess as the machine's state row (a new array), and the regions it could not pack."""
        lowering, T = self.machine.lowering, self.machine.T
        if drawn_from is None:
            return pack(guess, lowering, T)
        if self.base is None or self.base[0] is not drawn_from:
            self.base = (drawn_from, guess_base(drawn_from.game, lowering, T))
        return pack_guess(guess, self.base[1], lowering, T)


def _worths(found: list[float]) -> list[float | None]:
    return [None if math.isnan(v) else v for v in found]


@dataclass
class Kept:
    """A game's row as the lookahead keeps it (Lookahead.position): after `done` actions of its
    history, with the regions its first pack left out (a study's pick counts) and where they lie."""
    S: np.ndarray
    done: int
    picks: list[tuple[int, int]]
    unknown: set[str]


def packable(unknown: set[str]) -> bool:
    """Whether a guess the pack left these regions of is one the machine can take: only a
    study's pick counts may be missing (the interpreter's game keeps none)."""
    return all(region.startswith("picks ") for region in unknown)


_LOOKAHEADS: WeakKeyDictionary[Rules, Lookahead | None] = WeakKeyDictionary()


def lookahead(rules: Rules, compile: bool = False, notice: Callable[[str], None] | None = None) -> Lookahead | None:
    """The machine's lookahead for these rules (made once per rules), or None where the
    compiled engine does not play them or cannot forecast what the bots forecast, and, unless
    `compile`, where its machine code is not compiled yet: a cold compile takes about a minute,
    longer than a game or two of bots in the interpreter, so only a caller that knows the work
    ahead is worth it (a study: tools/simulate/compiled_games.py) asks for one. `notice` is
    told if its machine code is compiled now (hubs.prepare)."""
    found = _LOOKAHEADS.get(rules, ...)
    if found is not ... and (found is not None or not compile):
        return found
    found = None
    try:
        if compile or not hubs.missing([*parts_of(rules), "lookahead"]):
            found = _made(rules, compiled(rules, notice), notice)
    except NotCompiled:
        pass
    _LOOKAHEADS[rules] = found
    return found


def _made(rules: Rules, machine: CompiledRules, notice: Callable[[str], None] | None = None) -> Lookahead | None:
    T, phases = machine.T, machine.lowering.phases
    F = []
    forecasting = [mech for mech, _, _ in forecasters(rules)]
    for mech in forecasting:
        number = next(p for p, pid in enumerate(phases) if rules.phases[pid] is mech)
        kind = int(T[int(T[ops.TH_PHASE]) + number * ops.PHASE_FIELDS + ops.PHASE_MECH])
        if kind not in FORECASTING_KINDS or not isinstance(mech, (Income, Score)):
            return None
        F += [number, kind, int(mech.resource == rules.winner.score)]
    assert len(F) % F_FIELDS == 0
    blocks = {id(block): n for n, block in enumerate(rules.actions.blocks)}
    B = np.zeros(rules.actions.size * B_FIELDS, dtype=np.int64)
    for action, block in enumerate(rules.actions.block_at):
        B[action * B_FIELDS:(action + 1) * B_FIELDS] = (blocks[id(block)], int(block.rank not in (PLAY, STANDING)),
                                                        int(block.follow_up))
    hubs.prepare(["lookahead"], notice)
    return Lookahead(machine, np.array(F, dtype=np.int64), B, np.zeros((3, machine.size), dtype=np.int64),
                     np.zeros((2, MT_WORDS), dtype=np.uint32), forecast_memo(rules, machine, forecasting),
                     hubs.lookaheads())
