"""The auction: one primitive, in the styles families of games use.

- `placement` (the default): lots drawn from a deck of places, bids on the spaces of a bid
  track, an outbid seat bidding elsewhere (mechanics/placement.py);
- `once_around`, `open`, `sealed`, `fixed_price`: one lot (a place, or several sold together)
  put up by a seller: each seat once in turn; in turn round and round until every other seat
  passes; all at once in secret; or at a price the seller sets, which the first seat to accept
  pays (mechanics/lot_auction.py).

A style may be a word of the rules file or an expression (the auction type printed on the card
a seller laid, say), worked out as the phase begins. This module holds what every style shares:
the parameters, actions, events and DSL names the rules file and the reference docs see; each
style registers its class in `Auction.styles`, and a phase is made as the class of its style.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..dsl.checked import NO_SEAT, Scope
from ..dsl.context import Ctx
from ..dsl.names import Member, ModifierDef
from ..dsl.types import BOOL, PLACE, SEAT, TEXT
from .base import Doc, Mechanic
from .params import Builder, Collection, Effect, Expr, Group, Ints, OneOf, Param, PhaseBuilder, Ref

PLACEMENT = "placement"
LOT_STYLES = ("once_around", "open", "sealed", "fixed_price")


class Style(Param):
    """A style's word, or an expression (no seat) whose value is one, worked out as the phase begins."""
    kind = "style"

    def value_schema(self) -> dict[str, Any]:
        return {"anyOf": [{"enum": [PLACEMENT, *LOT_STYLES]}, {"$ref": "#/$defs/expression"}]}

    def compile(self, build: Builder, path: tuple) -> Any:
        value = build.get(path)
        if value == PLACEMENT or value in LOT_STYLES:
            return value
        return build.expression(path, NO_SEAT, TEXT)

    def absent(self, build: Builder, path: tuple) -> Any:
        return PLACEMENT


def _outbid(ctx: Ctx) -> bool:
    bids = (ctx.state.working or {}).get("bids")       # placement's: per seat, [lot, space] or None
    if not bids or bids[ctx.seat] is None:
        return False
    lot, space = bids[ctx.seat]
    return any(bid is not None and other != ctx.seat and bid[0] == lot and bid[1] >= space
               for other, bid in enumerate(bids))


