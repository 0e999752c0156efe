"""Guesses of a position on the compiled engine, for the bots that look ahead on it
(tools/agents/heuristic.py, tools/agents/ismcts.py): a guess as the machine's state row, and
the few questions a search asks of it.

Where a guess draws what the machine can draw as Python does (the cards, a generator and the
running phase's secret choices: interpreter/compiled/guess.py), its row is the position's row
with the hidden cards dealt again into it (`MachineGuesses`), and a bot may draw its guesses
in machine code, whole decisions at a time. Elsewhere a guess is drawn in the interpreter
(tools/determinize.py) and packed (compiled/pack.py).
"""

from __future__ import annotations

import functools
import random
from array import array
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import numpy as np

from ...interpreter.compiled import ops
from ...interpreter.compiled.core import MachineStop
from ...interpreter.compiled.entry import APPLY, DECIDE, RESULT
from ...interpreter.compiled.game import CompiledRules, winners
from ...interpreter.compiled.lower_mechanics import module_of
from ...interpreter.compiled.pack import working_word
from ...interpreter.game import Game
from ..determinize import (
    BOXED,
    DECKS,
    HANDS,
    RESAMPLE,
    TRIES,
    WORKING,
    Dealt,
    Guesses,
    seen_cards,
    uniform,
    working_slots,
)
from ..mechanic_hooks import entry
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
    """Guesses of one position drawn straight into the machine's state row (`base`, None where
    it cannot be): the cards a guess deals written where the row keeps them, and its decision
    worked out again by the machine (DECIDE), instead of a copy of the interpreter's game
    dealt, worked out and packed (three quarters of a guess's cost). The draws are the
    interpreter's, in its order (Guesses.dealt, then the generator).

    - Where the guess draws only cards and a generator (Guesses.cards_only: most decisions),
      `draw` writes them into the row here. A guess whose working out ran on (the row changed
      beyond the decision) or stopped is settled by the interpreter from the same draws
      (Guesses.settle), so every guess is the one Guesses.draw gives.
    - Where it also makes a running phase's secret choices again (an offer, a sealed bid) or
      deals the cards a phase holds face down (`redoes`), only the machine draws it into the
      row, a whole decision at a time (compiled/guess.py `choose_again`); `draw` draws in the
      interpreter, as it does where there is no base row."""

    def __init__(self, look: Lookahead, guesses: Guesses) -> None:
        self.look, self.guesses = look, guesses
        self.players = guesses.game.state.players
        self.base: np.ndarray | None = None
        self.deal_table = np.zeros(0, dtype=np.int64)   # the deal as the machine reads it (with the base row)
        self.held_by_others = True
        self.redoes = not guesses.cards_only()
        if not self.redoes or _redone_in_machine(guesses):
            self._prepare()

    def _prepare(self) -> None:
        """The position's row with the cards of the hidden places of hands taken out (a guess
        counts its own in), and the deal as compiled/guess.py reads it (`DealTable`)."""
        game, machine = self.guesses.game, self.look.machine
        S, unknown = self.look.position(game)
        if not packable(unknown):
            return
        seat = self.guesses.seat
        key = None if self.redoes and working_slots(game, seat) else unseen_key(game, seat)
        tables = _TABLES.setdefault(machine, {})
        found = tables.get(key) if key is not None else None
        if found is None:
            found = deal_table(machine, self.guesses)
            if found is None:
                return
            if key is not None:
                if len(tables) >= KEPT_TABLES:
                    tables.clear()
                tables[key] = found
        W = S.data
        for at in found.counted_out:
            W[at] -= 1
        S[machine.legal_at:] = 0
        W[ops.S_DECISIONS] = 0              # a guess is a new Game: none counted in its step (pack_guess)
        self.held_by_others = bool(game.state.held)     # their cards are drawn too (the machine cannot)
        self.deal_table = found.D
        self.base = S

    @functools.cached_property
    def targets(self) -> list[tuple[int, bool]]:
        """Per dealt place, in the deal's order: where in the row, and whether its card is
        counted there (a hand) or written (a pile, a phase's card); read from the deal table."""
        D, found = self.deal_table.tolist(), []
        at = 2 + D[0]
        for _ in range(D[1]):
            at += 1 + D[at]
            places = D[at]
            found += [(D[at + 1 + 2 * k], D[at + 2 + 2 * k] != 0) for k in range(places)]
            at += 1 + 2 * places
        return found

    def whole(self) -> bool:
        """Whether the machine draws this position's guesses whole (compiled/guess.py)."""
        return self.base is not None and not self.held_by_others

    def draw(self, rng: random.Random) -> MachinePosition:
        """One guess on the machine, drawn from `rng` as Guesses.draw draws it."""
        look, guesses = self.look, self.guesses
        if self.base is None or self.redoes:
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
        held = row_places(self.look.machine).held
        for name, drawn in dealt.held.items():
            at, values = held[name]
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


