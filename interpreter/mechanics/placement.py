"""The auction's placement style, on a bid track: each seat holds one bid; lots are won when no
lot is contested.

The lots are this phase's own data: drawn from a deck of places when the phase begins,
discarded when it ends. Modifiers cards may set: `extra_blocked_spaces` (an overbid of this
seat must skip more spaces) and `rebid_same_target` (this seat may bid again where it was
outbid; its next bid uses it up).
"""

from __future__ import annotations

from bisect import bisect_right
from types import SimpleNamespace

from ..base.actions import ActionSpace, Block, Position, Slots, Values
from ..dsl.context import Ctx
from ..model import Game, Rules
from ..play import material, modifiers
from ..play.observe import Piece
from .auction import PLACEMENT, Auction
from .params import PhaseBuilder


def _best(bids: list) -> dict[int, tuple[int, int]]:
    """Each lot with a bid -> (the best bid's space index, the seat holding it); bids on one lot
    are on different spaces."""
    best: dict[int, tuple[int, int]] = {}
    for seat, bid in enumerate(bids):
        if bid is not None:
            held = best.get(bid[0])
            if held is None or bid[1] > held[0]:
                best[bid[0]] = (bid[1], seat)
    return best


def _lots(game: Position) -> list[int]:
    return (game.state.working or {}).get("lots", [])


