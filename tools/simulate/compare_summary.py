"""The few lines in plain words that open a comparison (issue 36): what a designer asks first
of a house rule (is the game still fair to every seat, do scores move or spread, is the game
longer), read from the comparison's own rows and each side's report, so that the words never
say more than the statistics do: a change is named only where its row is significant after
the correction over every row.
"""

from __future__ import annotations

from typing import Any

SAME_SPREAD = 0.05          # spreads within 5% of each other are "about the same"


def summary_lines(rows: list[dict[str, Any]], a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Seat balance, scores and their spread, game length: one line each."""
    by_name = {row["statistic"]: row for row in rows}
    return [line for line in (_balance(rows, by_name.get("balance")), _scores(rows, a, b),
                              _length(by_name.get("game length (actions)"))) if line]


def _balance(rows: list[dict[str, Any]], balance: dict[str, Any] | None) -> str:
    if balance is None:
        return ""
    line = (f"Seat balance: {'changed' if balance['significant'] else 'no significant change'} "
            f"({_figure(balance['a'])} -> {_figure(balance['b'])})")
    moved = [f"seat {row['seat']} wins {'more' if row['difference'] > 0 else 'less'} often "
             f"({100 * row['a']:.0f}% -> {100 * row['b']:.0f}%)"
             for row in rows if row["group"] == "win rate" and row["seat"] is not None and row["significant"]]
    return line + ("; " + ", ".join(moved) if moved else "") + "."


def _scores(rows: list[dict[str, Any]], a: dict[str, Any], b: dict[str, Any]) -> str:
    scores = [row for row in rows if row["group"] == "score"]
    if not scores:
        return ""
    unit = a.get("rules", {}).get("score", "points")
    change = sum(row["difference"] for row in scores) / len(scores)
    moved = [row for row in scores if row["significant"]]
    words = f"{change:+.1f} {unit} per seat" if moved else f"no significant change ({change:+.1f} {unit} per seat)"
    sd_a, sd_b = _mean_sd(a), _mean_sd(b)
    if sd_a is None or sd_b is None:
        return f"Scores: {words}."
    if sd_b > sd_a * (1 + SAME_SPREAD):
        spread = "spread wider"
    elif sd_b < sd_a * (1 - SAME_SPREAD):
        spread = "spread narrower"
    else:
        spread = "spread about the same"
    return f"Scores: {words}, {spread} (sd {sd_a:.1f} -> {sd_b:.1f})."


def _length(row: dict[str, Any] | None) -> str:
    if row is None or not row["a"]:
        return ""
    figures = f"({row['a']:.0f} -> {row['b']:.0f} actions)"
    if not row["significant"]:
        return f"Games: no significant change in length {figures}."
    change = 100 * row["difference"] / row["a"]
    return f"Games: {abs(change):.0f}% {'longer' if change > 0 else 'shorter'} {figures}."


def _mean_sd(report: dict[str, Any]) -> float | None:
    """The seats' score spread (sd) averaged over the seats, as simulate reports each."""
    found = [seat["score"].get("sd") for seat in report.get("seats", [])]
    found = [sd for sd in found if sd is not None]
    return sum(found) / len(found) if found else None


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
