"""The search bot (tools/agents/ismcts.py) on the compiled engine, in two ways, each making the
choices the search makes in the interpreter.

- `MachineSearch`: where a guess of the position draws only cards and a generator (most
  decisions), the whole decision in machine code (interpreter/compiled/search.py), the bot's
  generator handed over as its Mersenne Twister state and handed back.
- Elsewhere, the tree stays in Python and each iteration's guess is a `MachinePosition`: the
  guess as the machine's state row (`MachineGuesses`: dealt straight into the row where it can
  be, else drawn in the interpreter and packed, compiled/pack.py), stepped there by one call a
  step (0.6 us against 7), its winners read and its seats valued there (the heuristic's own
  numbers to the bit, tools/agents/machine_lookahead.py).

A guess the machine cannot take (a region it cannot pack) raises `Unplayable`, a rule the
machine stops at raises `MachineStop`: the bot then searches the decision again in the
interpreter from the generator's state before it.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from weakref import WeakKeyDictionary

import numpy as np

from ...interpreter.compiled import hubs, ops, search
from ...interpreter.compiled.core import MachineStop
from ...interpreter.compiled.entry import APPLY, DECIDE, RESULT
from ...interpreter.compiled.game import winners
from ...interpreter.compiled.pack import pack
from ...interpreter.game import Game
from ...interpreter.model import Rules
from ..determinize import BOXED, DECKS, HANDS, TRIES, Dealt, Guesses, uniform
from .machine_lookahead import Lookahead, packable
from .value import Weights

_OVER, _TO_MOVE, _NLEGAL = ops.S_OVER, ops.S_TO_MOVE, ops.S_NLEGAL


class Unplayable(Exception):
    """A guess the machine cannot take: the search goes back to the interpreter."""


class MachinePosition:
    """A guessed position on the machine, with the few questions a search asks of a game."""
    __slots__ = ("S", "words", "look", "players")

    def __init__(self, S: np.ndarray, look: Lookahead, players: int) -> None:
        self.S, self.words, self.look, self.players = S, memoryview(S.data), look, players

    @property
    def over(self) -> bool:
        return self.words[_OVER] != 0

    @property
    def to_move(self) -> int | None:
        seat = self.words[_TO_MOVE]
        return None if seat < 0 else seat

    def legal_action_ids(self) -> list[int]:
        words, at = self.words, self.look.machine.legal_at
        return words[at:at + words[_NLEGAL]].tolist()

    def apply_id(self, action_id: int) -> None:
        """Take one of the ids legal now (the search takes no other)."""
        machine = self.look.machine
        if not machine.step(self.S, machine.M, machine.R, APPLY, action_id):
            raise ValueError(f"action id {action_id} is not legal here: the search took an id it was not given")

    def winners(self) -> list[int]:
        """The seats that won the game (over): Game.result()["winners"]."""
        machine, n = self.look.machine, self.players
        R = np.zeros(n * (2 + len(machine.rules.winner.tiebreaks)), dtype=np.int64)
        machine.call(self.S, RESULT, 0, R)
        return winners(R.tolist(), n)

    def worths(self, weights: Weights) -> list[float]:
        """Every seat's worth by the weights: tools/agents/value.py `values`, the same floats."""
        return self.look.values(self.S, self.players, weights)


def position(look: Lookahead, guess: Game, drawn_from: Guesses) -> MachinePosition:
    """The guess, one of those drawn from `drawn_from`, as a position on the machine."""
    S, unknown = look.packed(guess, drawn_from)
    if not packable(unknown):
        raise Unplayable(f"the machine cannot take a guess with {sorted(unknown)[0]}")
    return MachinePosition(S, look, guess.state.players)


