"""A transition (interpreter/mechanics/transition.py), in machine code: its effect runs once,
by itself, no seat acting. Its working data is one flag: done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, ops
from .jit import jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .turns import params, work

if TYPE_CHECKING:
    from ..mechanics.transition import Transition

TR_RUN, TR_KEY = 0, 1


@jit_inline
def auto(S, M, phase):
    if S[work(M) + ops.W_DONE] != 0:
        return False
    S[work(M) + ops.W_DONE] = 1
    p = params(M, phase)
    cards.run_effect(S, M, M[p + TR_RUN], -1, M[p + TR_KEY])
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


def lower(lowering: Any, pid: str, mech: Transition) -> tuple[int, int, int]:
    params_ = row({TR_RUN: lowering.effect(mech.run), TR_KEY: lowering.key(mech.cause)})
    return lowering.put(params_), 1, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): done."""
    return [int(data["done"])]
