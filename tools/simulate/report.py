"""A simulation's report, as plain JSON-able data (grammar/report.schema.json, docs/simulate.md):
what a designer asks of a rule set, computed from a `Tally` and the rules' `Catalogue`.

Win rates carry Wilson 95% intervals, means Student t intervals, balance and drama percentile
intervals from a Poisson bootstrap of the games by outcome. Rates are fractions (0.25, not 25%).
"""

from __future__ import annotations

import math
from typing import Any

from . import stats
from .catalogue import Catalogue
from .tally import Tally, balance, balance_of

REPORT_FORMAT = 1

INTERVALS = {
    "win_rate": "Wilson score interval, 95%",
    "mean": "Student t interval of the mean, 95%",
    "balance": f"percentile interval of {stats.BOOTSTRAP} Poisson bootstrap replicates, 95%",
    "drama": "Wilson score interval, 95%",
    "equal_win_rates": "Pearson chi-square goodness-of-fit test that every seat wins equally often",
}


def simulation_report(tally: Tally, catalogue: Catalogue, about: dict[str, Any], requested: int,
                      interrupted: bool) -> dict[str, Any]:
    """The report of a tally. `about` describes the run (rules, players, agents, seed) and is
    copied in as it is."""
    n, games = tally.players, tally.games
    report: dict[str, Any] = {"amunre_report": REPORT_FORMAT, "kind": "simulate", **about}
    report["games"] = {"requested": requested, "played": games, "failed": tally.errors,
                       "interrupted": interrupted}
    report["failures"] = [{"game": g, "seed": s, "message": m} for g, s, m in tally.error_samples]
    report["intervals"] = dict(INTERVALS)
    report["seats"] = [_seat(tally, seat) for seat in range(n)]
    report["turn_order"] = [dict(position=p + 1, **_rate(tally.position_wins[p], games)) for p in range(n)]
    report["length"] = _spread(tally.lengths)
    report["ties"] = {"top_score_shared": _share(tally.top_shared, games),
                      "shared_wins": _share(tally.shared_wins, games)}
    report["metrics"] = _metrics(tally)
    report["points"] = _points(tally)
    report["sources"] = _sources(tally)
    report["cards"] = _cards(tally, catalogue)
    report["picks"] = _picks(tally, catalogue)
    report["causes"] = [{"kind": kind, "id": id_, "times": times, "per_game": per(times, games),
                         "games": tally.cause_games[kind, id_]}
                        for (kind, id_), times in sorted(tally.causes.items())]
    report["never"] = _never(tally, catalogue)
    report["histograms"] = {"scores": [_pairs(h) for h in tally.scores], "length": _pairs(tally.lengths),
                            "margin": _pairs(tally.margins)}
    return clean(report)


def _seat(tally: Tally, seat: int) -> dict[str, Any]:
    games = tally.games
    out: dict[str, Any] = {"seat": seat, "agents": dict(sorted(tally.seat_agents[seat].items()))}
    out.update(_rate(tally.wins[seat], games))
    out["score"] = _moments(tally.score_sum[seat], tally.score_squares[seat], games) | _range(tally.scores[seat])
    out["reported"] = {name: _moments(sums[seat][0], sums[seat][1], games) for name, sums in tally.reported.items()}
    out["points"] = {source: points / games for source, points in sorted(tally.points[seat].items())} if games else {}
    return out


def _metrics(tally: Tally) -> dict[str, Any]:
    n, games = tally.players, tally.games
    replicates = stats.bootstrap(tally.outcomes, lambda counts: balance_of(counts, n)) if games else []
    start = _rate(tally.position_wins[0], games)
    drama = _rate(tally.drama_lost, tally.drama_games)
    margin = _spread(tally.margins)
    return {
        "balance": {"value": balance(tally.wins, games), "interval": list(stats.percentile_interval(replicates))},
        "equal_win_rates_p": stats.equal_rates(tally.wins, games),
        "start_advantage": {"value": start["win_rate"] - 1 / n if games else math.nan,
                            "win_rate": start["win_rate"], "interval": start["interval"]},
        "drama": {"value": drama["win_rate"], "interval": drama["interval"], "games": tally.drama_games},
        "decisiveness": {"value": tally.decided / tally.length_sum if tally.length_sum else math.nan},
        "margin": margin,
    }


