"""A card window: in turn order each seat may play cards of one window, then closes its turn.

The closing act is `done` here; mechanics built on this one (income) close the turn with
their own action, so "play cards, then act" is written once. A seat with no card to play is
not asked: the engine closes its turn for it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

from ..base.actions import CLOSE, ActionSpace, Block
from ..model import Game
from .base import Doc, Mechanic
from .params import Flag, PhaseBuilder, Ref


class ClosingTurns(Mechanic):
    """In turn order each seat has one turn, closed by the mechanic's closing action; while it
    lasts, the seat may play cards of the open window."""
    closing_type: ClassVar[str]
    closing: Block                      # declared with the action space (declare)
    closing_ignores_purse = True        # the turn's own action is only ever its closing one

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        self.closing = space.declare(self.closing_type, None, (), CLOSE, doc=self.actions[0].meaning)

    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0}

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        return data["order"][data["idx"]] if data["idx"] < len(data["order"]) else None

    def legal(self, game: Game, seat: int) -> list[int]:
        return [self.closing.base]

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        self.finish(game, seat)

    def finish(self, game: Game, seat: int) -> None:
        """Close the seat's turn."""
        game.state.working["idx"] += 1


class CardWindow(ClosingTurns):
    name = "card_window"
    doc = ("In turn order, each seat that can play a card of the window (or, with `sales`, sell a "
           "card) may do so, then says `done`; a seat with nothing to do is skipped.")
    params = (Ref("window", "The card window opened.", "window"),
              Flag("sales", "Whether every seat holding cards it may sell is asked (a last chance to "
                   "sell before a scoring, say)."))
    actions = (Doc("done", '{"type": "done"}', "end the seat's turn"),)
    closing_type = "done"

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.window, self.asks_standing = self.p.window, bool(self.p.sales)
        if self.window is None and not self.asks_standing:
            build.problem(message="a card window opens a `window`, offers `sales`, or both")

    def describe(self) -> str:
        what = [f"play its '{self.window}' cards"] if self.window else []
        return f"In turn order, each seat may {' and '.join(what + ['sell cards'] * self.asks_standing)}."
