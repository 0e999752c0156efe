"""The one error a request meets: what to tell the person, and the HTTP status that goes with it."""

from __future__ import annotations

from ...interpreter.base.errors import AmunreError


class Refused(AmunreError):
    """A request the server turns down, with the words to show (and the HTTP status)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