class MachineGuesses:
    """Guesses of one position drawn straight into the machine's state row, where the guess
    draws only cards and a generator (Guesses.cards_only: most decisions): the cards a guess
    deals written where the row keeps them, and its decision worked out again by the machine
    (DECIDE), instead of a copy of the interpreter's game dealt, worked out and packed (three
    quarters of a guess's cost). The draws are the interpreter's, in its order (Guesses.dealt,
    then the generator). A guess whose working out ran on (the row changed beyond the
    decision) or stopped is settled by the interpreter from the same draws (Guesses.settle),
    so every guess is the one Guesses.draw gives; other positions draw that way throughout."""

    def __init__(self, look: Lookahead, guesses: Guesses) -> None:
        self.look, self.guesses = look, guesses
        self.players = guesses.game.state.players
        self.base: np.ndarray | None = None
        self.targets: list[tuple[int, bool]] = []       # per dealt place: where in the row, counted or set
        self.held_by_others = True
        if guesses.cards_only():
            self._prepare()

    def _prepare(self) -> None:
        """The position's row with the cards of the hidden places of hands taken out (a guess
        counts its own in), and where each place of the deal lies in the row."""
        game, machine = self.guesses.game, self.look.machine
        lowering, T = machine.lowering, machine.T
        S, unknown = pack(game, lowering, T)
        if not packable(unknown):
            return
        index, ncards, hands = lowering.card_index, len(lowering.cards), int(T[ops.TH_S_HANDS])
        piles = {(deck, where): row[slot] for deck, row in zip(lowering.decks, lowering.deck_rows)
                 for where, slot in ((DECKS, ops.DECK_S_DRAW), (BOXED, ops.DECK_S_BOXED))}
        state = game.state
        for _, places in self.guesses.deal().groups:
            for kind, key, i in places:
                if kind == HANDS:
                    S[hands + key * ncards + index[state.hands[key][i]]] -= 1
                    self.targets.append((hands + key * ncards, True))
                else:
                    self.targets.append((piles[key, kind] + 1 + i, False))
        S[machine.legal_at:] = 0
        S[ops.S_DECISIONS] = 0              # a guess is a new Game: none counted in its step (pack_guess)
        self.held = {name: (row[ops.HELD_S], game.rules.denominations[name].values)
                     for name, row in zip(game.rules.denominations, lowering.held_rows)}
        self.held_by_others = bool(state.held)          # their cards are drawn too (the whole search cannot)
        self.base = S

    def draw(self, rng: random.Random) -> MachinePosition:
        """One guess on the machine, drawn from `rng` as Guesses.draw draws it."""
        look, guesses = self.look, self.guesses
        if self.base is None:
            return position(look, guesses.draw(rng), guesses)
        for _ in range(TRIES):
            dealt = guesses.dealt(rng)
            generator = rng.getrandbits(64), rng.getrandbits(62)
            S = self._row(dealt, generator[0])
            if S is not None:
                return MachinePosition(S, look, self.players)
            copy = guesses.settle(dealt, rng, uniform(rng), generator)
            if copy is not None:
                return position(look, copy, guesses)
        raise guesses.none_agrees()

    def _row(self, dealt: Dealt, bits: int) -> np.ndarray | None:
        """The guess's row with its decision worked out again, or None where that ran on."""
        assert self.base is not None
        S = self.base.copy()
        W = S.data
        index = self.look.machine.lowering.card_index
        for (at, counted), (_, card) in zip(self.targets, dealt.cards):
            if counted:
                W[at + index[card]] += 1
            else:
                W[at] = index[card]
        for name, drawn in dealt.held.items():
            at, values = self.held[name]
            for other, cards in drawn.items():
                counts = array(W.format, [cards.count(v) for v in values])
                W[at + other * len(counts):at + (other + 1) * len(counts)] = counts
        W[ops.S_RNG] = bits - (1 << 64) if bits >> 63 else bits
        machine = self.look.machine
        before = S[:machine.legal_at].tobytes()
        try:
            machine.step(S, machine.M, machine.R, DECIDE, 0)
        except MachineStop:
            return None
        if W[ops.S_TO_MOVE] != self.guesses.seat:
            return None
        decided, W[ops.S_NLEGAL] = W[ops.S_NLEGAL], self.base[ops.S_NLEGAL]
        still = S[:machine.legal_at].tobytes() == before
        W[ops.S_NLEGAL] = decided
        return S if still else None


CHUNK = 16              # iterations a call on a time budget (about 0.25 ms): the clock is read between calls


