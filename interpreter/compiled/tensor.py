"""The observation tensor in machine code: interpreter/play/observe.py's sections, number for
number, into a region of M (the caller copies it out). Every number of the tensor is a whole
number (one-hots, counts, amounts within the engine's limit), so int64 holds it exactly.

The engine's sections come first (turn, seats, held cards, piles, places, records), then each
phase's own pieces, which its mechanic's hub fills (`ops.CALL_TENSOR`) where the plan
(compiled/lower_tensor.py) says its first piece lies. A seat of -1 is the public view.
"""

from __future__ import annotations

from . import material, mechanics, ops
from .jit import jit, jit_inline

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
def sorted_kind(M, card):
    """A card's place among the kinds of the tensor (the cards sorted by id)."""
    return M[M[ops.TH_CARD] + card * ops.CARD_FIELDS + ops.CARD_SORTED]


@jit
def turn_section(S, M, plan, seat, out):
    seats = M[ops.TH_SEATS]
    if 0 <= seat < seats:
        M[out + M[plan + ops.TN_SEAT] + seat] = 1
    if 0 < S[ops.S_PLAYERS] <= seats:
        M[out + M[plan + ops.TN_PLAYERS] + S[ops.S_PLAYERS] - 1] = 1
    if S[ops.S_TO_MOVE] >= 0:
        M[out + M[plan + ops.TN_TO_MOVE] + S[ops.S_TO_MOVE]] = 1
    M[out + M[plan + ops.TN_START] + S[ops.S_START]] = 1
    if S[ops.S_OVER] == 0:
        M[out + M[plan + ops.TN_AT] + S[ops.S_AT]] = 1
    passes = M[ops.TH_S_PASSES]
    for i in range(M[ops.TH_COUNTERS]):
        M[out + M[plan + ops.TN_PASSES] + i] = S[passes + i]
    options = M[plan + ops.TN_OPTIONS]
    for o in range(M[ops.TH_OPTIONS]):
        row = M[options + o]
        word = S[M[ops.TH_S_OPTIONS] + o]
        for i in range(M[row + 1]):
            if M[row + 2 + i] == word:
                M[out + M[row] + i] = 1
                break


@jit
def seat_section(S, M, plan, seat, out):
    players, cards, nres = S[ops.S_PLAYERS], M[ops.TH_CARDS], M[ops.TH_RES]
    secret = M[plan + ops.TN_SECRET] != 0
    for other in range(players):
        for r in range(nres):
            if not secret or other == seat or M[M[ops.TH_RES_HIDDEN] + r] == 0:
                M[out + M[plan + ops.TN_RESOURCES] + other * nres + r] = S[material.resource_at(M, other, r)]
        M[out + M[plan + ops.TN_SIZES] + other] = S[M[ops.TH_S_HAND_SIZE] + other]
        for card in range(cards):
            count = S[material.hand_at(M, other, card)]
            if count != 0:
                if other == seat:
                    M[out + M[plan + ops.TN_HAND] + sorted_kind(M, card)] += count
                if M[M[plan + ops.TN_PUBLIC_CARD] + card] != 0:
                    M[out + M[plan + ops.TN_PUBLIC] + other * cards + sorted_kind(M, card)] += count


@jit
def held_section(S, M, plan, seat, out):
    """The observing seat's cards of each resource held as cards in this game, by value."""
    if seat < 0:
        return
    for held in range(M[ops.TH_HELD]):
        at = M[M[plan + ops.TN_HELD] + held]
        if at >= 0 and (S[ops.S_HELD] >> held) & 1 != 0:
            counts = material.held_counts(S, M, held, seat)
            for i in range(counts.shape[0]):
                M[out + at + i] = counts[i]


@jit
def pile_section(S, M, plan, out):
    decks = M[ops.TH_DECKS]
    for deck in range(decks):
        M[out + M[plan + ops.TN_DECKS] + deck] = S[material.pile(M, deck, ops.DECK_S_DRAW)]
        M[out + M[plan + ops.TN_DECKS] + decks + deck] = S[material.pile(M, deck, ops.DECK_S_BOXED)]
        for which, field in ((ops.DECK_S_DISCARD, ops.TN_DISCARDS), (ops.DECK_S_SHOWN, ops.TN_SHOWN)):
            at = M[plan + field]
            if at >= 0:
                pile = material.pile(M, deck, which)
                for i in range(S[pile]):
                    M[out + at + sorted_kind(M, S[pile + 1 + i])] += 1


@jit
def place_section(S, M, plan, out):
    seats, places, tokens = M[ops.TH_SEATS], M[ops.TH_PLACES], M[ops.TH_TOKENS]
    owners = M[plan + ops.TN_OWNER]
    for place in range(places):
        if owners >= 0:
            owner = material.owner_of(S, M, place)
            M[out + owners + place * (seats + 1) + (seats if owner < 0 else owner)] = 1
        for token in range(tokens):
            M[out + M[plan + ops.TN_TOKENS] + place * tokens + token] = S[material.token_at(M, place, token)]
    for kind in range(M[ops.TH_SUPPLIES]):
        M[out + M[plan + ops.TN_SUPPLY] + kind] = S[M[ops.TH_S_SUPPLY] + kind]


@jit
def record_section(S, M, plan, out):
    players, cards = S[ops.S_PLAYERS], M[ops.TH_CARDS]
    mods = M[plan + ops.TN_MODS]
    for mod in range(M[ops.TH_MODS]):
        row = material.mod_row(M, mod)
        piece = M[mods + mod]
        at, size, words = M[row + ops.MOD_S], M[row + ops.MOD_SIZE], M[piece + 1]
        held = S[at] != 0
        for i in range(size):
            value = M[row + ops.MOD_DEFAULT]
            if held and (M[row + ops.MOD_SCOPE] != ops.SCOPE_SEAT or i < players) and S[at + 1 + i] != ops.NONE:
                value = S[at + 1 + i]
            if words > 0:
                for w in range(words):
                    if M[piece + 2 + w] == value:
                        value = w
                        break
            M[out + M[piece] + i] = bounded(value)
    played = M[plan + ops.TN_PLAYED]
    for lifetime in range(M[ops.TH_LIFETIMES]):
        at = M[played + lifetime]
        region = M[M[ops.TH_LIFETIME] + lifetime * ops.LIFE_FIELDS + ops.LIFE_PLAYED]
        if at >= 0 and region >= 0:
            for seat in range(players):
                for card in range(cards):
                    if S[region + seat * cards + card] != 0:
                        M[out + at + seat * cards + sorted_kind(M, card)] = 1


@jit
def fill(S, M, seat, out):
    """The tensor of the position as `seat` sees it (-1: the public view), into M[out:] (zeros)."""
    plan = M[ops.TH_TENSOR]
    turn_section(S, M, plan, seat, out)
    seat_section(S, M, plan, seat, out)
    held_section(S, M, plan, seat, out)
    pile_section(S, M, plan, out)
    place_section(S, M, plan, out)
    record_section(S, M, plan, out)
    for phase in range(M[ops.TH_PHASES]):
        first = M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_TENSOR]
        if first >= 0:
            mechanics.tensor(S, M, phase, seat, out + first)
