"""Income: in turn order each seat collects from every place it owns.

Parameters: `gold` (an expression evaluated per owned place, bare names being the place's
values), `resource` (default gold), `instead` (a place modifier: when 0 or more it replaces
that place's income), `card_window` (cards played before collecting).
"""

from __future__ import annotations

from typing import Any

from .. import board
from ..context import Ctx
from ..dsl_compile import Scope
from ..dsl_names import read_modifier
from .card_window import CardWindow


class Income(CardWindow):
    name = "income"
    closing = "collect"

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.formula = build.expression("gold", scope=Scope(element=True))
        self.resource = (build.ref("resource", known=build.vocab.resources, what="resource")
                         if build.has("resource") else "gold")
        instead = build.get("instead")
        self.instead = build.vocab.modifiers.get(instead) if instead else None
        if instead and self.instead is None:
            build.ref("instead", known=build.vocab.modifiers, what="modifier")
        self.window = build.get("card_window")

    def describe(self) -> str:
        return f"In turn order, each seat collects {self.resource} from each place it owns."

    def place_income(self, game: Any, seat: int, place: int) -> int:
        if self.instead is not None:
            replaced = read_modifier(game.state, self.instead, None, place)
            if replaced is not None and replaced >= 0:
                return replaced
        return self.formula(Ctx(game, seat, {}, place))

    def projected(self, game: Any, seat: int) -> int:
        """What the seat would collect now (used by lookahead agents)."""
        return sum(self.place_income(game, seat, p) for p in board.owned_places(game.state, seat))

    def finish(self, game: Any, seat: int) -> None:
        """Collect the income of every place the seat owns."""
        detail = {game.rules.place_ids[p]: self.place_income(game, seat, p)
                  for p in board.owned_places(game.state, seat)}
        total = sum(detail.values())
        board.gain(game, seat, self.resource, total, self.phase_id)
        game.state.phase["idx"] += 1
        game.event({"event": "income", "seat": seat, "total": total, "places": detail})
