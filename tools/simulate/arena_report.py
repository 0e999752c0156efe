"""An arena: agents play many games in rotating seats, and each gets a win rate, a mean score and
a rating. What `amunre arena` runs (docs/agents.md, "Arena").

An agent is its spec: listed twice (`greedy,greedy,random,random`) it is one agent that plays
two seats of every game. Its figures are per seat it played ("games" counts both seats), a
game won by several seats gives each of them an equal share of the win, and chance is one win
in `players` seat-games. Its rating is a Bradley-Terry fit (rating.py) of the pairs of seats
held by different agents, a pair won by the seat that placed higher: the winners first, then
by score (equal score: a tie). Pairs of seats of the same agent say nothing of its strength and
are left out. The pairs of one game are not independent (a seat that does well beats every
other), so the rating's interval resamples whole games: a Poisson bootstrap of the games grouped
by outcome, as the simulation's balance interval does.

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
        # games by outcome: each seat's (agent, place), sorted; place 0 is first, equal places tie.
        # Bounded by the agents and the seats, not by the games; the rating's bootstrap resamples it.
        self.outcomes: Counter = Counter()

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
            # Counter's stubs count in int only; it adds Fractions exactly (a shared win is split).
            self.wins[agents[seat]] += Fraction(1, len(winners))  # type: ignore[assignment]
        standing = [(seat in winners, score) for seat, score in enumerate(scores)]
        order = sorted(set(standing), reverse=True)
        self.outcomes[tuple(sorted((agent, order.index(standing[seat])) for seat, agent in enumerate(agents)))] += 1

    def merge(self, other: ArenaTally) -> ArenaTally:
        self.games += other.games
        self.errors += other.errors
        self.error_samples = kept_errors(self.error_samples, other.error_samples)
        for name in ("seats", "wins", "score_sum", "score_squares", "outcomes"):
            getattr(self, name).update(getattr(other, name))
        return self

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ArenaTally) and vars(self) == vars(other)

    def played(self, agent: str) -> int:
        """Seat-games the agent played."""
        return sum(n for (who, _), n in self.seats.items() if who == agent)



def pairs(outcomes: dict[tuple, int]) -> tuple[Counter, Counter]:
    """From games by outcome: (a, b) -> pairs of seats a placed above b, and (a, b) -> pairs
    they tied (counted both ways); pairs of one agent's seats are left out."""
    beat: Counter = Counter()
    tied: Counter = Counter()
    for outcome, games in outcomes.items():
        for a, place in outcome:
            for b, other in outcome:
                if a != b:
                    if place < other:
                        beat[a, b] += games
                    elif place == other:
                        tied[a, b] += games
    return beat, tied


def ratings(agents: tuple[str, ...], outcomes: dict[tuple, int]) -> list[float]:
    """Each agent's rating from games by outcome (a tie half a win, PRIOR drawn pairs added)."""
    beat, tied = pairs(outcomes)
    wins = {(a, b): beat[a, b] + tied[a, b] / 2 for a in agents for b in agents if a != b}
    strength = bradley_terry(list(agents), wins, PRIOR)
    return [elo_scale(strength[agent]) for agent in agents]


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
                  f"1500 + 400 log10(strength / geometric mean); interval: percentile interval of "
                  f"{stats.BOOTSTRAP} Poisson bootstrap replicates of the games, 95%"}
    agents = tally.agents
    beat, tied = pairs(tally.outcomes)
    rated = ratings(agents, tally.outcomes) if tally.games else [math.nan] * len(agents)
    replicates = stats.bootstrap(tally.outcomes, lambda counts: ratings(agents, counts)) if tally.games else []
    standings = []
    for i, agent in enumerate(agents):
        row = _standing(tally, agent, players, beat, tied)
        row["rating"] = rated[i]
        row["rating_interval"] = list(stats.percentile_interval([r[i] for r in replicates]))
        standings.append(row)
    standings.sort(key=lambda row: -math.inf if math.isnan(row["rating"]) else row["rating"], reverse=True)
    report["standings"] = standings
    report["head_to_head"] = [{"agent": a, "other": b, "pairs": beat[a, b] + beat[b, a] + tied[a, b],
                               "won": beat[a, b], "tied": tied[a, b], "lost": beat[b, a]}
                              for a in agents for b in agents if a != b]
    return clean(report)


def _standing(tally: ArenaTally, agent: str, players: int, beat: Counter, tied: Counter) -> dict[str, Any]:
    played = tally.played(agent)
    wins = float(tally.wins[agent])
    mean, sd = stats.mean_sd(tally.score_sum[agent], tally.score_squares[agent], played)
    behind = sum(beat[agent, b] + beat[b, agent] + tied[agent, b] for b in tally.agents if b != agent)
    return {"agent": agent, "games": played, "wins": wins, "win_rate": wins / played if played else math.nan,
            "interval": list(stats.wilson(wins, played)),
            "score": {"mean": mean, "sd": sd,
                      "interval": list(stats.mean_interval(tally.score_sum[agent], tally.score_squares[agent],
                                                           played))},
            "pairs": behind,
            "seats": [tally.seats[agent, seat] for seat in range(players)]}
