"""Two draws of Python's standard generator written out, for the searches' inner loops:
`below(rng, n)` is `rng.randrange(n)` and `sample(rng, items, k)` is `rng.sample(items,
k)`, the same values from the same generator state, drawing the same bits in the same order.

A search draws a deck's order at every iteration and a random reply at every step of its
playouts: through random.py's own layers (argument checks, `_randbelow`, the sequence test)
those draws were a fifth of an ismcts decision. The algorithm is CPython's (Lib/random.py,
`sample` and `_randbelow_with_getrandbits`, the same in 3.11, 3.12 and 3.13), so the games the
bots played before stay the same games (tests/test_sampling.py holds both to the library's).
"""

from __future__ import annotations

import random
from math import ceil, log
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A whole number from 0 to n - 1 (n > 0): rng.randrange(n)."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def sample(rng: random.Random, items: list[T], k: int) -> list[T]:
    """k different members of the list, in the order drawn: rng.sample(items, k)."""
    n = len(items)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than items or is negative")
    getrandbits = rng.getrandbits
    result: list[T] = []
    setsize = 21                            # as random.py: a list while it is smaller than a set
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(items)
        for i in range(k):
            left = n - i
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[left - 1]
    else:
        selected: set[int] = set()
        bits = n.bit_length()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in selected:
                j = getrandbits(bits)
            selected.add(j)
            result.append(items[j])
    return result
