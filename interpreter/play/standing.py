"""Standing actions: what a seat may do at any of its decisions, in every phase, beside the
running phase's own actions.

A rules file opts in through its decks: a deck whose cards sell (`sell`, `sell_resource`)
lets a seat turn such a card in for the resource whenever it decides, and with
`sell_to_afford` a seat short of the resource is asked (to sell, or to `pass`) rather than
skipped, when selling would let it do more in the phase. The automatic step (flow.py) asks
the layer the rules have, through three questions (`ids`, `enables`, `decline`); rules
without a deck that sells have none, and pay nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.actions import CLOSE, STANDING, ActionSpace, Block, Values
from ..base.limits import MAX_AMOUNT
from ..model import CardDef, DeckDef, Game
from . import material

MEMO_SIZE = 10_000          # hands remembered before the memos start again (simulations meet many)


class Selling:
    """The standing action of selling cards (and of passing, when asked only to sell)."""

    def __init__(self, sell: Block, decline: Block | None, cards: dict[str, CardDef],
                 decks: dict[str, DeckDef]) -> None:
        self.block = sell
        self.id_of = {card: sell.base + i for i, card in enumerate(sell.values_field().values)}
        self.decline = -1 if decline is None else decline.base
        self.cards, self.decks = cards, decks
        # What selling a card brings, for the cards a seat short of the resource is asked to sell.
        self.to_afford = _to_afford(cards, decks)
        self._ids: dict[tuple[str, ...], list[int]] = {}         # hand -> the ids of selling from it
        self._gains: dict[tuple[str, ...], dict[str, int]] = {}  # hand -> what selling it would bring

    @classmethod
    def declare(cls, space: ActionSpace, cards: dict[str, CardDef],
                decks: dict[str, DeckDef]) -> tuple[Block | None, Block | None]:
        """The blocks of selling (ranked last) and of passing, if any deck sells."""
        sellable = tuple(sorted(c for c, card in cards.items() if decks.get(card.deck) and decks[card.deck].sell))
        if not sellable:
            return None, None
        sell = space.declare("sell", None, (("card", Values(sellable)),), STANDING)
        decline = space.declare("pass", None, (), CLOSE) if _to_afford(cards, decks) else None
        return sell, decline

    def ids(self, game: Game, seat: int) -> list[int]:
        """The seat's standing actions now, in id order (the same hand, the same list)."""
        hand = tuple(game.state.hands[seat])
        known = self._ids.get(hand)
        if known is None:
            if len(self._ids) >= MEMO_SIZE:
                self._ids.clear()
            id_of = self.id_of
            known = self._ids[hand] = sorted({id_of[c] for c in hand if c in id_of})
        return known

    def enables(self, game: Game, legal: Callable[[Game, int], list[int]], seat: int, can: int) -> bool:
        """Whether the seat, which can do `can` things in the running phase, could do more had it
        sold every card it may sell to afford: it is then asked, not skipped."""
        hand = tuple(game.state.hands[seat])
        gains = self._gains.get(hand)
        if gains is None:
            if len(self._gains) >= MEMO_SIZE:
                self._gains.clear()
            gains = self._gains[hand] = self._sale_gains(hand)
        if not gains:
            return False
        purse = game.state.resources[seat]
        before = []
        for name, gain in gains.items():
            before.append((name, purse[name]))
            purse[name] = min(purse[name] + gain, game.rules.resource_max.get(name, MAX_AMOUNT))
        try:
            return len(legal(game, seat)) > can
        finally:
            purse.update(before)

    def _sale_gains(self, hand: tuple[str, ...]) -> dict[str, int]:
        gains: dict[str, int] = {}
        for card in hand:
            sale = self.to_afford.get(card)
            if sale is not None:
                gains[sale[0]] = gains.get(sale[0], 0) + sale[1]
        return gains

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        """Sell the card the action names: it goes to its discard pile, the seat gains its price."""
        card_id = block.values_field().values[indices[0]]
        card = self.cards[card_id]
        deck = self.decks[card.deck]
        material.discard(game, seat, card_id)
        if game.log is not None:
            game.event({"event": "sell", "seat": seat, "card": card_id})
        assert deck.sell_resource is not None and card.sale is not None      # a card of a deck that sells
        material.gain(game, seat, deck.sell_resource, deck.sell, card.sale)


def _to_afford(cards: dict[str, CardDef], decks: dict[str, DeckDef]) -> dict[str, tuple[str, int]]:
    found: dict[str, tuple[str, int]] = {}
    for cid, card in cards.items():
        deck = decks.get(card.deck)
        if deck is not None and deck.sell and deck.sell_to_afford and deck.sell_resource is not None:
            found[cid] = (deck.sell_resource, deck.sell)
    return found

