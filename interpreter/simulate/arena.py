"""An arena: agents play many games in rotating seats, and each gets a win rate, a mean score and
a rating. What `amunre arena` runs (docs/agents.md, "Arena").

An agent is its spec: listed twice (`greedy,greedy,random,random`) it is one agent that plays
two seats of every game. Its figures are per seat it played ("games" counts both seats), a
game won by several seats gives each of them an equal share of the win, and chance is one win
in `players` seat-games. Its rating is a Bradley-Terry fit (rating.py) of the pairs of seats
held by different agents, a pair won by the seat that placed higher: the winners first, then
by score (equal score: a tie). Pairs of seats of the same agent say nothing of its strength and
are left out.

Every total is an integer or an exact fraction, so the report is the same however the games
were spread over processes.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from . import stats
from .playing import GameRecord
from .rating import bradley_terry, elo_scale
from .report import REPORT_FORMAT, clean
from .tally import counted_failure, kept_errors

PRIOR = 1.0       # drawn pairs added between two agents that met (docs/agents.md)


class ArenaTally:
    """Totals per agent over the games of an arena."""

    def __init__(self, agents: tuple[str, ...]) -> None:
        self.agents = tuple(dict.fromkeys(agents))     # each agent once, as first listed
        self.games = 0
        self.errors = 0
        self.error_samples: list[tuple[int, int, str]] = []
        self.seats: Counter = Counter()        # (agent, seat) -> games played there
        self.wins: Counter = Counter()         # agent -> wins (a Fraction: shared wins are split)
        self.score_sum: Counter = Counter()
        self.score_squares: Counter = Counter()
        self.beat: Counter = Counter()         # (agent, other) -> pairs the agent placed higher
        self.tied: Counter = Counter()         # (agent, other) -> pairs placed equal (counted both ways)

    def add_game(self, records: tuple[GameRecord, ...]) -> None:
        self.add(records[0])

    def add(self, record: GameRecord) -> None:
        if counted_failure(self, record):
            return
        self.games += 1
        agents, scores, winners = record.agents, record.scores, record.winners
        for seat, agent in enumerate(agents):
            self.seats[agent, seat] += 1
            self.score_sum[agent] += scores[seat]
            self.score_squares[agent] += scores[seat] ** 2
        for seat in winners:
            self.wins[agents[seat]] += Fraction(1, len(winners))
        place = [(seat in winners, score) for seat, score in enumerate(scores)]
        for i, a in enumerate(agents):
            for j, b in enumerate(agents):
                if a != b:
                    if place[i] > place[j]:
                        self.beat[a, b] += 1
                    elif place[i] == place[j]:
                        self.tied[a, b] += 1

    def merge(self, other: ArenaTally) -> ArenaTally:
        self.games += other.games
        self.errors += other.errors
        self.error_samples = kept_errors(self.error_samples, other.error_samples)
        for name in ("seats", "wins", "score_sum", "score_squares", "beat", "tied"):
            getattr(self, name).update(getattr(other, name))
        return self

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ArenaTally) and vars(self) == vars(other)

    def played(self, agent: str) -> int:
        """Seat-games the agent played."""
        return sum(n for (who, _), n in self.seats.items() if who == agent)

    def pair_wins(self) -> dict[tuple[str, str], float]:
        """(a, b) -> a's wins over b, a tie counting half."""
        return {(a, b): self.beat[a, b] + self.tied[a, b] / 2 for a in self.agents for b in self.agents if a != b}


def arena_report(tally: ArenaTally, players: int, about: dict[str, Any], requested: int,
                 interrupted: bool) -> dict[str, Any]:
    """The report of an arena as plain JSON-able data; `about` (rules, agents, seed, run) is
    copied in as it is. Standings are by rating, best first."""
    report: dict[str, Any] = {"amunre_report": REPORT_FORMAT, "kind": "arena", **about}
    report["games"] = {"requested": requested, "played": tally.games, "failed": tally.errors,
                       "interrupted": interrupted}
    report["failures"] = [{"game": g, "seed": s, "message": m} for g, s, m in tally.error_samples]
    report["method"] = {
        "win_rate": "wins per seat-game, a shared win split equally; Wilson score interval, 95%",
        "chance": 1 / players,
        "score": "mean per seat-game; Student t interval of the mean, 95%",
        "rating": f"Bradley-Terry strengths (MM algorithm) from the pairs of seats of different agents in each "
                  f"game, a tie half a win, with {PRIOR:g} drawn pair added between every two agents; "
                  f"1500 + 400 log10(strength / geometric mean)"}
    strength = bradley_terry(list(tally.agents), tally.pair_wins(), PRIOR) if tally.games else {}
    standings = [_standing(tally, agent, players, strength.get(agent)) for agent in tally.agents]
    standings.sort(key=lambda row: -math.inf if row["rating"] is None else row["rating"], reverse=True)
    report["standings"] = standings
    report["head_to_head"] = [
        {"agent": a, "other": b, "pairs": tally.beat[a, b] + tally.beat[b, a] + tally.tied[a, b],
         "won": tally.beat[a, b], "tied": tally.tied[a, b], "lost": tally.beat[b, a]}
        for a in tally.agents for b in tally.agents if a != b]
    return clean(report)


def _standing(tally: ArenaTally, agent: str, players: int, strength: float | None) -> dict[str, Any]:
    played = tally.played(agent)
    wins = float(tally.wins[agent])
    mean, sd = stats.mean_sd(tally.score_sum[agent], tally.score_squares[agent], played)
    pairs = sum(tally.beat[agent, b] + tally.beat[b, agent] + tally.tied[agent, b] for b in tally.agents if b != agent)
    return {"agent": agent, "games": played, "wins": wins, "win_rate": wins / played if played else math.nan,
            "interval": list(stats.wilson(wins, played)),
            "score": {"mean": mean, "sd": sd,
                      "interval": list(stats.mean_interval(tally.score_sum[agent], tally.score_squares[agent], played))},
            "rating": None if strength is None else elo_scale(strength), "pairs": pairs,
            "seats": [tally.seats[agent, seat] for seat in range(players)]}
