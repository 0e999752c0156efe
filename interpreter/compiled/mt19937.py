"""Python's `random.Random` (the Mersenne Twister of CPython's `_randommodule.c`) as machine code,
so that a compiled game loop can play the seeded random agent and pick, draw for draw, the ids
that `random.Random(seed).choice(ids)` picks in pure Python: a compiled run and an interpreted
run of the same seeds are then the same games, and either can check the other.

A generator is `MT_WORDS` uint32 words: the 624 words of the twister, then the position of
the next word (CPython's `index`, 624 right after seeding). It may be a 1-D array of that length
or one row of a 2-D array (a generator per seat, side by side). The arithmetic runs in int64
and is masked to 32 bits, so numba's promotion of uint32 and mixed signed/unsigned operands
(to float64, for uint64 with int64) never enters.

How `_randbelow` sizes its draws changed in CPython's history (`n.bit_length()`, or
`(n - 1).bit_length()`), and `choice` is `_randbelow(len(seq))` only by convention of the
version. Both are found once at import by watching the running `random` do it (behaviour,
not source text: the source may be absent or spelled otherwise), and a Python that matches
neither refuses to import rather than choose differently. numba freezes the found constant
into the compiled code and does not invalidate its cache when a global changes: its cache
files are named per Python minor version (`.py311`), which is where this could change, but a
cache directory must never be carried from one Python to another by hand (NUMBA_CACHE_DIR).
"""

from __future__ import annotations

import random

import numba
import numpy as np

MT_WORDS = 625                 # 624 twister words + the index of the next one
_N = 624
_M = 397
_MASK = 0xFFFFFFFF
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF


def _sizes_by_n_minus_1() -> bool:
    """Whether the running `random.Random._randbelow(n)` draws (n - 1).bit_length() bits
    (True) or n.bit_length() bits (False). An n that is 2**k tells them apart: with (n - 1) its
    first draw is always accepted, with n half of the draws are rejected. ImportError if the
    running Python does neither, or if its `choice` is not `_randbelow(len(seq))`."""
    def below(rng: random.Random, n: int, minus_one: bool) -> int:
        k = (n - 1 if minus_one else n).bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return r

    sizes = [1, 2, 3, 4, 8, 64, 100, 1 << 20] * 8
    found = []
    for minus_one in (False, True):
        real, mine, picks = random.Random(12345), random.Random(12345), random.Random(12345)
        if all(real._randbelow(n) == below(mine, n, minus_one) == picks.choice(range(n))  # type: ignore[attr-defined]
               for n in sizes):
            found.append(minus_one)
    if len(found) != 1:
        raise ImportError("this Python's random.Random._randbelow/choice are not the ones mt19937 reproduces")
    return found[0]


RANDBELOW_N_MINUS_1 = _sizes_by_n_minus_1()     # False on CPython 3.11


def _genrand_words(s: int) -> np.ndarray:
    """init_genrand(s)'s 624 words, worked out once: every seed's init_by_array starts from
    init_genrand(19650218), so a seeding copies them instead of working them out again."""
    words, prev = [s], s
    for i in range(1, _N):
        prev = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
        words.append(prev)
    return np.array(words, dtype=np.uint32)


_START = _genrand_words(19650218)


LANES = 4                      # generators seeded side by side (mt_seed_rows, _seed_lanes)


@numba.njit(cache=True, inline="always")
def _mixed_in(word, prev, add):
    """init_by_array's first pass on one word: the word before it mixed in, and a key word."""
    return ((word ^ ((prev ^ (prev >> 30)) * 1664525)) + add) & _MASK


