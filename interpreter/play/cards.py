"""The card layer: playing a card in an open card window, and selling one, at any decision.

It is one layer for every phase: the engine adds these actions to whatever the running
mechanic offers, so no mechanic deals with cards played or sold. A card's `choose`s are part
of its play action (see interpreter/play/choices.py), so a play replays exactly.
"""

from __future__ import annotations

from typing import Any

from ..base.actions import Block
from ..base.causes import Cause
from ..base.state import GameState
from ..dsl import Effect
from ..dsl.context import Ctx
from ..model import Game
from . import choices, material


def playable(game: Game, seat: int, window: str | None) -> list[int]:
    """Play actions for the seat's cards of this window, in id order. A deck may allow one card
    of each kind per phase (round, age, game): a kind already played then is left out."""
    rules, state = game.rules, game.state
    ids = []
    cards = rules.window_cards.get(window, frozenset()) if window is not None else frozenset()
    for card_id in sorted(cards.intersection(state.hands[seat])):
        card = rules.cards[card_id]
        if not _used(state, rules.decks[card.deck].one_per_kind, seat, card_id):
            ids += choices.allowed_ids(game, seat, card.effect, rules.play_blocks[card_id], card.cause)
    return ids


def _used(state: GameState, lifetime: str | None, seat: int, card_id: str) -> bool:
    if lifetime is None:
        return False
    played = state.played.get(lifetime)
    return played is not None and card_id in played[seat]


def play(game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
    """Play a card: it leaves the hand for its discard pile, then its effect runs."""
    state = game.state
    card = game.rules.cards[dict(block.fixed)["card"]]
    material.discard(game, seat, card.id)
    lifetime = game.rules.decks[card.deck].one_per_kind
    if lifetime is not None:
        state.played.setdefault(lifetime, [[] for _ in range(state.players)])[seat].append(card.id)
    if game.log is not None:
        game.event({"event": "play", "seat": seat, "card": card.id, **shown_choices(game, block, indices)})
    assert card.effect is not None               # only cards with an effect have play actions
    run(game, seat, card.effect, choices.env_of(block, indices), card.cause)


def run(game: Game, seat: int, effect: Effect, env: dict[str, Any], cause: Cause | None) -> None:
    effect.run(Ctx(game, seat, env, None, cause))


def shown_choices(game: Game, block: Block, indices: tuple[int, ...]) -> dict[str, Any]:
    """An action's choices as the action shows them (places by id)."""
    return {name: domain.value(index, game) for (name, domain), index in zip(block.fields, indices)}
