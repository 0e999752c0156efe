"""What a compiled DSL closure sees while it runs: the game, the acting seat, bound names.

One small mutable object is passed down every closure call instead of building dicts per
step; aggregates move `it` from element to element and put it back.
"""

from __future__ import annotations

from typing import Any

from ..base.causes import Cause


class Ctx:
    __slots__ = ("game", "state", "seat", "env", "it", "cause")
    # The game and its position are Any here: the DSL sits below the game's type (the protocol
    # interpreter/model.py Game), and a rule that reads only its bound names is also run while
    # the rules load, with no game at all (Ctx(None)).
    game: Any
    state: Any
    seat: int | None
    env: dict[str, Any]
    it: Any
    cause: Cause | None

    def __init__(self, game: Any, seat: int | None = None, env: dict[str, Any] | None = None,
                 it: Any = None, cause: Cause | None = None) -> None:
        self.game = game
        self.state = game.state if game is not None else None
        self.seat = seat
        self.env = env if env is not None else {}
        self.it = it
        self.cause = cause         # what the changes an effect makes are put down to (causes.Cause)
