"""Making decks ready, in machine code: interpreter/play/decks.py and the deck-building part of
interpreter/play/setup.py over the state array: the cards a game uses, its stacks, the cards
laid face up beside a deck, and a deck gathered again between ages. Every shuffle draws from
the game's one generator in the interpreter's order, so the same seed makes the same deck.
"""

from __future__ import annotations

from . import material, ops
from .core import release, scratch, shuffle, stop
from .jit import jit, jit_inline
from .pointers import evaluate


@jit_inline
def setup_row(M, deck):
    return M[ops.TH_DECK_SETUP] + 4 * deck


@jit_inline
def number(S, M, prog):
    """A number of cards a rule gives (no seat); a rule failure below 0."""
    value = evaluate(S, M, prog, -1, -1)
    if value < 0:
        stop(S, ops.ERR_RULE, prog)
    return value


@jit_inline
def place_of(S, M, card):
    place = M[M[ops.TH_CARD] + card * ops.CARD_FIELDS + ops.CARD_PLACE]
    if place < 0:
        stop(S, ops.ERR_RULE, card)          # the interpreter's place_index[card] fails
    return place


@jit_inline
def holds_for(S, M, prog, card):
    """A per-place condition read for the place of a card."""
    M[M[ops.TH_X_ENV]] = place_of(S, M, card)
    return evaluate(S, M, prog, -1, -1) != 0


@jit
def prepare(S, M, deck):
    """Order a shuffled draw pile as the deck's `stacks` say: that many stacks one after the
    other, each topped by a card where `top` holds."""
    row = setup_row(M, deck)
    stacks_prog, top_prog = M[row + 2], M[row + 3]
    if stacks_prog < 0:
        return
    stacks = number(S, M, stacks_prog)
    if stacks <= 0:
        stop(S, ops.ERR_RULE, stacks_prog)
    at = material.pile(M, deck, ops.DECK_S_DRAW)
    n = S[at]
    work = scratch(S, M, 2 * n + 1)
    tops = 0
    if top_prog >= 0:
        rest = 0
        for i in range(n):
            card = S[at + 1 + i]
            if tops < stacks and holds_for(S, M, top_prog, card):
                M[work + tops] = card
                tops += 1
            else:
                M[work + n + rest] = card
                rest += 1
        for i in range(rest):
            S[at + 1 + i] = M[work + n + i]
        material.cut(S, at, rest)
        shuffle(S, at + 1, rest)
    n = S[at]
    dealt = 0
    out = 0
    ordered = work + n + 1
    for i in range(stacks):
        size = n // stacks + (1 if i < n % stacks else 0)
        if i < tops:
            M[ordered + out] = M[work + i]
            out += 1
        for j in range(size):
            M[ordered + out] = S[at + 1 + dealt + j]
            out += 1
        dealt += size
    for i in range(out):
        S[at + 1 + i] = M[ordered + i]
    S[at] = out
    release(M, work)


@jit
def lay_out(S, M, deck):
    """Turn cards from the top of the deck face up beside it until its display is full."""
    display = M[material.deck_row(M, deck) + ops.DECK_DISPLAY]
    if display < 0:
        return
    size = number(S, M, display)
    shown = material.pile(M, deck, ops.DECK_S_SHOWN)
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    turn = size - S[shown]
    if turn > S[draw]:
        turn = S[draw]
    for _ in range(turn if turn > 0 else 0):
        material.push(S, M, shown, deck, material.pop_top(S, draw))


@jit_inline
def append_pile(S, M, deck, target, source):
    for i in range(S[source]):
        material.push(S, M, target, deck, S[source + 1 + i])
    material.cut(S, source, 0)


@jit
def rebuild(S, M, deck, discards, set_aside):
    """Gather a deck again (its display, and its discard pile and the cards set aside, as
    asked), shuffle it, order it as at set-up, and lay its display out anew."""
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    append_pile(S, M, deck, draw, material.pile(M, deck, ops.DECK_S_SHOWN))
    if discards:
        append_pile(S, M, deck, draw, material.pile(M, deck, ops.DECK_S_DISCARD))
    if set_aside:
        append_pile(S, M, deck, draw, material.pile(M, deck, ops.DECK_S_BOXED))
    shuffle(S, draw + 1, S[draw])
    prepare(S, M, deck)
    lay_out(S, M, deck)


@jit
def build(S, M):
    """Every deck as the game starts: its cards, the set-up hands taken out, the cards its
    `where` admits (the rest set aside), shuffled, cut to its `count`, ordered in stacks, its
    display laid out (interpreter/play/setup.py build_decks)."""
    decks = M[ops.TH_DECKS]
    for deck in range(decks):
        row = material.deck_row(M, deck)
        draw = material.pile(M, deck, ops.DECK_S_DRAW)
        cards = M[row + ops.DECK_CARDS]
        for i in range(M[row + ops.DECK_N_CARDS]):
            for _ in range(M[cards + 2 * i + 1]):
                material.push(S, M, draw, deck, M[cards + 2 * i])
    hand = M[ops.TH_SETUP_HAND]
    for seat in range(S[ops.S_PLAYERS]):
        for i in range(M[hand]):
            card = M[hand + 1 + i]
            if not material.remove_card(S, material.pile(M, material.card_deck(M, card), ops.DECK_S_DRAW), card):
                stop(S, ops.ERR_SETUP, card)
            material.to_hand(S, M, seat, card)
    for deck in range(decks):
        admit_shuffle_cut(S, M, deck)
        prepare(S, M, deck)
    for deck in range(decks):
        lay_out(S, M, deck)


@jit_inline
def admit_shuffle_cut(S, M, deck):
    """A deck's draw pile as its set-up says: the cards its `where` admits (the rest set
    aside), shuffled, cut to its `count`."""
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    boxed = material.pile(M, deck, ops.DECK_S_BOXED)
    where = M[setup_row(M, deck) + 1]
    if where >= 0:
        kept = 0
        for i in range(S[draw]):
            card = S[draw + 1 + i]
            if holds_for(S, M, where, card):
                S[draw + 1 + kept] = card
                kept += 1
            else:
                material.push(S, M, boxed, deck, card)
        material.cut(S, draw, kept)
    shuffle(S, draw + 1, S[draw])
    count_prog = M[setup_row(M, deck)]
    if count_prog >= 0:
        count = evaluate(S, M, count_prog, -1, -1)
        if count < 0:
            stop(S, ops.ERR_RULE, count_prog)
        if count < S[draw]:
            for i in range(count, S[draw]):
                material.push(S, M, boxed, deck, S[draw + 1 + i])
            material.cut(S, draw, count)
