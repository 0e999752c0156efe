"""An interpreter position as the compiled engine's state array: what `S` holds for the same
position, region by region (compiled/lower.py lays the regions out).

Two uses: the tests play both engines side by side and compare the states after every action,
region by region (`differences`), so that a game that goes apart is caught where it does, not
decisions later; and a position reached in the interpreter can be handed to the compiled
engine. Each mechanic's module says how its running phase's data and what it keeps are held
(`pack_work`, `pack_kept`); where it does not, that region is left out of a comparison.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from ..model import Game
from . import ops
from .lower import Lowering
from .lower_mechanics import module_of

_MASK = (1 << 64) - 1


def pack(game: Game, lowering: Lowering, T: np.ndarray) -> tuple[np.ndarray, set[str]]:
    """The state array of the game's position; and the regions it could not fill (a mechanic
    without pack_work or pack_kept): compare those no further."""
    S, unknown = guess_base(game, lowering, T)
    return _pack_guessed(S, unknown, game, lowering, T)


def guess_base(game: Game, lowering: Lowering, T: np.ndarray) -> tuple[np.ndarray, set[str]]:
    """What pack_guess packs guesses of this position from: pack(game) without the regions a
    guess packs again (the header, passes, hands, held cards, piles, working data and legal
    ids: zeros there)."""
    S = np.zeros(int(T[ops.TH_S_SIZE]), dtype=np.int64)
    W = S.data
    unknown: set[str] = {f"picks {pid}" for pid in lowering.picks}      # counts of a study's, the interpreter has none
    _pack_settings(W, T, game, lowering)
    _pack_seats(W, T, game, lowering)
    _pack_places(W, T, game, lowering)
    _pack_kept(W, game, lowering, unknown)
    return S, unknown


def pack_guess(guess: Game, base: tuple[np.ndarray, set[str]], lowering: Lowering,
               T: np.ndarray) -> tuple[np.ndarray, set[str]]:
    """What pack(guess) gives, for a guess of the hidden facts (tools/determinize.py) drawn
    from the position of `base` (guess_base): a bot packs several guesses of a position at a
    decision, and a guess draws again only the header's generator and decision, the hands,
    cards held by value, the decks' piles and the running phase's data. Those regions are
    packed anew, the rest is copied (tests/test_compiled_pack_guess.py holds it to
    pack(guess) on every shipped file)."""
    return _pack_guessed(base[0].copy(), set(base[1]), guess, lowering, T)


def _pack_guessed(S: np.ndarray, unknown: set[str], game: Game, lowering: Lowering,
                  T: np.ndarray) -> tuple[np.ndarray, set[str]]:
    """The regions a guess packs again, into S (zeros there)."""
    W = S.data
    legal = _pack_header(W, T, game, lowering)
    _pack_hands(W, T, game, lowering)
    _pack_piles(W, game, lowering)
    _pack_work(W, T, game, lowering, unknown)
    _put(W, T, ops.TH_S_LEGAL, legal)
    return S, unknown


def _pack_header(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering) -> list[int]:
    """The header and passes; the legal ids (to put last)."""
    state, rules = game.state, game.rules
    W[ops.S_PLAYERS] = state.players
    W[ops.S_START] = state.start_player
    W[ops.S_AT] = state.at
    W[ops.S_STEP] = state.step
    W[ops.S_OVER] = int(state.over)
    W[ops.S_TO_MOVE] = -1 if state.to_move is None else state.to_move
    rng = state.rng & _MASK
    W[ops.S_RNG] = rng - (1 << 64) if rng >> 63 else rng        # the generator's 64 bits, as int64 holds them
    W[ops.S_WORKING] = int(state.working is not None)
    W[ops.S_DECISIONS] = game.decisions_in_step
    legal = (game.decision if state.to_move is not None else None) or []
    W[ops.S_NLEGAL] = len(legal)
    W[ops.S_HELD] = sum(1 << i for i, name in enumerate(rules.denominations) if name in state.held)
    _put(W, T, ops.TH_S_PASSES, state.passes)
    return list(legal)


def _pack_settings(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering) -> None:
    """What a game is set up with and keeps to its end (a guess of it has the same): options,
    supplies without end."""
    _put(W, T, ops.TH_S_OPTIONS, [lowering.value(game.state.options[name]) for name in game.rules.options])
    _put(W, T, ops.TH_S_UNLIMITED, [int(kind in game.unlimited) for kind in lowering.supplies])


def _pack_seats(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering) -> None:
    """Each seat's resources, their sources and cards played, into zeros."""
    state = game.state
    names, card_index = lowering.resources, lowering.card_index
    nres, ncards, nkeys = len(names), len(lowering.cards), int(T[ops.TH_KEYS])
    res_at, sources_at, keys = int(T[ops.TH_S_RES]), int(T[ops.TH_S_SOURCES]), lowering.keys
    for seat in range(state.players):
        amounts, sources = state.resources[seat], state.sources[seat]
        _write(W, res_at + seat * nres, [amounts[name] for name in names])
        for r, name in enumerate(names):
            found = sources.get(name)
            if found:
                at = sources_at + (seat * nres + r) * nkeys
                for key, amount in found.items():
                    W[at + keys[key]] = amount
    for name, row in zip(lowering.lifetimes, lowering.life_rows):
        at = row[ops.LIFE_PLAYED]
        if at >= 0:
            for seat, played in enumerate(state.played.get(name, [])):
                for card in played:
                    W[at + seat * ncards + card_index[card]] = 1


