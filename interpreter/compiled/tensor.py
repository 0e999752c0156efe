"""The observation tensor in machine code: interpreter/play/observe.py's sections, number for
number, into the caller's row V: the int64 numbers out (a game's `observation`), or a vector
environment's float32 row, written once, with no copy between. Every number of the tensor is a
whole number (one-hots, counts, amounts within the engine's limit), so int64 holds it exactly
(a float32 row holds numpy's cast of it, as a copy of the int64 row would).

The engine's sections come first (turn, seats, held cards, piles, places, records), then each
phase's own pieces, which its mechanic's hub fills (`ops.CALL_TENSOR`) where the plan
(compiled/lower_tensor.py) says its first piece lies. A seat of -1 is the public view.

The tensor is a vector environment's observation at every step, about half its machine time: the
sections read the tables' addresses once, before their loops (a store into M may change any
number of M for all the compiler knows, so it reads again each one read in a loop), and walk
runs of S (a hand, a pile, a place's tokens) as views, whose indices numba need not check.
"""

from __future__ import annotations

from . import material, mechanics, ops
from .core import release, scratch, zero
from .jit import jit, jit_inline
from .prefetch import state_ahead

MAX_AMOUNT = 10 ** 15


@jit_inline
def bounded(value):
    """A number the rules compute as the tensor holds it (observe.bounded)."""
    if value > MAX_AMOUNT:
        return MAX_AMOUNT
    if value < -MAX_AMOUNT:
        return -MAX_AMOUNT
    return value


@jit_inline
def sorted_kind(M, card_table, card):
    """A card's place among the kinds of the tensor (the cards sorted by id); card_table: M[TH_CARD]."""
    return M[card_table + card * ops.CARD_FIELDS + ops.CARD_SORTED]


@jit_inline
def any_nonzero(numbers):
    """Whether any number of a view is not 0: or-ed together without a branch, a loop the
    compiler turns into wide loads (a scan of 112 cards' marks, most often all 0: 0.16 -> 0.06 us
    in the cache, against a test and branch a card)."""
    bits = 0
    for k in range(numbers.shape[0]):
        bits |= numbers[k]
    return bits != 0


@jit
def turn_section(S, M, plan, seat, V, out):
    seats = M[ops.TH_SEATS]
    if 0 <= seat < seats:
        V[out + M[plan + ops.TN_SEAT] + seat] = 1
    if 0 < S[ops.S_PLAYERS] <= seats:
        V[out + M[plan + ops.TN_PLAYERS] + S[ops.S_PLAYERS] - 1] = 1
    if S[ops.S_TO_MOVE] >= 0:
        V[out + M[plan + ops.TN_TO_MOVE] + S[ops.S_TO_MOVE]] = 1
    V[out + M[plan + ops.TN_START] + S[ops.S_START]] = 1
    if S[ops.S_OVER] == 0:
        V[out + M[plan + ops.TN_AT] + S[ops.S_AT]] = 1
    passes = M[ops.TH_S_PASSES]
    for i in range(M[ops.TH_COUNTERS]):
        V[out + M[plan + ops.TN_PASSES] + i] = S[passes + i]
    options = M[plan + ops.TN_OPTIONS]
    for o in range(M[ops.TH_OPTIONS]):
        row = M[options + o]
        word = S[M[ops.TH_S_OPTIONS] + o]
        for i in range(M[row + 1]):
            if M[row + 2 + i] == word:
                V[out + M[row] + i] = 1
                break


@jit
def seat_section(S, M, plan, seat, V, out):
    players, cards, nres = S[ops.S_PLAYERS], M[ops.TH_CARDS], M[ops.TH_RES]
    secret = M[plan + ops.TN_SECRET] != 0
    hidden, resources, res_out = M[ops.TH_RES_HIDDEN], M[ops.TH_S_RES], out + M[plan + ops.TN_RESOURCES]
    sizes, sizes_out = M[ops.TH_S_HAND_SIZE], out + M[plan + ops.TN_SIZES]
    hands, hand_out, public_out = M[ops.TH_S_HANDS], out + M[plan + ops.TN_HAND], out + M[plan + ops.TN_PUBLIC]
    public_card, card_table = M[plan + ops.TN_PUBLIC_CARD], M[ops.TH_CARD]
    for other in range(players):
        for r in range(nres):
            if not secret or other == seat or M[hidden + r] == 0:
                V[res_out + other * nres + r] = S[resources + other * nres + r]
        V[sizes_out + other] = S[sizes + other]
        hand = S[hands + other * cards:hands + (other + 1) * cards]
        for card in range(cards):
            count = hand[card]
            if count != 0:
                kind = sorted_kind(M, card_table, card)
                if other == seat:
                    V[hand_out + kind] += count
                if M[public_card + card] != 0:
                    V[public_out + other * cards + kind] += count


@jit
def held_section(S, M, plan, seat, V, out):
    """The observing seat's cards of each resource held as cards in this game, by value."""
    if seat < 0:
        return
    for held in range(M[ops.TH_HELD]):
        at = M[M[plan + ops.TN_HELD] + held]
        if at >= 0 and (S[ops.S_HELD] >> held) & 1 != 0:
            counts = material.held_counts(S, M, held, seat)
            for i in range(counts.shape[0]):
                V[out + at + i] = counts[i]


