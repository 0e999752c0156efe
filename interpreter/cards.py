"""Card play windows: which cards a seat may play now, with which choices, and playing them.

A card's effect may `choose` (a province, a number...); each allowed combination of choices
is one legal action, so the player's choice is part of the action and is replayed exactly.
"""

from __future__ import annotations

from typing import Any, Iterator

from . import board
from .context import Ctx
from .dsl_compile import Effect
from .dsl_names import PLACE


def bindings(game: Any, seat: int, effect: Effect, source: str) -> Iterator[dict[str, Any]]:
    """Every combination of choices for which the effect's requirements hold (env values)."""
    ctx = Ctx(game, seat, {}, None, source)

    def walk(i: int) -> Iterator[dict[str, Any]]:
        if i == len(effect.choices):
            if effect.allowed(ctx):
                yield dict(ctx.env)
            return
        choice = effect.choices[i]
        for value in choice.options(ctx):
            ctx.env[choice.name] = value
            yield from walk(i + 1)
        ctx.env.pop(choice.name, None)
    yield from walk(0)


def to_action(game: Any, effect: Effect, env: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The JSON action for one binding: places are written by their rules-file ids."""
    action = dict(base)
    for choice in effect.choices:
        value = env[choice.name]
        action[choice.name] = game.rules.place_ids[value] if choice.type == PLACE else value
    return action


def from_action(game: Any, effect: Effect, action: dict[str, Any]) -> dict[str, Any]:
    env = {}
    for choice in effect.choices:
        value = action[choice.name]
        env[choice.name] = game.rules.place_index[value] if choice.type == PLACE else value
    return env


def playable(game: Any, seat: int, window: str) -> list[dict[str, Any]]:
    """Play actions for the seat's cards of this window, one kind at most once per phase."""
    actions = []
    state = game.state
    for card_id in sorted(set(state.hands[seat])):
        card = game.rules.cards[card_id]
        if card.window != window or card.effect is None or card_id in state.played[seat]:
            continue
        for env in bindings(game, seat, card.effect, card_id):
            actions.append(to_action(game, card.effect, env, {"type": "play", "card": card_id}))
    return actions


def play(game: Any, seat: int, action: dict[str, Any]) -> None:
    """Play a card: it leaves the hand for its discard pile, then its effect runs."""
    card = game.rules.cards[action["card"]]
    board.discard(game, seat, card.id)
    game.state.played[seat].append(card.id)
    game.event({"event": "play", "seat": seat, **{k: v for k, v in action.items() if k != "type"}})
    run(game, seat, card.effect, action, card.id)


def run(game: Any, seat: int, effect: Effect, action: dict[str, Any], source: str) -> None:
    ctx = Ctx(game, seat, from_action(game, effect, action), None, source)
    effect.run(ctx)


def sell_actions(game: Any, seat: int) -> list[dict[str, Any]]:
    """Cards that may be turned in for gold at any of the seat's decisions."""
    return [{"type": "sell", "card": c} for c in sorted(set(game.state.hands[seat]))
            if game.rules.decks[game.rules.cards[c].deck].sell]


def sell(game: Any, seat: int, card_id: str) -> None:
    deck = game.rules.decks[game.rules.cards[card_id].deck]
    board.discard(game, seat, card_id)
    board.gain(game, seat, deck.sell_resource, deck.sell, "sold " + card_id)
