"""Asking the processor for memory before the machine needs it.

A vector environment of 1,024 games steps each game once per call: a game's state (about 16 KB
for the largest shipped rules) was last touched a whole batch ago, far out of the core's caches, and its reads
are scattered (a pile's size here, a hand there), which the processor's own prefetcher does not
foresee. Asking for the next game's state while this one is stepped overlaps those misses with
work: measured side by side in one process at N = 1024, the batch ran about 11% faster
(benchmarks/bench_vector_env.py; at N = 64, where the states stay in the cache, no change);
asking in five parts spread over the step, 15-20% faster again (state_ahead).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from . import ops
from .jit import jit_inline

LINE = 8                # int64 numbers in a 64-byte cache line


@intrinsic
def prefetch(typingctx, array, index):
    """Ask for the cache line that holds array[index], to be read soon (LLVM's llvm.prefetch:
    a hint, never a fault, so the index need not be checked)."""
    def codegen(context, code, signature, args):         # code: the IR builder
        kind = signature.args[0]
        view = context.make_array(kind)(context, code, args[0])
        where = cgutils.get_item_pointer(context, code, kind, view, [args[1]], wraparound=False,
                                         boundscheck=False)
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = cgutils.get_or_insert_function(code.module, ir.FunctionType(ir.VoidType(), [byte, word, word, word]),
                                              "llvm.prefetch.p0i8")
        # read (0), keep in every cache level (3), data (1)
        code.call(hint, [code.bitcast(where, byte), word(0), word(3), word(1)])
        return context.get_dummy_value()
    return types.void(array, index), codegen


@jit_inline
def state_ahead(S, M, part, parts):
    """Ask for part `part` (of `parts`, in order) of the lines of a game's state that a step and
    its tensor read: all of it up to its legal ids in use, but the resources' sources (a record
    of causes the tensor does not read, and a step writes only where a resource changes).
    Asked for all at once, the requests outrun what the core keeps in flight and some are
    lost: asked for in parts spread over the step before (vector.step_games: before the
    engine's step, after it, twice within the tensor, after it), the batch ran 15-20% faster
    at N = 1024, side by side in one process (three parts: 10%; nine: no better than five)."""
    sources = M[ops.TH_S_SOURCES]
    skipped = sources + M[ops.TH_SEATS] * M[ops.TH_RES] * M[ops.TH_KEYS]
    head = (sources + LINE - 1) // LINE                 # the lines before the sources, then those after
    lines = head + (M[ops.TH_S_LEGAL] + S[ops.S_NLEGAL] - skipped + LINE - 1) // LINE
    for line in range(lines * part // parts, lines * (part + 1) // parts):
        prefetch(S, line * LINE if line < head else skipped + (line - head) * LINE)  # type: ignore[call-arg]
