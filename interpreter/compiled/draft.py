"""Draft (interpreter/mechanics/draft.py), in machine code: in turn order each seat takes one
card of a deck's display (its `shown` pile), the `take` effect running with `card` bound (a
place for a deck of places, else the card's id as a word) and its own choices; as the phase
ends, the display is laid out again.

Working data: the turn head only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import cards, decks, material, ops, pack
from .cards import add_id
from .core import sort_ids
from .jit import jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .turns import begin_turns, index_at, params, turn_seat

if TYPE_CHECKING:
    from ..mechanics.draft import Draft

# the phase's row of parameters
DR_DECK, DR_OF_PLACES, DR_TAKE, DR_BLOCK, DR_BASE, DR_STRIDE, DR_KEY, DR_INDEX, DR_CARDS, DR_N_CARDS, DR_CARD_SLOT = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


@jit_inline
def shown_at(M, p):
    return material.pile(M, M[p + DR_DECK], ops.DECK_S_SHOWN)


@jit_inline
def to_move(S, M, phase):
    if S[shown_at(M, params(M, phase))] == 0:
        return -1
    return turn_seat(S, M)


@jit_inline
def bound(M, p, card):
    """What `card` is bound to: the place of a deck of places, else the card's word."""
    row = cards.card_row(M, card)
    return M[row + ops.CARD_PLACE] if M[p + DR_OF_PLACES] != 0 else M[row + ops.CARD_WORD]


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    shown = shown_at(M, p)
    take = M[p + DR_TAKE]
    env = M[ops.TH_X_ENV]
    n = np.int64(0)
    for i in range(S[shown]):
        card = S[shown + 1 + i]
        seen = False
        for j in range(i):
            if S[shown + 1 + j] == card:
                seen = True
        if seen:
            continue
        index = M[M[p + DR_INDEX] + card]
        if index < 0:
            answer(S, ops.CALL_APPLY, phase)        # a card not of the deck: the interpreter's look-up fails
        base = M[p + DR_BASE] + index * M[p + DR_STRIDE]
        if take < 0:
            n = add_id(S, M, out, n, base)
        else:
            M[env + M[p + DR_CARD_SLOT]] = bound(M, p, card)
            n = cards.allowed_ids(S, M, seat, take, M[p + DR_BLOCK], np.int64(1), base, M[p + DR_KEY], out, n)
    sort_ids(M, out, n)
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    block = M[p + DR_BLOCK]
    index = cards.field_index(M, block, 0, action)
    if index < 0 or index >= M[p + DR_N_CARDS]:
        answer(S, ops.CALL_APPLY, phase)
    card = M[M[p + DR_CARDS] + index]
    deck = M[p + DR_DECK]
    if not material.remove_card(S, shown_at(M, p), card):
        answer(S, ops.CALL_APPLY, phase)            # list.remove fails
    S[index_at(M)] += 1
    if M[p + DR_OF_PLACES] != 0:
        material.push(S, M, material.pile(M, deck, ops.DECK_S_DISCARD), deck, card)
    else:
        material.to_hand(S, M, seat, card)
    take = M[p + DR_TAKE]
    if take >= 0:
        cards.bind(S, M, take, block, np.int64(1), action)
        M[M[ops.TH_X_ENV] + M[p + DR_CARD_SLOT]] = bound(M, p, card)
        cards.run_effect(S, M, take, seat, M[p + DR_KEY])


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin_turns(S, M, phase)
        return 0
    if call == ops.CALL_TO_MOVE:
        return to_move(S, M, phase)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_PASS:
        S[index_at(M)] += 1                     # nothing it may take
        return 0
    if call == ops.CALL_END:
        decks.lay_out(S, M, M[params(M, phase) + DR_DECK])
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Draft) -> tuple[int, int, int]:
    block = mech.block
    index = [mech.index.get(c, -1) for c in lowering.cards]
    params = row({DR_DECK: lowering.deck(mech.deck), DR_OF_PLACES: int(mech.of_places),
                  DR_TAKE: lowering.effect(mech.take),
                  DR_BLOCK: next(i for i, b in enumerate(lowering.rules.actions.blocks) if b is block),
                  DR_BASE: block.base, DR_STRIDE: block.strides[0], DR_KEY: lowering.key(mech.cause),
                  DR_INDEX: lowering.put(index), DR_CARDS: lowering.put([lowering.card_index[c] for c in mech.cards]),
                  DR_N_CARDS: len(mech.cards), DR_CARD_SLOT: lowering.slot("card")})
    return lowering.put(params), turn_head(lowering), 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): the turn head."""
    return pack.turn_data(lowering.rules.max_players, data["order"], data["idx"])
