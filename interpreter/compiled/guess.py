"""A guess of a position in machine code: what one seat cannot see drawn anew into a copy of
the position's row, as tools/determinize.py `Guesses.draw` draws it from the bot's generator
(Python's own Mersenne Twister, compiled/mt19937.py, handed over as its state): the hidden cards
dealt again (`Deal.cards`), the running phase's secret choices made again (`resample`, each
uniformly among what the seat could have chosen), a new generator drawn, and the decision worked
out again. The search bot (search.py) and the one-step bots (lookahead.py) draw their guesses here.

A guess whose decision, worked out again, runs on (the row changes beyond the decision) is one
the bot in Python settles in the interpreter, which this code cannot: the caller is told
(RAN_ON) and decides in Python from the generator's state before its call.

`D`, the deal, made by the caller (tools/agents/machine_guesses.py): the pool's size and the
number of groups, each pool card's index, then per group its fitting pool positions (count,
positions) and its places (count, then per place where it lies in the row and whether a card
there is counted (a hand) or written (a pile, a card a phase holds)).
"""

from __future__ import annotations

import math

import numpy as np

from . import mechanics, ops
from .core import release, reset_scratch, scratch, zero
from .entry import DECIDE
from .jit import jit
from .mt19937 import mt_genrand32, mt_randbelow
from .pointers import machine

DONE, RAN_ON, SHORT = 0, 1, 2               # SHORT: too few cards to deal (the bot in Python says why)


@jit
def sample(MT, X, fits, n, k, out, pool, selected):
    """rng.sample(X[fits:fits + n], k) into X[out:out + k], drawn as tools/sampling.py draws it."""
    setsize = 21
    if k > 5:
        setsize += 4 ** int(math.ceil(math.log(float(k * 3)) / math.log(4.0)))
    if n <= setsize:
        for i in range(n):
            X[pool + i] = X[fits + i]
        for i in range(k):
            left = n - i
            j = mt_randbelow(MT, left)
            X[out + i] = X[pool + j]
            X[pool + j] = X[pool + left - 1]
    else:
        zero(X, selected, n)
        for i in range(k):
            j = mt_randbelow(MT, n)
            while X[selected + j] != 0:
                j = mt_randbelow(MT, n)
            X[selected + j] = 1
            X[out + i] = X[fits + j]


@jit
def deal(row, D, MT, X, room):
    """The pool dealt into the row as tools/determinize.py Deal.cards deals it; False if a
    group has fewer cards left than places."""
    npool, groups = D[0], D[1]
    taken, fits, out, pool, selected = room, room + npool, room + 2 * npool, room + 3 * npool, room + 4 * npool
    zero(X, taken, npool)
    at = 2 + npool
    for _ in range(groups):
        count, n = D[at], np.int64(0)          # not a bare 0: jit.py says why
        for f in range(count):
            k = D[at + 1 + f]
            if X[taken + k] == 0:
                X[fits + n] = k
                n += 1
        at += 1 + count
        places = D[at]
        if n < places:
            return False
        sample(MT, X, fits, n, places, out, pool, selected)
        for i in range(places):
            k = X[out + i]
            X[taken + k] = 1
            card, where = D[2 + k], D[at + 1 + 2 * i]
            if D[at + 2 + 2 * i] != 0:
                row[where + card] += 1
            else:
                row[where] = card
        at += 1 + 2 * places
    return True


@jit
def choose_again(row, M, MT, seat):
    """The running phase's secret choices of every other seat made again (determinize.py
    `resample` with its uniform choice), in seat order; False where a seat has none to choose
    from (the interpreter's choice would fail there)."""
    if row[ops.S_WORKING] == 0:
        return True
    phase = M[M[ops.TH_LEAF_PHASE] + row[ops.S_AT]]
    reset_scratch(M)
    out = scratch(row, M, M[ops.TH_LEGAL_CAP])
    for other in range(row[ops.S_PLAYERS]):
        if other == seat:
            continue
        n = mechanics.secret_choices(row, M, phase, other, out)
        if n == 0:
            return False
        if n > 0:
            mechanics.choose_again(row, M, phase, other, M[out + mt_randbelow(MT, n)])
    release(M, out)
    return True


@jit
def guess(S0, M, R, row, before, D, MT, X, room, seat):
    """`row`: a guess of the position S0 (its hidden hand cards out, its legal ids 0), its
    decision worked out again; DONE, RAN_ON or SHORT. `before` is room for a row."""
    legal = M[ops.TH_S_LEGAL]
    for k in range(S0.shape[0]):
        row[k] = S0[k]
    if not deal(row, D, MT, X, room):
        return SHORT
    if not choose_again(row, M, MT, seat):
        return RAN_ON
    first = np.uint64(mt_genrand32(MT))
    second = np.uint64(mt_genrand32(MT))
    row[ops.S_RNG] = np.int64((second << np.uint64(32)) | first)    # getrandbits(64): the first word least significant
    mt_genrand32(MT)                                                # getrandbits(62): the seed, not kept in S
    mt_genrand32(MT)
    for k in range(legal):
        before[k] = row[k]
    machine(row, M, R, DECIDE, 0)
    if row[ops.S_TO_MOVE] != seat:
        return RAN_ON
    for k in range(legal):
        if k != ops.S_NLEGAL and row[k] != before[k]:
            return RAN_ON
    return DONE
