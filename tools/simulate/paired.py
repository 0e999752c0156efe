"""The running totals of a paired comparison: each game played under rule set A and under B
with the same seed (the same deal, draws and bots' dice wherever both files allow), so each
statistic is compared game by game, not pool against pool.

Besides each side's own `Tally`, it keeps per statistic the sum and sum of squares of the
per-game differences (B - A) and their histogram (differences of small integers: bounded), for
yes/no outcomes (a seat won) the counts of the 2x2 table of pairs, and the pairs counted by
both sides' outcomes, which the paired bootstrap resamples; and for the counts that grow with
a game's length (cards, picks) the same per round played, so that a rule that only makes the
game longer shows as longer, not as more of everything.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from .playing import GameRecord
from .tally import Tally, outcome


class PairedTally:
    def __init__(self, players: int) -> None:
        self.players = players
        self.a = Tally(players)
        self.b = Tally(players)
        self.pairs = 0                                     # games both sides finished
        self.numeric: dict[tuple, list[Any]] = {}          # statistic -> [sum, sum of squares, Counter of d]
        self.binary: dict[tuple, list[int]] = {}           # statistic -> [both, only A, only B]
        self.outcomes: Counter = Counter()                 # (A's outcome, B's outcome) -> pairs
        # Counts that grow with the game's length, per round played (exact fractions, so that
        # the totals do not depend on how the games were split): statistic -> [A's sum, B's
        # sum, sum of differences, sum of squared differences].
        self.per_round: dict[tuple, list[Fraction]] = {}
        self.many_rounds = False                           # some game played more than one round

    def add_game(self, records: tuple[GameRecord, ...]) -> None:
        a, b = records                                     # a paired batch plays two arms
        self.a.add(a)
        self.b.add(b)
        if a.error is not None or b.error is not None:
            return
        self.pairs += 1
        self.outcomes[outcome(a), outcome(b)] += 1
        n = self.players
        for seat in range(n):
            self._numeric(("score", seat), b.scores[seat] - a.scores[seat])
            self._binary(("win", seat), seat in a.winners, seat in b.winners)
        self._binary(("start_win",), a.start_seat in a.winners, b.start_seat in b.winners)
        self._binary(("top_shared",), a.top_shared, b.top_shared)
        self._numeric(("length",), b.length - a.length)
        self._numeric(("margin",), b.margin() - a.margin())
        for name in a.reported:
            self._numeric(("reported", name), sum(b.reported.get(name, ())) - sum(a.reported[name]))
        for source in set().union(*a.points, *b.points):
            self._numeric(("points", source), sum(p.get(source, 0) for p in b.points)
                          - sum(p.get(source, 0) for p in a.points))
        self.many_rounds = self.many_rounds or a.rounds > 1 or b.rounds > 1
        for card in set(a.cards) | set(b.cards):
            self._numeric(("card",) + card, b.cards.get(card, 0) - a.cards.get(card, 0))
            self._per_round(("card",) + card, a.cards.get(card, 0), a.rounds, b.cards.get(card, 0), b.rounds)
        for pick in set(a.picks) | set(b.picks):
            self._numeric(("pick",) + pick, b.picks.get(pick, 0) - a.picks.get(pick, 0))
            self._per_round(("pick",) + pick, a.picks.get(pick, 0), a.rounds, b.picks.get(pick, 0), b.rounds)

    def _numeric(self, key: tuple, difference: int) -> None:
        if difference:                    # a pair with no difference adds nothing but its count
            entry = self.numeric.get(key)
            if entry is None:
                entry = self.numeric[key] = [0, 0, Counter()]
            entry[0] += difference
            entry[1] += difference * difference
            entry[2][difference] += 1

    def _per_round(self, key: tuple, count_a: int, rounds_a: int, count_b: int, rounds_b: int) -> None:
        per_a, per_b = Fraction(count_a, rounds_a), Fraction(count_b, rounds_b)
        entry = self.per_round.get(key)
        if entry is None:
            entry = self.per_round[key] = [Fraction(0)] * 4
        difference = per_b - per_a
        entry[0] += per_a
        entry[1] += per_b
        entry[2] += difference
        entry[3] += difference * difference

    def _binary(self, key: tuple, in_a: bool, in_b: bool) -> None:
        if in_a or in_b:
            entry = self.binary.get(key)
            if entry is None:
                entry = self.binary[key] = [0, 0, 0]
            entry[0 if in_a and in_b else 1 if in_a else 2] += 1

    def merge(self, other: PairedTally) -> PairedTally:
        self.a.merge(other.a)
        self.b.merge(other.b)
        self.pairs += other.pairs
        self.outcomes.update(other.outcomes)
        for key, (total, squares, histogram) in other.numeric.items():
            entry = self.numeric.setdefault(key, [0, 0, Counter()])
            entry[0] += total
            entry[1] += squares
            entry[2].update(histogram)
        self.many_rounds = self.many_rounds or other.many_rounds
        for key, sums in other.per_round.items():
            entry = self.per_round.setdefault(key, [Fraction(0)] * 4)
            for i in range(4):
                entry[i] += sums[i]
        for key, counts in other.binary.items():
            entry = self.binary.setdefault(key, [0, 0, 0])
            for i in range(3):
                entry[i] += counts[i]
        return self

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, PairedTally) and vars(self) == vars(other)

