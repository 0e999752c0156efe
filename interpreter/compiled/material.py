"""Moving material in the state array, as interpreter/play/material.py moves it in a GameState:
resources within 0 and their max (each change filed under its source), cards between decks,
hands and discard piles, tokens within a place's room and the supply, the automatic
conversions, and owners.

A pile is a region of S: its length, then its cards as card indices, the top first (as the
interpreter's lists hold them, so a shuffle draws the same numbers for the same order). A hand
is a count per card kind (no rule reads a hand's order) and its size.
"""

from __future__ import annotations

import numpy as np

from . import ops
from .core import shuffle, stop, zero
from .held_cards import settle_counts
from .jit import jit, jit_inline

UNLIMITED = 10 ** 6        # the room of a place for a token without a capacity (material.UNLIMITED)
MAX_AMOUNT = 10 ** 15


# ---- resources ------------------------------------------------------------------------------------
@jit_inline
def resource_at(M, seat, res):
    return M[ops.TH_S_RES] + seat * M[ops.TH_RES] + res


@jit
def gain(S, M, seat, res, amount, key):
    """Add amount (negative: remove), kept within 0 and the resource's max; file it under the
    source. Returns the change made."""
    at = resource_at(M, seat, res)
    have = S[at]
    if amount >= ops.LIMIT or amount <= -ops.LIMIT:
        stop(S, ops.ERR_OVERFLOW, np.int64(0))
    new = have + amount
    if new < 0:
        new = 0
    elif new > M[M[ops.TH_RES_TOP] + res]:
        most = M[M[ops.TH_RES_MAX] + res]
        if most < 0 or most > MAX_AMOUNT:
            stop(S, ops.ERR_RULE, key)
        new = most
    change = new - have
    if change != 0:
        S[at] = new
        if key >= 0:
            S[M[ops.TH_S_SOURCES] + (seat * M[ops.TH_RES] + res) * M[ops.TH_KEYS] + key] += change
        if S[ops.S_HELD] != 0:
            held = held_of(S, M, res)
            if held >= 0:                       # held as cards: pay and be paid in them
                settle_held(S, M, seat, held, change)
    return change


# ---- resources held as cards (interpreter/play/denominations.py) --------------------------------------
# Per resource held as cards, a row of HELD_* fields; the resource is held in this game when bit
# `held` of S[S_HELD] is set (its `when` held as the game started), and each seat's cards are
# counts per card value (largest first) in the row's region of S.
@jit_inline
def held_row(M, held):
    return M[ops.TH_HELD_DEF] + held * ops.HELD_FIELDS


@jit_inline
def held_of(S, M, res):
    """The held row of a resource held as cards in this game; -1 if it is not."""
    for held in range(M[ops.TH_HELD]):
        if M[held_row(M, held) + ops.HELD_RES] == res and (S[ops.S_HELD] >> held) & 1 != 0:
            return held
    return -1


@jit_inline
def held_values(M, held):
    """The card values of a held row, largest first (a view of M)."""
    row = held_row(M, held)
    at = M[row + ops.HELD_VALUES]
    return M[at:at + M[row + ops.HELD_N_VALUES]]


@jit_inline
def held_counts(S, M, held, seat):
    """A seat's cards of a held row, as counts per value (a view of S)."""
    row = held_row(M, held)
    n = M[row + ops.HELD_N_VALUES]
    at = M[row + ops.HELD_S] + seat * n
    return S[at:at + n]


@jit
def settle_held(S, M, seat, held, change):
    """The seat's counter moved by `change`: its cards move alike (denominations.settle)."""
    if seat < 0 or seat >= M[ops.TH_SEATS]:
        stop(S, ops.ERR_RULE, seat)
    settle_counts(held_values(M, held), held_counts(S, M, held, seat), change)


@jit
def transfer(S, M, giver, taker, res, amount, key):
    """Up to amount of a resource from one seat to another; how much moved."""
    if giver == taker or amount <= 0:
        return 0
    most = M[M[ops.TH_RES_MAX] + res]
    have = S[resource_at(M, giver, res)]
    moved = amount
    if most >= 0:
        room = most - S[resource_at(M, taker, res)]
        if room < 0:
            room = 0
        if room < moved:
            moved = room
    if have < moved:
        moved = have
    if moved != 0:
        gain(S, M, giver, res, -moved, key)
        gain(S, M, taker, res, moved, key)
    return moved


# ---- piles and hands ------------------------------------------------------------------------------------
@jit_inline
def deck_row(M, deck):
    return M[ops.TH_DECK] + deck * ops.DECK_FIELDS


@jit_inline
def pile(M, deck, which):
    """The S offset of one of a deck's piles (which: DECK_S_DRAW, _DISCARD, _BOXED, _SHOWN)."""
    return M[deck_row(M, deck) + which]


@jit_inline
def push(S, M, at, deck, card):
    """Put a card at the bottom of a pile (a list's append)."""
    n = S[at]
    if n >= M[deck_row(M, deck) + ops.DECK_CAP]:
        stop(S, ops.ERR_ROOM, deck)
    S[at + 1 + n] = card
    S[at] = n + 1


