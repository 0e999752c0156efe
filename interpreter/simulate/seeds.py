"""Where every game of a simulation gets its randomness: from the base seed and its own index,
nothing else, so a report is the same however the games are spread over processes or hosts.

Game `i` of base seed `S` plays with `game_seed(S, i)`, a 48-bit number: `amunre run RULES
--seed game_seed(S, i) --agents ...` replays it. Its bots are seeded from the game seed and
their seat (`agent_seed`, what `amunre run` uses too).
"""

from __future__ import annotations

from ..rng import next_state

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def game_seed(base: int, index: int) -> int:
    """The seed of game `index` of a run with base seed `base`: a splitmix64 mix of both, so
    neighbouring base seeds share no games."""
    _, mixed = next_state(((base & _MASK) * _GOLDEN + index) & _MASK)
    return mixed >> 16


def agent_seed(seed: int, seat: int) -> int:
    """Each bot's own random seed, fixed by the game seed and its seat."""
    return seed * 1009 + seat + 1
