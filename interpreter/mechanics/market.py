"""Market: on its turn each seat buys goods in a fixed order, each kind at most once.

Parameters: `price` (an expression of `n`, the number bought of one kind), `goods` (in order,
each with an optional `limit` expression), `pay` (resource, default gold), `card_window`.
Tokens bought are placed one at a time on the buyer's places, so each placement is one
small decision.
"""

from __future__ import annotations

from typing import Any

from .. import board, cards
from ..context import Ctx
from ..dsl_compile import Scope
from ..dsl_names import NUM
from .base import Mechanic, turn_order
from .goods import available, place_targets


class Market(Mechanic):
    name = "market"

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.price = build.expression("price", scope=Scope(bound={"n": NUM}))
        self.pay = build.ref("pay", known=build.vocab.resources, what="resource") if build.has("pay") else "gold"
        self.goods = []
        for i, spec in enumerate(build.get("goods", default=[])):
            good = build.goods.get(build.ref("goods", i, "good", known=build.goods, what="good"))
            limit = build.expression("goods", i, "limit") if "limit" in spec else None
            self.goods.append((good, limit))
        self.window = build.get("card_window")

    def describe(self) -> str:
        kinds = ", ".join(g.id for g, _ in self.goods if g)
        return f"In turn, each seat may buy {kinds} (in that order, each kind once), paying by the price curve."

    def begin(self, game: Any) -> None:
        game.state.phase = {"order": turn_order(game.state), "idx": 0, "stage": 0, "placing": None}

    def cost(self, game: Any, seat: int, n: int) -> int:
        return self.price(Ctx(game, seat, {"n": n})) if n else 0

    def most(self, game: Any, seat: int, stage: int) -> int:
        """The most of the stage's good the seat may buy: limit, availability and purse."""
        good, limit = self.goods[stage]
        if good is None:
            return 0
        most = available(game, seat, good)
        if limit is not None:
            most = min(most, limit(Ctx(game, seat)))
        gold = game.state.resources[seat][self.pay]
        for n in range(1, most + 1):
            if self.cost(game, seat, n) > gold:
                return n - 1
        return most

    def next_seat(self, game: Any) -> int | None:
        phase = game.state.phase
        while phase["idx"] < len(phase["order"]):
            seat = phase["order"][phase["idx"]]
            if phase["placing"]:
                return seat
            if phase["stage"] < len(self.goods):
                if self.most(game, seat, phase["stage"]) > 0:
                    return seat
                phase["stage"] += 1
                continue
            if phase["stage"] == len(self.goods) and self.window and cards.playable(game, seat, self.window):
                return seat
            phase["idx"] += 1
            phase["stage"] = 0
        return None

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        phase = game.state.phase
        plays = cards.playable(game, seat, self.window) if self.window else []
        if phase["placing"]:
            token = phase["placing"][0]
            return [{"type": "place", "token": token, "at": game.rules.place_ids[p]}
                    for p in place_targets(game, seat, token)] + plays
        if phase["stage"] < len(self.goods):
            good = self.goods[phase["stage"]][0]
            return [{"type": "buy", "good": good.id, "count": n}
                    for n in range(self.most(game, seat, phase["stage"]) + 1)] + plays
        return plays + [{"type": "done"}]

    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        phase = game.state.phase
        kind = action["type"]
        if kind == "play":
            cards.play(game, seat, action)
        elif kind == "place":
            game.event({"event": "place", "seat": seat, "token": action["token"], "at": action["at"]})
            board.place_tokens(game, game.rules.place_index[action["at"]], action["token"], 1)
            phase["placing"][1] -= 1
            if phase["placing"][1] == 0:
                phase["placing"] = None
        elif kind == "buy":
            self._buy(game, seat, action["count"])
        else:   # done
            phase["stage"] += 1

    def _buy(self, game: Any, seat: int, count: int) -> None:
        phase = game.state.phase
        good = self.goods[phase["stage"]][0]
        phase["stage"] += 1
        if count == 0:
            return
        price = self.cost(game, seat, count)
        board.gain(game, seat, self.pay, -price, self.phase_id)
        game.event({"event": "buy", "seat": seat, "good": good.id, "count": count, "price": price})
        if good.draw is not None:
            board.draw(game, seat, good.draw, count)
        else:
            phase["placing"] = [good.token, count]
