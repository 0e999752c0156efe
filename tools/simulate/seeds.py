"""Where every game of a simulation gets its randomness: from the base seed and its own index,
nothing else, so a report is the same however the games are spread over processes or hosts.

Game `i` of base seed `S` plays with `game_seed(S, i)`, a 48-bit number: `amunre run RULES
--seed game_seed(S, i) --agents ...` replays it. Its bots are seeded from the game seed and
their seat (`agent_seed`, what `amunre run` uses too).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def game_seed(base: int, index: int) -> int:
    """The seed of game `index` of a run with base seed `base`: a splitmix64 mix of both, so
    neighbouring base seeds share no games."""
    z = ((base & _MASK) * _GOLDEN + index + _GOLDEN) & _MASK      # one splitmix64 step
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) >> 16


def agent_seed(seed: int, seat: int) -> int:
    """Each bot's own random seed, fixed by the game seed and its seat."""
    return seed * 1009 + seat + 1
