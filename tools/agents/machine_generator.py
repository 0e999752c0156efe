"""A bot's generator (random.Random) that the machine may keep between decisions.

A bot that decides in machine code hands its generator over as its Mersenne Twister state
(compiled/mt19937.py draws what random.Random draws) and takes it back after: reading the
state out of Python and writing it back costs about 30 us, a fifth of what a greedy decision
costs in Python. Between two decisions made in machine code nothing in Python draws from it,
so it stays in the machine's row until Python asks for the generator again (`python`), and
only then is written back: the same numbers, drawn in the same order, wherever they are drawn.
"""

from __future__ import annotations

import random

import numpy as np

from ...interpreter.compiled.lookahead import OWN
from ...interpreter.compiled.mt19937 import MT_WORDS


class MachineGenerator:
    """The bot's generator, held by Python or by the machine (`rows[OWN]`)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rows = np.zeros((OWN + 1, MT_WORDS), dtype=np.uint32)  # room, then the state, then room (`machine`)
        self.held = False
        self.rest: tuple[int, float | None] = (0, None)              # the state's version and gauss_next

    def python(self) -> random.Random:
        """The generator, its state taken back from the machine if it holds it."""
        if self.held:
            version, gauss = self.rest
            self.rng.setstate((version, tuple(self.rows[OWN].tolist()), gauss))
            self.held = False
        return self.rng

    def machine(self, room: int = 0) -> np.ndarray:
        """The rows the machine draws from, the generator's state in `rows[OWN]` and `room` rows
        after it (a generator seeded per guess): from now on the machine holds it."""
        if self.rows.shape[0] < OWN + 1 + room:
            grown = np.zeros((OWN + 1 + room, MT_WORDS), dtype=np.uint32)
            grown[:self.rows.shape[0]] = self.rows
            self.rows = grown
        if not self.held:
            version, words, gauss = self.rng.getstate()
            self.rows[OWN] = words
            self.rest, self.held = (version, gauss), True
        return self.rows
