"""The game: set-up, the schedule of phases, and what every seat may do between two decisions.

A `Game` holds the position in flat lists (per seat, per province) and plays the 2016 rules
with its default options. After each action `_advance` runs the automatic work until a seat
must decide: `to_move` and `legal` (sorted action numbers, see board.py) are then set once.
"""

from __future__ import annotations

from amunre.interpreter.base.rng import below, shuffle

from .auction import Auction
from .board import (
    ACTIONS,
    ARCHITECT,
    FAVOR_DECK,
    FIELDS,
    KINDS,
    MAX_GOLD,
    PLACES,
    PROVINCES,
    SELL,
    START_GOLD,
    SUPPLY,
    THEFT_CARDS,
)
from .market import Market
from .offering import Offering
from .scoring import Scoring


class IllegalAction(Exception):
    """An action that is not legal in the position."""


class Game(Auction, Market, Offering, Scoring):
    def __init__(self, players: int = 4, seed: int = 0, gold: list[int] | None = None) -> None:
        if not 3 <= players <= 5:
            raise ValueError("the 2016 edition is for 3 to 5 players")
        n = self.players = players
        self.seed = seed
        self.gold = list(gold) if gold is not None else [START_GOLD] * n
        self.gold += [START_GOLD] * (n - len(self.gold))
        self.vp = [0] * n
        self.vp_sources: list[dict[str, int]] = [{} for _ in range(n)]
        self.hand = [[0] * len(KINDS) for _ in range(n)]            # favor cards held, by kind
        self.cards = [0] * n                                 # favor cards held, in all
        self._sells: list[list[int] | None] = [None] * n    # the sell actions of each hand
        self.owner = [-1] * len(PROVINCES)
        self.owned: list[list[int]] = [[] for _ in range(n)]
        self.farmer = [0] * len(PROVINCES)
        self.free_farmer = [0] * len(PROVINCES)
        self.stone = [0] * len(PROVINCES)
        self.pyramid = [0] * len(PROVINCES)
        self.double = [0] * len(PROVINCES)
        self.supply = dict(SUPPLY)
        self.tile = -1                                       # the offering tile, -1 before the first
        self.played = [0] * n                                # kinds played this phase, as bits
        self.over = False
        self.to_move: int | None = None
        self.legal: list[int] = []

        # Set-up: each seat's theft and architect, then the decks shuffled in the rules' order.
        rng = seed & ((1 << 64) - 1)
        provinces = list(PLACES)
        favor = [kind for kind, count in FAVOR_DECK for _ in range(count)]
        for seat in range(n):
            favor.remove(ARCHITECT)
            self.hand[seat][ARCHITECT] = 1
            self.cards[seat] = 1
        rng = shuffle(rng, provinces)
        rng = shuffle(rng, favor)
        rng = shuffle(rng, [0] * (THEFT_CARDS - n))
        self.provinces = provinces[:3 * n]                   # 3 per player; the rest stay in the box
        self.province_discards: list[int] = []
        self.favor = favor[::-1]                             # a stack: the top card is last
        self.favor_discards: list[int] = []
        self.rng, self.start = below(rng, n)
        self.step = -1
        self._next_phase()
        self._advance()

    # ---- acting -------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        if action not in self.legal:
            raise IllegalAction(f"{action!r} is not legal now")
        seat = self.to_move
        if action >= SELL:
            self._sell(seat, action - SELL)
        else:
            self._act(seat, action)
        self._advance()

    def _advance(self) -> None:
        """Automatic work until a seat must decide (the phase's `_run` returns True) or the end."""
        while not self._run():
            pass

    def _next_phase(self) -> None:
        self.step += 1
        # What lasts for a phase ends with it: the kinds of card played, and the cards' effects.
        self.played = [0] * self.players
        self.bonus = [0] * len(PROVINCES)                    # Big Harvest: gold per farmer, this harvest
        self.instead = [-1] * len(PROVINCES)                 # Treasury: a province's whole yield, if 0 or more
        if self.step == len(SCHEDULE):
            self.over, self.to_move, self.legal = True, None, []
            self._run = self._over
            return
        self._run, self._act = SCHEDULE[self.step](self)

    def _over(self) -> bool:
        return True

    def _decide(self, seat: int, legal: list[int]) -> bool:
        """The seat must choose: the phase's actions and plays, then selling (always allowed)."""
        sells = self._sells[seat]
        if sells is None:
            sells = self._sell_ids(seat)
        self.to_move, self.legal = seat, legal + sells if sells else legal
        return True

    def _turn_order(self) -> list[int]:
        n, start = self.players, self.start
        return [(start + i) % n for i in range(n)]

    # ---- cards --------------------------------------------------------------------------------
    def _sell_ids(self, seat: int) -> list[int]:
        hand = self.hand[seat]
        ids = self._sells[seat] = [SELL + kind for kind, held in enumerate(hand) if held]
        return ids

    def _sell(self, seat: int, kind: int) -> None:
        self._discard(seat, kind)
        self._gain(seat, 1)

    def _discard(self, seat: int, kind: int) -> None:
        self.hand[seat][kind] -= 1
        self.cards[seat] -= 1
        self._sells[seat] = None
        self.favor_discards.append(kind)

    def _draw(self, seat: int, count: int) -> None:
        hand, stack = self.hand[seat], self.favor
        for _ in range(count):
            if not stack:
                if not self.favor_discards:
                    break
                pile, self.favor_discards = self.favor_discards, []
                self.rng = shuffle(self.rng, pile)
                stack = self.favor = pile[::-1]
            hand[stack.pop()] += 1
            self.cards[seat] += 1
        self._sells[seat] = None

    def _can_play(self, seat: int, kind: int) -> bool:
        return self.hand[seat][kind] > 0 and not self.played[seat] >> kind & 1

    def _played(self, seat: int, kind: int) -> None:
        self._discard(seat, kind)
        self.played[seat] |= 1 << kind

    # ---- material -----------------------------------------------------------------------------
    def _gain(self, seat: int, amount: int) -> None:
        gold = self.gold[seat] + amount
        self.gold[seat] = 0 if gold < 0 else MAX_GOLD if gold > MAX_GOLD else gold

    def _score(self, seat: int, points: int, source: str) -> None:
        if points:
            self.vp[seat] += points
            sources = self.vp_sources[seat]
            sources[source] = sources.get(source, 0) + points

    def _claim(self, province: int, seat: int) -> None:
        before = self.owner[province]
        if before >= 0:
            self.owned[before].remove(province)
        self.owner[province] = seat
        owned = self.owned[seat]
        owned.append(province)
        owned.sort()

    def _place_farmer(self, province: int) -> None:
        if self.supply["farmer"] > 0 and FIELDS[province] > self.farmer[province]:
            self.supply["farmer"] -= 1
            self.farmer[province] += 1

    def _place_free_farmer(self, province: int) -> None:
        if self.supply["farmer"] > 0:
            self.supply["farmer"] -= 1
            self.free_farmer[province] += 1

    def _place_stones(self, province: int, count: int) -> None:
        supply = self.supply
        count = min(count, supply["stone"])
        if count > 0:
            supply["stone"] -= count
            self.stone[province] += count
            self._construct(province)

    def _architect(self, province: int) -> None:
        """Two stones of the province become a pyramid (if a pyramid is left to build)."""
        supply = self.supply
        if self.stone[province] >= 2 and supply["pyramid"] >= 1:
            self.stone[province] -= 2
            supply["stone"] += 2
            supply["pyramid"] -= 1
            self.pyramid[province] += 1
            self._construct(province)

    def _construct(self, province: int) -> None:
        """Three stones become a pyramid, two pyramids a double pyramid, while the quarry has them."""
        supply, stone, pyramid = self.supply, self.stone, self.pyramid
        while True:
            if stone[province] >= 3 and supply["pyramid"] >= 1:
                stone[province] -= 3
                supply["stone"] += 3
                supply["pyramid"] -= 1
                pyramid[province] += 1
            elif pyramid[province] >= 2 and supply["double_pyramid"] >= 1:
                pyramid[province] -= 2
                supply["pyramid"] += 2
                supply["double_pyramid"] -= 1
                self.double[province] += 1
            else:
                return

    # ---- results ------------------------------------------------------------------------------
    def pyramids(self, province: int) -> int:
        return self.pyramid[province] + 2 * self.double[province]

    def result(self) -> dict:
        n = self.players
        keys = [(self.vp[s], sum(self.pyramids(p) for p in self.owned[s]), sum(self.stone[p] for p in self.owned[s]))
                for s in range(n)]
        best = max(keys)
        return {"scores": list(self.vp), "winners": [s for s in range(n) if keys[s] == best],
                "gold": list(self.gold), "breakdown": [dict(s) for s in self.vp_sources], "over": self.over}

    num_distinct_actions = ACTIONS


SCHEDULE = []
for _age in (1, 2):
    SCHEDULE += [Auction.auction_phase, Market.market_phase, Offering.offering_phase, Scoring.harvest_phase] * 3
    SCHEDULE += [Scoring.scoring_cards_phase, Scoring.age_scoring_phase]
    SCHEDULE += [Scoring.new_age_phase] if _age == 1 else [Scoring.last_sales_phase, Scoring.final_scoring_phase]
