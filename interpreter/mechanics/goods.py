"""Handing out goods (a card drawn, a token placed at once) for markets and rewards alike."""

from __future__ import annotations

from typing import Any

from .. import board


def available(game: Any, seat: int, good: Any) -> int:
    """How many of the good the seat could receive now (cards left; room and supply for tokens)."""
    if good.draw is not None:
        return board.cards_available(game, good.draw)
    places = board.owned_places(game.state, seat)
    room = sum(min(board.room(game, p, good.token), 10 ** 4) for p in places)
    return min(room, board.supply_of(game, good.token))


def place_targets(game: Any, seat: int, token: str) -> list[int]:
    return [p for p in board.owned_places(game.state, seat) if board.room(game, p, token) > 0]
