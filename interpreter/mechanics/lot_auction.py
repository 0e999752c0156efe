"""The auction of one lot a seller puts up (mechanics/auction.py has its parameters): once
around, open, sealed or at a fixed price.

The seats bid from the seller's left, the seller last (`order`). Once around, each of them
bids once or declines. Open, they go round and round until every seat but the best bidder has
declined in a row (a seat that cannot outbid declines). Sealed, each bids once in secret (the
others see "hidden" until every bid is in), and the bids are shown together: the highest wins,
a tie going to the earlier in `order` (or to the seller first, with `ties: seller`). At a fixed
price, the seller sets a price (at most what it has) and the seats from its left may buy at it,
the first who does winning. The winner pays its bid to the seller (to the bank when it is the
seller, or with `proceeds: bank`), and `on_win` runs for it with `it` each place of the lot.
Nobody bidding: the seller takes the lot for nothing, or pays its fixed price (`unsold:
seller`), or nobody does (`unsold: nobody`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Count
from ..base.errors import GameError
from ..base.state import plain_copy
from ..dsl.context import Ctx
from ..model import Game, Rules
from ..play import material
from ..play.observe import Piece, bounded, one_hot
from .auction import LOT_STYLES, Auction
from .params import PhaseBuilder


class LotAuction(Auction):
    """An auction of one lot put up by a seller, in one of the LOT_STYLES."""

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        p = self.p
        if p.lot is None:
            build.problem("style", message="an auction of a lot needs `lot`: the places the seller puts up")
        for placement in ("lots", "bid_spaces"):
            if build.get(placement) is not None:
                build.problem(placement, message=f"`{placement}` is for an auction on a bid track (the placement "
                              "style) only")
        self.style, self.lot, self.seller = p.style, p.lot, p.seller
        self.to_seller, self.unsold_to_seller = p.proceeds == "seller", p.unsold == "seller"
        self.seller_wins_ties = p.ties == "seller"
        self.pay, self.on_win, self.window = p.pay, p.on_win, p.card_window
        self.most = build.material["material"].resource_max.get(self.pay)
        if self.most is None:
            build.problem("pay", message=f"the bids are amounts of '{self.pay}': give it a `max` (the highest bid)")
            self.most = 0
        self.price_cause, self.win_cause = build.cause("price", "pay"), build.cause("on_win", "on_win")

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        amounts = (("amount", Count(self.most)),)
        self.bid = space.declare("bid", None, amounts, doc=self.actions[1].meaning)
        self.decline = space.declare("decline", None, (), doc=self.actions[2].meaning)
        fixed = not isinstance(self.style, str) or self.style == "fixed_price"
        self.price = space.declare("price", None, amounts, doc=self.actions[3].meaning) if fixed else None
        self.buy = space.declare("buy", None, (), doc=self.actions[4].meaning) if fixed else None

    def describe(self) -> str:
        style = self.style if isinstance(self.style, str) else "the style its expression gives"
        return f"A seller puts a lot up for auction ({style}), paid in {self.pay}."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        state, ctx = game.state, Ctx(game)
        style = self.style if isinstance(self.style, str) else self.style.fn(ctx)
        if style not in LOT_STYLES:
            rule = self.style.rule
            raise GameError(f"{rule.name}: '{style}' is not an auction style ({', '.join(LOT_STYLES)})", rule.span)
        seller = self.seller.fn(ctx) if self.seller is not None else state.start_player
        if seller is None:
            raise GameError(f"{self.seller.rule.name}: nobody to put the lot up", self.seller.rule.span)
        n = state.players
        order = [(seller + i) % n for i in range(1, n)]
        if style != "fixed_price":
            order.append(seller)                                # the seller bids last
        lot = list(self.lot.fn(ctx)) if self.lot is not None else []
        state.working = {"style": style, "seller": seller, "lot": lot, "order": order, "turn": 0,
                         "best": 0, "leader": None, "passed": 0, "sealed": [None] * n, "price": None,
                         "buyer": None, "done": not lot}
        if lot and game.log is not None:
            game.event({"event": "auctioned", "seller": seller, "style": style,
                        "lot": [game.rules.place_ids[p] for p in lot]})

    def auto(self, game: Game) -> bool:
        data = game.state.working
        if data["done"] or not self._closed(data):
            return False
        self._resolve(game, data)
        return True

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        if data["done"] or self._closed(data):
            return None
        if data["style"] == "fixed_price" and data["price"] is None:
            return data["seller"]
        return _next(data)[1]

    def legal(self, game: Game, seat: int) -> list[int]:
        data = game.state.working
        money = game.state.resources[seat][self.pay]
        top = money if money < self.most else self.most
        every = game.rules.actions.ids
        if data["style"] == "fixed_price":
            assert self.price is not None and self.buy is not None
            if data["price"] is None:                           # the seller sets it: at most what it has
                return every[self.price.base + (1 if top >= 1 else 0):self.price.base + top + 1]
            return sorted(([self.buy.base] if money >= data["price"] else []) + [self.decline.base])
        least = 1 if data["style"] == "sealed" else data["best"] + 1
        return sorted(every[self.bid.base + least:self.bid.base + top + 1] + [self.decline.base])

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        data = game.state.working
        if data["style"] == "fixed_price" and data["price"] is None:
            data["price"] = indices[0]
            game.event({"event": "offered", "seat": seat, "amount": indices[0]})
            return
        at = _next(data)[0]
        data["turn"] = at + 1
        if block is self.decline:
            self._declined(game, data, seat)
        elif block is self.buy:
            data["buyer"] = seat
        elif data["style"] == "sealed":
            data["sealed"][seat] = indices[0]                   # shown with every other as the bids close
        else:
            data["best"], data["leader"], data["passed"] = indices[0], seat, 0
            game.event({"event": "offered", "seat": seat, "amount": indices[0]})

    def deferred(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> dict[str, int]:
        """A bid, paid if it wins; the set price, by the seat that accepts it (by the seller, if
        no one does: a price set is not shown as the seller's own)."""
        if block is self.bid:
            return {self.pay: -indices[0]}
        if block is self.buy:
            return {self.pay: -game.state.working["price"]}
        return {}

    def pass_turn(self, game: Game, seat: int) -> None:
        data = game.state.working
        data["turn"] = _next(data)[0] + 1
        self._declined(game, data, seat)

    def _declined(self, game: Game, data: dict[str, Any], seat: int) -> None:
        data["passed"] += 1
        if data["style"] == "sealed":
            data["sealed"][seat] = 0
        else:
            game.event({"event": "declined", "seat": seat})

    @staticmethod
    def _closed(data: dict[str, Any]) -> bool:
        """Whether the bidding is over (every seat has had its say, as its style wants)."""
        style, order = data["style"], data["order"]
        if style == "open":
            return data["passed"] >= (len(order) - 1 if data["leader"] is not None else len(order))
        if style == "fixed_price":
            return data["price"] is not None and (data["buyer"] is not None or data["turn"] >= len(order))
        return data["turn"] >= len(order)

    def _resolve(self, game: Game, data: dict[str, Any]) -> None:
        seller, price = data["seller"], data["best"]
        style = data["style"]
        if style == "sealed":
            winner, price = self._sealed_winner(game, data)
        elif style == "fixed_price":
            winner, price = data["buyer"], data["price"]
        else:
            winner = data["leader"]
        if winner is None:
            if not self.unsold_to_seller:
                data["done"] = True
                game.event({"event": "sold", "seat": None, "lot": self._ids(game, data), "price": 0, "to": None})
                return
            winner, price = seller, (data["price"] if style == "fixed_price" else 0)
        paid_to = seller if self.to_seller and winner != seller else None
        game.event({"event": "sold", "seat": winner, "lot": self._ids(game, data), "price": price, "to": paid_to})
        if paid_to is not None:
            material.transfer(game, winner, paid_to, self.pay, price, self.price_cause)
        elif price:
            material.gain(game, winner, self.pay, -price, self.price_cause)
        if self.on_win is not None:
            for place in data["lot"]:
                self.on_win.run(Ctx(game, winner, {}, place, self.win_cause))
        data["done"] = True

    def _sealed_winner(self, game: Game, data: dict[str, Any]) -> tuple[int | None, int]:
        """The sealed bids shown together: the highest, a tie to the earlier in order (or to the
        seller first, with `ties: seller`)."""
        order = data["order"]
        bids = {seat: data["sealed"][seat] or 0 for seat in order}
        for seat in order:
            if bids[seat]:
                game.event({"event": "offered", "seat": seat, "amount": bids[seat]})
            else:
                game.event({"event": "declined", "seat": seat})
        best = max(bids.values())
        if not best:
            return None, 0
        ranking = [data["seller"], *order[:-1]] if self.seller_wins_ties else order
        return next(seat for seat in ranking if bids[seat] == best), best

    @staticmethod
    def _ids(game: Game, data: dict[str, Any]) -> list[str]:
        return [game.rules.place_ids[p] for p in data["lot"]]

    # ---- information ---------------------------------------------------------------------------
    def observe(self, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
        seen = plain_copy(data)
        if data.get("style") == "sealed" and None in data["sealed"]:
            seen["sealed"] = [bid if other == seat or bid is None else "hidden"
                              for other, bid in enumerate(data["sealed"])]
            seen["passed"] = "hidden"       # a sealed decline counts here: the count would tell who bid nothing
        return seen

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        seats = rules.max_players

        def lot(game: Game, seat: int | None, out: list[float], at: int) -> None:
            data = self.running(game)
            if data is None:
                return
            one_hot(out, at, LOT_STYLES.index(data["style"]), len(LOT_STYLES))
            one_hot(out, at + len(LOT_STYLES), data["seller"], seats)
            one_hot(out, at + len(LOT_STYLES) + seats, data["leader"], seats)
            tail = at + len(LOT_STYLES) + 2 * seats
            out[tail] = float(data["best"])
            out[tail + 1] = bounded(data["price"] or 0)
            if seat is not None:                 # the public view has no seat's own bid
                out[tail + 2] = float(data["sealed"][seat] or 0)
        return [Piece(f"{self.phase_id}.lot", (len(LOT_STYLES) + 2 * seats + 3,),
                      "the style (one-hot), the seller and the best bidder (one-hot), the best bid, the fixed "
                      "price, the observing seat's own sealed bid", lot, phase=self.phase_id)]


def _next(data: dict[str, Any]) -> tuple[int, int]:
    """(where in `order`, which seat) bids next: in turn from `turn`, round and round when open,
    never the best bidder itself."""
    order, at = data["order"], data["turn"]
    if data["style"] == "open":
        at %= len(order)
        if order[at] == data["leader"]:
            at = (at + 1) % len(order)
    return at, order[at]


Auction.styles["lot"] = LotAuction
