"""The reports of `amunre simulate` and `amunre compare` as tables, read from the JSON report
(docs/simulate.md explains every figure). Names of sources, cards and picks come from the
report, which has them from the rules file."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

from ..tools.simulate.plot import start_text
from .render import esc, seat_label


def titled_table(title: str, columns: Iterable[str], left: Collection[str] = (), whole: bool = False) -> Table:
    """A table as every report shows one: its title on the left, figures on the right; the
    columns named in `left` (names, labels) on the left, kept unwrapped if `whole`."""
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right", no_wrap=whole and column in left)
    return table


def pct(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{100 * value:.{digits}f}%"


def num(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def span(interval: list[float | None], fmt: Any = pct) -> str:
    lower, upper = interval
    return "-" if lower is None or upper is None else f"{fmt(lower)} to {fmt(upper)}"


def headline(report: dict[str, Any]) -> str:
    rules = report["rules"]
    agents = report["agents"]
    same = len(set(agents)) == 1
    who = f"{agents[0]} in every seat" if same else ", ".join(agents)
    extra = "".join(f", {k}={v}" for k, v in rules["options"].items())
    extra += "".join(f", {text}" for text in start_text(rules["start"]))
    return (f"[bold]{esc(rules['title'] or rules['id'])}[/] ({esc(rules['path'])}{esc(extra)}): "
            f"{report['players']} players, {esc(who)}, seed {report['seed']}")


def interrupted_note(report: dict[str, Any]) -> str | None:
    games = report["games"]
    if not games["interrupted"]:
        return None
    return (f"[bold yellow]Interrupted: these statistics are of the {games['played']:,} games finished, "
            f"not of the {games['requested']:,} asked for.[/]")


def print_failures(console: Console, report: dict[str, Any]) -> bool:
    """The games that stopped with an error, if any; False when no game finished."""
    games = report["games"]
    if games["failed"]:
        console.print(f"[bold red]{games['failed']:,} games stopped with an error[/] (left out of the statistics):")
        for failure in report["failures"]:
            console.print(f"  game {failure['game']} (seed {failure['seed']}): {esc(failure['message'])}")
    if games["played"] == 0:
        console.print("No game finished: nothing to report.")
        return False
    return True


def print_simulation(console: Console, report: dict[str, Any]) -> None:
    note = interrupted_note(report)
    console.print(headline(report))
    if note:
        console.print(note)
    if not print_failures(console, report):
        return
    score = report["rules"]["score"]
    _seats(console, report, score)
    _metrics(console, report, score)
    _points(console, report, score)
    _sources(console, report)
    _cards(console, report)
    _picks(console, report)
    _causes(console, report)
    _never(console, report)
    if note:
        console.print(note)


def _seats(console: Console, report: dict[str, Any], score: str) -> None:
    reported = [f"final {name}" for name in report["rules"]["report"]]
    table = titled_table(f"Seats ({report['games']['played']:,} games)",
                         ["seat", "agent", "wins", "win rate", "95% interval (Wilson)", f"mean {score}", "sd",
                          "median", "min-max", *reported], left=("seat", "agent"), whole=True)
    for seat in report["seats"]:
        s = seat["score"]
        table.add_row(seat_label(seat["seat"]), esc(", ".join(seat["agents"])), f"{seat['wins']:,}",
                      pct(seat["win_rate"]), span(seat["interval"]), num(s["mean"]), num(s["sd"]),
                      num(s["median"], 1), f"{s['min']}-{s['max']}",
                      *(num(seat["reported"][n]["mean"]) for n in report["rules"]["report"]))
    console.print(table)
    order = titled_table("Win rate by turn order (1: the start seat)",
                         ("position", "wins", "win rate", "95% interval (Wilson)"))
    for row in report["turn_order"]:
        order.add_row(str(row["position"]), f"{row['wins']:,}", pct(row["win_rate"]), span(row["interval"]))
    console.print(order)


def _metrics(console: Console, report: dict[str, Any], score: str) -> None:
    m, ties, length = report["metrics"], report["ties"], report["length"]
    table = Table(title="Balance and shape of the games", title_justify="left", show_header=False)
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("meaning")
    p = m["equal_win_rates_p"]
    table.add_row("balance", num(m["balance"]["value"], 3),
                  f"1 - the largest gap between seats' win rates; 95% interval {span(m['balance']['interval'], num)}; "
                  f"seats equal? chi-square p = {num(p, 3)}" + (" (they differ)" if p is not None and p < 0.05 else ""))
    advantage = m["start_advantage"]["value"]
    table.add_row("start seat advantage", f"{100 * advantage:+.1f} pts" if advantage is not None else "-",
                  f"the start seat's win rate ({pct(m['start_advantage']['win_rate'])}, "
                  f"{span(m['start_advantage']['interval'])}) less 1/{report['players']}")
    table.add_row("drama", pct(m["drama"]["value"]),
                  f"the leader after the first age did not win ({m['drama']['games']:,} games with a sole leader; "
                  f"{span(m['drama']['interval'])})")
    table.add_row("decisiveness", pct(m["decisiveness"]["value"]),
                  "of all actions came after the eventual winner took the lead for good")
    table.add_row("winning margin", num(m["margin"]["mean"]),
                  f"{score} between the winner and the best other seat (median {num(m['margin']['median'], 1)})")
    table.add_row("top score shared", pct(ties["top_score_shared"]["rate"]),
                  f"games the tie-breaks decided ({ties['top_score_shared']['games']:,}); "
                  f"still shared after them: {ties['shared_wins']['games']:,}")
    table.add_row("game length", num(length["mean"], 1),
                  f"actions per game (sd {num(length['sd'], 1)}, {length['min']}-{length['max']})")
    console.print(table)


def _points(console: Console, report: dict[str, Any], score: str) -> None:
    if not report["points"]:
        return
    table = Table(title=f"Mean {score} per game by source", title_justify="left")
    table.add_column("source")
    for seat in report["seats"]:
        table.add_column(seat_label(seat["seat"]), justify="right")
    table.add_column("per seat", justify="right")
    for row in report["points"]:
        table.add_row(esc(row["source"]), *(num(v) for v in row["per_seat"]), num(row["mean"]))
    console.print(table)


def _sources(console: Console, report: dict[str, Any]) -> None:
    score = report["rules"]["score"]
    rows = [r for r in report["sources"] if r["resource"] != score]
    if not rows:
        return
    table = titled_table("Everything else by source (per game, all seats together)",
                         ("resource", "source", "given", "taken", "games where it moved"), left=("resource", "source"))
    played = report["games"]["played"]
    for row in sorted(rows, key=lambda r: (r["resource"], -(r["given_per_game"] + r["taken_per_game"]))):
        table.add_row(esc(row["resource"]), esc(row["source"]), num(row["given_per_game"]),
                      num(row["taken_per_game"]), pct(row["games"] / played))
    console.print(table)


def _cards(console: Console, report: dict[str, Any]) -> None:
    actions = list(dict.fromkeys(row["action"] for row in report["cards"]))
    cards = list(dict.fromkeys(row["card"] for row in report["cards"]))
    if not cards:
        return
    by = {(row["card"], row["action"]): row for row in report["cards"]}
    table = Table(title="Cards: times per game by action", title_justify="left")
    table.add_column("card")
    for action in actions:
        table.add_column(action, justify="right")
    for card in cards:
        table.add_row(esc(card), *(num(by[card, a]["per_game"], 3) if (card, a) in by else "" for a in actions))
    console.print(table)


def _picks(console: Console, report: dict[str, Any]) -> None:
    if not report["picks"]:
        return
    table = titled_table("What phases picked", ("phase", "picked", "times", "share"), left=("phase", "picked"))
    for row in report["picks"]:
        table.add_row(esc(row["phase"]), esc(row["label"]), f"{row['times']:,}", pct(row["share"]))
    console.print(table)


def _causes(console: Console, report: dict[str, Any]) -> None:
    if not report["causes"]:
        return
    table = titled_table("Changes by the rule that caused them (--causes)",
                         ("kind", "rule", "changes per game", "games"), left=("kind", "rule"))
    played = report["games"]["played"]
    for row in sorted(report["causes"], key=lambda r: (r["kind"], -r["times"])):
        table.add_row(esc(row["kind"]), esc(row["id"]), num(row["per_game"]), pct(row["games"] / played))
    console.print(table)


def _never(console: Console, report: dict[str, Any]) -> None:
    never = report["never"]
    lines = []
    by_action: dict[str, list[str]] = {}
    for item in never["cards"]:
        by_action.setdefault(item["action"], []).append(item["card"])
    for action, cards in by_action.items():
        lines.append(f"  cards never in a '{esc(action)}' action: {esc(', '.join(cards))}")
    if never["awards"]:
        lines.append(f"  scoring rules that never gave anything: {esc(', '.join(never['awards']))}")
    for item in never["picks"]:
        lines.append(f"  {esc(item['phase'])} never picked {esc(item['label'])}")
    if lines:
        console.print("[bold]Never happened:[/]")
        for line in lines:
            console.print(line)
    else:
        console.print("[bold]Never happened:[/] nothing: every card action, scoring rule and pick came up.")


# ---- compare ------------------------------------------------------------------------------------

MAIN_GROUPS = ("win rate", "score", "metrics", "ties", "length", "margin", "reported")


def print_comparison(console: Console, report: dict[str, Any], everything: bool = False) -> None:
    a, b = report["a"], report["b"]
    note = interrupted_note(report["a"])
    for line in report.get("summary", []):
        console.print(f"[bold]{esc(line)}[/]")
    console.print(f"A: {headline(a)}")
    console.print(f"B: {headline(b)}")
    console.print(f"{report['games']['pairs']:,} pairs of games, each seed played under A and under B.")
    if note:
        console.print(note)
    for side, name in ((a, "A"), (b, "B")):
        if side["games"]["failed"]:
            console.print(f"[bold red]{name}: {side['games']['failed']:,} games stopped with an error[/]; first: "
                          f"{esc(side['failures'][0]['message'])} (game {side['failures'][0]['game']})")
    rows = report["rows"]
    _comparison_table(console, "Main statistics", [r for r in rows if r["group"] in MAIN_GROUPS])
    _comparison_table(console, f"Mean {a['rules']['score']} per seat by source",
                      [r for r in rows if r["group"] == "points"])
    rest = [r for r in rows if r["group"] in ("cards", "picks", "cards per round", "picks per round")]
    shown = rest if everything else [r for r in rest if r["significant"]]
    if shown:
        _comparison_table(console, "Cards and picks" + ("" if everything else " (significant differences only)"), shown)
    if len(shown) < len(rest):
        console.print(f"{len(rest) - len(shown)} rows on cards and picks show no significant difference "
                      f"(--all lists them).")
    console.print("* significant at 5% after Holm's correction over all rows. Rates: McNemar's exact test; "
                  "means: paired t-test (score p from Wilcoxon signed-rank too); balance, drama: paired bootstrap. "
                  "Intervals: 95%. The words: docs/simulate.md#glossary.")
    if note:
        console.print(note)


def _comparison_table(console: Console, title: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    table = titled_table(title, ("statistic", "A", "B", "B - A", "95% interval", "p", "test", ""),
                         left=("statistic", "test"))
    for row in rows:
        rate = row["test"] == "mcnemar"
        fmt = (lambda v: pct(v)) if rate else (lambda v: num(v, 3))
        diff = "-" if row["difference"] is None else (f"{100 * row['difference']:+.1f} pts" if rate
                                                       else f"{row['difference']:+.3f}")
        name = row["statistic"]
        if row.get("sd_a") is not None and row.get("sd_b") is not None:
            name += f" (sd {row['sd_a']:.1f} -> {row['sd_b']:.1f})"
        table.add_row(esc(name), fmt(row["a"]), fmt(row["b"]), diff,
                      span(row["interval"], (lambda v: f"{100 * v:+.1f}") if rate else (lambda v: f"{v:+.3f}")),
                      _p(row["p"]), row["test"].replace("_", " "), _mark(row))
    console.print(table)
    if any(_mark(row) == UNCORRECTED for row in rows):
        console.print(f"{UNCORRECTED} the interval leaves out 0, but the row is not significant once its test is "
                      f"corrected for the number of rows tested (Holm): with many rows, some such intervals come "
                      f"by chance.")


UNCORRECTED = "†"


def _mark(row: dict[str, Any]) -> str:
    """* significant; † an interval without 0 that the correction over every row does not keep."""
    if row["significant"]:
        return "*"
    lower, upper = row["interval"]
    return UNCORRECTED if lower is not None and upper is not None and (lower > 0 or upper < 0) else ""


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"
