"""Effects with choices, card plays and selling cards, in machine code: what
interpreter/play/choices.py, cards.py and standing.py do, over the state array.

An effect's choices are fields of its action: `allowed_ids` lists the ids whose choices meet
every requirement, checking each requirement as soon as the choices it reads are made, in the
interpreter's order (so the legal ids come out in the same order); `bind` puts an action's
chosen values in the bound names before the effect runs.
"""

from __future__ import annotations

import numpy as np

from . import material, ops
from .core import release, scratch, stop
from .jit import jit, jit_inline
from .pointers import evaluate


@jit_inline
def add_id(S, M, out, n, action):
    """Append an id to a list of legal ids at M[out:]; the new count."""
    if n >= M[ops.TH_LEGAL_CAP]:
        stop(S, ops.ERR_ROOM, n)
    M[out + n] = action
    return n + 1


@jit_inline
def effect_row(M, effect):
    return M[ops.TH_EFFECT] + effect * ops.EFFECT_FIELDS


@jit_inline
def block_row(M, block):
    return M[ops.TH_BLOCK] + block * ops.BLOCK_FIELDS


@jit_inline
def stride(M, block, field):
    return M[M[block_row(M, block) + ops.BLOCK_STRIDES] + field]


@jit
def choice_index(S, M, choice, value):
    """The index a chosen value has in its field (a place or seat is its own index)."""
    kind = M[choice + ops.CHOICE_KIND]
    if kind != ops.CHOICE_VALUES_KIND:
        return value
    values = M[choice + ops.CHOICE_VALUES]
    for i in range(M[choice + ops.CHOICE_N_VALUES]):
        if M[values + i] == value:
            return i
    stop(S, ops.ERR_RULE, value)
    return -1


@jit
def requires_hold(S, M, effect, level, seat, cause):
    row = effect_row(M, effect)
    at = M[row + ops.EFFECT_REQUIRES]
    for i in range(M[row + ops.EFFECT_N_REQUIRES]):
        if M[at + 2 * i + ops.REQUIRE_LEVEL] == level and evaluate(S, M, M[at + 2 * i + ops.REQUIRE_PROG],
                                                                   seat, cause) == 0:
            return False
    return True


@jit
def allowed_ids(S, M, seat, effect, block, first, base, cause, out, n):
    """Append to M[out:] (n so far) the ids of `block`, from `base`, whose choices (its fields
    from `first` on) meet every requirement of the effect; the new count."""
    row = effect_row(M, effect)
    count = M[row + ops.EFFECT_N_CHOICES]
    choices = M[row + ops.EFFECT_CHOICES]
    if count == 0:
        if requires_hold(S, M, effect, np.int64(0), seat, cause):
            n = add_id(S, M, out, n, base)
        return n
    env = M[ops.TH_X_ENV]
    if M[row + ops.EFFECT_N_REQUIRES] == 0 and count == 1:
        mark = M[ops.X_ARENA_TOP]
        options = evaluate(S, M, M[choices + ops.CHOICE_OPTIONS], seat, cause)
        step = stride(M, block, first)
        for i in range(M[options]):
            n = add_id(S, M, out, n, base + choice_index(S, M, choices, M[options + 1 + i]) * step)
        M[ops.X_ARENA_TOP] = mark
        return n
    frame = scratch(S, M, 4 * (count + 1))       # per level: its options, next index, arena mark, id so far
    level = np.int64(0)
    M[frame + 3] = base
    entering = True
    while level >= 0:
        at = frame + 4 * level
        if entering:
            entering = False
            if not requires_hold(S, M, effect, level, seat, cause):
                level -= 1
                continue
            if level == count:
                n = add_id(S, M, out, n, M[at + 3])
                level -= 1
                continue
            M[at + 2] = M[ops.X_ARENA_TOP]
            M[at] = evaluate(S, M, M[choices + level * ops.CHOICE_FIELDS + ops.CHOICE_OPTIONS], seat, cause)
            M[at + 1] = 0
        choice = choices + level * ops.CHOICE_FIELDS
        options, i = M[at], M[at + 1]
        if i >= M[options]:
            M[ops.X_ARENA_TOP] = M[at + 2]
            level -= 1
            continue
        M[at + 1] = i + 1
        value = M[options + 1 + i]
        M[env + M[choice + ops.CHOICE_SLOT]] = value
        M[at + 4 + 3] = M[at + 3] + choice_index(S, M, choice, value) * stride(M, block, first + level)
        level += 1
        entering = True
    release(M, frame)
    return n