class Auction(Mechanic):
    automatic = True
    name = "auction"
    doc = ("Lots are sold to the best bid, in a style: `placement` (the default), lots drawn from a deck of places "
           "and bid for on a track, in turn order each seat without the best bid on some lot bidding above it, an "
           "outbid seat bidding elsewhere, until every seat that can win holds a best bid; or, for one `lot` a "
           "`seller` puts up, `once_around` (each seat once, in turn from the seller's left, the seller last), "
           "`open` (in that order, round and round, until every seat but the best bidder has passed in a row), "
           "`sealed` (every seat once, in secret, shown together; ties go to the earlier in that order, or to the "
           "seller first with `ties: seller`) or "
           "`fixed_price` (the seller sets a price, and the first seat from its left to accept pays it; if none "
           "does, the seller pays it). The winner pays its bid; `on_win` runs for it.")
    params = (
        Style("style", "`placement`, `once_around`, `open`, `sealed` or `fixed_price`, or an expression (no seat) "
              "whose value is one of these words, worked out as the phase begins (default `placement`)."),
        Group("lots", "Placement: what is auctioned, cards drawn from a deck of places.",
              Ref("deck", "The deck the lots are drawn from (a deck `of: places`).", "deck", required=True),
              Expr("count", "How many lots (no seat; fewer if the deck runs out), e.g. `players`.",
                   scope=Scope(seat=False), required=True)),
        Ints("bid_spaces", "Placement: the bids allowed, lowest first; the lowest must be 0, so that every seat "
             "can always bid.", minimum=0, ascending=True, least=1),
        Collection("lot", "The other styles: the places sold together as one lot (no seat), e.g. the card a "
                   "seller laid; no place: nothing is sold."),
        Expr("seller", "The other styles: the seat that puts the lot up (no seat; default the start player).",
             scope=NO_SEAT, type=SEAT),
        OneOf("proceeds", "The other styles: who is paid the price: the `seller` (the bank, when the seller "
              "wins), or the `bank`.", ("seller", "bank"), default="seller"),
        OneOf("unsold", "The other styles: when nobody bids (or, at a fixed price, accepts): the `seller` takes the "
              "lot (for nothing; at a fixed price, paying it), or `nobody` does.", ("seller", "nobody"),
              default="seller"),
        OneOf("ties", "Sealed: who wins a tie of the best bids: the `earlier` in the bidding order (from the "
              "seller's left, the seller last), or the `seller` if it is tied, else the earlier.",
              ("earlier", "seller"), default="earlier"),
        Ref("pay", "The resource the winners pay.", "resource", required=True),
        Effect("on_win", "Effect run for each winner (`my`), with `it` each place won; it runs by "
               "itself: no `choose` or `require`.", scope=Scope(bound={"it": PLACE}), automatic=True),
        Ref("card_window", "The card window open while a seat bids.", "window"),
    )
    actions = (Doc("bid", '{"type": "bid", "lot": "PLACE", "space": 6}',
                   "placement: bid on a lot (a place id) at a bid space; replaces the seat's earlier bid"),
               Doc("bid", '{"type": "bid", "amount": 12}', "the other styles: bid that much (more than the best bid)"),
               Doc("decline", '{"type": "decline"}', "the other styles: make no bid (at a fixed price: do not buy)"),
               Doc("price", '{"type": "price", "amount": 12}', "fixed price: the seller sets the price"),
               Doc("buy", '{"type": "buy"}', "fixed price: buy the lot at the price set"))
    events = (Doc("lots", '{"event": "lots", "lots": ["PLACE", "PLACE"]}', "placement: the lots revealed"),
              Doc("bid", '{"event": "bid", "seat": 0, "lot": "PLACE", "space": 6}', "placement: a bid"),
              Doc("won", '{"event": "won", "seat": 0, "lot": "PLACE", "price": 6}',
                  "placement: a lot won and paid for"),
              Doc("auctioned", '{"event": "auctioned", "seller": 0, "style": "open", "lot": ["PLACE"]}',
                  "the other styles: a lot put up"),
              Doc("offered", '{"event": "offered", "seat": 1, "amount": 12}',
                  "a bid (sealed bids: all together, once every seat has bid), or the fixed price set"),
              Doc("declined", '{"event": "declined", "seat": 1}', "a seat made no bid, or did not buy"),
              Doc("sold", '{"event": "sold", "seat": 1, "lot": ["PLACE"], "price": 12, "to": 0}',
                  "the lot sold: the winner, the price and who was paid (null: the bank)"))
    hidden = (Doc("sealed", '"hidden"', "sealed: each other seat's bid, until every seat has bid"),
              Doc("passed", '"hidden"', "sealed: how many seats bid nothing, until every seat has bid"))
    queries = {"outbid": Member(BOOL, _outbid, needs_seat=True,
                                doc="placement: the acting seat has a bid and it is not the best on its lot")}
    modifiers = {
        "extra_blocked_spaces": ModifierDef("extra_blocked_spaces", "seat", 0, "phase",
                                            "placement: bid spaces an overbid of this seat must skip"),
        "rebid_same_target": ModifierDef("rebid_same_target", "seat", 0, "phase",
                                         "placement: when not 0, the seat may bid again on the lot it was outbid on"),
    }
    # The class of each style (mechanics/placement.py, mechanics/lot_auction.py register theirs).
    styles: ClassVar[dict[str, type[Auction]]] = {}

    def __new__(cls, phase_id: str, build: PhaseBuilder) -> Auction:
        """A phase is made as the class of its style (every style but placement: one class)."""
        if cls is Auction:
            style = build.get("style")
            cls = cls.styles[PLACEMENT if style in (None, PLACEMENT) else "lot"]
        return super().__new__(cls)
