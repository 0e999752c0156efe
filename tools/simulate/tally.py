"""The running totals of a simulation: what every statistic of the report is computed from.

A `Tally` takes game records one at a time and forgets them: it keeps counts, sums, sums of
squares and histograms of small integers (scores, lengths: bounded by the game, not by the
number of games), so a hundred thousand games take the memory of one. Every total is an
integer, so two tallies merge exactly and in any order: a report is the same whether the
games ran in one process, two, or on a cluster. Floats appear only when the report is made.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .playing import GameRecord

ERROR_SAMPLES = 5        # games that failed, kept to show (the lowest game numbers)


def kept_errors(samples: list[tuple[int, int, str]], more: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The failed games kept to show: the ERROR_SAMPLES lowest game numbers, whatever the order
    the games came in."""
    return sorted(samples + more)[:ERROR_SAMPLES]


def counted_failure(totals: Any, record: GameRecord) -> bool:
    """Whether the game stopped with an error; if so it is counted in the totals' `errors` and
    `error_samples`, and nothing else of it."""
    if record.error is None:
        return False
    totals.errors += 1
    totals.error_samples = kept_errors(totals.error_samples, [(record.index, record.seed, record.error)])
    return True


class Tally:
    """Totals over the games of one rule set with a fixed number of players."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.errors = 0
        self.error_samples: list[tuple[int, int, str]] = []          # (game, seed, message)
        self.seat_agents: list[Counter] = [Counter() for _ in range(players)]
        self.wins = [0] * players
        self.score_sum = [0] * players
        self.score_squares = [0] * players
        self.scores: list[Counter] = [Counter() for _ in range(players)]    # score -> games
        self.position_wins = [0] * players            # by turn order: 0 is the first start player
        self.top_shared = 0                           # the top score was shared (tie-breaks decided)
        self.shared_wins = 0                          # still shared after the tie-breaks
        self.lengths: Counter = Counter()             # actions -> games
        self.margins: Counter = Counter()             # winner's score - best other score -> games
        self.reported: dict[str, list[list[int]]] = {}   # resource -> per seat [sum, sum of squares]
        self.points: list[Counter] = [Counter() for _ in range(players)]    # per seat: source -> points
        self.gained: Counter = Counter()              # (resource, source) -> amount, all seats
        self.lost: Counter = Counter()
        self.moved_games: Counter = Counter()         # (resource, source) -> games where it moved anything
        self.cards: Counter = Counter()               # (action type, card) -> times
        self.card_games: Counter = Counter()          # (action type, card) -> games
        self.picks: Counter = Counter()               # (phase, key, value) -> times kept
        self.causes: Counter = Counter()              # (kind, id) -> changes made
        self.cause_games: Counter = Counter()
        self.drama_games = 0                          # one seat led alone as the first age ended
        self.drama_lost = 0                           # ... and did not win
        self.decided = 0                              # actions played after the winner led for good
        self.outcomes: Counter = Counter()            # (winners, drama) -> games: what the bootstrap resamples

    # ---- adding one game -----------------------------------------------------------------------
    def add_game(self, records: tuple[GameRecord, ...]) -> None:
        """The runner's entry: a simulation plays one rule set, so one record per game."""
        self.add(records[0])

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        if counted_failure(self, record):
            return
        n = self.players
        self.games += 1
        for seat, spec in enumerate(record.agents):
            self.seat_agents[seat][spec] += 1
        scores, winners = record.scores, record.winners
        for seat, score in enumerate(scores):
            self.score_sum[seat] += score
            self.score_squares[seat] += score * score
            self.scores[seat][score] += 1
            self.points[seat].update(record.points[seat])
        for seat in winners:
            self.wins[seat] += 1
            self.position_wins[(seat - record.start_seat) % n] += 1
        self.top_shared += record.top_shared
        self.shared_wins += len(winners) > 1
        self.lengths[record.length] += 1
        self.margins[record.margin()] += 1
        for name, values in record.reported.items():
            sums = self.reported.setdefault(name, [[0, 0] for _ in range(n)])
            for seat, value in enumerate(values):
                sums[seat][0] += value
                sums[seat][1] += value * value
        self.gained.update(record.gained)
        self.lost.update(record.lost)
        self.moved_games.update(set(record.gained) | set(record.lost))
        self.cards.update(record.cards)
        self.card_games.update(record.cards.keys())
        self.picks.update(record.picks)
        self.causes.update(record.causes)
        self.cause_games.update(record.causes.keys())
        result = outcome(record)
        if result[1] is not None:
            self.drama_games += 1
            self.drama_lost += result[1]
        self.decided += record.length - record.decided_at
        self.outcomes[result] += 1

    # ---- combining -----------------------------------------------------------------------------
    def merge(self, other: Tally) -> Tally:
        """Add another tally's games to this one (the result does not depend on the order)."""
        if other.players != self.players:
            raise ValueError("tallies of different player counts do not merge")
        self.games += other.games
        self.errors += other.errors
        self.error_samples = kept_errors(self.error_samples, other.error_samples)
        for mine, theirs in ((self.seat_agents, other.seat_agents), (self.scores, other.scores),
                             (self.points, other.points)):
            for a, b in zip(mine, theirs):
                a.update(b)
        for name in ("wins", "score_sum", "score_squares", "position_wins"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])
        for name in ("top_shared", "shared_wins", "drama_games", "drama_lost", "decided"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("lengths", "margins", "gained", "lost", "moved_games", "cards", "card_games", "picks",
                     "causes", "cause_games", "outcomes"):
            getattr(self, name).update(getattr(other, name))
        for name, seats in other.reported.items():
            totals = self.reported.setdefault(name, [[0, 0] for _ in range(self.players)])
            for total, added in zip(totals, seats):
                total[0] += added[0]
                total[1] += added[1]
        return self

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Tally) and vars(self) == vars(other)

    # ---- derived totals ------------------------------------------------------------------------
    @property
    def length_sum(self) -> int:
        return sum(length * games for length, games in self.lengths.items())


def outcome(record: GameRecord) -> tuple[tuple[int, ...], bool | None]:
    """What balance and drama read of a game: its winners, and whether the seat leading alone
    as the first age ended failed to win (None: no sole leader, or the rules have one age)."""
    drama = None
    if record.first_age is not None:
        top = max(record.first_age)
        if record.first_age.count(top) == 1:
            drama = record.first_age.index(top) not in record.winners
    return record.winners, drama


def balance(wins: list[int] | list[float], games: int | float) -> float:
    """1 - the largest gap between two seats' win rates (1: every seat wins as often)."""
    if games == 0:
        return float("nan")
    rates = [w / games for w in wins]
    return 1 - (max(rates) - min(rates))


def balance_of(outcomes: dict, players: int) -> float:
    """Balance from games counted by outcome (as the bootstrap resamples them)."""
    wins = [0] * players
    for (winners, _), games in outcomes.items():
        for seat in winners:
            wins[seat] += games
    return balance(wins, sum(outcomes.values()))


def drama_of(outcomes: dict) -> float:
    """Drama from games counted by outcome."""
    games = sum(n for (_, drama), n in outcomes.items() if drama is not None)
    lost = sum(n for (_, drama), n in outcomes.items() if drama)
    return lost / games if games else float("nan")
