"""The card layer: playing a card in an open card window, and selling one, at any decision.

It is one layer for every phase: the engine adds these actions to whatever the running
mechanic offers, so no mechanic deals with cards played or sold. A card's `choose`s are part
of its play action (see interpreter/play/choices.py), so a play replays exactly.
"""

from __future__ import annotations

from typing import Any

from ..base.actions import Block
from ..base.causes import Cause
from ..base.limits import MAX_AMOUNT
from ..base.state import GameState
from ..dsl import Effect
from ..dsl.context import Ctx
from ..model import Game, Rules
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


def sell_ids(game: Game, seat: int) -> list[int]:
    """Cards that may be turned in at any of the seat's decisions (the same hand, the same list)."""
    hand = tuple(game.state.hands[seat])
    known = game.sells.get(hand)
    if known is None:
        sell_id = game.rules.sell_ids
        known = game.sells[hand] = sorted({sell_id[c] for c in hand if c in sell_id})
    return known


def selling_would_pay(game: Game, mech: Any, seat: int, can: int) -> bool:
    """Whether the seat, which can do `can` things in the running phase, could do more had it
    sold every card it may sell: cards sell "at any time", so a seat short of what they sell
    for is asked, not skipped."""
    hand = tuple(game.state.hands[seat])
    gains = game.sale_gains.get(hand)
    if gains is None:
        gains = game.sale_gains[hand] = _sale_gains(game.rules, hand)
    if not gains:
        return False
    purse = game.state.resources[seat]
    before = []
    for name, gain in gains.items():
        before.append((name, purse[name]))
        purse[name] = min(purse[name] + gain, game.rules.resource_max.get(name, MAX_AMOUNT))
    try:
        return len(mech.legal(game, seat)) > can
    finally:
        purse.update(before)


def _sale_gains(rules: Rules, hand: tuple[str, ...]) -> dict[str, int]:
    """What selling every card of the hand that sells to afford would bring, by resource:
    asked at many decisions, worked out once per hand (game.sale_gains, as game.sells)."""
    gains: dict[str, int] = {}
    for card in hand:
        sale = rules.sales_to_afford.get(card)
        if sale is not None:
            gains[sale[0]] = gains.get(sale[0], 0) + sale[1]
    return gains


def sell(game: Game, seat: int, card_id: str) -> None:
    card = game.rules.cards[card_id]
    deck = game.rules.decks[card.deck]
    material.discard(game, seat, card_id)
    if game.log is not None:
        game.event({"event": "sell", "seat": seat, "card": card_id})
    assert deck.sell_resource is not None and card.sale is not None      # a card of a deck that sells
    material.gain(game, seat, deck.sell_resource, deck.sell, card.sale)
