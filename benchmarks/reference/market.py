"""2. The Market Phase: in turn order each seat buys favor cards, then farmers, then stones.

n of a kind cost n(n+1)/2 gold; favor cards are limited by the seat's best province's favor
symbols, farmers by its open fields. Tokens bought are placed one at a time. Architect and
Free Farmer may be played at any of the seat's market decisions. A seat without gold that
could buy were it to sell its cards is asked to sell or pass.
"""

from __future__ import annotations

from .board import (
    ARCHITECT,
    BUY_FARMER,
    BUY_FAVOR,
    BUY_STONE,
    DONE,
    FIELDS,
    FREE_FARMER,
    LIMIT,
    MAX_GOLD,
    PASS,
    PLACE_FARMER,
    PLACE_STONE,
    PLAY_ARCHITECT,
    PLAY_FREE_FARMER,
)

# The most items a purse buys: AFFORD[gold] = the largest n with n(n+1)/2 <= gold.
AFFORD = [max(n for n in range(MAX_GOLD + 1) if n * (n + 1) // 2 <= gold) for gold in range(MAX_GOLD + 1)]
_BUY = (BUY_FAVOR, BUY_FARMER, BUY_STONE)


class Market:
    def market_phase(self):
        self.order = self._turn_order()
        self.idx = 0
        self.stage = 0                       # 0 favor, 1 farmers, 2 stones, 3 done
        self.placing = 0                     # tokens bought and not yet placed
        return self._market_run, self._market_act

    def _market_run(self) -> bool:
        order, n = self.order, self.players
        while self.idx < n:
            seat = order[self.idx]
            hand = self.hand[seat]
            plays = self._market_plays(seat) if hand[ARCHITECT] or hand[FREE_FARMER] else []
            stage = self.stage
            if self.placing:
                if stage == 1:
                    farmer = self.farmer
                    legal = [PLACE_FARMER + p for p in self.owned[seat] if FIELDS[p] > farmer[p]]
                else:
                    legal = [PLACE_STONE + p for p in self.owned[seat]]
                return self._decide(seat, legal + plays if plays else legal)
            if stage == 3:
                if plays:
                    plays.append(DONE)
                    return self._decide(seat, plays)
                self.idx += 1
                self.stage = 0
                continue
            owned = self.owned[seat]
            if stage == 0:                        # favor cards: limited by the best province's symbols
                within = min(len(self.favor) + len(self.favor_discards), max([LIMIT[p] for p in owned], default=0))
            elif not owned:
                within = 0
            elif stage == 1:                      # farmers: limited by the open fields
                farmer = self.farmer
                within = min(sum([FIELDS[p] - farmer[p] for p in owned if FIELDS[p] > farmer[p]]),
                             self.supply["farmer"])
            else:
                within = self.supply["stone"]
            gold = self.gold[seat]
            most = AFFORD[gold] if AFFORD[gold] < within else within
            if most > 0:
                base = _BUY[stage]
                legal = list(range(base, base + most + 1))
                return self._decide(seat, legal + plays if plays else legal)
            if within > 0 and self._selling_would_pay(seat, gold):
                plays.append(PASS)                # asked to sell, or pass
                return self._decide(seat, plays)
            self.stage = stage + 1
        self._next_phase()
        return False

    def _selling_would_pay(self, seat: int, gold: int) -> bool:
        """Cards sell for 1 gold at any time: a seat that could buy one had it sold its cards is
        asked (the rules audit of issue 6), not passed over."""
        return gold == 0 and self.cards[seat] > 0

    def _market_plays(self, seat: int) -> list[int]:
        plays = []
        if self._can_play(seat, ARCHITECT):
            stone = self.stone
            plays += [PLAY_ARCHITECT + p for p in self.owned[seat] if stone[p] >= 2]
        if self._can_play(seat, FREE_FARMER):
            plays += [PLAY_FREE_FARMER + p for p in self.owned[seat]]
        return plays

    def _market_act(self, seat: int, action: int) -> None:
        if action < PLACE_FARMER:                    # a purchase
            stage = self.stage
            count = action - _BUY[stage]
            if count:
                self._gain(seat, -(count * (count + 1) // 2))
            if count and stage:
                self.placing = count                 # the stage stays until they are placed
            else:
                if count:
                    self._draw(seat, count)
                self.stage = stage + 1
        elif action < PLACE_STONE:
            self._place_farmer(action - PLACE_FARMER)
            self._placed()
        elif action < PLAY_ARCHITECT:
            self._place_stones(action - PLACE_STONE, 1)
            self._placed()
        elif action < PLAY_FREE_FARMER:
            self._played(seat, ARCHITECT)
            self._architect(action - PLAY_ARCHITECT)
        elif action < DONE:
            self._played(seat, FREE_FARMER)
            self._place_free_farmer(action - PLAY_FREE_FARMER)
        elif action == DONE:
            self.idx += 1
            self.stage = 0
        else:                                        # PASS: nothing of this kind, then
            self.stage += 1

    def _placed(self) -> None:
        self.placing -= 1
        if not self.placing:
            self.stage += 1
