"""Moving material: resources, cards, tokens and ownership, the same way for effects and
mechanics.

Every change of the material state goes through these few functions, so the rules' limits
(nothing below zero, nothing above a resource's `max`, a place's capacity, the supply) and
the automatic conversions hold wherever a change comes from, and tokens and cards are never
made or lost. Each takes the `Cause` of the change (interpreter/base/causes.py): a resource's
change is recorded under its id in the seat's sources, and, when the game keeps its log,
every change is a change event with its cause and exact amount (docs/log-format.md), so
that a log alone rebuilds every seat's resources, the tokens on the board and the owners.
"""

from __future__ import annotations

from typing import Any

from ..base.causes import Cause
from ..base.errors import GameError
from ..base.limits import MAX_AMOUNT
from ..model import Game
from . import denominations

UNLIMITED = 10 ** 6       # the room of a place for a token without a capacity
# On the hot paths (here, goods, market, auction) the smaller of two numbers is found by a
# comparison, not min(): Python 3.11's min() and max() parse keyword arguments at every call,
# which costs more than the rest of a small function.


def gain(game: Game, seat: int, resource: str, amount: int, cause: Cause, other: dict[str, int] | None = None) -> int:
    """Add amount (negative: remove), kept within 0 and the resource's max; note the source.
    Returns the change made. (`other`: the seat a transfer moved it from or to, for the log.)"""
    state = game.state
    purse = state.resources[seat]
    have = purse[resource]
    new = have + amount                 # kept within 0 and the max by comparisons: gain is hot
    if new < 0:
        new = 0
    elif new > game.rules.resource_top[resource]:
        most = game.rules.resource_max.get(resource)
        if most is None or most > MAX_AMOUNT:
            raise GameError(f"{cause.id}: seat {seat}'s {resource} would pass {MAX_AMOUNT:,}")
        new = most
    change = new - have
    if change:
        purse[resource] = new
        sources = state.sources[seat].get(resource)
        if sources is None:
            sources = state.sources[seat][resource] = {}
        key = cause.id
        sources[key] = sources.get(key, 0) + change
        if game.log is not None:
            game.log.append({"event": "gain", "seat": seat, "resource": resource, "amount": change,
                             **(other or {}), "cause": cause.to_json()})
        if state.held and resource in state.held:       # held as cards: pay and be paid in them
            denominations.settle(game, seat, resource, change)
    return change


def transfer(game: Game, giver: int, taker: int, resource: str, amount: int, cause: Cause) -> int:
    """Move up to amount of a resource from one seat to another (as much as the giver has and
    the taker may hold); returns how much moved."""
    if giver == taker or amount <= 0:
        return 0
    state = game.state
    most = game.rules.resource_max.get(resource)
    room = amount if most is None else max(most - state.resources[taker][resource], 0)
    moved = min(amount, state.resources[giver][resource], room)
    if moved:
        gain(game, giver, resource, -moved, cause, {"to": taker})
        gain(game, taker, resource, moved, cause, {"from": giver})
    return moved


def draw(game: Game, seat: int, deck: str, count: int, cause: Cause) -> list[str]:
    """Move up to count cards from the deck into the seat's hand, reshuffling if the deck allows."""
    state = game.state
    drawn: list[str] = []
    pile = state.decks[deck]
    while len(drawn) < count:                 # (a loop without a range: drawing is hot)
        if not pile and game.rules.decks[deck].reshuffle and state.discards[deck]:
            pile.extend(state.discards[deck])
            state.discards[deck].clear()
            game.shuffle(pile)
            game.event({"event": "reshuffle", "deck": deck})
        if not pile:
            break
        drawn.append(pile.pop(0))
    state.hands[seat].extend(drawn)
    if drawn and game.log is not None:
        game.log.append(drawn_event(game, seat, deck, drawn, cause))
    return drawn


def drawn_event(game: Game, seat: int, deck: str, cards: list[str], cause: Cause) -> dict[str, Any]:
    """The `draw` event: which cards only for a deck whose cards are not hidden in hand."""
    event: dict[str, Any] = {"event": "draw", "seat": seat, "deck": deck, "count": len(cards)}
    if not game.rules.decks[deck].hidden:
        event["cards"] = list(cards)
    event["cause"] = cause.to_json()
    return event


def cards_available(game: Game, deck: str) -> int:
    state = game.state
    extra = len(state.discards[deck]) if game.rules.decks[deck].reshuffle else 0
    return len(state.decks[deck]) + extra


def discard(game: Game, seat: int, card: str) -> None:
    game.state.hands[seat].remove(card)
    game.state.discards[game.rules.cards[card].deck].append(card)


