"""Lay a card: a seat lays a card of its hand face up, for everyone to see, and the phases
after it read the card (a card put up for auction, or one that sets the round's action).

In turn order each seat may lay one card of a deck of places that `where` allows; the card
goes to the deck's discard pile, is kept as `PHASE.card` (and its player as `PHASE.seat`) until the
phase runs again, and `then` runs for the seat. With `first_only` the phase ends once a card
is laid (one seat leads); with `optional` a seat may decline.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Values
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Member
from ..dsl.types import BOOL, PLACE, SEAT
from ..model import Game
from ..play import cards, choices
from .base import Doc, Mechanic
from .params import DeferredCondition, DeferredEffect, Flag, PhaseBuilder, Ref


class LayCard(Mechanic):
    name = "lay_card"
    doc = ("In turn order each seat may lay one card of a deck of places from its hand face up (`where` says "
           "which); the card goes to the deck's discard pile and is kept as `PHASE.card`, its player as "
           "`PHASE.seat`, until the phase runs again; then `then` runs for the seat. With `first_only` the phase "
           "ends once a card is laid; with `optional` a seat may decline.")
    params = (
        Ref("deck", "The deck whose cards are laid (a deck `of: places`: a card is a place, whose printed "
            "properties tell what it is).", "deck", required=True),
        DeferredCondition("where", "Condition (`my` the seat, `card` a card of its hand): which cards the seat may "
                          "lay (default: any)."),
        DeferredEffect("then", "Effect run for the seat that lays a card (`card` the card); its choices are part "
                       "of the action."),
        Flag("first_only", "Whether the phase ends as soon as one seat has laid a card.", default=False),
        Flag("optional", "Whether a seat may decline to lay a card.", default=False),
    )
    actions = (Doc("lay", '{"type": "lay", "card": "CARD", "CHOICE": "VALUE"}', "lay a card of the hand face up"),
               Doc("decline", '{"type": "decline"}', "lay no card (where `optional`)"))
    events = (Doc("laid", '{"event": "laid", "seat": 0, "card": "CARD", "CHOICE": "VALUE"}', "a card laid face up"),
              Doc("declined", '{"event": "declined", "seat": 0}', "a seat laid no card"))

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.deck = self.p.deck
        deck = build.material["material"].decks.get(self.deck)
        if deck is not None and not deck.of_places:
            build.problem("deck", message=f"the deck '{self.deck}' is not a deck of places: its cards have no "
                          "properties for the phases after to read")
        scope = Scope(bound={"card": PLACE})
        where, then = self.p.where, self.p.then
        self.where = build.build.expression(where, scope, BOOL) if build.build.get(where) is not None else None
        self.then = build.build.effect(then, scope) if build.build.get(then) is not None else None
        self.first_only, self.optional = self.p.first_only, self.p.optional
        self.cause = build.cause("lay")

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        def kept(key: str) -> Any:
            return lambda ctx: ctx.state.kept.get(phase_id, {}).get(key)
        reads = (("kept", phase_id),)
        return {"card": Member(PLACE, kept("card"), doc="the card laid last (nothing before one is laid)", reads=reads),
                "seat": Member(SEAT, kept("seat"), doc="the seat that laid it (nobody before a card is laid)",
                               reads=reads)}

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        self.cards = tuple(sorted(c for c, card in material.cards.items() if card.deck == self.deck))
        fields = (("card", Values(self.cards)),)
        if self.then is not None:
            fields += choices.choice_fields(self.then, material)
        self.block = space.declare("lay", None, fields, doc=self.actions[0].meaning)
        self.decline = space.declare("decline", None, (), doc=self.actions[1].meaning) if self.optional else None
        self.index = {card: i for i, card in enumerate(self.cards)}

    def describe(self) -> str:
        who = "The first seat to lay one" if self.first_only else "Each seat, in turn order,"
        return f"{who} lays a card of the {self.deck} deck face up."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0, "laid": False}
        game.state.kept[self.phase_id] = {"card": None, "seat": None}

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        if data["idx"] >= len(data["order"]) or (self.first_only and data["laid"]):
            return None
        return data["order"][data["idx"]]

    def legal(self, game: Game, seat: int) -> list[int]:
        block, ids = self.block, []
        for card in sorted(set(game.state.hands[seat]) & self.index.keys()):
            bound = game.rules.place_index[card]
            if self.where is not None and not self.where.fn(Ctx(game, seat, {"card": bound})):
                continue
            base = block.base + self.index[card] * block.strides[0]
            if self.then is None:
                ids.append(base)
            else:
                ids += choices.allowed_ids(game, seat, self.then, block, self.cause, {"card": bound},
                                           first=1, base=base)
        if ids and self.decline is not None:
            ids.append(self.decline.base)
        return sorted(ids)

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        state = game.state
        state.working["idx"] += 1
        if block is self.decline:
            game.event({"event": "declined", "seat": seat})
            return
        card = self.cards[indices[0]]
        state.hands[seat].remove(card)
        state.discards[self.deck].append(card)
        state.working["laid"] = True
        bound = game.rules.place_index[card]
        state.kept[self.phase_id] = {"card": bound, "seat": seat}
        game.event({"event": "laid", "seat": seat, **cards.shown_choices(game, block, indices)})
        if self.then is not None:
            env = choices.env_of(block, indices, first=1)
            env["card"] = bound
            self.then.run(Ctx(game, seat, env, None, self.cause))

    def pass_turn(self, game: Game, seat: int) -> None:
        game.state.working["idx"] += 1          # no card it may lay
