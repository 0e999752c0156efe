"""The game's one random generator: a splitmix64 stream whose whole state is an integer.

It is the generator the interpreter's games use (the same outputs, the same rejection
sampling, the same Fisher-Yates shuffle from the last item down), so a seed deals the same
cards in both engines.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in [0, n))."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list) -> int:
    """Shuffle items in place; the new state."""
    i = len(items)
    while i > 1:
        state, j = below(state, i)
        i -= 1
        items[i], items[j] = items[j], items[i]
    return state
