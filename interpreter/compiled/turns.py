"""Turn order, and the mechanics that are one turn per seat closed by one action (a card
window, income), in machine code: interpreter/mechanics/base.py `turn_order` and
card_window.py / income.py over the state array.

A mechanic that takes turns keeps, at the start of its working data, how many seats are in its
order, the order, and its index into it (ops.W_N, W_ORDER; the index after the order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import material, ops, pack
from .cards import add_id
from .core import checked, release, scratch
from .jit import jit, jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .pointers import evaluate

if TYPE_CHECKING:
    from ..mechanics.card_window import CardWindow
    from ..mechanics.income import Income


@jit_inline
def work(M):
    return M[ops.TH_S_WORK]


@jit_inline
def index_at(M):
    """Where the turn index (or turn counter) lies."""
    return M[ops.TH_S_WORK] + 1 + M[ops.TH_SEATS]


@jit_inline
def own(M):
    """Where a turn-taking mechanic's own working data starts."""
    return M[ops.TH_S_WORK] + 2 + M[ops.TH_SEATS]


@jit_inline
def running(S, M, phase):
    """Whether the phase is the one running (its mechanic's `running(game)` is not None)."""
    return S[ops.S_WORKING] != 0 and M[M[ops.TH_LEAF_PHASE] + S[ops.S_AT]] == phase


@jit_inline
def count_pick(S, M, phase, slot):
    """The phase kept a pick (its slot among the phase's possible picks): a study counts it."""
    at = M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_PICKS]
    if at >= 0:
        S[at + slot] += 1


@jit_inline
def params(M, phase):
    return M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_PARAMS]


@jit
def seats_in_order(S, M, phase, into, at):
    """The seats in the phase's turn order into into[at:] (S: a phase's working data; M:
    scratch room, for a phase that keeps no order)."""
    row = M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS
    kind = M[row + ops.PHASE_ORDER]
    n = S[ops.S_PLAYERS]
    start = S[ops.S_START]
    if kind == ops.ORDER_COUNTER:
        for i in range(n):
            into[at + i] = (start - i) % n
        return
    if kind == ops.ORDER_FROM:
        first = evaluate(S, M, M[row + ops.PHASE_ORDER_EXPR], -1, -1)
        if first >= 0:
            start = first
    for i in range(n):
        into[at + i] = (start + i) % n
    if kind != ops.ORDER_BY:
        return
    by, highest = M[row + ops.PHASE_ORDER_EXPR], M[row + ops.PHASE_HIGHEST_FIRST] != 0
    keys = scratch(S, M, n)
    for i in range(n):
        value = evaluate(S, M, by, into[at + i], -1)
        M[keys + i] = -value if highest else value
    for i in range(1, n):                       # a stable sort by key
        seat, key = into[at + i], M[keys + i]
        j = i
        while j > 0 and M[keys + j - 1] > key:
            into[at + j] = into[at + j - 1]
            M[keys + j] = M[keys + j - 1]
            j -= 1
        into[at + j] = seat
        M[keys + j] = key
    release(M, keys)


@jit_inline
def order_into(S, M, phase):
    """The seats in the phase's turn order, into the working data's head."""
    S[work(M) + ops.W_N] = S[ops.S_PLAYERS]
    seats_in_order(S, M, phase, S, work(M) + ops.W_ORDER)


@jit_inline
def begin_turns(S, M, phase):
    order_into(S, M, phase)
    S[index_at(M)] = 0


@jit_inline
def turn_seat(S, M):
    """The seat whose turn it is, or -1 when every seat has had its turn."""
    i = S[index_at(M)]
    if i < S[work(M) + ops.W_N]:
        return S[work(M) + ops.W_ORDER + i]
    return -1


@jit_inline
def closing_legal(S, M, phase, out):
    closing = M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_CLOSING]
    return add_id(S, M, out, 0, closing)


@jit_inline
def collect(S, M, phase, seat):
    """Income: the seat collects from every place it owns."""
    total = earnings(S, M, phase, seat)
    S[index_at(M)] += 1
    p = params(M, phase)
    material.gain(S, M, seat, M[p + ops.IN_RES], total, M[p + ops.IN_KEY])


@jit
def earnings(S, M, phase, seat):
    """What the seat's places yield it in this income phase now (a place's `instead` modifier,
    when 0 or more, is its whole yield): what it collects, and a bot's forecast of it."""
    p = params(M, phase)
    amount, instead = M[p + ops.IN_AMOUNT], M[p + ops.IN_INSTEAD]
    env = M[ops.TH_X_ENV]
    total = 0
    owners = M[ops.TH_S_OWNER]
    for place in range(M[ops.TH_PLACES]):
        if S[owners + place] != seat:
            continue
        replaced = material.mod_read(S, M, instead, place) if instead >= 0 else -1
        if replaced >= 0:
            total = checked(S, total + replaced)
        else:
            M[env] = place
            total = checked(S, total + evaluate(S, M, amount, seat, M[p + ops.IN_KEY]))
    return total


def income_hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin_turns(S, M, phase)
        return 0
    if call == ops.CALL_TO_MOVE:
        return turn_seat(S, M)
    if call == ops.CALL_LEGAL:
        return closing_legal(S, M, phase, arg)
    if call == ops.CALL_APPLY:
        collect(S, M, phase, seat)
        return 0
    if call == ops.CALL_FORECAST:
        return earnings(S, M, phase, seat)
    return answer(S, call, phase)


def card_window_hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin_turns(S, M, phase)
        return 0
    if call == ops.CALL_TO_MOVE:
        return turn_seat(S, M)
    if call == ops.CALL_LEGAL:
        return closing_legal(S, M, phase, arg)
    if call == ops.CALL_APPLY:
        S[index_at(M)] += 1
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower_income(lowering: Any, pid: str, mech: Income) -> tuple[int, int, int]:
    params = row({ops.IN_AMOUNT: lowering.program(mech.amount), ops.IN_RES: lowering.resource(mech.resource),
                  ops.IN_INSTEAD: lowering.modifier(mech.instead.name) if mech.instead is not None else -1,
                  ops.IN_KEY: lowering.key(mech.cause)})
    return lowering.put(params), turn_head(lowering), 0


def lower_card_window(lowering: Any, pid: str, mech: CardWindow) -> tuple[int, int, int]:
    return lowering.put([0]), turn_head(lowering), 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): the turn head."""
    return pack.turn_data(lowering.rules.max_players, data["order"], data["idx"])