def owned_places(game: Game, seat: int) -> list[int]:
    """The places the seat owns, in order (a shared list: do not change it). Worked out again
    only when the owners are not those it was worked out for."""
    owners = game.state.owner
    memo = game.owned
    if memo is None or memo[0] != owners:              # compared with a copy: nothing is built per call
        lists: list[list[int]] = [[] for _ in range(game.state.players)]
        for place, owner in enumerate(owners):
            if owner >= 0:
                lists[owner].append(place)
        memo = game.owned = (list(owners), lists)
    return memo[1][seat]


def set_owner(game: Game, place: int, seat: int | None, cause: Cause) -> None:
    """The seat becomes the place's owner (None: nobody owns it)."""
    owner = -1 if seat is None else seat
    if game.state.owner[place] != owner:
        game.state.owner[place] = owner
        if game.log is not None:
            game.log.append({"event": "owner", "place": game.rules.place_ids[place], "seat": seat,
                             "cause": cause.to_json()})


def room(game: Game, place: int, token: str) -> int:
    """How many more of token the place can hold (UNLIMITED without a capacity)."""
    capacity = game.rules.token_capacity.get(token)
    if capacity is None:
        return UNLIMITED
    most = capacity[place] if isinstance(capacity, tuple) else capacity(game, place)
    return max(most - game.state.tokens[place].get(token, 0), 0)


def supply_of(game: Game, token: str) -> int:
    """What the supply holds (an unlimited one never changes: what is taken is replaced)."""
    return game.state.supply[game.rules.token_supply[token]]


def _tokens_event(game: Game, log: list[dict[str, Any]], place: int, token: str, amount: int, cause: Cause) -> None:
    log.append({"event": "tokens", "place": game.rules.place_ids[place], "token": token, "amount": amount,
                "cause": cause.to_json()})


def place_tokens(game: Game, place: int, token: str, count: int, cause: Cause) -> int:
    """Put up to count tokens from the supply on the place (within its room); returns how many."""
    state, rules = game.state, game.rules
    kind = rules.token_supply[token]
    held = state.tokens[place]
    have = held.get(token, 0)
    supply = state.supply[kind]
    if count > supply:
        count = supply
    capacity = rules.token_capacity.get(token)      # the room of `room`, read inline: placing is hot
    if capacity is not None:
        room = (capacity[place] if isinstance(capacity, tuple) else capacity(game, place)) - have
        if count > room:
            count = room
    if count <= 0:
        return 0
    if kind not in game.unlimited:
        state.supply[kind] -= count
    held[token] = have + count
    if game.log is not None:
        _tokens_event(game, game.log, place, token, count, cause)
    if token in game.rules.converted:
        apply_conversions(game, place)
    return count


def remove_tokens(game: Game, place: int, token: str, count: int, cause: Cause) -> int:
    """Take up to count tokens off the place, back to the supply; returns how many."""
    state = game.state
    have = state.tokens[place].get(token, 0)
    if count > have:
        count = have
    if count <= 0:
        return 0
    state.tokens[place][token] -= count
    kind = game.rules.token_supply[token]
    if kind not in game.unlimited:
        state.supply[kind] += count
    if game.log is not None:
        _tokens_event(game, game.log, place, token, -count, cause)
    return count


def move_tokens(game: Game, source: int, target: int, token: str, count: int, cause: Cause) -> int:
    """Move up to count tokens from one place to another (within the target's room)."""
    state = game.state
    count = min(count, state.tokens[source].get(token, 0), room(game, target, token))
    if count <= 0 or source == target:
        return 0
    state.tokens[source][token] -= count
    state.tokens[target][token] = state.tokens[target].get(token, 0) + count
    if game.log is not None:
        _tokens_event(game, game.log, source, token, -count, cause)
        _tokens_event(game, game.log, target, token, count, cause)
    if token in game.rules.converted:
        apply_conversions(game, target)
    return count


def convert(game: Game, place: int, count: int, source: str, target: str, cause: Cause) -> bool:
    """Replace count source tokens by one target token, if both are there to be had."""
    state = game.state
    if state.tokens[place].get(source, 0) < count or state.supply[game.rules.token_supply[target]] < 1:
        return False
    state.tokens[place][source] -= count
    for kind, back in ((game.rules.token_supply[source], count), (game.rules.token_supply[target], -1)):
        if kind not in game.unlimited:
            state.supply[kind] += back
    state.tokens[place][target] = state.tokens[place].get(target, 0) + 1
    if game.log is not None:
        game.log.append({"event": "convert", "place": game.rules.place_ids[place], "from": source,
                         "count": count, "to": target, "cause": cause.to_json()})
    apply_conversions(game, place)
    return True


def apply_conversions(game: Game, place: int) -> None:
    """Apply the rules' automatic conversions until none applies (e.g. 3 of one token become 1 of another)."""
    for source, count, target, cause in game.rules.conversions:
        if game.state.tokens[place].get(source, 0) >= count:
            if convert(game, place, count, source, target, cause):
                return          # convert() re-runs the whole list
