"""Pictures of a report (`--plot FILE.png`), drawn from the JSON report alone with matplotlib,
an optional extra (`pip install 'amunre[plot]'`): importing this module does not need it,
drawing does (ImportError otherwise).

A simulation: the score distribution of each seat, each seat's mean score split by source, the
win rates by seat and by turn order with their intervals, and the game lengths. A comparison:
the score distributions of A and B, points by source side by side, win rates side by side, and
the main differences with their intervals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

COLORS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C",
          "#CCB974", "#64B5CD")
SIDES = ("#4C72B0", "#DD8452")


def _figure(title: str) -> Any:
    from matplotlib.figure import Figure
    figure = Figure(figsize=(15, 10), dpi=100, layout="constrained")
    figure.suptitle(title, fontsize=15, fontweight="bold")
    return figure


def _title(report: dict[str, Any]) -> str:
    rules = report["rules"]
    settings = ", ".join([f"{k}={v}" for k, v in rules["options"].items()] + start_text(rules["start"]))
    return (rules["title"] or rules["id"]) + (f" ({settings})" if settings else "")


def start_text(start: dict[str, list[int]]) -> list[str]:
    """Per-seat starting amounts as words: 'cash at start: seat 0 40, seat 1 25' (seats from 0, as everywhere)."""
    return [f"{name} at start: " + ", ".join(f"seat {seat} {value}" for seat, value in enumerate(values))
            for name, values in start.items()]


def _seat(seat: int) -> str:
    return f"Seat {seat}"


def draw_simulation(report: dict[str, Any], path: str | Path) -> None:
    games = report["games"]["played"]
    agents = report["agents"]
    who = agents[0] if len(set(agents)) == 1 else "mixed agents"
    figure = _figure(f"{_title(report)}: {games:,} games, {report['players']} players, {who}, seed {report['seed']}"
                     + (" (interrupted)" if report["games"]["interrupted"] else ""))
    grid = figure.subplots(2, 2)
    score = report["rules"]["score"]
    _score_lines(grid[0][0], [(f"{_seat(s['seat'])} ({', '.join(s['agents'])}): mean {s['score']['mean']:.1f}",
                               report["histograms"]["scores"][s["seat"]]) for s in report["seats"]],
                 f"Final {score} by seat", score)
    _sources_by_seat(grid[0][1], report, score)
    _win_rates(grid[1][0], report)
    _lengths(grid[1][1], report)
    figure.savefig(path)


def draw_comparison(report: dict[str, Any], path: str | Path) -> None:
    a, b = report["a"], report["b"]
    figure = _figure(f"A: {_title(a)}   vs   B: {_title(b)}\n{report['games']['pairs']:,} paired games, "
                     f"{report['players']} players, seed {report['seed']}"
                     + (" (interrupted)" if a["games"]["interrupted"] else ""))
    grid = figure.subplots(2, 2)
    score = a["rules"]["score"]
    lines = []
    for name, side in (("A", a), ("B", b)):
        pooled: dict[int, int] = {}
        for histogram in side["histograms"]["scores"]:
            for value, count in histogram:
                pooled[value] = pooled.get(value, 0) + count
        mean = sum(s["score"]["mean"] or 0 for s in side["seats"]) / len(side["seats"])
        lines.append((f"{name}: mean {mean:.1f}", sorted([v, c] for v, c in pooled.items())))
    _score_lines(grid[0][0], lines, f"Final {score}, all seats", score, SIDES)
    _sources_side_by_side(grid[0][1], report, score)
    _win_rates_side_by_side(grid[1][0], report)
    _differences(grid[1][1], report, score)
    figure.savefig(path)


# ---- panels ----------------------------------------------------------------------------------------

def _score_lines(axes: Any, series: list[tuple[str, list[list[int]]]], title: str, score: str,
                 colors: tuple[str, ...] = COLORS) -> None:
    """Each distribution as a step line of its share of games per value: several stay readable
    on one panel where bars would hide each other."""
    for i, (label, histogram) in enumerate(series):
        total = sum(c for _, c in histogram) or 1
        values = [v for v, _ in histogram]
        if not values:
            continue
        shares = {v: c / total for v, c in histogram}
        xs = list(range(min(values) - 1, max(values) + 2))
        axes.step(xs, [100 * shares.get(x, 0) for x in xs], where="mid", color=colors[i % len(colors)],
                  label=label, linewidth=1.8)
    axes.set_title(title, fontsize=13)
    axes.set_xlabel(score, fontsize=11)
    axes.set_ylabel("% of games", fontsize=11)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=10)


def _sources_by_seat(axes: Any, report: dict[str, Any], score: str) -> None:
    seats = [_seat(s["seat"]) for s in report["seats"]]
    left = [0.0] * len(seats)
    for i, row in enumerate(report["points"]):
        values = [v or 0 for v in row["per_seat"]]
        axes.barh(seats, values, left=left, color=COLORS[i % len(COLORS)], label=row["source"], edgecolor="white")
        for y, (start, value) in enumerate(zip(left, values)):
            if value >= 1.5:
                axes.text(start + value / 2, y, f"{value:.1f}", ha="center", va="center", fontsize=9, color="white")
        left = [a + b for a, b in zip(left, values)]
    for y, total in enumerate(left):
        axes.text(total, y, f" {total:.1f}", va="center", fontsize=10, fontweight="bold")
    axes.invert_yaxis()
    axes.set_xlim(0, max(left + [1]) * 1.1)
    axes.set_title(f"Mean {score} per game by source", fontsize=13)
    axes.set_xlabel(f"{score} per game", fontsize=11)
    axes.legend(fontsize=9, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)
    axes.grid(axis="x", alpha=0.3)


def _win_rates(axes: Any, report: dict[str, Any]) -> None:
    n = report["players"]
    groups = [(_seat(s["seat"]), s["win_rate"], s["interval"]) for s in report["seats"]]
    groups += [(f"{t['position']}{_ordinal(t['position'])} to play", t["win_rate"], t["interval"])
               for t in report["turn_order"]]
    names = [g[0] for g in groups]
    rates = [100 * (g[1] or 0) for g in groups]
    below = [100 * ((g[1] or 0) - (g[2][0] or 0)) for g in groups]    # down to the interval's low end
    above = [100 * ((g[2][1] or 0) - (g[1] or 0)) for g in groups]    # up to its high end
    errors = [below, above]
    colors = [COLORS[0]] * n + [COLORS[1]] * n
    axes.bar(range(len(names)), rates, yerr=errors, color=colors, capsize=4)
    axes.axhline(100 / n, color="black", linestyle="--", linewidth=1, label=f"1/{n} = {100 / n:.1f}%")
    axes.set_xticks(range(len(names)), names, rotation=20, fontsize=10)
    axes.set_ylabel("win rate, % (95% Wilson interval)", fontsize=11)
    axes.set_title("Win rate by seat, and by turn order", fontsize=13)
    axes.legend(fontsize=10)
    axes.grid(axis="y", alpha=0.3)


def _lengths(axes: Any, report: dict[str, Any]) -> None:
    histogram = report["histograms"]["length"]
    if histogram:
        lower, upper = histogram[0][0], histogram[-1][0]
        width = max(1, (upper - lower + 1) // 40)          # about 40 bars, whatever the spread
        bins: dict[int, int] = {}
        for value, count in histogram:
            start = lower + (value - lower) // width * width
            bins[start] = bins.get(start, 0) + count
        axes.bar([v + width / 2 for v in bins], list(bins.values()), width=width, color=COLORS[2], edgecolor="white")
    length = report["length"]
    axes.set_title(f"Game length: mean {length['mean'] or 0:.0f} actions", fontsize=13)
    axes.set_xlabel("actions (decisions) per game", fontsize=11)
    axes.set_ylabel("games", fontsize=11)
    axes.grid(alpha=0.3)


def _sources_side_by_side(axes: Any, report: dict[str, Any], score: str) -> None:
    rows = [r for r in report["rows"] if r["group"] == "points"]
    names = [r["statistic"].removeprefix("points from ").removesuffix(" per seat") for r in rows]
    ys = list(range(len(rows)))
    axes.barh([y - 0.2 for y in ys], [r["a"] or 0 for r in rows], height=0.4, color=SIDES[0], label="A")
    axes.barh([y + 0.2 for y in ys], [r["b"] or 0 for r in rows], height=0.4, color=SIDES[1], label="B")
    for y, row in zip(ys, rows):
        if row["significant"]:
            axes.text(max(row["a"] or 0, row["b"] or 0), y, " *", va="center", fontsize=12, fontweight="bold")
    axes.set_yticks(ys, names, fontsize=10)
    axes.invert_yaxis()
    axes.set_title(f"Mean {score} per seat by source (* significant)", fontsize=13)
    axes.legend(fontsize=10)
    axes.grid(axis="x", alpha=0.3)


def _win_rates_side_by_side(axes: Any, report: dict[str, Any]) -> None:
    n = report["players"]
    for offset, (name, side, color) in enumerate((("A", report["a"], SIDES[0]), ("B", report["b"], SIDES[1]))):
        rates = [100 * (s["win_rate"] or 0) for s in side["seats"]]
        errors = [[100 * ((s["win_rate"] or 0) - (s["interval"][0] or 0)) for s in side["seats"]],
                  [100 * ((s["interval"][1] or 0) - (s["win_rate"] or 0)) for s in side["seats"]]]
        axes.bar([i + (offset - 0.5) * 0.4 for i in range(n)], rates, width=0.4, yerr=errors, capsize=4,
                 color=color, label=name)
    axes.axhline(100 / n, color="black", linestyle="--", linewidth=1, label=f"1/{n}")
    axes.set_xticks(range(n), [_seat(s) for s in range(n)], fontsize=10)
    axes.set_ylabel("win rate, % (95% Wilson interval)", fontsize=11)
    axes.set_title("Win rate by seat", fontsize=13)
    axes.legend(fontsize=10)
    axes.grid(axis="y", alpha=0.3)


def _differences(axes: Any, report: dict[str, Any], score: str) -> None:
    """Win rates (in points of percentage) and mean scores by seat: B - A with its interval, a
    forest plot where an interval that misses 0 is a difference."""
    rows = [r for r in report["rows"] if r["group"] in ("win rate", "score")
            and r["difference"] is not None and r["interval"][0] is not None]
    names, centres, lows, highs, marks = [], [], [], [], []
    for row in rows:
        rate = row["test"] == "mcnemar"
        scale = 100 if rate else 1
        names.append(row["statistic"] + (" (pts)" if rate else f" ({score})"))
        centres.append(scale * row["difference"])
        lows.append(scale * (row["difference"] - row["interval"][0]))
        highs.append(scale * (row["interval"][1] - row["difference"]))
        marks.append(row["significant"])
    ys = list(range(len(rows)))
    for y, centre, lower, upper, mark in zip(ys, centres, lows, highs, marks):
        axes.errorbar(centre, y, xerr=[[lower], [upper]], fmt="o", color=COLORS[3] if mark else COLORS[7], capsize=3)
    axes.axvline(0, color="black", linewidth=1)
    axes.set_yticks(ys, names, fontsize=9)
    axes.invert_yaxis()
    axes.set_title("B - A with 95% intervals (red: significant)", fontsize=13)
    axes.grid(axis="x", alpha=0.3)


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
