"""The one seeded random generator of a game, small enough to live inside the state.

A splitmix64 stream: its whole state is one integer, so a game state that holds it stays
plain JSON and a clone copies it for free; the sequence is the same on every platform.

Every random draw of the engine is one `Game.random_below(n)` (a shuffle of k cards is k - 1
of them): by default the generator answers it; a game started with `chance=` has its draws
answered from outside instead (explicit chance outcomes), and `replaying` answers them again
from a record.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import AmunreError

_MASK = (1 << 64) - 1


def below(state: int, n: int) -> tuple[int, int]:
    """Advance the generator to a uniform integer in [0, n): (new state, value). Rejection
    sampling keeps it unbiased."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list) -> int:
    """Shuffle items in place as k - 1 draws of `below` (Fisher-Yates from the end, as
    Game.shuffle draws them); the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def replaying(outcomes: list[int]) -> Callable[[int], int]:
    """A chance function that answers the draws with recorded outcomes, in order (the replay of
    a game whose chance came from outside); AmunreError when the record runs out."""
    supply = iter(outcomes)

    def chance(n: int) -> int:
        value = next(supply, None)
        if value is None:
            raise AmunreError(f"the game draws more than the {len(outcomes)} recorded chance outcomes")
        return value
    return chance