def _points(tally: Tally) -> list[dict[str, Any]]:
    """Points of the score resource by source: mean per game for each seat and over all seats."""
    games = tally.games
    sources = sorted(set().union(*tally.points), key=lambda s: (-sum(p[s] for p in tally.points), s))
    return [{"source": source, "per_seat": [per(p[source], games) for p in tally.points],
             "mean": per(sum(p[source] for p in tally.points), games * tally.players)} for source in sources]


def _sources(tally: Tally) -> list[dict[str, Any]]:
    """Every amount moved, by resource and source: what it gave and took per game (all seats)."""
    keys = sorted(set(tally.gained) | set(tally.lost))
    return [{"resource": resource, "source": source, "given_per_game": per(tally.gained[resource, source], tally.games),
             "taken_per_game": per(tally.lost[resource, source], tally.games),
             "games": tally.moved_games[resource, source]} for resource, source in keys]


def _cards(tally: Tally, catalogue: Catalogue) -> list[dict[str, Any]]:
    keys = list(catalogue.card_actions) + sorted(set(tally.cards) - set(catalogue.card_actions))
    return [{"card": card, "action": action, "times": tally.cards[action, card],
             "per_game": per(tally.cards[action, card], tally.games), "games": tally.card_games[action, card]}
            for action, card in keys]


def _picks(tally: Tally, catalogue: Catalogue) -> list[dict[str, Any]]:
    keys = list(catalogue.picks) + sorted(set(tally.picks) - set(catalogue.picks), key=repr)
    totals: dict[tuple[str, str], int] = {}
    for (phase, key, _), times in tally.picks.items():
        totals[phase, key] = totals.get((phase, key), 0) + times
    return [{"phase": phase, "key": key, "value": value, "label": catalogue.labels.get((phase, key, value), str(value)),
             "times": tally.picks[phase, key, value],
             "share": per(tally.picks[phase, key, value], totals.get((phase, key), 0))}
            for phase, key, value in keys]


def _never(tally: Tally, catalogue: Catalogue) -> dict[str, Any]:
    return {"cards": [{"card": card, "action": action} for action, card in catalogue.card_actions
                      if not tally.cards[action, card]],
            "awards": [award for resource, award in dict.fromkeys(catalogue.awards)
                       if not tally.moved_games[resource, award]],
            "picks": [{"phase": phase, "key": key, "value": value, "label": catalogue.labels[phase, key, value]}
                      for phase, key, value in catalogue.picks if not tally.picks[phase, key, value]]}


# ---- small pieces --------------------------------------------------------------------------------

def _rate(successes: int, trials: int) -> dict[str, Any]:
    return {"wins": successes, "win_rate": successes / trials if trials else math.nan,
            "interval": list(stats.wilson(successes, trials))}


def _share(count: int, games: int) -> dict[str, Any]:
    return {"games": count, "rate": count / games if games else math.nan}


def _moments(total: int, squares: int, count: int) -> dict[str, Any]:
    mean, sd = stats.mean_sd(total, squares, count)
    return {"mean": mean, "sd": sd, "interval": list(stats.mean_interval(total, squares, count))}


def _range(histogram: dict[int, int]) -> dict[str, Any]:
    if not histogram:
        return {"min": None, "median": None, "max": None}
    return {"min": min(histogram), "median": stats.histogram_quantile(histogram, 0.5), "max": max(histogram)}


def _spread(histogram: dict[int, int]) -> dict[str, Any]:
    count = sum(histogram.values())
    total = sum(v * c for v, c in histogram.items())
    squares = sum(v * v * c for v, c in histogram.items())
    return _moments(total, squares, count) | _range(histogram)


def per(amount: float, count: float) -> float:
    """A mean or a share: nothing (NaN) when there is nothing to divide by."""
    return amount / count if count else math.nan


def _pairs(histogram: dict[int, int]) -> list[list[int]]:
    return [[value, count] for value, count in sorted(histogram.items())]


def clean(value: Any) -> Any:
    """NaN (an empty sample) as null, so the report is strict JSON."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value
