"""The uniform random player: a baseline, and the fastest way to reach any position."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ...interpreter.game import Game
from .options import Option


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""
    name: ClassVar[str] = "random"
    doc: ClassVar[str] = "Uniform over the legal actions."
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self.rng.choice(legal)

    def choose_id(self, game: Game, ids: list[int]) -> int:
        return self.rng.choice(ids)