def _pack_hands(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering) -> None:
    """Each seat's hand, its size, and its cards held by value, into zeros (a hand's counts
    are counted where they lie)."""
    state, card_index, ncards = game.state, lowering.card_index, len(lowering.cards)
    hands_at, sizes_at = int(T[ops.TH_S_HANDS]), int(T[ops.TH_S_HAND_SIZE])
    for seat, hand in enumerate(state.hands):
        at = hands_at + seat * ncards
        for card in hand:
            W[at + card_index[card]] += 1
        W[sizes_at + seat] = len(hand)
    for (name, held), row in zip(game.rules.denominations.items(), lowering.held_rows):
        for seat, cards in enumerate(state.held.get(name, [])):
            at = row[ops.HELD_S] + seat * len(held.values)
            _write(W, at, [cards.count(value) for value in held.values])


def _pack_places(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering) -> None:
    """Owners, tokens, supplies and the modifiers."""
    state = game.state
    _put(W, T, ops.TH_S_OWNER, state.owner)
    ntokens, kinds = len(lowering.tokens), {name: t for t, name in enumerate(lowering.tokens)}
    counts = [0] * (len(game.rules.place_ids) * ntokens)
    for place, tokens in enumerate(state.tokens):
        for token, count in tokens.items():
            counts[place * ntokens + kinds[token]] = count
    _put(W, T, ops.TH_S_TOKENS, counts)
    _put(W, T, ops.TH_S_SUPPLY, [state.supply[kind] for kind in lowering.supplies])
    for name, row in zip(lowering.mods, lowering.mod_rows):
        values = state.mods.get(name)
        if values is not None:
            at = row[ops.MOD_S]
            W[at] = 1
            _write(W, at + 1, [ops.NONE if value is None else lowering.value(value) for value in values])


def _pack_piles(W: memoryview, game: Game, lowering: Lowering) -> None:
    """The decks' piles: to draw from, discarded, set aside, shown."""
    state, card_index = game.state, lowering.card_index
    for deck, row in zip(lowering.decks, lowering.deck_rows):
        for pile, slot in ((state.decks, ops.DECK_S_DRAW), (state.discards, ops.DECK_S_DISCARD),
                           (state.boxed, ops.DECK_S_BOXED), (state.shown, ops.DECK_S_SHOWN)):
            cards = pile.get(deck, ())
            at = row[slot]
            W[at] = len(cards)
            if cards:
                _write(W, at + 1, [card_index[card] for card in cards])


def _pack_kept(W: memoryview, game: Game, lowering: Lowering, unknown: set[str]) -> None:
    """What phases keep, as their mechanics pack it."""
    state, rules = game.state, game.rules
    for pid, row in zip(lowering.phases, lowering.phase_rows):
        at = row[ops.PHASE_KEPT]
        kept = state.kept.get(pid)
        if at >= 0 and kept is not None:
            found = _module_call(rules.phases[pid], "pack_kept", lowering, pid, kept)
            if found is None:
                unknown.add(f"kept {pid}")
            else:
                W[at] = 1
                _write(W, at + 1, found)


