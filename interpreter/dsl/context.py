"""What a compiled DSL closure sees while it runs: the game, the acting seat, bound names.

One small mutable object is passed down every closure call instead of building dicts per
step; aggregates move `it` from element to element and put it back.
"""

from __future__ import annotations

from typing import Any


class Ctx:
    __slots__ = ("game", "state", "seat", "env", "it", "cause")

    def __init__(self, game: Any, seat: int | None = None, env: dict[str, Any] | None = None,
                 it: Any = None, cause: Any = None) -> None:
        self.game = game
        self.state = game.state if game is not None else None
        self.seat = seat
        self.env = env if env is not None else {}
        self.it = it
        self.cause = cause         # what the changes an effect makes are put down to (causes.Cause)
