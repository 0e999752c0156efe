"""Auction on bid tracks: each seat holds one pawn; lots are won when no lot is contested.

Parameters: `lots` (deck and count drawn each time), `bid_spaces`, `pay` (resource),
`on_win` (effect run for the winner with `it` = the lot), `card_window`.
Modifiers cards may set: `extra_blocked_spaces` (overbidding this seat must skip more spaces)
and `rebid_same_target` (this turn the seat may bid again where it was outbid).
"""

from __future__ import annotations

from typing import Any

from .. import board, cards
from ..context import Ctx
from ..dsl_compile import Scope
from ..dsl_names import BOOL, PLACE, ModifierDef, Query, read_modifier
from .base import Mechanic, turn_order

_BLOCK = ModifierDef("extra_blocked_spaces", "seat", 0, "bid spaces an overbid must skip")
_REBID = ModifierDef("rebid_same_target", "seat", 0, "may bid again on the lot it was outbid on")


def _outbid(ctx: Ctx) -> bool:
    phase = ctx.state.phase
    bid = phase.get("bids", [None] * ctx.state.players)[ctx.seat] if phase else None
    return bid is not None and not _is_top(phase, ctx.seat)


def _is_top(phase: dict[str, Any], seat: int) -> bool:
    bid = phase["bids"][seat]
    if bid is None:
        return False
    return all(other is None or other[0] != bid[0] or other[1] < bid[1] for s, other in
               enumerate(phase["bids"]) if s != seat)


class Auction(Mechanic):
    name = "auction"
    queries = {"outbid": Query(BOOL, _outbid)}
    modifiers = {"extra_blocked_spaces": _BLOCK, "rebid_same_target": _REBID}

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.deck = build.ref("lots", "deck", known=build.decks, what="deck")
        if self.deck in build.decks and not build.decks[self.deck].of_places:
            build.problem("lots", "deck", message=f"the lots deck '{self.deck}' must be a deck of places (of: places)")
        self.count = build.expression("lots", "count", scope=Scope(seat=False))
        self.spaces = list(build.get("bid_spaces"))
        self.pay = build.ref("pay", known=build.vocab.resources, what="resource")
        self.on_win = build.effect("on_win", scope=Scope(bound={"it": PLACE})) if build.has("on_win") else None
        if self.on_win is not None and (self.on_win.choices or self.on_win.requires):
            build.problem("on_win", message="on_win runs by itself: it cannot 'choose' or 'require'")
        self.window = build.get("card_window")
        self.block = self.modifier("extra_blocked_spaces")
        self.rebid = self.modifier("rebid_same_target")

    def describe(self) -> str:
        return (f"Reveal lots from the {self.deck} deck; each seat places one bid on the spaces "
                f"{self.spaces}, above the best bid; an outbid seat must bid elsewhere; lots are "
                f"paid in {self.pay} when none is contested.")

    def begin(self, game: Any) -> None:
        state = game.state
        count = self.count(Ctx(game))
        lots = []
        for _ in range(count):
            if not state.decks[self.deck]:
                break
            lots.append(game.rules.place_index[state.decks[self.deck].pop(0)])
        state.lots = lots
        state.phase = {"bids": [None] * state.players, "turn": 0, "order": turn_order(state)}
        game.event({"event": "lots", "lots": [game.rules.place_ids[p] for p in lots]})

    def next_seat(self, game: Any) -> int | None:
        phase = game.state.phase
        players = game.state.players
        winners = sum(_is_top(phase, s) for s in range(players))
        if winners >= min(len(game.state.lots), players):
            self._resolve(game)
            return None
        while True:
            seat = phase["order"][phase["turn"] % players]
            if not _is_top(phase, seat):
                return seat
            phase["turn"] += 1

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        state = game.state
        phase = state.phase
        gold = state.resources[seat][self.pay]
        own = phase["bids"][seat]
        rebid = read_modifier(state, self.rebid, seat)
        actions = []
        for lot in state.lots:
            if own is not None and own[0] == lot and not rebid:
                continue
            first = self._lowest_allowed(state, lot)
            for value in self.spaces[first:]:
                if value > gold:
                    break
                actions.append({"type": "bid", "lot": game.rules.place_ids[lot], "space": value})
        if self.window:
            actions += cards.playable(game, seat, self.window)
        return actions

    def _lowest_allowed(self, state: Any, lot: int) -> int:
        top, holder = -1, None
        for seat, bid in enumerate(state.phase["bids"]):
            if bid is not None and bid[0] == lot and bid[1] > top:
                top, holder = bid[1], seat
        if holder is None:
            return 0
        return top + 1 + int(read_modifier(state, self.block, holder))

    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        if action["type"] == "play":
            cards.play(game, seat, action)
            return
        state = game.state
        lot = game.rules.place_index[action["lot"]]
        state.phase["bids"][seat] = [lot, self.spaces.index(action["space"])]
        state.mods.get(self.rebid.name, {}).pop(f"s{seat}", None)
        state.phase["turn"] += 1
        game.event({"event": "bid", "seat": seat, "lot": action["lot"], "space": action["space"]})

    def _resolve(self, game: Any) -> None:
        state = game.state
        for lot in state.lots:
            seat = next((s for s in range(state.players) if _is_top(state.phase, s)
                         and state.phase["bids"][s][0] == lot), None)
            state.discards[self.deck].append(game.rules.place_ids[lot])
            if seat is None:
                continue
            price = self.spaces[state.phase["bids"][seat][1]]
            board.gain(game, seat, self.pay, -price, self.phase_id)
            state.owner[lot] = seat
            game.event({"event": "won", "seat": seat, "lot": game.rules.place_ids[lot], "price": price})
            if self.on_win is not None:
                self.on_win.run(Ctx(game, seat, {}, lot, self.phase_id))
        state.lots = []
