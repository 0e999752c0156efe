"""What every piece of the compiled engine's machine code shares: stopping, scratch room, and
the game's one random generator.

The machine never guesses past a rule it cannot follow: where the interpreter would raise
(a rule failing as it runs, a number past the engine's limits) or where the machine's own
fixed room runs out, it writes why into the state's header and raises `MachineStop`; its
callers then play the game on with the interpreter, from the seed and the actions, so the
game is the interpreter's own. Scratch room (`X`) is three stacks: the lists rules build
(the arena), programs' frames, and the machine's own buffers; each is bounded and checked.
"""

from __future__ import annotations

import numpy as np

from . import ops
from .jit import jit, jit_inline


class MachineStop(Exception):
    """The compiled engine stopped where the interpreter must take over (the state's header
    says why: S[S_ERR], S[S_ERR_ARG])."""


@jit
def stop(S, code, arg):
    S[ops.S_ERR] = code
    S[ops.S_ERR_ARG] = arg
    raise MachineStop("the compiled engine hands over to the interpreter")


@jit_inline
def zero(A, at, n):
    """A[at:at+n] = 0 through a view: numba checks no index of a view, so the loop becomes a
    fill of memory (indexing A at `at + i` keeps a check an index and runs several times slower)."""
    region = A[at:at + n]
    for i in range(region.shape[0]):
        region[i] = 0


# ---- scratch: the machine's own buffers (a stack) ---------------------------------------------
@jit_inline
def scratch(S, M, size):
    """Room for `size` numbers in X; give it back with release(M, at)."""
    at = M[ops.X_SCRATCH_TOP]
    if at + size > M[ops.TH_X_SIZE]:
        stop(S, ops.ERR_ROOM, size)
    M[ops.X_SCRATCH_TOP] = at + size
    return at


@jit_inline
def release(M, at):
    M[ops.X_SCRATCH_TOP] = at


@jit_inline
def reset_scratch(M):
    """Every region empty: at the start of each call from Python into the machine."""
    M[ops.X_ARENA_TOP] = M[ops.TH_X_ARENA]
    M[ops.X_CALL_TOP] = M[ops.TH_X_CALLS]
    M[ops.X_SCRATCH_TOP] = M[ops.TH_X_SCRATCH]


@jit
def sort_ids(M, out, n):
    """Sort M[out:out+n] ascending (Python's sorted: the ids are whole numbers, so any sort;
    they come mostly in order, so an insertion sort)."""
    for i in range(1, n):
        item = M[out + i]
        j = i
        while j > 0 and M[out + j - 1] > item:
            M[out + j] = M[out + j - 1]
            j -= 1
        M[out + j] = item


# ---- the arena: lists rules build while they run --------------------------------------------------
@jit_inline
def new_list(S, M, room):
    """An empty list with room for `room` items: M[h] is its length, its items follow."""
    h = M[ops.X_ARENA_TOP]
    if room < 0 or h + 1 + room > M[ops.TH_X_SCRATCH]:
        stop(S, ops.ERR_ROOM, room)
    M[ops.X_ARENA_TOP] = h + 1 + room
    M[h] = 0
    return h


# ---- the random generator (interpreter/base/rng.py, bit for bit) -------------------------------------
@jit
def random_below(S, n):
    """A uniform whole number in [0, n) from the splitmix64 stream in S[S_RNG]."""
    state = np.uint64(S[ops.S_RNG])
    bound = np.uint64(n)
    rest = (np.uint64(0) - bound) % bound          # 2**64 % n
    while True:
        state = state + np.uint64(0x9E3779B97F4A7C15)
        z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
        if rest == np.uint64(0) or z < np.uint64(0) - rest:
            S[ops.S_RNG] = np.int64(state)
            return np.int64(z % bound)


@jit_inline
def shuffle(S, at, count):
    """Shuffle S[at:at+count] in place: Fisher-Yates from the end, as Game.shuffle draws."""
    for i in range(count - 1, 0, -1):
        j = random_below(S, i + 1)
        item = S[at + i]
        S[at + i] = S[at + j]
        S[at + j] = item


# ---- checked arithmetic: the interpreter's integers never wrap ---------------------------------------
@jit_inline
def checked(S, value):
    if value >= ops.LIMIT or value <= -ops.LIMIT:
        stop(S, ops.ERR_OVERFLOW, np.int64(0))
    return value


@jit_inline
def times(S, a, b):
    if a != 0 and (b >= ops.LIMIT // abs(a) or b <= -(ops.LIMIT // abs(a))):
        stop(S, ops.ERR_OVERFLOW, np.int64(0))
    return a * b
