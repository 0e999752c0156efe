"""Reveal: chance from a prepared deck. Each time the phase runs, the top card of a deck of
places is turned face up for everyone; the phases after it read it as `PHASE.card` (a place,
with its printed properties) until the phase runs again.

A seat may be allowed to look at the next card before it is turned (a privilege some effect
grants by setting the `PHASE.peek` modifier): that seat alone then sees it, in its
observation's `private.<phase id>.next`, until it is turned.
"""

from __future__ import annotations

from typing import Any

from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Member, ModifierDef
from ..dsl.types import PLACE
from ..model import Game, Rules
from ..play import modifiers
from ..play.observe import Piece, one_hot
from .base import Doc, Mechanic
from .params import Effect, PhaseBuilder, Ref


class Reveal(Mechanic):
    name = "reveal"
    doc = ("The top card of a deck of places is turned face up (and goes to its discard pile); the phases after "
           "it read it as `PHASE.card` until the phase runs again; then the `then` effect runs. No decisions.")
    params = (
        Ref("deck", "The deck the card comes from (a deck `of: places`).", "deck", required=True),
        Effect("then", "Effect run by itself once the card is turned (no seat: say whose with `for`).",
               scope=Scope(seat=False), automatic=True),
    )
    events = (Doc("turned", '{"event": "turned", "deck": "DECK", "card": "CARD"}', "the card turned face up"),)
    hidden = (Doc("next", '"CARD"', "the deck's next card, in `private`, only for seats whose `PHASE.peek` is set, "
                  "until it is turned"),)
    modifiers = {"peek": ModifierDef("peek", "seat", 0, "game", "when not 0, the seat sees the deck's next card "
                                     "until it is turned (then it is 0 again)")}

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.deck, self.then = self.p.deck, self.p.then
        deck = build.material["material"].decks.get(self.deck)
        if deck is not None and not deck.of_places:
            build.problem("deck", message=f"the deck '{self.deck}' holds cards, not places: give it `of: places`")
        self.peek = self.modifier("peek")
        self.cause = build.cause("reveal", "then")
        self.place_ids = build.vocab.place_ids

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        found = super().members(phase_id, spec)
        found["card"] = Member(PLACE, lambda ctx: ctx.state.kept.get(phase_id, {}).get("card"),
                               doc="the card turned last (a place; nothing before the phase first runs)",
                               reads=(("kept", phase_id),))
        return found

    def describe(self) -> str:
        return f"The top card of the {self.deck} deck is turned face up."

    def describe_kept(self, key: str, value: Any) -> str:
        return f"{self.place_ids[value]} turned up" if key == "card" else f"{key} {value}"

    def begin(self, game: Game) -> None:
        state = game.state
        pile = state.decks[self.deck]
        card = pile.pop(0) if pile else None
        state.mods.pop(self.peek.name, None)
        state.kept[self.phase_id] = {"card": None if card is None else game.rules.place_index[card]}
        if card is not None:
            state.discards[self.deck].append(card)
            game.event({"event": "turned", "deck": self.deck, "card": card})
        state.working = {}
        if card is not None and self.then is not None:
            self.then.run(Ctx(game, None, {}, None, self.cause))

    # ---- information ---------------------------------------------------------------------------
    def peeking(self, game: Game, seat: int | None) -> bool:
        """Whether the seat may see the deck's next card now (nobody, in the public view: None)."""
        return (seat is not None and bool(modifiers.read(game.state, self.peek, seat))
                and bool(game.state.decks[self.deck]))

    def private(self, game: Game, seat: int | None) -> dict[str, Any]:
        return {"next": game.state.decks[self.deck][0]} if self.peeking(game, seat) else {}

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        places = len(rules.place_ids)

        def turned(game: Game, seat: int | None, out: list[float], at: int) -> None:
            one_hot(out, at, game.state.kept.get(self.phase_id, {}).get("card"), places)

        def upcoming(game: Game, seat: int | None, out: list[float], at: int) -> None:
            if self.peeking(game, seat):
                one_hot(out, at, game.rules.place_index[game.state.decks[self.deck][0]], places)
        return [Piece(f"{self.phase_id}.card", (places,), "the card turned last (one-hot over places)", turned,
                      least=0.0, most=1.0),
                Piece(f"{self.phase_id}.next", (places,), "the next card, when the observing seat may see it "
                      "(one-hot over places)", upcoming, least=0.0, most=1.0)]
