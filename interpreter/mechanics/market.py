"""Market: on its turn each seat buys goods in a fixed order, each kind at most once.

Tokens bought are placed one at a time on the buyer's places, so each placement is one
small decision. A price curve that depends on nothing but the count bought is tabled once.

The phase keeps how many items were bought in its latest run, read as `PHASE.bought`: rules
that run the market again (a flow's `{repeat: market, until: "market.bought == 0"}`, a market
that goes round until every seat passes) need to know whether anyone bought. It is kept, not
worked out from the log, because a game may run without one.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from itertools import accumulate
from types import SimpleNamespace
from typing import Any

from ..base.actions import CLOSE, ActionSpace, Block, Count, Places
from ..base.errors import AmunreError, GameError
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Member
from ..dsl.types import NUM
from ..model import Game, Rules
from ..play import material
from ..play.goods import available, good_bound, place_targets
from ..play.observe import Piece, one_hot
from .base import Doc, Mechanic
from .params import Expr, Items, PhaseBuilder, Ref

PRICE_TABLE = 1000          # the most counts a pure price curve is tabled for


class Market(Mechanic):
    name = "market"
    closing_ignores_purse = True        # `done` alone is offered once every good's turn is over
    closing: Block                      # declared with the action space (declare)
    doc = ("In turn order each seat goes through the goods in order, buying 0 up to the most it "
           "can of each (its limit, what is available, what it can pay for); tokens bought are "
           "then placed one by one; a seat that can still play a card says `done`. The items bought in the "
           "phase's latest run are kept as `PHASE.bought` until it runs again.")
    params = (
        Expr("price", "The price of `n` items of one kind (`n` bound, `my` the buyer).",
             scope=Scope(bound={"n": NUM}), required=True),
        Ref("pay", "The resource prices are paid in.", "resource", required=True),
        Items("goods", "The kinds for sale, in the order they are bought.",
              Ref("good", "The good (see `goods`).", "good", required=True),
              Expr("limit", "The most a seat may buy (`my` the buyer); no limit if omitted."),
              Expr("price", "This good's own price of `n` items, instead of the market's `price` (`n` bound, "
                   "`my` the buyer).", scope=Scope(bound={"n": NUM}))),
        Ref("card_window", "The card window open during the market.", "window"),
    )
    actions = (Doc("buy", '{"type": "buy", "good": "GOOD", "count": 2}', "buy that many of the good now on sale"),
               Doc("place", '{"type": "place", "token": "TOKEN", "at": "PLACE"}', "place one token bought"),
               Doc("done", '{"type": "done"}', "end the seat's turn (offered when it could still play a card)"))
    events = (Doc("buy", '{"event": "buy", "seat": 0, "good": "GOOD", "count": 2, "price": 3}', "a purchase"),
              Doc("place", '{"event": "place", "seat": 0, "token": "TOKEN", "at": "PLACE"}', "a token placed"))
    # Read bound to the phase by `members`; declared here for the reference (docs/mechanics.md).
    queries = {"bought": Member(NUM, doc="the items (tokens and cards) bought in the phase's latest run (so far, "
                                "while it runs), all seats and kinds together: 0 when every seat bought nothing, and "
                                "before it first runs")}

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.price, self.pay, self.window = self.p.price, self.p.pay, self.p.card_window
        goods = build.material["good"]
        items = [(i, item) for i, item in enumerate(self.p.goods) if item.good in goods]
        self.goods = [(goods[item.good], item.limit) for _, item in items]
        # Each good's price curve (its own `price`, else the market's), tabled where it depends on
        # the count alone; with the highest price of any count up to n, so that the most a purse
        # pays for is found by bisection.
        self.curves = [item.price or self.price for _, item in items]
        self.market_table = self._table(build, self.price, ("price",))
        tables = {id(self.price): self.market_table}
        tables.update((id(item.price), self._table(build, item.price, ("goods", i, "price")))
                      for i, item in items if item.price)
        self.price_tables = [tables[id(curve)] for curve in self.curves]
        self.peaks = [None if table is None else tuple(accumulate(table, max)) for table in self.price_tables]
        # The one curve of every good (None where a good has its own): what tools bound a turn by.
        self.prices = self.market_table if all(c is self.price for c in self.curves) else None
        self.price_cause, self.goods_cause = build.cause("price", "price"), build.cause("purchase", "goods")

    def _table(self, build: PhaseBuilder, curve: Any, path: tuple) -> tuple[int, ...] | None:
        """The price of every count, when the curve depends on the count alone."""
        if not curve.pure:
            return None
        material = build.material["material"]
        most = min(max((good_bound(good, material) for good, _ in self.goods), default=0), PRICE_TABLE)
        try:
            prices = tuple(curve.fn(Ctx(None, None, {"n": n})) if n else 0 for n in range(most + 1))
        except AmunreError:      # it fails for some count: let the game say so where it happens
            return None
        negative = next((n for n, price in enumerate(prices) if price < 0), None)
        if negative is not None:
            build.problem(*path, message=f"a price is never below 0, and this curve gives {prices[negative]} "
                          f"for n = {negative}")
        return prices

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        found = super().members(phase_id, spec)
        found["bought"] = replace(found["bought"], read=lambda ctx: ctx.state.kept.get(phase_id, {}).get("bought", 0))
        return found

    def describe_kept(self, key: str, value: Any) -> str:
        return f"{value} item(s) bought in its latest run" if key == "bought" else f"{key} {value}"

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        places = Places(material.places)
        self.buys = [space.declare("buy", {"good": good.id}, (("count", Count(good_bound(good, material))),),
                                   doc=self.actions[0].meaning) for good, _ in self.goods]
        tokens = self._tokens_sold()
        self.places = {token: space.declare("place", {"token": token}, (("at", places),), doc=self.actions[1].meaning,
                                           follow_up=True)
                       for token in tokens}
        self.closing = space.declare("done", None, (), CLOSE, doc=self.actions[2].meaning)

    def describe(self) -> str:
        kinds = ", ".join(g.id for g, _ in self.goods)
        return f"In turn, each seat may buy {kinds} (in that order, each kind once), paying by the price curve."

    def cost(self, game: Game, seat: int, n: int, stage: int | None = None) -> int:
        """The price of n items of the stage's good (its own curve, else the market's), or by the
        market's `price` (no stage)."""
        curve, table = (self.price, self.market_table) if stage is None else (self.curves[stage],
                                                                               self.price_tables[stage])
        if table is not None and n < len(table):
            return table[n]
        price = curve.fn(Ctx(game, seat, {"n": n})) if n else 0
        if price < 0:
            raise GameError(f"{curve.rule.name}: a price is never below 0, and it is {price} for n = {n}",
                            curve.rule.span)
        return price

    def most(self, game: Game, seat: int, stage: int) -> int:
        """The most of the stage's good the seat may buy: what its purse pays for, what is
        available and its limit (asked only when there is something to limit)."""
        good, limit = self.goods[stage]
        purse = game.state.resources[seat][self.pay]
        peaks = self.peaks[stage]
        afford = None if peaks is None else bisect_right(peaks, purse, 1) - 1    # among the tabled counts
        if afford == 0:
            return 0
        most = available(game, seat, good)
        if most and limit is not None:
            limited = limit.fn(Ctx(game, seat))
            if limited < most:
                most = limited
        if afford is not None and peaks is not None and most < len(peaks):
            return most if most < afford else afford
        for n in range(1, most + 1):
            if self.cost(game, seat, n, stage) > purse:
                return n - 1
        return most

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0, "stage": 0, "placing": None}
        game.state.kept[self.phase_id] = {"bought": 0}

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        order, idx = data["order"], data["idx"]
        return order[idx] if idx < len(order) else None

    def legal(self, game: Game, seat: int) -> list[int]:
        data = game.state.working
        placing = data["placing"]
        if placing:
            token = placing[0]
            return place_targets(game, seat, token, self.places[token].base)
        stage = data["stage"]
        if stage < len(self.goods):
            most = self.most(game, seat, stage)
            if most <= 0:
                return []
            base = self.buys[stage].base
            return game.rules.actions.ids[base:base + most + 1]
        return [self.closing.base]

    def pass_turn(self, game: Game, seat: int) -> None:
        game.state.working["stage"] += 1          # nothing of this kind to buy

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        data = game.state.working
        placing = data["placing"]
        if placing:                             # placing is all a seat may do till its tokens are down
            token = placing[0]
            at = indices[0]
            if game.log is not None:
                game.event({"event": "place", "seat": seat, "token": token, "at": game.rules.place_ids[at]})
            material.place_tokens(game, at, token, 1, self.goods_cause)
            placing[1] -= 1
            if placing[1] == 0:
                data["placing"] = None
        elif block is self.closing:
            data["idx"] += 1
            data["stage"] = 0
        else:
            self._buy(game, seat, indices[0])

    def _buy(self, game: Game, seat: int, count: int) -> None:
        data = game.state.working
        stage = data["stage"]
        good = self.goods[stage][0]
        data["stage"] += 1
        if count == 0:
            return
        price = self.cost(game, seat, count, stage)
        game.state.kept[self.phase_id]["bought"] += count
        if game.log is not None:
            game.event({"event": "buy", "seat": seat, "good": good.id, "count": count, "price": price})
        material.gain(game, seat, self.pay, -price, self.price_cause)
        if good.draw is not None:
            material.draw(game, seat, good.draw, count, self.goods_cause)
        else:
            data["placing"] = [good.token, count]

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        tokens = list(self._tokens_sold())

        def stage(game: Game, seat: int | None, out: list[float], at: int) -> None:
            data = self.running(game)
            if data is not None:
                one_hot(out, at, data["stage"], len(self.goods) + 1)
                if data["placing"]:
                    out[at + len(self.goods) + 1 + tokens.index(data["placing"][0])] = float(data["placing"][1])
        return [Piece(f"{self.phase_id}.stage", (len(self.goods) + 1 + len(tokens),),
                      "the good now on sale (one-hot; last: done), then tokens bought and not yet placed", stage,
                      phase=self.phase_id)]

    def _tokens_sold(self) -> list[str]:
        return list(dict.fromkeys(good.token for good, _ in self.goods if good.token))