def _pack_work(W: memoryview, T: np.ndarray, game: Game, lowering: Lowering, unknown: set[str]) -> None:
    """The running phase's working data, as its mechanic packs it."""
    state, rules = game.state, game.rules
    if state.working is not None:
        pid = rules.flow.leaf_phase(state.at)
        found = _module_call(rules.phases[pid], "pack_work", lowering, pid, state.working, state)
        if found is None:
            unknown.add("working")
        else:
            _put(W, T, ops.TH_S_WORK, found)


def working_word(game: Game, lowering: Lowering, T: np.ndarray, held: list[Any], i: int) -> int | None:
    """Where in the row the card held[i] of the running phase's data lies (a card a guess deals
    again): the one number of the packed working data that changes when that card does; None
    where none or several do (its mechanic keeps it otherwise)."""
    state, rules = game.state, game.rules
    pid = rules.flow.leaf_phase(state.at)
    mech = rules.phases[pid]
    before = _module_call(mech, "pack_work", lowering, pid, state.working, state)
    card = held[i]
    held[i] = next(other for other in lowering.cards if other != card)
    try:
        after = _module_call(mech, "pack_work", lowering, pid, state.working, state)
    finally:
        held[i] = card
    if before is None or after is None:
        return None
    changed = [k for k, (a, b) in enumerate(zip(before, after)) if a != b]
    return int(T[ops.TH_S_WORK]) + changed[0] if len(changed) == 1 else None


def _put(W: memoryview, T: np.ndarray, region: int, values: list[int]) -> None:
    _write(W, int(T[region]), values)


def _write(W: memoryview, at: int, values: list[int]) -> None:
    """Numbers from `at` on. A bot packs a guess at every decision
    (tools/agents/machine_lookahead.py): through the state's memoryview a number costs half
    of what it costs through numpy, and a list a third, as an array of the same format."""
    W[at:at + len(values)] = array(W.format, values)


_PACKERS: dict[tuple[type, str], Callable[..., Any] | None] = {}


def _module_call(mech: Any, name: str, *args: Any) -> list[int] | None:
    """The mechanic's module's `name` (pack_work, pack_kept) called, if it has one (looked up
    once per mechanic type: a bot packs at every decision)."""
    key = (type(mech), name)
    if key not in _PACKERS:
        found = module_of(mech)
        _PACKERS[key] = getattr(found[1], name, None) if found is not None else None
    function = _PACKERS[key]
    return None if function is None else function(*args)


def differences(S: np.ndarray, packed: np.ndarray, lowering: Lowering, unknown: set[str]) -> list[str]:
    """The regions where two state arrays differ, each with its first differing numbers. The
    tests of "the same games" ask at every decision, and most often nothing differs: one pass
    over the whole state under the mask of the numbers compared answers that (a region at a
    time, it was a quarter of those tests' time)."""
    if S.shape == packed.shape and not np.any((S != packed) & _compared(lowering, frozenset(unknown), S.shape[0])):
        return []
    found = []
    for name, at, size in lowering.layout.table():
        if name in unknown:
            continue
        a, b = S[at:at + size], packed[at:at + size]
        if name == "header":
            a, b = a[:ops.S_ERR], b[:ops.S_ERR]
        if not np.array_equal(a, b):
            where = int(np.flatnonzero(a != b)[0])
            found.append(f"{name}[{where}]: compiled {a[where:where + 6].tolist()} "
                         f"interpreter {b[where:where + 6].tolist()}")
    return found


_COMPARED: WeakKeyDictionary[Lowering, dict[tuple[frozenset[str], int], np.ndarray]] = WeakKeyDictionary()


def _compared(lowering: Lowering, unknown: frozenset[str], size: int) -> np.ndarray:
    """The numbers of a state `differences` compares, as a mask (made once per rules and unknowns)."""
    masks = _COMPARED.setdefault(lowering, {})
    mask = masks.get((unknown, size))
    if mask is None:
        mask = masks[unknown, size] = np.zeros(size, dtype=bool)
        for name, at, length in lowering.layout.table():
            if name not in unknown:
                mask[at:at + (ops.S_ERR if name == "header" else length)] = True
    return mask


def turn_data(seats: int, order: list[int], index: int) -> list[int]:
    """The head of a turn-taking mechanic's working data: count, order (padded), index."""
    return [len(order), *order, *([0] * (seats - len(order))), index]
