"""The mechanic contract in machine code: begin, auto, to_move, legal, apply, pass_turn, end,
each sent to the hub of the running phase's mechanic (one part per mechanic kind, compiled on
its own: compiled/hubs.py), as interpreter/play/flow.py calls them through a phase's Plan.

A mechanic's hub answers a call it has no use for as the interpreter's base class does: no
automatic work, nobody to move, no legal ids; a pass or an action it cannot take stops the
machine (the interpreter raises there too). `answer` is that default, shared by every hub.
"""

from __future__ import annotations

from . import ops
from .core import stop
from .jit import jit_inline
from .pointers import mechanic


@jit_inline
def kind_of(M, phase):
    return M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_MECH]


@jit_inline
def begin(S, M, phase):
    mechanic(S, M, kind_of(M, phase), ops.CALL_BEGIN, phase, -1, 0)


@jit_inline
def auto(S, M, phase):
    return mechanic(S, M, kind_of(M, phase), ops.CALL_AUTO, phase, -1, 0) != 0


@jit_inline
def to_move(S, M, phase):
    return mechanic(S, M, kind_of(M, phase), ops.CALL_TO_MOVE, phase, -1, 0)


@jit_inline
def legal(S, M, phase, seat, out):
    """The seat's own ids in the phase, in id order, into M[out:]; how many."""
    return mechanic(S, M, kind_of(M, phase), ops.CALL_LEGAL, phase, seat, out)


@jit_inline
def apply(S, M, phase, seat, action):
    mechanic(S, M, kind_of(M, phase), ops.CALL_APPLY, phase, seat, action)


@jit_inline
def pass_turn(S, M, phase, seat):
    mechanic(S, M, kind_of(M, phase), ops.CALL_PASS, phase, seat, 0)


@jit_inline
def end(S, M, phase):
    mechanic(S, M, kind_of(M, phase), ops.CALL_END, phase, -1, 0)


@jit_inline
def secret_choices(S, M, phase, seat, out):
    """What the seat could have chosen in secret (ops.CALL_SECRET_CHOICES), into M[out:]; how
    many, or -1 where it keeps no such choice now."""
    return mechanic(S, M, kind_of(M, phase), ops.CALL_SECRET_CHOICES, phase, seat, out)


@jit_inline
def choose_again(S, M, phase, seat, action):
    mechanic(S, M, kind_of(M, phase), ops.CALL_CHOOSE_AGAIN, phase, seat, action)


@jit_inline
def tensor(S, M, phase, seat, at):
    """The phase's pieces of the observation tensor, from M[at] on."""
    mechanic(S, M, kind_of(M, phase), ops.CALL_TENSOR, phase, seat, at)


@jit_inline
def answer(S, call, phase):
    """What a hub answers a call it has no use for (the base Mechanic's answer)."""
    if call == ops.CALL_TO_MOVE or call == ops.CALL_SECRET_CHOICES:
        return -1
    if call == ops.CALL_APPLY or call == ops.CALL_PASS:
        stop(S, ops.ERR_RULE, phase)
    return 0


def absent(S, M, call, phase, seat, arg):  # the hub of a mechanic no phase of these rules has
    stop(S, ops.ERR_RULE, phase)
    return 0
