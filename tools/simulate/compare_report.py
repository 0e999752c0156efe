"""A paired comparison's report: each side's own simulation report, and one row per statistic
with A, B, the difference B - A, its 95% interval, a p-value from a test that fits paired games,
and whether the difference is significant once every row's test is taken into account.

The tests (docs/simulate.md says why each fits):
- a mean (score, points by source, length, uses of a card, and where games have rounds the
  uses of a card and the picks per round played): the paired t-test on the per-game
  differences, with its t interval; for scores the Wilcoxon signed-rank p is given too;
- a rate (a seat's wins, the start seat's wins, shared top scores): McNemar's exact test on the
  pairs whose outcome differs, and the t interval of the per-game difference (-1, 0 or 1);
- balance and drama (functions of many games): the paired bootstrap, whose replicates weigh
  both sides of a game alike.
Significance: Holm's correction over all rows at 5%.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from . import stats
from .compare_summary import summary_lines
from .paired import PairedTally
from .report import REPORT_FORMAT, clean, per
from .tally import Tally, balance, balance_of, drama_of

ALPHA = 0.05
TESTS = {
    "paired_t": "paired t-test on per-game differences (B - A)",
    "mcnemar": "McNemar's exact test on the games whose outcome differs",
    "bootstrap": f"paired bootstrap: {stats.BOOTSTRAP} Poisson replicates of the pairs, each pair resampled as a whole",
    "correction": "Holm's step-down correction over every row; significant: adjusted p < 0.05",
}


def comparison_report(paired: PairedTally, report_a: dict[str, Any], report_b: dict[str, Any],
                      about: dict[str, Any], requested: int, interrupted: bool) -> dict[str, Any]:
    rows = _rows(paired)
    adjusted = stats.holm([row["p"] for row in rows])
    for row, p in zip(rows, adjusted):
        row["p_adjusted"] = p
        row["significant"] = p < ALPHA
    for row in rows:
        if row["group"] == "score":                 # the spread of each side's scores, as simulate gives it
            row["sd_a"] = report_a["seats"][row["seat"]]["score"].get("sd")
            row["sd_b"] = report_b["seats"][row["seat"]]["score"].get("sd")
    report = {"amunre_report": REPORT_FORMAT, "kind": "compare", **about,
              "games": {"requested": requested, "pairs": paired.pairs, "interrupted": interrupted},
              "summary": summary_lines(rows, report_a, report_b),
              "tests": dict(TESTS), "rows": rows, "a": report_a, "b": report_b}
    return clean(report)


def _rows(paired: PairedTally) -> list[dict[str, Any]]:
    a, b, seats = paired.a, paired.b, paired.players
    rows = []
    for seat in range(seats):
        rows.append(_rate(paired, ("win", seat), f"seat {seat} win rate", "win rate", seat))
    for seat in range(seats):
        row = _mean(paired, ("score", seat), f"seat {seat} mean score", "score", seat,
                    per(a.score_sum[seat], a.games), per(b.score_sum[seat], b.games))
        row["p_wilcoxon"] = stats.wilcoxon(paired.numeric.get(("score", seat), [0, 0, {}])[2])
        rows.append(row)
    rows.append(_rate(paired, ("start_win",), "start seat win rate", "win rate"))
    rows.append(_rate(paired, ("top_shared",), "top score shared", "ties"))
    rows.append(_boot(paired, "balance", lambda counts: balance_of(counts, seats),
                      balance(a.wins, a.games), balance(b.wins, b.games)))
    rows.append(_boot(paired, "drama", drama_of, per(a.drama_lost, a.drama_games),
                      per(b.drama_lost, b.drama_games)))
    rows.append(_mean(paired, ("length",), "game length (actions)", "length", None,
                      per(a.length_sum, a.games), per(b.length_sum, b.games)))
    rows.append(_mean(paired, ("margin",), "winning margin", "margin", None,
                      per(sum(m * c for m, c in a.margins.items()), a.games),
                      per(sum(m * c for m, c in b.margins.items()), b.games)))
    for name in sorted(set(a.reported) | set(b.reported)):
        rows.append(_mean(paired, ("reported", name), f"final {name} per seat", "reported", None,
                          per(_seat_total(a.reported.get(name)), a.games * seats),
                          per(_seat_total(b.reported.get(name)), b.games * seats), scale=seats))
    points_a, points_b = _source_points(a), _source_points(b)
    for source in _ordered(points_a, points_b):
        rows.append(_mean(paired, ("points", source), f"points from {source} per seat", "points", None,
                          per(points_a.get(source, 0), a.games * seats),
                          per(points_b.get(source, 0), b.games * seats), scale=seats))
    for action, card in _ordered(a.cards, b.cards):
        rows.append(_mean(paired, ("card", action, card), f"{card}: {action} per game", "cards", None,
                          per(a.cards[action, card], a.games), per(b.cards[action, card], b.games)))
    for phase, key, value in _ordered(a.picks, b.picks):
        rows.append(_mean(paired, ("pick", phase, key, value), f"{phase} {key} {value} per game", "picks", None,
                          per(a.picks[phase, key, value], a.games), per(b.picks[phase, key, value], b.games)))
    if paired.many_rounds:                  # the same counts per round: a longer game is not more of each
        for action, card in _ordered(a.cards, b.cards):
            rows.append(_per_round(paired, ("card", action, card), f"{card}: {action} per round", "cards per round"))
        for phase, key, value in _ordered(a.picks, b.picks):
            rows.append(_per_round(paired, ("pick", phase, key, value), f"{phase} {key} {value} per round",
                                   "picks per round"))
    return rows


def _per_round(paired: PairedTally, key: tuple, name: str, group: str) -> dict[str, Any]:
    """A count per round played, each game's own count over its own rounds: the paired t-test
    on the per-game differences, worked out from exact sums."""
    zero = Fraction(0)
    sum_a, sum_b, total, squares = paired.per_round.get(key, [zero] * 4)
    n = paired.pairs
    lower, upper = stats.mean_interval(total, squares, n)
    return _row(name, group, None, per(float(sum_a), n), per(float(sum_b), n), (lower, upper),
                stats.paired_t(total, squares, n), "paired_t")


def _rate(paired: PairedTally, key: tuple, name: str, group: str, seat: int | None = None) -> dict[str, Any]:
    both, only_a, only_b = paired.binary.get(key, [0, 0, 0])
    n = paired.pairs
    # the per-game difference is +1 (only B), -1 (only A) or 0: its mean and t interval
    total, squares = only_b - only_a, only_b + only_a
    return _row(name, group, seat, per(both + only_a, n), per(both + only_b, n),
                stats.mean_interval(total, squares, n), stats.mcnemar(only_a, only_b), "mcnemar")


def _mean(paired: PairedTally, key: tuple, name: str, group: str, seat: int | None, mean_a: float,
          mean_b: float, scale: int = 1) -> dict[str, Any]:
    total, squares, _ = paired.numeric.get(key, [0, 0, None])
    n = paired.pairs
    lower, upper = stats.mean_interval(total, squares, n)
    return _row(name, group, seat, mean_a, mean_b, (lower / scale, upper / scale), stats.paired_t(total, squares, n),
                "paired_t")


def _boot(paired: PairedTally, name: str, statistic: Any, value_a: float, value_b: float) -> dict[str, Any]:
    """A figure of many games: replicates resample whole pairs, so each keeps its pairing."""
    def difference(pairs: dict) -> float:
        side_a: dict = {}
        side_b: dict = {}
        for (out_a, out_b), count in pairs.items():
            side_a[out_a] = side_a.get(out_a, 0) + count
            side_b[out_b] = side_b.get(out_b, 0) + count
        return statistic(side_b) - statistic(side_a)
    differences = stats.bootstrap(paired.outcomes, difference) if paired.pairs else []
    return _row(name, "metrics", None, value_a, value_b, stats.percentile_interval(differences),
                stats.bootstrap_p(differences), "bootstrap")


def _row(name: str, group: str, seat: int | None, a: float, b: float, interval: tuple[float, float], p: float,
         test: str) -> dict[str, Any]:
    return {"statistic": name, "group": group, "seat": seat, "a": a, "b": b, "difference": b - a,
            "interval": list(interval), "p": p, "test": test}


def _seat_total(sums: list[list[int]] | None) -> int:
    return sum(total for total, _ in sums) if sums else 0


def _source_points(tally: Tally) -> dict[str, int]:
    out: dict[str, int] = {}
    for seat in tally.points:
        for source, points in seat.items():
            out[source] = out.get(source, 0) + points
    return out


def _ordered(first: dict, second: dict) -> list:
    """Keys of either, the most frequent (over both) first, then by name."""
    keys = set(first) | set(second)
    return sorted(keys, key=lambda k: (-(first.get(k, 0) + second.get(k, 0)), repr(k)))
