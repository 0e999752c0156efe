"""1. The Auction Phase: one province per player, one bid per seat on the bid spaces.

Each lot keeps its best bid (space index and seat); a seat keeps the lot it bid on. A seat
holding a best bid is passed over; the others bid, on any lot but the one they were outbid
on (unless they played Bribery), above its best bid (two spaces above against Protection).
When every lot has a bid, each is won: paid, claimed, and its immediate bonuses collected.
"""

from __future__ import annotations

from bisect import bisect_right

from .board import BID_SPACES, BONUS_FAVOR, BONUS_GOLD, BONUS_STONE, BRIBERY, PLAY_BRIBERY, PLAY_PROTECTION, PROTECTION

_WIDTH = len(BID_SPACES)


class Auction:
    def auction_phase(self):
        n = self.players
        lots = self.lots = self.provinces[:n]
        del self.provinces[:n]
        self.order = self._turn_order()
        self.turn = 0
        self.bid_lot = [-1] * n                  # per seat: the slot of its lot, -1 before its first bid
        self.best_space = [-1] * len(lots)       # per lot: the best bid's space index
        self.best_seat = [-1] * len(lots)        # per lot: who holds it
        self.lots_bid = 0                        # lots with a bid
        self.protected = [0] * n                 # spaces an overbid of this seat must skip, beyond one
        self.rebid = [False] * n                 # Bribery: may bid again on its lot
        return self._auction_run, self._auction_act

    def _auction_run(self) -> bool:
        lots, n = self.lots, self.players
        if self.lots_bid >= min(len(lots), n):
            self._auction_resolve()
            self._next_phase()
            return False
        order, bid_lot, best_seat = self.order, self.bid_lot, self.best_seat
        turn = self.turn
        while True:                              # the next seat without a best bid
            seat = order[turn % n]
            lot = bid_lot[seat]
            if lot < 0 or best_seat[lot] != seat:
                break
            turn += 1
        self.turn = turn
        own = -1 if self.rebid[seat] else bid_lot[seat]
        affordable = bisect_right(BID_SPACES, self.gold[seat])
        best_space, protected = self.best_space, self.protected
        legal: list[int] = []
        for slot in range(len(lots)):
            if slot == own:
                continue
            best = best_space[slot]
            first = 0 if best < 0 else best + 1 + protected[best_seat[slot]]
            if first < affordable:
                legal += range(slot * _WIDTH + first, slot * _WIDTH + affordable)
        if bid_lot[seat] >= 0 and self._can_play(seat, BRIBERY):      # outbid (it is not a best bid)
            legal.append(PLAY_BRIBERY)
        if self._can_play(seat, PROTECTION):
            legal.append(PLAY_PROTECTION)
        return self._decide(seat, legal)

    def _auction_act(self, seat: int, action: int) -> None:
        if action == PLAY_PROTECTION:
            self._played(seat, PROTECTION)
            self.protected[seat] = 1
        elif action == PLAY_BRIBERY:
            self._played(seat, BRIBERY)
            self.rebid[seat] = True
        else:
            slot, space = divmod(action, _WIDTH)
            if self.best_seat[slot] < 0:
                self.lots_bid += 1
            self.best_space[slot], self.best_seat[slot] = space, seat
            self.bid_lot[seat] = slot
            self.rebid[seat] = False
            self.turn += 1

    def _auction_resolve(self) -> None:
        for slot, province in enumerate(self.lots):
            self.province_discards.append(province)
            seat = self.best_seat[slot]
            if seat < 0:
                continue
            self._gain(seat, -BID_SPACES[self.best_space[slot]])
            self._claim(province, seat)
            if BONUS_FAVOR[province]:
                self._draw(seat, BONUS_FAVOR[province])
            if BONUS_STONE[province]:
                self._place_stones(province, BONUS_STONE[province])
            if BONUS_GOLD[province]:
                self._gain(seat, BONUS_GOLD[province])
        self.lots = []
