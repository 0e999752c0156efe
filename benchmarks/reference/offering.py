"""3. The Offering Phase: secret offers of gold (or the Theft card), then the reveal.

Offers are taken one seat at a time in turn order (each hidden until all are in). At the
reveal the gold is paid, each Theft takes 3 from the total; Offering Adjustments are resolved
in turn order (+3 or -3); the total picks the tile. The highest offer (ties: earlier in turn
order) becomes start player and takes 3 rewards, the second 2, every other offer 1 in turn
order; a thief takes 3 gold and no reward. A reward is a favor card, a farmer on an open
field or a stone in one of the seat's provinces.
"""

from __future__ import annotations

from .board import (
    ATTACH,
    FIELDS,
    OFFER,
    OFFER_THEFT,
    OFFERING_ADJUSTMENT,
    RESOLVE,
    TAKE_FARMER,
    TAKE_FAVOR,
    TAKE_STONE,
    tile_of,
)

THEFT = -1          # an offer of the Theft card


class Offering:
    def offering_phase(self):
        n = self.players
        self.order = self._turn_order()
        self.idx = 0
        self.offers = [0] * n
        self.attached = [False] * n              # offered an Offering Adjustment
        self.queue: list[list[int]] = []         # [seat, adjustments or rewards left], in the order taken
        self.adjustment = 0
        self.stage = 0                           # 0 offers, 1 adjustments, 2 rewards
        return self._offering_run, self._offering_act

    def _offering_run(self) -> bool:
        stage = self.stage
        if stage == 0:
            if self.idx < self.players:
                seat = self.order[self.idx]
                legal = [ATTACH] if self.hand[seat][OFFERING_ADJUSTMENT] and not self.attached[seat] else []
                legal += range(OFFER + 1, OFFER + self.gold[seat] + 1)
                legal.append(OFFER_THEFT)
                return self._decide(seat, legal)
            self._reveal()
            return False
        queue = self.queue
        if stage == 1:
            if queue:
                return self._decide(queue[0][0], [RESOLVE, RESOLVE + 1])
            self._settle()
            return False
        while queue:
            seat = queue[0][0]
            owned = self.owned[seat]
            legal = [TAKE_FAVOR] if self.favor or self.favor_discards else []
            if self.supply["farmer"]:
                farmer = self.farmer
                legal += [TAKE_FARMER + p for p in owned if FIELDS[p] > farmer[p]]
            if self.supply["stone"]:
                legal += [TAKE_STONE + p for p in owned]
            if legal:
                return self._decide(seat, legal)
            queue.pop(0)                          # nothing left to take: the rest is lost
        self._next_phase()
        return False

    def _offering_act(self, seat: int, action: int) -> None:
        if action == ATTACH:
            self.hand[seat][OFFERING_ADJUSTMENT] -= 1
            self.cards[seat] -= 1
            self._sells[seat] = None
            self.attached[seat] = True
        elif action <= OFFER_THEFT:
            self.offers[seat] = THEFT if action == OFFER_THEFT else action - OFFER
            self.idx += 1
        elif action < TAKE_FAVOR:
            self.queue.pop(0)
            self.favor_discards.append(OFFERING_ADJUSTMENT)
            self.adjustment += 3 if action == RESOLVE else -3
        else:
            if action == TAKE_FAVOR:
                self._draw(seat, 1)
            elif action < TAKE_STONE:
                self._place_farmer(action - TAKE_FARMER)
            else:
                self._place_stones(action - TAKE_STONE, 1)
            head = self.queue[0]
            head[1] -= 1
            if not head[1]:
                self.queue.pop(0)

    def _reveal(self) -> None:
        total = 0
        for seat, offer in enumerate(self.offers):
            if offer == THEFT:
                total -= 3
            else:
                self._gain(seat, -offer)
                total += offer
        self.total = total
        self.queue = [[seat, 1] for seat in self.order if self.attached[seat]]
        self.stage = 1

    def _settle(self) -> None:
        self.tile = tile_of(self.total + self.adjustment)
        order, offers = self.order, self.offers
        givers = [seat for seat in order if offers[seat] != THEFT]
        ranking = sorted(givers, key=lambda seat: -offers[seat])          # stable: ties keep turn order
        for seat in order:
            if offers[seat] == THEFT:
                self._gain(seat, 3)
        if ranking:
            self.start = ranking[0]
        self.queue = [[seat, count] for seat, count in zip(ranking, (3, 2))] + \
                     [[seat, 1] for seat in givers if seat not in ranking[:2]]
        self.stage = 2
