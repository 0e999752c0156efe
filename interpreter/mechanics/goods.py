"""Handing out goods (a card drawn, a token placed at once), for markets and rewards alike."""

from __future__ import annotations

from typing import Any

from .. import material


def available(game: Any, seat: int, good: Any) -> int:
    """How many of the good the seat could receive now (cards left; room and supply for tokens)."""
    if good.draw is not None:
        return material.cards_available(game, good.draw)
    places = material.owned_places(game.state, seat)
    room = sum(min(material.room(game, p, good.token), material.UNLIMITED) for p in places)
    return min(room, material.supply_of(game, good.token))


def place_targets(game: Any, seat: int, token: str) -> list[int]:
    return [p for p in material.owned_places(game.state, seat) if material.room(game, p, token) > 0]


def good_bound(good: Any, rules_material: Any) -> int:
    """The most of a good anyone could ever receive at once: the deck's cards or the token's
    supply (it sizes the action space)."""
    if good.draw is not None:
        return rules_material.deck_sizes.get(good.draw, 0)
    kind = rules_material.token_supply.get(good.token, good.token)
    return rules_material.supply.get(kind, 0)