@jit
def pile_section(S, M, plan, V, out):
    decks, card_table = M[ops.TH_DECKS], M[ops.TH_CARD]
    sizes_out = out + M[plan + ops.TN_DECKS]
    for deck in range(decks):
        V[sizes_out + deck] = S[material.pile(M, deck, ops.DECK_S_DRAW)]
        V[sizes_out + decks + deck] = S[material.pile(M, deck, ops.DECK_S_BOXED)]
        for which, field in ((ops.DECK_S_DISCARD, ops.TN_DISCARDS), (ops.DECK_S_SHOWN, ops.TN_SHOWN)):
            at = M[plan + field]
            if at >= 0:
                pile = material.pile(M, deck, which)
                kinds = out + at
                for card in S[pile + 1:pile + 1 + S[pile]]:
                    V[kinds + sorted_kind(M, card_table, card)] += 1


@jit
def place_section(S, M, plan, V, out):
    seats, places, tokens = M[ops.TH_SEATS], M[ops.TH_PLACES], M[ops.TH_TOKENS]
    owners, owned = out + M[plan + ops.TN_OWNER], M[plan + ops.TN_OWNER] >= 0
    owner_at = M[ops.TH_S_OWNER]
    for place in range(places):
        if owned:
            owner = S[owner_at + place]
            V[owners + place * (seats + 1) + (seats if owner < 0 else owner)] = 1
    # the tokens lie in S as in the tensor: place by place, token by token
    counts = S[M[ops.TH_S_TOKENS]:M[ops.TH_S_TOKENS] + places * tokens]
    tokens_out = V[out + M[plan + ops.TN_TOKENS]:out + M[plan + ops.TN_TOKENS] + places * tokens]
    for k in range(counts.shape[0]):
        tokens_out[k] = counts[k]
    supply, supply_out = M[ops.TH_S_SUPPLY], out + M[plan + ops.TN_SUPPLY]
    for kind in range(M[ops.TH_SUPPLIES]):
        V[supply_out + kind] = S[supply + kind]


@jit
def record_section(S, M, plan, V, out):
    players, cards = S[ops.S_PLAYERS], M[ops.TH_CARDS]
    mods = M[plan + ops.TN_MODS]
    for mod in range(M[ops.TH_MODS]):
        row = material.mod_row(M, mod)
        piece = M[mods + mod]
        at, size, words, default = M[row + ops.MOD_S], M[row + ops.MOD_SIZE], M[piece + 1], M[row + ops.MOD_DEFAULT]
        held, limit = S[at] != 0, players if M[row + ops.MOD_SCOPE] == ops.SCOPE_SEAT else size
        values = out + M[piece]
        for i in range(size):
            value = default
            if held and i < limit and S[at + 1 + i] != ops.NONE:
                value = S[at + 1 + i]
            if words > 0:
                for w in range(words):
                    if M[piece + 2 + w] == value:
                        value = w
                        break
            V[values + i] = bounded(value)
    played, card_table = M[plan + ops.TN_PLAYED], M[ops.TH_CARD]
    for lifetime in range(M[ops.TH_LIFETIMES]):
        at = M[played + lifetime]
        region = M[M[ops.TH_LIFETIME] + lifetime * ops.LIFE_FIELDS + ops.LIFE_PLAYED]
        if at >= 0 and region >= 0:
            marks = S[region:region + players * cards]        # seat by seat, card by card
            if not any_nonzero(marks):      # most often none: one pass of wide loads, no branch a card
                continue
            for k in range(marks.shape[0]):
                if marks[k] != 0:
                    seat, card = k // cards, k % cards
                    V[out + at + seat * cards + sorted_kind(M, card_table, card)] = 1


@jit
def fill(S, M, seat, V, out, ahead, parts):
    """The tensor of the position as `seat` sees it (-1: the public view), into V[out:] (zeros):
    the engine's sections straight into V, the phases' pieces through M's scratch, as their hubs
    write into M (the last piece of the engine's ends where the first of a phase's begins).
    Between the sections, parts 2 and 3 of `parts` of the state `ahead` are asked for
    (prefetch.state_ahead: a vector environment's next game; parts 0: none)."""
    plan = M[ops.TH_TENSOR]
    turn_section(S, M, plan, seat, V, out)
    seat_section(S, M, plan, seat, V, out)
    held_section(S, M, plan, seat, V, out)
    if parts > 0:
        state_ahead(ahead, M, 2, parts)
    pile_section(S, M, plan, V, out)
    place_section(S, M, plan, V, out)
    if parts > 0:
        state_ahead(ahead, M, 3, parts)
    record_section(S, M, plan, V, out)
    phases_at, size = M[plan + ops.TN_PHASES], M[plan + ops.TN_SIZE]
    if phases_at == size:
        return
    work = scratch(S, M, size - phases_at)
    zero(M, work, size - phases_at)
    for phase in range(M[ops.TH_PHASES]):
        first = M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_TENSOR]
        if first >= 0:
            mechanics.tensor(S, M, phase, seat, work + first - phases_at)
    pieces, into = M[work:work + size - phases_at], V[out + phases_at:out + size]     # views: unchecked
    for k in range(pieces.shape[0]):
        into[k] = pieces[k]
    release(M, work)
