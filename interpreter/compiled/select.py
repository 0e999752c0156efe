"""Select (interpreter/mechanics/select.py), in machine code: the start player chooses one of
the options (words) not chosen yet this round; the last one left is taken without asking;
then the start player passes to the next seat clockwise.

Working data: one flag, done. It keeps the option chosen last (its word, -1 for none), the
seat that chose it (-1), the age and round its `taken` list belongs to, and that list (how
many, then the words chosen, in order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import ops
from .cards import add_id
from .core import zero
from .jit import jit, jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .turns import count_pick, params, work
from .vm import age_round

if TYPE_CHECKING:
    from ..mechanics.select import Select

# the phase's row of parameters
SL_N, SL_OPTIONS, SL_BASE, SL_PASS_START = 0, 1, 2, 3
# kept data, after its "present" slot
KS_CHOSEN, KS_CHOOSER, KS_AGE, KS_ROUND, KS_N_TAKEN, KS_TAKEN = 1, 2, 3, 4, 5, 6


@jit_inline
def kept_at(M, phase):
    return M[M[ops.TH_KEPT] + phase]


@jit_inline
def begin(S, M, phase):
    p = params(M, phase)
    kept = kept_at(M, phase)
    n = M[p + SL_N]
    if S[kept] == 0:
        S[kept] = 1
        S[kept + KS_CHOSEN] = -1
        S[kept + KS_CHOOSER] = -1
        S[kept + KS_AGE] = -1                   # no `when` yet: it is set below
        S[kept + KS_ROUND] = -1
        S[kept + KS_N_TAKEN] = 0
    age, rnd = age_round(S, M, 0), age_round(S, M, 1)
    if S[kept + KS_AGE] != age or S[kept + KS_ROUND] != rnd:
        S[kept + KS_AGE] = age
        S[kept + KS_ROUND] = rnd
        S[kept + KS_N_TAKEN] = 0
        zero(S, kept + KS_TAKEN, n)
    S[work(M)] = 0


@jit_inline
def taken(S, M, kept, word):
    for i in range(S[kept + KS_N_TAKEN]):
        if S[kept + KS_TAKEN + i] == word:
            return True
    return False


@jit
def choose(S, M, phase, seat, word):
    """The seat chooses an option (word -1: none was left)."""
    kept = kept_at(M, phase)
    S[work(M)] = 1
    if word < 0:
        S[kept + KS_CHOSEN] = -1
        S[kept + KS_CHOOSER] = -1
        return
    p = params(M, phase)
    count = S[kept + KS_N_TAKEN]
    if count >= M[p + SL_N]:
        answer(S, ops.CALL_APPLY, phase)
    S[kept + KS_CHOSEN] = word
    S[kept + KS_CHOOSER] = seat
    options = M[p + SL_OPTIONS]
    for i in range(M[p + SL_N]):
        if M[options + i] == word:
            count_pick(S, M, phase, i)
            break
    S[kept + KS_TAKEN + count] = word
    S[kept + KS_N_TAKEN] = count + 1
    if M[p + SL_PASS_START] != 0:
        S[ops.S_START] = (seat + 1) % S[ops.S_PLAYERS]


@jit_inline
def auto(S, M, phase):
    if S[work(M)] != 0:
        return False
    p = params(M, phase)
    kept = kept_at(M, phase)
    options = M[p + SL_OPTIONS]
    left, first = 0, np.int64(-1)
    for i in range(M[p + SL_N]):
        word = M[options + i]
        if not taken(S, M, kept, word):
            if left == 0:
                first = word
            left += 1
            if left > 1:
                return False
    choose(S, M, phase, S[ops.S_START], first)
    return True


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    kept = kept_at(M, phase)
    options = M[p + SL_OPTIONS]
    n = 0
    for i in range(M[p + SL_N]):
        if not taken(S, M, kept, M[options + i]):
            n = add_id(S, M, out, n, M[p + SL_BASE] + i)
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    index = action - M[p + SL_BASE]
    if index < 0 or index >= M[p + SL_N]:
        answer(S, ops.CALL_APPLY, phase)
    choose(S, M, phase, seat, M[M[p + SL_OPTIONS] + index])


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    if call == ops.CALL_TO_MOVE:
        return -1 if S[work(M)] != 0 else S[ops.S_START]
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Select) -> tuple[int, int, int]:
    options = [lowering.value(option) for option in mech.options]
    params = row({SL_N: len(options), SL_OPTIONS: lowering.put(options), SL_BASE: mech.block.base,
                  SL_PASS_START: int(bool(mech.p.pass_start))})
    return lowering.put(params), 1, KS_TAKEN - 1 + len(options)


def member(lowering: Any, phase: int, mech: Select, name: str) -> tuple[int, int, int] | None:
    """`PHASE.chosen` (a word, -1 for none) and `PHASE.chooser` (a seat, -1 for none)."""
    if name == "chosen":
        return ops.MEMBER_KEPT, phase, KS_CHOSEN - 1
    if name == "chooser":
        return ops.MEMBER_KEPT, phase, KS_CHOOSER - 1
    return None


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): done."""
    return [int(data["done"])]


def pack_kept(lowering: Any, pid: str, kept: dict[str, Any]) -> list[int]:
    options = lowering.rules.phases[pid].options
    when = kept.get("when", [-1, -1])
    words = [lowering.value(option) for option in kept["taken"]]
    return ([lowering.value(kept["chosen"]), -1 if kept["chooser"] is None else kept["chooser"], *when, len(words),
             *words, *([0] * (len(options) - len(words)))])


def picks(lowering: Any, pid: str, mech: Select) -> list[tuple[str, Any]]:
    """Every pick it may keep, as simulate counts them: an option chosen."""
    return [("chosen", option) for option in mech.options]
