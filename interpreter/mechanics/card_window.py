"""A card window on its own: in turn order each seat may play cards of one window, then pass."""

from __future__ import annotations

from typing import Any

from .. import cards
from .base import Mechanic, turn_order


class CardWindow(Mechanic):
    name = "card_window"

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
            if cards.playable(game, seat, self.window):
                return seat
            phase["idx"] += 1
        return None

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        return cards.playable(game, seat, self.window) + [{"type": "done"}]

    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "play":
            cards.play(game, seat, action)
        else:
            game.state.phase["idx"] += 1
