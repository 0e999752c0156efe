"""A transition: an effect run once by itself, between parts of a game, written in the DSL
(values reckoned, tokens moved, places released), with no decision and no seat acting."""

from __future__ import annotations

from ..dsl.checked import NO_SEAT
from ..dsl.context import Ctx
from ..model import Game
from .base import Mechanic
from .params import Effect, PhaseBuilder


class Transition(Mechanic):
    automatic = True
    name = "transition"
    doc = ("The `run` effect runs once, by itself: no seat acts (an effect says whose with `for`, or goes "
           "through `seats` with `each`) and nobody decides. No decisions.")
    params = (Effect("run", "The effect (no seat; it cannot `choose` or `require`).", scope=NO_SEAT, automatic=True,
                     required=True),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.run = self.p.run
        self.cause = build.cause("transition", "run")

    def describe(self) -> str:
        return "An effect runs once, by itself: a transition."

    def begin(self, game: Game) -> None:
        game.state.working = {"done": False}

    def auto(self, game: Game) -> bool:
        if game.state.working["done"]:
            return False
        game.state.working["done"] = True
        self.run.run(Ctx(game, None, None, None, self.cause))
        return True