@jit_inline
def cut(S, at, length):
    """Shorten a pile to `length` cards (its cards past that cleared: a pile's unused room is 0)."""
    zero(S, at + 1 + length, S[at] - length)
    S[at] = length


@jit_inline
def pop_top(S, at):
    """Take the top card of a pile (a list's pop(0))."""
    n = S[at]
    card = S[at + 1]
    for i in range(1, n):
        S[at + i] = S[at + i + 1]
    S[at + n] = 0
    S[at] = n - 1
    return card


@jit
def remove_card(S, at, card):
    """Remove the first copy of a card from a pile (a list's remove); False if it holds none."""
    n = S[at]
    for i in range(n):
        if S[at + 1 + i] == card:
            for j in range(i, n - 1):
                S[at + 1 + j] = S[at + 2 + j]
            S[at + n] = 0
            S[at] = n - 1
            return True
    return False


@jit_inline
def hand_at(M, seat, card):
    return M[ops.TH_S_HANDS] + seat * M[ops.TH_CARDS] + card


@jit_inline
def to_hand(S, M, seat, card):
    S[hand_at(M, seat, card)] += 1
    S[M[ops.TH_S_HAND_SIZE] + seat] += 1


@jit_inline
def from_hand(S, M, seat, card):
    at = hand_at(M, seat, card)
    if S[at] <= 0:
        stop(S, ops.ERR_RULE, card)          # the interpreter's list.remove fails
    S[at] -= 1
    S[M[ops.TH_S_HAND_SIZE] + seat] -= 1


@jit_inline
def card_deck(M, card):
    return M[M[ops.TH_CARD] + card * ops.CARD_FIELDS + ops.CARD_DECK]


@jit_inline
def discard(S, M, seat, card):
    """A card leaves the hand for its deck's discard pile."""
    from_hand(S, M, seat, card)
    deck = card_deck(M, card)
    push(S, M, pile(M, deck, ops.DECK_S_DISCARD), deck, card)


@jit_inline
def to_discards(S, M, card):
    deck = card_deck(M, card)
    push(S, M, pile(M, deck, ops.DECK_S_DISCARD), deck, card)


@jit
def draw(S, M, seat, deck, count, key):
    """Up to count cards from the deck into the seat's hand, the discard pile shuffled in as a
    new deck when the deck allows it and runs out. How many were drawn."""
    draw_at = pile(M, deck, ops.DECK_S_DRAW)
    reshuffle = M[deck_row(M, deck) + ops.DECK_RESHUFFLE] != 0
    drawn = 0
    while drawn < count:
        if S[draw_at] == 0 and reshuffle:
            refill(S, M, deck)
        if S[draw_at] == 0:
            break
        to_hand(S, M, seat, pop_top(S, draw_at))
        drawn += 1
    return drawn


@jit
def refill(S, M, deck):
    """An empty deck takes its discard pile, shuffled (if it has one)."""
    draw_at = pile(M, deck, ops.DECK_S_DRAW)
    discards = pile(M, deck, ops.DECK_S_DISCARD)
    n = S[discards]
    if n == 0:
        return
    for i in range(n):
        S[draw_at + 1 + S[draw_at] + i] = S[discards + 1 + i]
        S[discards + 1 + i] = 0
    S[draw_at] += n
    S[discards] = 0
    shuffle(S, draw_at + 1, S[draw_at])


@jit_inline
def cards_available(S, M, deck):
    extra = S[pile(M, deck, ops.DECK_S_DISCARD)] if M[deck_row(M, deck) + ops.DECK_RESHUFFLE] != 0 else 0
    return S[pile(M, deck, ops.DECK_S_DRAW)] + extra


# ---- places: owners and tokens ---------------------------------------------------------------------------------
@jit_inline
def owner_of(S, M, place):
    return S[M[ops.TH_S_OWNER] + place]


@jit_inline
def set_owner(S, M, place, seat):
    S[M[ops.TH_S_OWNER] + place] = seat


@jit_inline
def token_at(M, place, token):
    return M[ops.TH_S_TOKENS] + place * M[ops.TH_TOKENS] + token


@jit_inline
def supply_at(M, token):
    return M[M[ops.TH_TOKEN_SUPPLY] + token]


@jit_inline
def unlimited(S, M, kind):
    return S[M[ops.TH_S_UNLIMITED] + kind] != 0


@jit
def capacity(S, M, place, token):
    """The most of the token the place may hold; -1 for no capacity."""
    at = M[ops.TH_TOKEN_CAPACITY] + 2 * token
    kind = M[at]
    if kind == ops.CAP_NONE:
        return -1
    if kind == ops.CAP_COLUMN:
        return M[M[ops.TH_COLUMNS] + M[at + 1] * M[ops.TH_PLACES] + place]
    return S[token_at(M, place, M[at + 1])]


@jit_inline
def room(S, M, place, token):
    """How many more of the token the place can hold (UNLIMITED without a capacity)."""
    if M[M[ops.TH_TOKEN_CAPACITY] + 2 * token] == ops.CAP_NONE:
        return UNLIMITED
    free = capacity(S, M, place, token) - S[token_at(M, place, token)]
    return free if free > 0 else 0