class MachineSearch:
    """A rules file's room for whole decisions of the search in machine code
    (interpreter/compiled/search.py), one per process."""

    def __init__(self, look: Lookahead) -> None:
        self.look, self.part = look, hubs.searches()
        machine = look.machine
        width = 2 + len(machine.rules.winner.tiebreaks)
        self.R = np.zeros(max(machine.rules.max_players * width, 1), dtype=np.int64)
        self.rows = np.zeros((2, machine.size), dtype=np.int64)
        self.out = np.zeros(1, dtype=np.int64)

    def decide(self, drawing: MachineGuesses, ids: list[int], rng: random.Random, iterations: int, c: float,
               horizon: int, spread: float, weights: Weights, deadline: float = math.inf,
               chunk: int = CHUNK) -> tuple[int, int] | None:
        """The action a search of `iterations` (0: no limit) on guesses from `drawing` chooses
        before `deadline` (time.perf_counter), and the iterations it ran, the generator moved on
        as the search in Python moves it; None (the generator untouched) where the machine
        cannot search this decision whole: a guess that draws more than cards, or whose decision
        ran on, or a rule the machine stops at. Then the caller searches in Python. On a time
        budget the machine runs `chunk` iterations a call, and the clock is read between calls."""
        if drawing.base is None or drawing.held_by_others or (iterations <= 0 and deadline == math.inf):
            return None
        look, guesses, machine = self.look, drawing.guesses, self.look.machine
        D = np.array(self._deal_table(drawing), dtype=np.int64)
        step = iterations if deadline == math.inf else (min(chunk, iterations) if iterations else chunk)
        tree, totals = np.zeros((step + 1, search.NODE_FIELDS), dtype=np.int64), np.zeros(step + 1)
        scratch = 5 * int(D[0]) + 2 * (machine.size - machine.legal_at) + 1       # search.py's X, the path last
        X = np.zeros(scratch + tree.shape[0] + 1, dtype=np.int64)
        P = np.array([guesses.seat, 0, horizon, 0], dtype=np.int64)
        W, FP, FX, allowed = look.weight_row(weights), np.array([c, spread]), np.zeros(2 * drawing.players), \
            np.array(ids, dtype=np.int64)
        version, words, gauss = rng.getstate()
        MT = np.array(words, dtype=np.uint32)
        done = 0
        while (not iterations or done < iterations) and (done == 0 or time.perf_counter() < deadline):
            P[search.P_ITERATIONS] = min(step, iterations - done) if iterations else step
            if P[search.P_NODES] + P[search.P_ITERATIONS] + 1 > tree.shape[0]:
                rows = 2 * tree.shape[0]
                tree, totals, X = _grown(tree, rows), _grown(totals, rows), np.zeros(scratch + rows + 1, dtype=np.int64)
            try:
                status = self.part(drawing.base, machine.M, self.R, self.rows, D, tree, totals, W, look.F, MT, P, FP,
                                   X, FX, allowed, self.out)
            except MachineStop:
                return None
            if status != search.DONE:
                return None
            done += int(P[search.P_ITERATIONS])
        rng.setstate((version, tuple(MT.tolist()), gauss))
        return int(self.out[0]), done

    def _deal_table(self, drawing: MachineGuesses) -> list[int]:
        """The deal as search.py reads it (`D`)."""
        deal, index = drawing.guesses.deal(), self.look.machine.lowering.card_index
        D = [len(deal.pool), len(deal.groups), *[index[card] for card in deal.pool]]
        targets = iter(drawing.targets)
        for (_, places), fits in zip(deal.groups, deal.fits):
            D += [len(fits), *fits, len(places)]
            for _ in places:
                at, counted = next(targets)
                D += [at, int(counted)]
        return D


def _grown(values: np.ndarray, rows: int) -> np.ndarray:
    """A bigger copy of a tree's array: its rows kept, the new ones zeros."""
    grown = np.zeros((rows, *values.shape[1:]), dtype=values.dtype)
    grown[:values.shape[0]] = values
    return grown


_SEARCHES: WeakKeyDictionary[Rules, MachineSearch] = WeakKeyDictionary()


def machine_search(look: Lookahead, compile: bool = False) -> MachineSearch | None:
    """The machine's whole decisions for these rules, where its part is kept or `compile` asks
    for it (else None: the search steps its guesses on the machine from Python)."""
    found = _SEARCHES.get(look.machine.rules)
    if found is None or found.look is not look:
        if compile:
            hubs.prepare(["search"])
        elif hubs.missing(["search"]):
            return None
        found = _SEARCHES[look.machine.rules] = MachineSearch(look)
    return found
