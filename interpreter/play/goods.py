"""Handing out goods (a card drawn, a token placed at once), for markets and rewards alike."""

from __future__ import annotations

from typing import Any

from ..model import Game
from . import material


def available(game: Game, seat: int, good: Any) -> int:
    """How many of the good the seat could receive now (cards left; room and supply for tokens)."""
    if good.draw is not None:
        return material.cards_available(game, good.draw)
    token, rules = good.token, game.rules
    places = material.owned_places(game, seat)
    supply = game.state.supply[rules.token_supply[token]]
    capacity = rules.token_capacity.get(token)
    if capacity is None or not places:
        return supply if places else 0
    tokens, room = game.state.tokens, 0
    for p in places:
        free = (capacity[p] if isinstance(capacity, tuple) else capacity(game, p)) - tokens[p].get(token, 0)
        if free > 0:
            room += free
    return room if room < supply else supply


def place_targets(game: Game, seat: int, token: str, base: int) -> list[int]:
    """The seat's places with room for one more of the token, as the action ids `base + place`
    (both callers want ids: one list built, not two). Loops, not comprehensions: a seat owns a
    few places, and a comprehension's own call costs more than its loop here."""
    capacity = game.rules.token_capacity.get(token)
    ids = []
    if capacity is None:
        for p in material.owned_places(game, seat):
            ids.append(base + p)
        return ids
    tokens = game.state.tokens
    for p in material.owned_places(game, seat):
        if (capacity[p] if isinstance(capacity, tuple) else capacity(game, p)) > tokens[p].get(token, 0):
            ids.append(base + p)
    return ids


def good_bound(good: Any, rules_material: Any) -> int:
    """The most of a good anyone could ever receive at once: the deck's cards or the token's
    supply (it sizes the action space)."""
    if good.draw is not None:
        return rules_material.deck_sizes.get(good.draw, 0)
    kind = rules_material.token_supply.get(good.token, good.token)
    return rules_material.supply.get(kind, 0)
