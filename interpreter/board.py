"""Moving things about: resources, cards and tokens, the same way for effects and mechanics.

Every change of the material state goes through these few functions, so conservation
(nothing made or lost) and the automatic conversions hold wherever a change comes from.
"""

from __future__ import annotations

from typing import Any

from . import rng
from .context import Ctx


def owned_places(state: Any, seat: int) -> list[int]:
    return [p for p, owner in enumerate(state.owner) if owner == seat]


def gain(game: Any, seat: int, resource: str, amount: int, source: str) -> int:
    """Add amount (negative: remove, never below zero) and note the source; returns the change."""
    have = game.state.resources[seat][resource]
    amount = max(amount, -have)
    if amount:
        game.state.resources[seat][resource] = have + amount
        sources = game.state.vp_sources[seat]
        key = f"{resource}:{source}"
        sources[key] = sources.get(key, 0) + amount
    return amount


def draw(game: Any, seat: int, deck: str, count: int) -> list[str]:
    """Move up to count cards from the deck into the seat's hand, reshuffling if the deck allows."""
    state = game.state
    drawn = []
    for _ in range(max(count, 0)):
        pile = state.decks[deck]
        if not pile and game.rules.decks[deck].reshuffle and state.discards[deck]:
            pile.extend(state.discards[deck])
            state.discards[deck].clear()
            state.rng = rng.shuffle(state.rng, pile)
            game.event({"event": "reshuffle", "deck": deck})
        if not pile:
            break
        drawn.append(pile.pop(0))
    state.hands[seat].extend(drawn)
    return drawn


def cards_available(game: Any, deck: str) -> int:
    state = game.state
    extra = len(state.discards[deck]) if game.rules.decks[deck].reshuffle else 0
    return len(state.decks[deck]) + extra


def discard(game: Any, seat: int, card: str) -> None:
    game.state.hands[seat].remove(card)
    game.state.discards[game.rules.cards[card].deck].append(card)


def room(game: Any, place: int, token: str) -> int:
    """How many more of token the place can hold (a large number when unlimited)."""
    capacity = game.rules.token_capacity.get(token)
    if capacity is None:
        return 10 ** 6
    return max(capacity(Ctx(game), place) - game.state.tokens[place].get(token, 0), 0)


def supply_of(game: Any, token: str) -> int:
    return game.state.supply[game.rules.token_supply[token]]


def place_tokens(game: Any, place: int, token: str, count: int) -> int:
    """Put up to count tokens from the supply on the place (within its room); returns how many."""
    count = min(count, supply_of(game, token), room(game, place, token))
    if count <= 0:
        return 0
    state = game.state
    state.supply[game.rules.token_supply[token]] -= count
    state.tokens[place][token] = state.tokens[place].get(token, 0) + count
    apply_conversions(game, place)
    return count


def remove_tokens(game: Any, place: int, token: str, count: int) -> None:
    state = game.state
    count = min(count, state.tokens[place].get(token, 0))
    if count <= 0:
        return
    state.tokens[place][token] -= count
    state.supply[game.rules.token_supply[token]] += count


def convert(game: Any, place: int, count: int, source: str, target: str) -> bool:
    """Replace count source tokens by one target token, if both are there to be had."""
    if game.state.tokens[place].get(source, 0) < count or supply_of(game, target) < 1:
        return False
    remove_tokens(game, place, source, count)
    game.state.supply[game.rules.token_supply[target]] -= 1
    game.state.tokens[place][target] = game.state.tokens[place].get(target, 0) + 1
    game.event({"event": "convert", "place": game.rules.place_ids[place], "from": source,
                "count": count, "to": target})
    apply_conversions(game, place)
    return True


def apply_conversions(game: Any, place: int) -> None:
    """Apply the rules' automatic conversions until none applies (e.g. 3 stones -> pyramid)."""
    for source, count, target in game.rules.conversions:
        if game.state.tokens[place].get(source, 0) >= count:
            if convert(game, place, count, source, target):
                return          # convert() re-runs the whole list