@numba.njit(cache=True, inline="always")
def _mixed_out(word, prev, i):
    """init_by_array's second pass on word i."""
    return ((word ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK


@numba.njit(cache=True, inline="always")
def _key_adds(seed):
    """What init_by_array adds at even and at odd steps for a seed: its key word plus the
    key's index, the key being the seed's 32-bit words, least significant first (one word
    if the other is 0)."""
    first_word = np.int64(seed & np.uint64(_MASK))
    second_word = np.int64(seed >> np.uint64(32))
    return first_word, (second_word + 1 if second_word != 0 else first_word)


@numba.njit(cache=True)
def _seed_lanes(states, r0, r1, r2, r3, s0, s1, s2, s3):
    """Seed rows r0..r3 (a row may repeat with its seed: its lanes compute the same words) as
    random.Random(s0) ... random.Random(s3), the seeds as uint64. A seeding is one chain of
    1,247 multiplications, every word depending on the one before: kept in registers and run
    in four lanes at once, the chains overlap in the processor instead of waiting on one
    another and on memory. Words 1..623
    start as init_genrand's (_START), read from there until written."""
    e0, o0 = _key_adds(s0)
    e1, o1 = _key_adds(s1)
    e2, o2 = _key_adds(s2)
    e3, o3 = _key_adds(s3)
    p0 = p1 = p2 = p3 = np.int64(_START[0])
    i = 1
    for step in range(_N):     # max(N, key length) steps, and a key is at most 2 words
        if step < _N - 1:
            w0 = w1 = w2 = w3 = np.int64(_START[i])
        else:                  # the index came round once: word 1 again, as step 0 left it
            w0, w1, w2, w3 = (np.int64(states[r0, i]), np.int64(states[r1, i]),
                              np.int64(states[r2, i]), np.int64(states[r3, i]))
        odd = step % 2 == 1
        p0 = _mixed_in(w0, p0, o0 if odd else e0)
        p1 = _mixed_in(w1, p1, o1 if odd else e1)
        p2 = _mixed_in(w2, p2, o2 if odd else e2)
        p3 = _mixed_in(w3, p3, o3 if odd else e3)
        states[r0, i], states[r1, i], states[r2, i], states[r3, i] = p0, p1, p2, p3
        i = i + 1 if i < _N - 1 else 1
    for _ in range(_N - 1):
        w0, w1, w2, w3 = (np.int64(states[r0, i]), np.int64(states[r1, i]),
                          np.int64(states[r2, i]), np.int64(states[r3, i]))
        p0 = _mixed_out(w0, p0, i)
        p1 = _mixed_out(w1, p1, i)
        p2 = _mixed_out(w2, p2, i)
        p3 = _mixed_out(w3, p3, i)
        states[r0, i], states[r1, i], states[r2, i], states[r3, i] = p0, p1, p2, p3
        i = i + 1 if i < _N - 1 else 1
    for r in (r0, r1, r2, r3):
        states[r, 0] = np.uint32(_UPPER)
        states[r, _N] = np.uint32(_N)


# The first seed is typed uint64 up front: left lazy, numba would compile for int64 at the first
# small seed and then refuse a Python int above 2**63 ("int too big to convert") instead of adding uint64.
@numba.njit("void(uint32[:, ::1], uint64, int64)", cache=True)
def mt_seed_rows(states, first, count):
    """Seed rows 0..count-1 of `states` as `random.Random(first + row)` does, for ints
    0 <= first + row < 2**64: CPython splits a seed into 32-bit words, least significant first,
    as few as hold it (one for 0), and mixes them in with init_by_array. The rows go four at a
    time (_seed_lanes; a game seeds a generator a seat). A negative seed is refused from Python
    (it does not fit uint64) and must not be passed from compiled code, where it would wrap
    (CPython seeds with |seed| instead)."""
    for group in range(0, count, LANES):
        last = count - 1
        r1, r2, r3 = min(group + 1, last), min(group + 2, last), min(group + 3, last)
        at = np.uint64(first)
        _seed_lanes(states, group, r1, r2, r3, at + np.uint64(group), at + np.uint64(r1), at + np.uint64(r2),
                    at + np.uint64(r3))


@numba.njit(cache=True)
def mt_seed_each(states, at, seeds):
    """Seed rows at, at + 1, ... of `states` as random.Random(seed) for each of `seeds` (int64,
    0 <= seed < 2**63), four at a time (_seed_lanes): a bot that seeds a generator per guess
    seeds its guesses together."""
    last = seeds.shape[0] - 1
    for group in range(0, seeds.shape[0], LANES):
        k1, k2, k3 = min(group + 1, last), min(group + 2, last), min(group + 3, last)
        _seed_lanes(states, at + group, at + k1, at + k2, at + k3, np.uint64(seeds[group]), np.uint64(seeds[k1]),
                    np.uint64(seeds[k2]), np.uint64(seeds[k3]))


def mt_seed(state: np.ndarray, seed: int) -> None:
    """Seed one generator (MT_WORDS words) as `random.Random(seed)` does (mt_seed_rows)."""
    mt_seed_rows(state.reshape(1, MT_WORDS), seed, 1)


@numba.njit(cache=True)
def _mix(state, kk, upper, far):
    """One word of the twist: word kk from its own top bit, the next word's lower 31 bits, and a far word."""
    y = (np.int64(state[kk]) & _UPPER) | (np.int64(state[upper]) & _LOWER)
    v = np.int64(state[far]) ^ (y >> 1)
    if y & 1:
        v ^= _MATRIX_A
    state[kk] = np.uint32(v)


@numba.njit(cache=True)
def _twist(state):
    """Regenerate all 624 words at once, as genrand_uint32 does when the index runs out (in
    CPython's three runs, so that no index needs a modulo)."""
    for kk in range(_N - _M):
        _mix(state, kk, kk + 1, kk + _M)
    for kk in range(_N - _M, _N - 1):
        _mix(state, kk, kk + 1, kk + _M - _N)
    _mix(state, _N - 1, np.int64(0), _M - 1)
    state[_N] = np.uint32(0)


@numba.njit(cache=True)
def mt_refill(state):
    """Make the next 624 words now if the generator has drawn them all (right after seeding),
    as its next draw would: a generator copied many times from one seeding then draws without
    twisting again in every copy."""
    if np.int64(state[_N]) >= _N:
        _twist(state)


# The draws are inlined into their callers (numba's inline="always"): a game loop draws in its
# hot path, and as separate functions each draw costs a call that passes the array's fields and
# its reference count. The twist, once per 624 draws, stays a call.

@numba.njit(cache=True, inline="always")
def mt_genrand32(state):
    """The next 32-bit output (CPython's genrand_uint32), as an int64 in [0, 2**32)."""
    index = np.int64(state[_N])
    if index >= _N:
        _twist(state)
        index = np.int64(0)
    y = np.int64(state[index])
    state[_N] = np.uint32(index + 1)
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK


@numba.njit(cache=True, inline="always")
def mt_getrandbits(state, k):
    """`getrandbits(k)` for 0 <= k <= 63, as an int64. CPython fills the number 32 bits at a
    time from the least significant end, keeping the top bits of the last word it draws, so
    k <= 32 costs one word (its top k bits) and 32 < k <= 63 two; k == 0 costs nothing."""
    if k < 0 or k > 63:
        raise ValueError("mt_getrandbits: k must be in 0..63")
    if k == 0:
        return np.int64(0)
    if k <= 32:
        return mt_genrand32(state) >> (32 - k)
    first = mt_genrand32(state)
    return first | ((mt_genrand32(state) >> (64 - k)) << 32)


@numba.njit(cache=True, inline="always")
def _bit_length(v):
    """int.bit_length for 0 <= v < 2**63, by halving (a bit at a time costs 20 steps at n = 10**6)."""
    k = 0
    for width in (32, 16, 8, 4, 2, 1):
        if v >> width:
            v >>= width
            k += width
    return k + v


@numba.njit(cache=True, inline="always")
def mt_randbelow(state, n):
    """`random.Random._randbelow(n)` for 1 <= n < 2**63, as an int64: getrandbits of n's size
    (by the running Python's rule, RANDBELOW_N_MINUS_1), redrawn until below n. Sizes up to 32
    bits take one word a draw and are written out here: going through mt_getrandbits, its
    checks of k made a draw about half as slow again, in a compiled loop."""
    if n < 1:
        raise ValueError("mt_randbelow: n must be at least 1")
    m = np.int64(n)
    k = _bit_length(m - 1 if RANDBELOW_N_MINUS_1 else m)
    if k == 0:                 # n == 1 under (n - 1): getrandbits(0) is 0 and draws no word
        return np.int64(0)
    if k <= 32:
        while True:
            r = mt_genrand32(state) >> (32 - k)
            if r < m:
                return r
    while True:
        r = mt_getrandbits(state, k)
        if r < m:
            return r


@numba.njit(cache=True, inline="always")
def mt_choice_index(state, n):
    """The index `random.Random.choice(seq)` picks among n = len(seq) items (the import
    checked that `choice` is `_randbelow(len(seq))` here)."""
    return mt_randbelow(state, n)
