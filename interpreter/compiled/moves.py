"""Moves (interpreter/mechanics/moves.py), in machine code: in turn order each seat takes a turn
of the phase's own moves (effects with choices and requirements), opened by `start` and closed
by `finish`, until `until` holds, no move is left, or it says `done` (while `may_stop` holds).

Working data after the turn head: whether the seat to move has begun its turn (its `start`
has run), then per move how many times the seat has made it this turn (the interpreter's
`made`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import cards, ops, pack
from .cards import add_id
from .core import sort_ids, zero
from .jit import jit, jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .pointers import evaluate
from .turns import begin_turns, index_at, own, params, turn_seat

if TYPE_CHECKING:
    from ..mechanics.moves import Moves

# the phase's row of parameters
MV_N, MV_MOVES, MV_START, MV_FINISH, MV_UNTIL, MV_MAY_STOP, MV_START_KEY, MV_FINISH_KEY, MV_CLOSING = (
    0, 1, 2, 3, 4, 5, 6, 7, 8)
# per move (a list at MV_MOVES)
MOVE_EFFECT, MOVE_BLOCK, MOVE_BASE, MOVE_TIMES, MOVE_KEY = 0, 1, 2, 3, 4
MOVE_FIELDS = 5
# working data after the turn head
WMV_BEGUN, WMV_MADE = 0, 1


@jit_inline
def move_row(M, p, i):
    return M[p + MV_MOVES] + i * MOVE_FIELDS


@jit
def clear_turn(S, M, p):
    at = own(M)
    S[at + WMV_BEGUN] = 0
    zero(S, at + WMV_MADE, M[p + MV_N])


@jit_inline
def begin(S, M, phase):
    begin_turns(S, M, phase)
    clear_turn(S, M, params(M, phase))


@jit
def pass_turn(S, M, phase, seat):
    """The seat's turn ends: its `finish` effect, then the next seat."""
    p = params(M, phase)
    finish = M[p + MV_FINISH]
    if finish >= 0:
        cards.run_effect(S, M, finish, seat, M[p + MV_FINISH_KEY])
    S[index_at(M)] += 1
    clear_turn(S, M, p)


@jit_inline
def auto(S, M, phase):
    seat = turn_seat(S, M)
    if seat < 0:
        return False
    p = params(M, phase)
    at = own(M)
    if S[at + WMV_BEGUN] == 0:
        S[at + WMV_BEGUN] = 1
        start = M[p + MV_START]
        if start >= 0:
            cards.run_effect(S, M, start, seat, M[p + MV_START_KEY])
        return True
    until = M[p + MV_UNTIL]
    if until >= 0 and evaluate(S, M, until, seat, -1) != 0:
        pass_turn(S, M, phase, seat)
        return True
    return False


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    made = own(M) + WMV_MADE
    n = np.int64(0)
    for i in range(M[p + MV_N]):
        mv = move_row(M, p, i)
        times = M[mv + MOVE_TIMES]
        if times < 0 or S[made + i] < times:
            n = cards.allowed_ids(S, M, seat, M[mv + MOVE_EFFECT], M[mv + MOVE_BLOCK], np.int64(0),
                                  M[mv + MOVE_BASE], M[mv + MOVE_KEY], out, n)
    sort_ids(M, out, n)
    may_stop = M[p + MV_MAY_STOP]
    if may_stop < 0 or evaluate(S, M, may_stop, seat, -1) != 0:
        n = add_id(S, M, out, n, M[p + MV_CLOSING])
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    if action == M[p + MV_CLOSING]:
        pass_turn(S, M, phase, seat)
        return
    block = M[M[ops.TH_BLOCK_OF] + action]
    for i in range(M[p + MV_N]):
        mv = move_row(M, p, i)
        if M[mv + MOVE_BLOCK] == block:
            S[own(M) + WMV_MADE + i] += 1
            effect = M[mv + MOVE_EFFECT]
            cards.bind(S, M, effect, block, np.int64(0), action)
            cards.run_effect(S, M, effect, seat, M[mv + MOVE_KEY])
            return
    answer(S, ops.CALL_APPLY, phase)            # not a move of this phase: the interpreter fails


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    if call == ops.CALL_TO_MOVE:
        return turn_seat(S, M)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_PASS:
        pass_turn(S, M, phase, seat)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Moves) -> tuple[int, int, int]:
    blocks = lowering.rules.actions.blocks
    moves = []
    for move, block in zip(mech.moves, mech.blocks):
        moves += [lowering.effect(move.effect), next(i for i, b in enumerate(blocks) if b is block), block.base,
                  -1 if move.times is None else move.times, lowering.key(mech.causes[move.id])]
    params = row({MV_N: len(mech.moves), MV_MOVES: lowering.put(moves), MV_START: lowering.effect(mech.start),
                  MV_FINISH: lowering.effect(mech.finish), MV_UNTIL: lowering.program(mech.until),
                  MV_MAY_STOP: lowering.program(mech.may_stop), MV_START_KEY: lowering.key(mech.start_cause),
                  MV_FINISH_KEY: lowering.key(mech.finish_cause), MV_CLOSING: mech.closing.base})
    return lowering.put(params), turn_head(lowering) + 1 + len(mech.moves), 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    mech = lowering.rules.phases[pid]
    made = [data["made"].get(move.id, 0) for move in mech.moves]
    return pack.turn_data(lowering.rules.max_players, data["order"], data["idx"]) + [int(data["begun"]), *made]