@jit
def bind(S, M, effect, block, first, action):
    """Put the values an action chose (its fields from `first` on) in the bound names."""
    row = effect_row(M, effect)
    choices = M[row + ops.EFFECT_CHOICES]
    offset = action - M[block_row(M, block) + ops.BLOCK_BASE]
    fields = M[block_row(M, block) + ops.BLOCK_N_FIELDS]
    env = M[ops.TH_X_ENV]
    for field in range(fields):
        step = stride(M, block, field)
        index = offset // step
        offset = offset % step
        if field >= first:
            choice = choices + (field - first) * ops.CHOICE_FIELDS
            value = index
            if M[choice + ops.CHOICE_KIND] == ops.CHOICE_VALUES_KIND:
                value = M[M[choice + ops.CHOICE_VALUES] + index]
            M[env + M[choice + ops.CHOICE_SLOT]] = value


@jit_inline
def field_index(M, block, field, action):
    """The index an action has in one field of its block."""
    offset = action - M[block_row(M, block) + ops.BLOCK_BASE]
    for f in range(field):
        offset = offset % stride(M, block, f)
    return offset // stride(M, block, field)


@jit_inline
def run_effect(S, M, effect, seat, cause):
    evaluate(S, M, M[effect_row(M, effect) + ops.EFFECT_BODY], seat, cause)


# ---- card plays --------------------------------------------------------------------------------
@jit_inline
def card_row(M, card):
    return M[ops.TH_CARD] + card * ops.CARD_FIELDS


@jit_inline
def played_at(M, lifetime, seat, card):
    """Where the record of the seat playing the card kind within a lifetime lies (-1: none)."""
    region = M[M[ops.TH_LIFETIME] + lifetime * ops.LIFE_FIELDS + ops.LIFE_PLAYED]
    if region < 0:
        return -1
    return region + seat * M[ops.TH_CARDS] + card


@jit_inline
def used(S, M, seat, card):
    """A card of a kind already played this lifetime, where its deck allows one of each kind."""
    lifetime = M[material.deck_row(M, material.card_deck(M, card)) + ops.DECK_ONE_PER_KIND]
    if lifetime < 0:
        return False
    at = played_at(M, lifetime, seat, card)
    return at >= 0 and S[at] != 0


@jit
def holds_window_card(S, M, seat, window):
    if window < 0:
        return False
    cards = M[M[ops.TH_WINDOW] + window]
    for i in range(M[cards]):
        if S[material.hand_at(M, seat, M[cards + 1 + i])] > 0:
            return True
    return False


@jit
def playable(S, M, seat, window, out, n):
    """Append the play ids of the seat's cards of the window, in id order; the new count."""
    cards = M[M[ops.TH_WINDOW] + window]
    for i in range(M[cards]):
        card = M[cards + 1 + i]
        if S[material.hand_at(M, seat, card)] > 0 and not used(S, M, seat, card):
            row = card_row(M, card)
            block = M[row + ops.CARD_PLAY_BLOCK]
            n = allowed_ids(S, M, seat, M[row + ops.CARD_EFFECT], block, np.int64(0),
                            M[block_row(M, block) + ops.BLOCK_BASE], M[row + ops.CARD_CAUSE], out, n)
    return n


@jit
def play(S, M, seat, block, action):
    """Play the card of a play action: it leaves the hand for its discard pile, then its
    effect runs with the action's choices."""
    card = -1
    for c in range(M[ops.TH_CARDS]):
        if M[card_row(M, c) + ops.CARD_PLAY_BLOCK] == block:
            card = c
            break
    material.discard(S, M, seat, card)
    lifetime = M[material.deck_row(M, material.card_deck(M, card)) + ops.DECK_ONE_PER_KIND]
    if lifetime >= 0:
        at = played_at(M, lifetime, seat, card)
        if at >= 0:
            S[at] = 1
    row = card_row(M, card)
    effect = M[row + ops.CARD_EFFECT]
    bind(S, M, effect, block, np.int64(0), action)
    run_effect(S, M, effect, seat, M[row + ops.CARD_CAUSE])


# ---- standing actions: selling cards ------------------------------------------------------------------------
@jit_inline
def standing_row(M, card):
    return M[ops.TH_STANDING] + ops.STANDING_FIELDS + 4 * card


@jit
def sale_ids(S, M, seat, out, n):
    """Append the ids of selling the seat's cards that sell, ascending (the sellable cards are
    listed by their sale's id); the new count."""
    sellable = M[ops.TH_SELLABLE]
    for i in range(M[sellable]):
        card = M[sellable + 1 + i]
        if S[material.hand_at(M, seat, card)] > 0:
            n = add_id(S, M, out, n, M[standing_row(M, card)])
    return n


@jit
def sell(S, M, seat, action):
    for card in range(M[ops.TH_CARDS]):
        row = standing_row(M, card)
        if M[row] == action:
            material.discard(S, M, seat, card)
            material.gain(S, M, seat, M[row + 1], M[row + 2], M[card_row(M, card) + ops.CARD_SALE])
            return
    stop(S, ops.ERR_RULE, action)