@jit_inline
def supply_of(S, M, token):
    return S[M[ops.TH_S_SUPPLY] + supply_at(M, token)]


@jit
def place_tokens(S, M, place, token, count):
    """Up to count tokens from the supply onto the place (within its room); how many."""
    kind = supply_at(M, token)
    held = token_at(M, place, token)
    have = S[held]
    supply = S[M[ops.TH_S_SUPPLY] + kind]
    if count > supply:
        count = supply
    if M[M[ops.TH_TOKEN_CAPACITY] + 2 * token] != ops.CAP_NONE:
        free = capacity(S, M, place, token) - have
        if count > free:
            count = free
    if count <= 0:
        return 0
    if not unlimited(S, M, kind):
        S[M[ops.TH_S_SUPPLY] + kind] -= count
    S[held] = have + count
    if M[M[ops.TH_CONVERTED] + token] != 0:
        apply_conversions(S, M, place)
    return count


@jit
def remove_tokens(S, M, place, token, count):
    held = token_at(M, place, token)
    have = S[held]
    if count > have:
        count = have
    if count <= 0:
        return 0
    S[held] = have - count
    kind = supply_at(M, token)
    if not unlimited(S, M, kind):
        S[M[ops.TH_S_SUPPLY] + kind] += count
    return count


@jit
def move_tokens(S, M, source, target, token, count):
    have = S[token_at(M, source, token)]
    free = room(S, M, target, token)
    if have < count:
        count = have
    if free < count:
        count = free
    if count <= 0 or source == target:
        return 0
    S[token_at(M, source, token)] -= count
    S[token_at(M, target, token)] += count
    if M[M[ops.TH_CONVERTED] + token] != 0:
        apply_conversions(S, M, target)
    return count


@jit
def convert_once(S, M, place, count, source, target):
    """Replace count source tokens by one target token, if both are to be had."""
    target_kind = supply_at(M, target)
    if S[token_at(M, place, source)] < count or S[M[ops.TH_S_SUPPLY] + target_kind] < 1:
        return False
    S[token_at(M, place, source)] -= count
    source_kind = supply_at(M, source)
    if not unlimited(S, M, source_kind):
        S[M[ops.TH_S_SUPPLY] + source_kind] += count
    if not unlimited(S, M, target_kind):
        S[M[ops.TH_S_SUPPLY] + target_kind] -= 1
    S[token_at(M, place, target)] += 1
    return True


@jit_inline
def convert(S, M, place, count, source, target):
    """A conversion a rule makes, then the automatic ones it brings about."""
    if not convert_once(S, M, place, count, source, target):
        return False
    apply_conversions(S, M, place)
    return True


@jit
def apply_conversions(S, M, place):
    """The rules' automatic conversions until none applies (interpreter: convert and
    apply_conversions calling each other; here a loop that starts again after each one)."""
    at = M[ops.TH_CONVERSION]
    count = M[ops.TH_CONVERSIONS]
    while True:
        converted = False
        for i in range(count):
            source, need, target = M[at + 4 * i], M[at + 4 * i + 1], M[at + 4 * i + 2]
            if S[token_at(M, place, source)] >= need and convert_once(S, M, place, need, source, target):
                converted = True
                break
        if not converted:
            return


# ---- modifiers ------------------------------------------------------------------------------------------------
@jit_inline
def mod_row(M, mod):
    return M[ops.TH_MOD] + mod * ops.MOD_FIELDS


@jit
def mod_read(S, M, mod, index):
    """The modifier's value at a seat or place (index 0 for the game); its default when unset."""
    row = mod_row(M, mod)
    at = M[row + ops.MOD_S]
    if S[at] == 0:
        return M[row + ops.MOD_DEFAULT]
    if index < 0 or index >= mod_size(S, M, mod):
        stop(S, ops.ERR_RULE, mod)
    value = S[at + 1 + index]
    return M[row + ops.MOD_DEFAULT] if value == ops.NONE else value


@jit_inline
def mod_size(S, M, mod):
    row = mod_row(M, mod)
    scope = M[row + ops.MOD_SCOPE]
    if scope == ops.SCOPE_SEAT:
        return S[ops.S_PLAYERS]
    return M[row + ops.MOD_SIZE]


@jit
def mod_write(S, M, mod, index, value):
    row = mod_row(M, mod)
    at = M[row + ops.MOD_S]
    if index < 0 or index >= mod_size(S, M, mod):
        stop(S, ops.ERR_RULE, mod)
    if S[at] == 0:
        S[at] = 1
        for i in range(mod_size(S, M, mod)):
            S[at + 1 + i] = ops.NONE
    S[at + 1 + index] = value


@jit_inline
def mod_unset(S, M, mod, index):
    at = M[mod_row(M, mod) + ops.MOD_S]
    if S[at] != 0:
        S[at + 1 + index] = ops.NONE


@jit_inline
def mod_expire(S, M, mod):
    row = mod_row(M, mod)
    at = M[row + ops.MOD_S]
    S[at] = 0
    zero(S, at + 1, M[row + ops.MOD_SIZE])