@dataclass(frozen=True)
class DealTable:
    """A position's deal as compiled/guess.py reads it, `D`: the pool's size and the number of
    groups, each pool card's index, then per group its fitting pool positions and its places,
    each as where it lies in the row and whether a card there is counted; and the words of the
    position's row that count a card of the pool (other seats' hidden cards in hand), one entry
    a card: the guess's base row counts them out, and each guess counts its own in."""
    D: np.ndarray
    counted_out: tuple[int, ...]


def deal_table(machine: CompiledRules, guesses: Guesses) -> DealTable | None:
    """The deal of the guesses' position on the machine's row (None where a card of the
    running phase's data is not one word of the row: drawn in the interpreter)."""
    game, seat = guesses.game, guesses.seat
    rows = row_places(machine)
    index, hands, deal = rows.index, game.state.hands, guesses.deal()
    first_hand, ncards, piles = rows.hands, rows.ncards, rows.piles
    D = [len(deal.pool), len(deal.groups), *[index[card] for card in deal.pool]]
    counted_out = []
    for (_, places), fits in zip(deal.groups, deal.fits):
        D += [len(fits), *fits, len(places)]
        for kind, key, i in places:
            if kind == HANDS:
                at = first_hand + key * ncards
                counted_out.append(at + index[hands[key][i]])
                D += [at, 1]
            elif kind == WORKING:
                held, place, _ = working_slots(game, seat)[key]
                word = working_word(game, machine.lowering, machine.T, held, place)
                if word is None:
                    return None
                D += [word, 0]
            else:
                D += [piles[key, kind] + 1 + i, 0]
    return DealTable(np.array(D, dtype=np.int64), tuple(counted_out))


def unseen_key(game: Game, seat: int) -> tuple:
    """What a deal of the seat's guesses is worked out from, where the running phase's data
    holds no card the seat cannot see (working_slots): other seats' hands, the piles, the
    cards the seat has seen in them. A deal table is kept by it: at three of a greedy game's
    decisions in five, no card has moved since the seat's last one, and working the deal out
    anew was about 40% of a decision's time in Python."""
    state = game.state
    return (seat, tuple([tuple(hand) if other != seat else () for other, hand in enumerate(state.hands)]),
            tuple([(name, tuple(pile)) for name, pile in state.decks.items()]),
            tuple([(name, tuple(pile)) for name, pile in state.boxed.items()]),
            frozenset(seen_cards(game, seat)))


KEPT_TABLES = 512                   # deal tables kept per rules file (forgotten all at once past it)
_TABLES: WeakKeyDictionary[CompiledRules, dict[tuple, DealTable]] = WeakKeyDictionary()


def _redone_in_machine(guesses: Guesses) -> bool:
    """Whether the machine makes the running phase's secret choices again (its mechanic's
    module answers ops.CALL_SECRET_CHOICES), as determinize.py `resample` makes them."""
    state = guesses.game.state
    mech = guesses.game.rules.mechanic_at(state.at)
    if entry(RESAMPLE, mech) is None:
        return True
    found = module_of(mech)
    return found is not None and hasattr(found[1], "secret_choices")


@dataclass(frozen=True)
class RowPlaces:
    """Where the places a deal fills lie in the rows of one compiled rules file: the hands'
    region, each deck's draw pile and box (by deck and kind of place), the resources held as
    cards (by name: where, and the card values); worked out once, read at every decision."""
    hands: int
    ncards: int
    index: dict[str, int]
    piles: dict[tuple[str, int], int]
    held: dict[str, tuple[int, tuple[int, ...]]]


_PLACES: WeakKeyDictionary[CompiledRules, RowPlaces] = WeakKeyDictionary()


def row_places(machine: CompiledRules) -> RowPlaces:
    found = _PLACES.get(machine)
    if found is None:
        lowering, T = machine.lowering, machine.T
        piles = {(deck, where): row[slot] for deck, row in zip(lowering.decks, lowering.deck_rows)
                 for where, slot in ((DECKS, ops.DECK_S_DRAW), (BOXED, ops.DECK_S_BOXED))}
        held = {name: (row[ops.HELD_S], tuple(machine.rules.denominations[name].values))
                for name, row in zip(machine.rules.denominations, lowering.held_rows)}
        found = _PLACES[machine] = RowPlaces(int(T[ops.TH_S_HANDS]), len(lowering.cards), lowering.card_index,
                                             piles, held)
    return found