class PlacementAuction(Auction):
    """The auction on a bid track: several lots at once, a bid a seat on a space of the track."""

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        p = self.p
        missing = [key for key in ("lots", "bid_spaces") if build.get(key) is None]    # as written, not defaulted
        if missing:
            build.problem("style", message="an auction on a bid track (the placement style) needs `lots` and "
                          f"`bid_spaces`: this one has no `{'` nor `'.join(missing)}`")
            p.lots, p.bid_spaces = SimpleNamespace(deck=None, count=None), [0]
        self.deck, self.count = p.lots.deck, p.lots.count
        decks = build.material["material"].decks
        if self.deck in decks and not decks[self.deck].of_places:
            build.problem("lots", "deck", message=f"the lots deck '{self.deck}' must be a deck of places (of: places)")
        self.spaces = p.bid_spaces
        if self.spaces and self.spaces[0] != 0:
            build.problem("bid_spaces", message="the lowest bid space must be 0, so that every seat can always bid")
        self.pay, self.on_win, self.window = p.pay, p.on_win, p.card_window
        self.price_cause, self.win_cause = build.cause("price", "bid_spaces"), build.cause("on_win", "on_win")
        self.block = self.modifier("extra_blocked_spaces")
        self.rebid = self.modifier("rebid_same_target")

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        lots = Slots(len(material.places), _lots, "lots")
        self.bid = space.declare("bid", None, (("lot", lots), ("space", Values(tuple(self.spaces)))),
                                 doc=self.actions[0].meaning)

    def describe(self) -> str:
        return (f"Reveal lots from the {self.deck} deck; each seat places one bid on the spaces "
                f"{self.spaces}, above the best bid; an outbid seat must bid elsewhere; lots are "
                f"paid in {self.pay} when none is contested.")

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        state = game.state
        count = self.count.fn(Ctx(game))
        pile = state.decks[self.deck]
        lots = [game.rules.place_index[card] for card in pile[:max(count, 0)]]
        del pile[:len(lots)]
        state.working = {"lots": lots, "bids": [None] * state.players, "turn": 0, "order": self.order(game),
                       "resolved": False}
        if game.log is not None:
            game.event({"event": "lots", "lots": [game.rules.place_ids[p] for p in lots]})

    def auto(self, game: Game) -> bool:
        data = game.state.working
        if data["resolved"]:
            return False
        bids = data["bids"]
        wanted = len(data["lots"])                # lots with a bid: every lot, or one per seat
        if wanted > game.state.players:
            wanted = game.state.players
        if len(bids) - bids.count(None) < wanted or len({bid[0] for bid in bids if bid is not None}) < wanted:
            return False                      # (the count of bids first: it is cheaper, and most often enough)
        self._resolve(game)
        return True

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        if data["resolved"]:
            return None
        order, n, bids, turn = data["order"], game.state.players, data["bids"], data["turn"]
        while True:                           # the next seat in turn without the best bid on its lot
            seat = order[turn % n]
            bid = bids[seat]
            if bid is None:
                return seat
            lot, space = bid
            for other in bids:                # outbid: some bid on its lot is higher
                if other is not None and other[0] == lot and other[1] > space:
                    return seat
            turn += 1

    def legal(self, game: Game, seat: int) -> list[int]:
        state = game.state
        data = state.working
        bids = data["bids"]
        own = bids[seat]                      # outbid there: it must bid elsewhere, unless a card lets it
        barred = own[0] if own is not None and not modifiers.read(state, self.rebid, seat) else None
        affordable = bisect_right(self.spaces, state.resources[seat][self.pay])     # bid spaces are ascending
        best = _best(bids)
        blocking = self.block.name in state.mods          # read per seat only when some card set it
        skip = 1 + self.block.default
        ids: list[int] = []
        every = game.rules.actions.ids
        at, width = self.bid.base, len(self.spaces)      # the ids of the lot's bid spaces start there
        for lot in data["lots"]:
            if lot != barred:
                top = best.get(lot)
                if top is None:
                    first = 0
                else:
                    first = top[0] + (1 + int(modifiers.read(state, self.block, top[1])) if blocking else skip)
                if first < affordable:
                    ids += every[at + first:at + affordable]
            at += width
        return ids

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        data = game.state.working
        slot, index = indices
        lot = data["lots"][slot]
        data["bids"][seat] = [lot, index]
        modifiers.unset(game.state, self.rebid, seat)
        order, n = data["order"], game.state.players
        turn = data["turn"]
        while order[turn % n] != seat:
            turn += 1
        data["turn"] = turn + 1
        if game.log is not None:
            game.event({"event": "bid", "seat": seat, "lot": game.rules.place_ids[lot], "space": self.spaces[index]})

    def deferred(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> dict[str, int]:
        """A bid's space, paid when the bid wins its lot."""
        return {self.pay: -self.spaces[indices[1]]} if block is self.bid else {}

    def _resolve(self, game: Game) -> None:
        state = game.state
        data = state.working
        best = _best(data["bids"])
        for lot in data["lots"]:
            state.discards[self.deck].append(game.rules.place_ids[lot])
            if lot not in best:
                continue
            space, seat = best[lot]
            price = self.spaces[space]
            if game.log is not None:
                game.event({"event": "won", "seat": seat, "lot": game.rules.place_ids[lot], "price": price})
            material.gain(game, seat, self.pay, -price, self.price_cause)
            if self.on_win is not None:
                self.on_win.run(Ctx(game, seat, {}, lot, self.win_cause))
        data["lots"], data["resolved"] = [], True

    def end(self, game: Game) -> None:
        data = game.state.working
        if not data["resolved"]:           # ended early: the lots go to the discard pile unsold
            game.state.discards[self.deck] += [game.rules.place_ids[p] for p in data["lots"]]

    def tensor_pieces(self, rules: Rules) -> list[Piece]:
        places, seats = len(rules.place_ids), rules.max_players

        def lots(game: Game, seat: int | None, out: list[float], at: int) -> None:
            for lot in (self.running(game) or {}).get("lots", []):
                out[at + lot] = 1.0

        def bids(game: Game, seat: int | None, out: list[float], at: int) -> None:
            for other, bid in enumerate((self.running(game) or {}).get("bids", [])):
                if bid is not None:
                    out[at + other * (places + 1) + bid[0]] = 1.0
                    out[at + other * (places + 1) + places] = float(self.spaces[bid[1]])
        most = float(max(1, *self.spaces))      # a bid is one of the spaces (ascending from 0: the build checks)
        return [Piece(f"{self.phase_id}.lots", (places,), "the places up for auction", lots, phase=self.phase_id,
                      least=0.0, most=1.0),
                Piece(f"{self.phase_id}.bids", (seats, places + 1), "each seat's bid: the lot (one-hot), then the bid",
                      bids, phase=self.phase_id, least=0.0, most=((1.0,) * places + (most,)) * seats)]


Auction.styles[PLACEMENT] = PlacementAuction
