"""4. The Harvest Phase, the scorings at each age's end, the new age and the game's end.

Harvest: in turn order each seat may play Big Harvest and Treasury, then collects from each
of its provinces (gold mine, caravan under a camel tile, gold per farmer by the tile).
Age's end: the yellow cards whose condition holds (each kind once), then temples by the tile,
pyramids, 3 per pyramid of the weakest province, and 5 for the province with the most
pyramids on each side of the Nile (ties: stones, then all tied). Between the ages farmers
leave and provinces become free; at the end every seat may still sell cards, then gold is
ranked 6/4/2 (tied seats all score and push the next down).
"""

from __future__ import annotations

from amunre.interpreter.base.rng import shuffle

from .board import (
    BIG_HARVEST,
    CARAVAN,
    COLLECT,
    DONE,
    KINDS,
    MASTER_OF_FARMERS,
    MASTER_OF_SCRIBES,
    MINE,
    NILE,
    NILE_OR_FRONTIER,
    PLAY_BIG_HARVEST,
    PLAY_SCORING,
    PLAY_TREASURY,
    PROVINCES,
    SCORING_CARDS,
    SYMBOLS,
    TEMPLES,
    TILES,
    TREASURY,
    UPPER,
    UPPER_OR_LOWER,
    WEST,
)

TREASURY_GOLD = 8


