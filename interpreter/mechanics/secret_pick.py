"""A secret pick: each seat puts one card of its hand back on the deck, face down, revealed
together, for a later phase to draw (the lots of an auction chosen by the players, say)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Values
from ..model import Game, Rules
from ..play.observe import Piece
from .base import Doc, Mechanic
from .params import PhaseBuilder, Ref


class SecretPick(Mechanic):
    automatic = True
    name = "secret_pick"
    doc = ("In turn order, each seat holding a card of the deck picks one face down; once every "
           "seat has, the picks are revealed together and put on top of the deck in turn order, "
           "for a later phase to draw.")
    params = (Ref("deck", "The deck whose cards are picked from the hands, and onto which the picks go.",
                  "deck", required=True),)
    actions = (Doc("pick", '{"type": "pick", "card": "CARD"}', "pick a card of the hand, face down"),)
    events = (Doc("picked", '{"event": "picked", "seat": 0}', "a seat picked (its card stays hidden)"),
              Doc("revealed", '{"event": "revealed", "picks": ["CARD", null, "CARD"]}',
                  "every pick shown at once, by seat"))
    hidden = (Doc("picks", '"hidden"', "each other seat's pick, until every pick is in"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.deck = self.p.deck

    def declare(self, space: ActionSpace, material_: SimpleNamespace) -> None:
        cards = tuple(sorted(c for c, card in material_.cards.items() if card.deck == self.deck))
        self.pick = space.declare("pick", None, (("card", Values(cards)),), doc=self.actions[0].meaning)
        self.index = {card: i for i, card in enumerate(cards)}

    def describe(self) -> str:
        return f"Each seat secretly picks a card of the {self.deck} deck from its hand; the picks go on the deck."

    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0, "picks": [None] * game.state.players,
                            "revealed": False}

    def auto(self, game: Game) -> bool:
        data = game.state.working
        if data["revealed"] or data["idx"] < len(data["order"]):
            return False
        picks = [data["picks"][seat] for seat in data["order"] if data["picks"][seat] is not None]
        game.state.decks[self.deck][0:0] = picks
        data["revealed"] = True
        game.event({"event": "revealed", "picks": list(data["picks"])})
        return True

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        return data["order"][data["idx"]] if data["idx"] < len(data["order"]) else None

    def legal(self, game: Game, seat: int) -> list[int]:
        index, base = self.index, self.pick.base
        return [base + index[card] for card in sorted(set(game.state.hands[seat])) if card in index]

    def pass_turn(self, game: Game, seat: int) -> None:
        game.state.working["idx"] += 1               # no card of the deck: nothing to pick

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        data = game.state.working
        card = block.values_field().values[indices[0]]
        game.state.hands[seat].remove(card)
        data["picks"][seat] = card
        data["idx"] += 1
        game.event({"event": "picked", "seat": seat})

    def observe(self, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
        seen = super().observe(data, seat)
        if not seen["revealed"]:
            seen["picks"] = [p if s == seat or p is None else "hidden" for s, p in enumerate(seen["picks"])]
        return seen

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        seats, index = rules.max_players, self.index
        width = 1 + len(index)

        def picks(game: Game, seat: int | None, out: list[float], at: int) -> None:
            data = self.running(game)
            if data is None:
                return
            for other, card in enumerate(data["picks"]):
                if card is not None:
                    out[at + other * width] = 1.0
                    if other == seat or data["revealed"]:
                        out[at + other * width + 1 + index[card]] = 1.0
        return [Piece(f"{self.phase_id}.picks", (seats, width),
                      f"per seat: picked, then the card picked (one-hot over {sorted(index)}; "
                      "others' only once the picks are revealed)", picks, phase=self.phase_id, least=0.0, most=1.0)]
