"""Dealing: each seat is dealt cards from a deck into its hand, no decisions."""

from __future__ import annotations

from ..dsl.checked import NO_SEAT
from ..dsl.context import Ctx
from ..model import Game
from ..play import material
from .base import Mechanic
from .params import Expr, PhaseBuilder, Ref


class Deal(Mechanic):
    automatic = True
    name = "deal"
    doc = "In turn order, each seat is dealt cards from a deck into its hand. No decisions."
    params = (
        Ref("deck", "The deck dealt from.", "deck", required=True),
        Expr("count", "How many cards each seat is dealt (no seat; `players` may size it).", scope=NO_SEAT,
             required=True),
    )

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.deck, self.count = self.p.deck, self.p.count
        self.cause = build.cause("deal", "deck")

    def describe(self) -> str:
        return f"Each seat is dealt cards from the {self.deck} deck."

    def begin(self, game: Game) -> None:
        game.state.working = {"done": False}

    def auto(self, game: Game) -> bool:
        if game.state.working["done"]:
            return False
        count = self.count.fn(Ctx(game))
        for seat in self.order(game):
            material.draw(game, seat, self.deck, count, self.cause)
        game.state.working["done"] = True
        return True
