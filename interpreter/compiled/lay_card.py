"""Laying a card face up (interpreter/mechanics/lay_card.py), in machine code.

Working data after the turn head: whether a card was laid. It keeps the card laid last (its
place) and the seat that laid it (`PHASE.card`, `PHASE.seat`; -1 before one is laid).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import cards, material, ops, pack
from .cards import add_id
from .core import sort_ids, stop
from .jit import jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .pointers import evaluate
from .turns import begin_turns, count_pick, index_at, own, params, turn_seat

if TYPE_CHECKING:
    from ..mechanics.lay_card import LayCard

# the row of parameters
LC_WHERE, LC_THEN, LC_FIRST_ONLY, LC_DECLINE, LC_BLOCK, LC_BASE, LC_N_CARDS, LC_CARDS = 0, 1, 2, 3, 4, 5, 6, 7
LC_CARD_SLOT, LC_KEY = 8, 9
# working data after the turn head
WLC_LAID = 0


@jit_inline
def kept_at(M, phase):
    return M[M[ops.TH_KEPT] + phase]


@jit_inline
def begin(S, M, phase):
    begin_turns(S, M, phase)
    S[own(M) + WLC_LAID] = 0
    kept = kept_at(M, phase)
    S[kept] = 1
    S[kept + 1] = -1
    S[kept + 2] = -1


@jit_inline
def to_move(S, M, phase):
    if M[params(M, phase) + LC_FIRST_ONLY] != 0 and S[own(M) + WLC_LAID] != 0:
        return -1
    return turn_seat(S, M)


@jit_inline
def legal(S, M, phase, seat, out):
    """The cards of the seat's hand it may lay (with the choices of `then`), and declining
    where it may, in id order."""
    p = params(M, phase)
    where, then, block = M[p + LC_WHERE], M[p + LC_THEN], M[p + LC_BLOCK]
    step = cards.stride(M, block, 0)
    listed = M[p + LC_CARDS]
    slot = M[ops.TH_X_ENV] + M[p + LC_CARD_SLOT]
    key = M[p + LC_KEY]
    n = np.int64(0)
    for i in range(M[p + LC_N_CARDS]):
        if S[material.hand_at(M, seat, M[listed + 2 * i])] <= 0:
            continue
        place = M[listed + 2 * i + 1]
        M[slot] = place
        if where >= 0 and evaluate(S, M, where, seat, -1) == 0:
            continue
        base = M[p + LC_BASE] + i * step
        if then < 0:
            n = add_id(S, M, out, n, base)
        else:
            M[slot] = place
            n = cards.allowed_ids(S, M, seat, then, block, np.int64(1), base, key, out, n)
    decline = M[p + LC_DECLINE]
    if n > 0 and decline >= 0:
        n = add_id(S, M, out, n, decline)
    sort_ids(M, out, n)
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    S[index_at(M)] += 1
    if action == M[p + LC_DECLINE]:
        return
    block = M[p + LC_BLOCK]
    i = (action - M[p + LC_BASE]) // cards.stride(M, block, 0)
    if i < 0 or i >= M[p + LC_N_CARDS]:
        stop(S, ops.ERR_RULE, action)
    listed = M[p + LC_CARDS]
    card, place = M[listed + 2 * i], M[listed + 2 * i + 1]
    material.from_hand(S, M, seat, card)
    material.to_discards(S, M, card)
    S[own(M) + WLC_LAID] = 1
    kept = kept_at(M, phase)
    S[kept] = 1
    S[kept + 1] = place
    S[kept + 2] = seat
    count_pick(S, M, phase, place)
    then = M[p + LC_THEN]
    if then >= 0:
        cards.bind(S, M, then, block, np.int64(1), action)
        M[M[ops.TH_X_ENV] + M[p + LC_CARD_SLOT]] = place
        cards.run_effect(S, M, then, seat, M[p + LC_KEY])


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_TO_MOVE:
        return to_move(S, M, phase)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_PASS:
        S[index_at(M)] += 1
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: LayCard) -> tuple[int, int, int]:
    rules = lowering.rules
    listed = []
    for card in mech.cards:                     # the block's order: by card id
        listed += [lowering.card_index[card], rules.place_index[card]]
    block = next(i for i, b in enumerate(rules.actions.blocks) if b is mech.block)
    params_ = row({LC_WHERE: lowering.program(mech.where), LC_THEN: lowering.effect(mech.then),
                   LC_FIRST_ONLY: int(mech.first_only), LC_DECLINE: -1 if mech.decline is None else mech.decline.base,
                   LC_BLOCK: block, LC_BASE: mech.block.base, LC_N_CARDS: len(mech.cards),
                   LC_CARDS: lowering.put(listed),
                   LC_CARD_SLOT: lowering.slot("card"), LC_KEY: lowering.key(mech.cause)})
    return lowering.put(params_), turn_head(lowering) + 1, 2


def member(lowering: Any, phase: int, mech: LayCard, name: str) -> tuple[int, int, int] | None:
    """`PHASE.card` (the card laid last, a place) and `PHASE.seat` (who laid it): -1 for none."""
    fields = {"card": 0, "seat": 1}
    return (ops.MEMBER_KEPT, phase, fields[name]) if name in fields else None


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    return pack.turn_data(lowering.rules.max_players, data["order"], data["idx"]) + [int(data["laid"])]


def pack_kept(lowering: Any, pid: str, kept: dict[str, Any]) -> list[int]:
    return [-1 if kept["card"] is None else kept["card"], -1 if kept["seat"] is None else kept["seat"]]


def picks(lowering: Any, pid: str, mech: LayCard) -> list[tuple[str, Any]]:
    """Every pick it may keep, as simulate counts them: a card laid, by its place's index."""
    return [("card", place) for place in range(lowering.place_count)]
