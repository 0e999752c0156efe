"""Dealing (interpreter/mechanics/deal.py), in machine code: in the phase's turn order each
seat is dealt cards from a deck into its hand. Its working data is one flag: done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import material, ops
from .core import release, scratch
from .jit import jit, jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .pointers import evaluate
from .turns import params, work

if TYPE_CHECKING:
    from ..mechanics.deal import Deal

DL_DECK, DL_COUNT, DL_KEY = 0, 1, 2


@jit
def order_to(S, M, phase, out):
    """The seats in the phase's turn order into M[out:] (turns.order_into, into scratch room:
    dealing keeps no order in its working data)."""
    row_ = M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS
    kind = M[row_ + ops.PHASE_ORDER]
    n = S[ops.S_PLAYERS]
    start = S[ops.S_START]
    if kind == ops.ORDER_COUNTER:
        for i in range(n):
            M[out + i] = (start - i) % n
        return
    if kind == ops.ORDER_FROM:
        first = evaluate(S, M, M[row_ + ops.PHASE_ORDER_EXPR], -1, -1)
        if first >= 0:
            start = first
    for i in range(n):
        M[out + i] = (start + i) % n
    if kind != ops.ORDER_BY:
        return
    by, highest = M[row_ + ops.PHASE_ORDER_EXPR], M[row_ + ops.PHASE_HIGHEST_FIRST] != 0
    keys = scratch(S, M, n)
    for i in range(n):
        value = evaluate(S, M, by, M[out + i], -1)
        M[keys + i] = -value if highest else value
    for i in range(1, n):                       # a stable sort by key
        seat, key = M[out + i], M[keys + i]
        j = i
        while j > 0 and M[keys + j - 1] > key:
            M[out + j] = M[out + j - 1]
            M[keys + j] = M[keys + j - 1]
            j -= 1
        M[out + j] = seat
        M[keys + j] = key
    release(M, keys)


@jit_inline
def auto(S, M, phase):
    if S[work(M) + ops.W_DONE] != 0:
        return False
    p = params(M, phase)
    count = evaluate(S, M, M[p + DL_COUNT], -1, -1)
    n = S[ops.S_PLAYERS]
    order = scratch(S, M, n)
    order_to(S, M, phase, order)
    deck, key = M[p + DL_DECK], M[p + DL_KEY]
    for i in range(n):
        material.draw(S, M, M[order + i], deck, count, key)
    release(M, order)
    S[work(M) + ops.W_DONE] = 1
    return True


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        S[work(M) + ops.W_DONE] = 0
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Deal) -> tuple[int, int, int]:
    params_ = row({DL_DECK: lowering.deck(mech.deck), DL_COUNT: lowering.program(mech.count),
                   DL_KEY: lowering.key(mech.cause)})
    return lowering.put(params_), 1, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): done."""
    return [int(data["done"])]
