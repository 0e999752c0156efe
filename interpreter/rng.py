"""The one seeded random generator of a game, small enough to live inside the state.

A splitmix64 stream: its whole state is one integer, so a game state that holds it stays
plain JSON and a clone copies it for free; the sequence is the same on every platform.
"""

_MASK = (1 << 64) - 1


def next_state(state: int) -> tuple[int, int]:
    """Advance the generator; returns (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n); rejection sampling keeps it unbiased."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, out = next_state(state)
        if out < limit:
            return state, out % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of items in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
