"""Income: in turn order each seat collects from every place it owns.

`amount` is evaluated per owned place (bare names are the place's values, `my` its owner);
`instead` names a place modifier that, when 0 or more, replaces a place's whole income.
"""

from __future__ import annotations

from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.types import PLACE
from ..model import Game
from ..play import material, modifiers
from .base import Doc
from .card_window import ClosingTurns
from .params import Expr, PhaseBuilder, Ref


class Income(ClosingTurns):
    name = "income"
    doc = ("In turn order each seat collects from every place it owns; a seat that can play a card "
           "of the window may play cards first, then `collect`s.")
    params = (
        Expr("amount", "What one owned place yields (place scope: bare names are the place's values; "
             "`my` is the owner).", scope=Scope().over(PLACE), required=True),
        Ref("resource", "The resource collected.", "resource", required=True),
        Ref("instead", "A place modifier: when it is 0 or more for a place, it is that place's whole yield.",
            "modifier"),
        Ref("card_window", "The card window open before collecting.", "window"),
    )
    actions = (Doc("collect", '{"type": "collect"}', "collect the income of every place the seat owns"),)
    events = (Doc("income", '{"event": "income", "seat": 0, "total": 12, "places": {"PLACE": 8}}',
                  "what a seat collected, place by place"),)
    closing_type = "collect"

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.amount, self.resource, self.window = self.p.amount, self.p.resource, self.p.card_window
        self.cause = build.cause("income", "amount")
        self.instead = build.vocab.modifiers.get(self.p.instead) if self.p.instead else None
        if self.instead is not None and self.instead.scope != "place":
            build.problem("instead", message=f"'{self.p.instead}' must be a place modifier (scope: place)")

    def describe(self) -> str:
        return f"In turn order, each seat collects {self.resource} from each place it owns."

    def place_incomes(self, game: Game, seat: int) -> list[int]:
        """What each place the seat owns yields, in the order of `material.owned_places`."""
        at, ctx, state, instead = self.amount.at, Ctx(game, seat), game.state, self.instead
        incomes = []                        # loops: cheaper than a comprehension's call
        if instead is None or (instead.name not in state.mods and instead.default < 0):
            for p in material.owned_places(game, seat):
                incomes.append(at(ctx, p))
            return incomes
        for p in material.owned_places(game, seat):
            replaced = modifiers.read(state, instead, p)
            incomes.append(replaced if replaced is not None and replaced >= 0 else at(ctx, p))
        return incomes

    def finish(self, game: Game, seat: int) -> None:
        """Collect the income of every place the seat owns."""
        incomes = self.place_incomes(game, seat)
        total = sum(incomes)
        game.state.working["idx"] += 1
        if game.log is not None:
            place_ids = game.rules.place_ids
            detail = {place_ids[p]: n for p, n in zip(material.owned_places(game, seat), incomes)}
            game.event({"event": "income", "seat": seat, "total": total, "places": detail})
        material.gain(game, seat, self.resource, total, self.cause)
