"""Dealing (interpreter/mechanics/deal.py), in machine code: in the phase's turn order each
seat is dealt cards from a deck into its hand. Its working data is one flag: done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import material, ops
from .core import release, scratch
from .jit import jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .pointers import evaluate
from .turns import params, seats_in_order, work

if TYPE_CHECKING:
    from ..mechanics.deal import Deal

DL_DECK, DL_COUNT, DL_KEY = 0, 1, 2


@jit_inline
def auto(S, M, phase):
    if S[work(M) + ops.W_DONE] != 0:
        return False
    p = params(M, phase)
    count = evaluate(S, M, M[p + DL_COUNT], -1, -1)
    n = S[ops.S_PLAYERS]
    order = scratch(S, M, n)
    seats_in_order(S, M, phase, M, order)
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
