"""Calls between the compiled engine's separately compiled parts, through addresses.

numba compiles into every function the code of each function it names, again: named calls
would compile the rules machine (`run`) into every mechanic and every mechanic into the step
(`advance`), many times over, for minutes. So the parts call each other through pointers: the
caller reads the callee's address from the machine array (at M[TH_H]: compiled/hubs.py fills
it as the parts are compiled) and calls it, never naming it. Each part is compiled once, on its own, and only
when a rules file needs it: a mechanic no file uses is never compiled.

`pointer(ftype)` makes an intrinsic that turns an address into a first-class function value
of that type (numba's FunctionType, called through its `jit_addr`, so exceptions pass through).
"""

from __future__ import annotations

import warnings

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from . import ops
from .jit import jit_inline

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

STATE = types.Array(types.int64, 1, "C")
RUN_SIGNATURE = types.int64(STATE, STATE, types.int64, types.int64, types.int64)
ADVANCE_SIGNATURE = types.none(STATE, STATE)
MECHANIC_SIGNATURE = types.int64(STATE, STATE, types.int64, types.int64, types.int64, types.int64)
MACHINE_SIGNATURE = types.int64(STATE, STATE, STATE, types.int64, types.int64)
TENSOR_SIGNATURE = types.int64(STATE, STATE, STATE, types.int64)
ROWS = types.Array(types.int64, 2, "C")
PLAYOUT_SIGNATURE = types.int64(STATE, STATE, STATE, STATE, STATE, STATE, ROWS, ROWS, STATE, ROWS, ROWS,
                                types.Array(types.uint32, 2, "C"))
FLOATS = types.Array(types.float64, 1, "C")
LOOKAHEAD_SIGNATURE = types.int64(STATE, STATE, STATE, ROWS, STATE, FLOATS, FLOATS, STATE, STATE, types.int64,
                                  types.int64, types.int64, types.Array(types.uint32, 2, "C"), STATE, STATE, STATE,
                                  ROWS)
SEARCH_SIGNATURE = types.int64(STATE, STATE, STATE, ROWS, STATE, ROWS, FLOATS, FLOATS, STATE,
                               types.Array(types.uint32, 1, "C"), STATE, FLOATS, STATE, FLOATS, STATE, STATE)
VECTOR_SIGNATURE = types.int64(ROWS, STATE, STATE, STATE, types.Array(types.uint32, 2, "C"), STATE, STATE, STATE,
                               STATE, types.Array(types.float32, 2, "C"), types.Array(types.int8, 2, "C"), STATE, STATE)
RANDOM_LEGAL_SIGNATURE = types.none(ROWS, STATE, STATE, FLOATS, STATE)

H_RUN, H_ADVANCE, H_MECHANICS = 0, 1, 2     # where each part's address lies after M[TH_H] (a mechanic: + kind)
KINDS = 16                                  # mechanic kinds (ops.M_*)
H_MACHINE = H_MECHANICS + KINDS
H_TENSOR = H_MACHINE + 1                    # 0 until a caller asks for tensors (CompiledRules.observing)
H_SIZE = H_TENSOR + 1


def pointer(ftype: types.FunctionType):
    """An intrinsic: address (int64) -> a function of type `ftype` at that address."""
    @intrinsic
    def at(typingctx, address):
        def codegen(context, ir, signature, args):
            value = cgutils.create_struct_proxy(ftype)(context, ir)
            voidptr = context.get_value_type(types.voidptr)
            value.c_addr = cgutils.get_null_value(voidptr)
            value.py_addr = cgutils.get_null_value(voidptr)
            value.jit_addr = ir.inttoptr(args[0], voidptr)
            return value._getvalue()
        return ftype(types.int64), codegen
    return at


run_at = pointer(types.FunctionType(RUN_SIGNATURE))
advance_at = pointer(types.FunctionType(ADVANCE_SIGNATURE))
mechanic_at = pointer(types.FunctionType(MECHANIC_SIGNATURE))
machine_at = pointer(types.FunctionType(MACHINE_SIGNATURE))
tensor_at = pointer(types.FunctionType(TENSOR_SIGNATURE))


@jit_inline
def evaluate(S, M, prog, seat, cause):
    """Run a program of the rules (compiled/vm.py `run`) with `seat` acting."""
    return run_at(M[M[ops.TH_H] + H_RUN])(S, M, prog, seat, cause)


@jit_inline
def advance(S, M):
    advance_at(M[M[ops.TH_H] + H_ADVANCE])(S, M)


@jit_inline
def mechanic(S, M, kind, call, phase, seat, arg):
    """One call of the mechanic contract (ops.CALL_*) on the hub of a mechanic kind."""
    return mechanic_at(M[M[ops.TH_H] + H_MECHANICS + kind])(S, M, call, phase, seat, arg)


@jit_inline
def machine(S, M, R, command, arg):
    """One command of the machine (entry.py), as a loop of whole games calls it."""
    return machine_at(M[M[ops.TH_H] + H_MACHINE])(S, M, R, command, arg)


@jit_inline
def observed(S, M, R, seat):
    """The observation tensor of a seat into R (entry.py `observe`), through its part; -2 while
    that part is not compiled (no caller has asked for tensors yet)."""
    address = M[M[ops.TH_H] + H_TENSOR]
    if address == 0:
        return -2
    return tensor_at(address)(S, M, R, seat)
