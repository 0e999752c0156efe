"""A card window: in turn order each seat may play cards of one window, then closes its turn.

The closing act is `done` here; mechanics built on this one (income) close the turn with
their own action, so "play cards, then act" is written once.
"""

from __future__ import annotations

from typing import Any

from .. import cards
from .base import Mechanic, turn_order


class CardWindow(Mechanic):
    name = "card_window"
    closing = "done"          # the action type that ends a seat's turn

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.window = build.get("window")

    def describe(self) -> str:
        return f"In turn order, each seat may play its '{self.window}' cards, one of each kind."

    def begin(self, game: Any) -> None:
        game.state.phase = {"order": turn_order(game.state), "idx": 0}

    def next_seat(self, game: Any) -> int | None:
        phase = game.state.phase
        while phase["idx"] < len(phase["order"]):
            seat = phase["order"][phase["idx"]]
            if self.window and cards.playable(game, seat, self.window):
                return seat
            self.finish(game, seat)       # nothing to choose: the turn closes by itself
        return None

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        return cards.playable(game, seat, self.window) + [{"type": self.closing}]

    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "play":
            cards.play(game, seat, action)
        else:
            self.finish(game, seat)

    def finish(self, game: Any, seat: int) -> None:
        """Close the seat's turn."""
        game.state.phase["idx"] += 1
