"""Draft: in turn order each seat takes one of the cards lying face up beside a deck (its
display); once every seat has taken one, the display is laid out again from the deck.

The face-up tops of several stacks, a market row, a river of cards: whatever a seat takes, the
`take` effect runs for it with `card` bound to what it took (a place, for a deck of places,
which it may then claim; else the card's id, and the card goes to its hand), and with any
choices of its own (where to put it), which are part of the action.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Values
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.types import PLACE, TEXT
from ..model import Game
from ..play import cards, choices, decks, material
from .base import Doc, Mechanic
from .params import DeferredEffect, PhaseBuilder, Ref


class Draft(Mechanic):
    name = "draft"
    doc = ("In turn order each seat takes one card of the deck's display (the cards lying face up beside it); "
           "the `take` effect runs for it, with `card` the card taken; once every seat has had its turn, the "
           "display is laid out again from the deck.")
    params = (
        Ref("deck", "The deck whose display the cards are taken from (it has a `display`).", "deck", required=True),
        DeferredEffect("take", "Effect run for the seat that takes a card (`my` the seat, `card` the card: a place "
                       "for a deck of places, which the effect may `claim`; else the card's id, and the card goes to "
                       "the hand). Its choices are part of the action, its requirements say which cards may be taken."),
    )
    actions = (Doc("take", '{"type": "take", "card": "CARD", "CHOICE": "VALUE"}',
                   "take a card of the display, with the choices of `take`"),)
    events = (Doc("took", '{"event": "took", "seat": 0, "card": "CARD", "CHOICE": "VALUE"}', "a card taken"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.deck = self.p.deck
        deck = build.material["material"].decks.get(self.deck)
        self.of_places = deck is not None and deck.of_places
        if deck is not None and deck.display is None:
            build.problem("deck", message=f"the deck '{self.deck}' lays no cards face up: give it a `display`")
        path = self.p.take
        scope = Scope(bound={"card": PLACE if self.of_places else TEXT})
        self.take = build.build.effect(path, scope) if build.build.get(path) is not None else None
        self.cause = build.cause("take", "take")

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        self.cards = tuple(sorted(c for c, card in material.cards.items() if card.deck == self.deck))
        fields = (("card", Values(self.cards)),)
        if self.take is not None:
            fields += choices.choice_fields(self.take, material)
        self.block = space.declare("take", None, fields, doc=self.actions[0].meaning)
        self.index = {card: i for i, card in enumerate(self.cards)}

    def describe(self) -> str:
        return f"In turn order, each seat takes one of the face-up cards of the {self.deck} deck."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0}

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        shown = game.state.shown.get(self.deck)
        return data["order"][data["idx"]] if shown and data["idx"] < len(data["order"]) else None

    def legal(self, game: Game, seat: int) -> list[int]:
        block, ids = self.block, []
        for card in dict.fromkeys(game.state.shown[self.deck]):
            base = block.base + self.index[card] * block.strides[0]
            if self.take is None:
                ids.append(base)
            else:
                ids += choices.allowed_ids(game, seat, self.take, block, self.cause, {"card": self._bound(game, card)},
                                           first=1, base=base)
        return sorted(ids)

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        state = game.state
        card = self.cards[indices[0]]
        state.shown[self.deck].remove(card)
        state.working["idx"] += 1
        game.event({"event": "took", "seat": seat, **cards.shown_choices(game, block, indices)})
        if self.of_places:
            state.discards[self.deck].append(card)
        else:
            state.hands[seat].append(card)
            if game.log is not None:
                game.log.append(material.drawn_event(game, seat, self.deck, [card], self.cause))
        if self.take is not None:
            env = choices.env_of(block, indices, first=1)
            env["card"] = self._bound(game, card)
            self.take.run(Ctx(game, seat, env, None, self.cause))

    def pass_turn(self, game: Game, seat: int) -> None:
        game.state.working["idx"] += 1          # nothing it may take

    def end(self, game: Game) -> None:
        decks.lay_out(game, self.deck)

    def _bound(self, game: Game, card: str) -> Any:
        return game.rules.place_index[card] if self.of_places else card