class Scoring:
    def _turns(self, offer, close) -> bool:
        """Each seat in turn order is asked when `offer(seat)` gives it something to do (with
        the action closing its turn last), else `close(seat)` is done for it."""
        while self.idx < self.players:
            seat = self.order[self.idx]
            actions = offer(seat)
            if actions:
                return self._decide(seat, actions)
            close(seat)
            self.idx += 1
        self._next_phase()
        return False

    def _turns_phase(self, offer, close, act):
        self.order = self._turn_order()
        self.idx = 0
        return (lambda: self._turns(offer, close)), act

    # ---- harvest ------------------------------------------------------------------------------
    def harvest_phase(self):
        return self._turns_phase(self._harvest_plays, self._collect, self._harvest_act)

    def _harvest_plays(self, seat: int) -> list[int]:
        plays = []
        if self._can_play(seat, BIG_HARVEST):
            plays += [PLAY_BIG_HARVEST + p for p in self.owned[seat]]
        if self._can_play(seat, TREASURY):
            plays += [PLAY_TREASURY + p for p in self.owned[seat]]
        if plays:
            plays.append(COLLECT)
        return plays

    def _harvest_act(self, seat: int, action: int) -> None:
        if action == COLLECT:
            self._collect(seat)
            self.idx += 1
        elif action < PLAY_TREASURY:
            self._played(seat, BIG_HARVEST)
            self.bonus[action - PLAY_BIG_HARVEST] += 1
        else:
            self._played(seat, TREASURY)
            self.instead[action - PLAY_TREASURY] = TREASURY_GOLD

    def _collect(self, seat: int) -> None:
        self._gain(seat, self.income(seat))

    def income(self, seat: int) -> int:
        """What the seat's provinces yield now (Big Harvest and Treasury as played this harvest)."""
        if self.tile < 0:
            per_farmer, camel = 0, False
        else:
            _, per_farmer, _, camel = TILES[self.tile]
        bonus, instead, farmer, free_farmer = self.bonus, self.instead, self.farmer, self.free_farmer
        total = 0
        for p in self.owned[seat]:
            if instead[p] >= 0:
                total += instead[p]
            else:
                total += MINE[p] + (CARAVAN[p] if camel else 0) + (farmer[p] + free_farmer[p]) * (per_farmer + bonus[p])
        return total

    # ---- the age's end ------------------------------------------------------------------------
    def scoring_cards_phase(self):
        return self._turns_phase(self._scoring_plays, self._no_action, self._scoring_cards_act)

    def _scoring_plays(self, seat: int) -> list[int]:
        plays = [PLAY_SCORING[kind] for kind in SCORING_CARDS
                 if self._can_play(seat, kind) and self._condition(seat, kind)]
        if plays:
            plays.append(DONE)
        return plays

    def _scoring_cards_act(self, seat: int, action: int) -> None:
        if action == DONE:
            self.idx += 1
            return
        kind = next(k for k, play in PLAY_SCORING.items() if play == action)
        self._played(seat, kind)
        self._score(seat, 3, KINDS[kind])

    def _no_action(self, seat: int) -> None:
        """A turn closed with nothing done."""

    def _condition(self, seat: int, kind: int) -> bool:
        owned = self.owned[seat]
        if kind == MASTER_OF_FARMERS:
            return sum(self.farmer[p] + self.free_farmer[p] for p in owned) >= 9
        if kind == MASTER_OF_SCRIBES:
            return sum(SYMBOLS[p] for p in owned) >= 7
        side = NILE if kind == NILE_OR_FRONTIER else UPPER if kind == UPPER_OR_LOWER else WEST
        return all(side[p] for p in owned) or not any(side[p] for p in owned)

    def age_scoring_phase(self):
        return self._age_scoring_run, None

    def _age_scoring_run(self) -> bool:
        for source, points in self.age_points().items():
            for seat, gained in enumerate(points):
                self._score(seat, gained, source)
        self._next_phase()
        return False

    def age_points(self) -> dict[str, list[int]]:
        """What each seat would score at an age's end now, by source (in scoring order)."""
        n, owned = self.players, self.owned
        temple_vp = TILES[self.tile][2] if self.tile >= 0 else 0
        out = {"temples": [temple_vp * sum(TEMPLES[p] for p in owned[s]) for s in range(n)],
               "pyramids": [sum(self.pyramids(p) for p in owned[s]) for s in range(n)],
               "weakest_province": [3 * min([self.pyramids(p) for p in owned[s]], default=0) for s in range(n)]}
        for source, west in (("nile_west", True), ("nile_east", False)):
            keys = {p: self._side_key(p) for p in range(len(PROVINCES)) if self.owner[p] >= 0 and WEST[p] == west}
            best = max(keys.values(), default=(0, 0))
            winners = {self.owner[p] for p, key in keys.items() if key == best} if best[0] > 0 else set()
            out[source] = [5 if s in winners else 0 for s in range(n)]
        return out

    def _side_key(self, province: int) -> tuple[int, int]:
        """The best province of a side of the Nile has the most pyramids, then the most stones."""
        return self.pyramids(province), self.stone[province]

    def new_age_phase(self):
        return self._new_age_run, None

    def _new_age_run(self) -> bool:
        supply = self.supply
        for p in range(len(PROVINCES)):
            supply["farmer"] += self.farmer[p] + self.free_farmer[p]
            self.farmer[p] = self.free_farmer[p] = 0
            self.owner[p] = -1
        self.owned = [[] for _ in range(self.players)]
        pile = self.provinces
        pile += self.province_discards
        self.province_discards = []
        self.rng = shuffle(self.rng, pile)
        self._next_phase()
        return False

    # ---- the game's end -----------------------------------------------------------------------
    def last_sales_phase(self):
        return self._turns_phase(self._last_sales, self._no_action, self._last_sales_act)

    def _last_sales(self, seat: int) -> list[int]:
        """Every seat holding favor cards may still sell them (the rules audit of issue 6)."""
        return [DONE] if self.cards[seat] else []

    def _last_sales_act(self, seat: int, action: int) -> None:
        self.idx += 1

    def final_scoring_phase(self):
        return self._final_scoring_run, None

    def _final_scoring_run(self) -> bool:
        for seat, points in enumerate(self.final_points()):
            self._score(seat, points, "gold")
        self._next_phase()
        return False

    def final_points(self) -> list[int]:
        """6/4/2 VP for the most gold now; tied seats all score and push the next ones down."""
        gold = self.gold
        places = [sum(1 for other in gold if other > mine) for mine in gold]
        return [(6, 4, 2)[place] if place < 3 else 0 for place in places]
