"""How the compiled engine's functions are compiled: machine code kept in the cache, and no
reference counting of arrays (numba's `_nrt=False`).

Every function of the machine works on arrays its caller owns (the state S, the machine's
tables and scratch M, the numbers out R) and that outlive every call: counting references to
them up and down at each call between functions (an atomic operation a time, even on a
null count) cost a third of a compiled playout (measured: 1.6x faster without). The price is
that these functions cannot make new arrays; the few that must (the searches over cards held
as money) say `allocating` and count as numba always does. numba passes the setting on to the
functions a function calls unless they say their own, so an allocating function called from
the machine must say so itself.

A whole number handed to another compiled function is never a bare constant (`f(rows, 0)`),
nor a counter that starts at one (`n = 0` before a loop, then `f(n)`): numba compiles the
callee once more for the literal `0`, even where it is only a first guess at the counter's
type, and a cold compile pays seconds for each such twin (a quarter of the bots' lookahead's
34 s). Such a number is written `np.int64(0)`, typed as any other whole number.
"""

from __future__ import annotations

from typing import Any

from numba import njit

NO_COUNTS: dict[str, Any] = {"_nrt": False}     # numba's option (its typing stubs do not list it)
COUNTS: dict[str, Any] = {"_nrt": True}

jit = njit(cache=True, **NO_COUNTS)
jit_inline = njit(cache=True, inline="always", **NO_COUNTS)
allocating = njit(cache=True, **COUNTS)
