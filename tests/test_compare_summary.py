"""The lines in plain words that open `amunre compare` (issue 36, item 5): they name a change
only where its row is significant, say how spread the scores are, and lead both the JSON
report and the printed one; a row whose interval leaves out 0 but which the correction does not
keep says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from amunre.cli.simulate_render import UNCORRECTED, _mark
from amunre.tools.simulate import compare
from amunre.tools.simulate.compare_summary import summary_lines

REPO = Path(__file__).resolve().parent.parent
RULES = str(REPO / "rules" / "knizia2016.yaml")
SCHEMA = json.loads((REPO / "grammar" / "report.schema.json").read_text())


def _row(statistic: str, group: str, a: float, b: float, significant: bool, seat: int | None = None) -> dict[str, Any]:
    return {"statistic": statistic, "group": group, "seat": seat, "a": a, "b": b, "difference": b - a,
            "interval": [b - a - 1, b - a + 1], "significant": significant}


def _side(sds: list[float]) -> dict[str, Any]:
    return {"rules": {"score": "vp"}, "seats": [{"score": {"sd": sd}} for sd in sds]}


def test_a_longer_game_with_wider_scores_reads_so() -> None:
    rows = [_row("seat 0 win rate", "win rate", 0.25, 0.40, True, 0), _row("seat 1 win rate", "win rate", 0.25, 0.2,
                                                                           False, 1),
            _row("seat 0 mean score", "score", 20, 30, True, 0), _row("seat 1 mean score", "score", 20, 30, True, 1),
            _row("balance", "metrics", 0.9, 0.7, True), _row("game length (actions)", "length", 200, 294, True)]
    assert summary_lines(rows, _side([6.0, 6.8]), _side([9.0, 9.4])) == [
        "Seat balance: changed (0.90 -> 0.70); seat 0 wins more often (25% -> 40%).",
        "Scores: +10.0 vp per seat, spread wider (sd 6.4 -> 9.2).",
        "Games: 47% longer (200 -> 294 actions)."]


def test_nothing_significant_is_said_as_no_change() -> None:
    rows = [_row("seat 0 mean score", "score", 20, 20.4, False, 0), _row("balance", "metrics", 0.9, 0.88, False),
            _row("game length (actions)", "length", 200, 180, False)]
    assert summary_lines(rows, _side([6.0]), _side([5.0])) == [
        "Seat balance: no significant change (0.90 -> 0.88).",
        "Scores: no significant change (+0.4 vp per seat), spread narrower (sd 6.0 -> 5.0).",
        "Games: no significant change in length (200 -> 180 actions)."]


def test_an_interval_without_zero_that_the_correction_drops_is_marked() -> None:
    kept, dropped, plain = (_row("x", "length", 1, 3, True), _row("y", "length", 1, 3, False),
                            _row("z", "length", 1, 1.5, False))
    assert (_mark(kept), _mark(dropped), _mark(plain)) == ("*", UNCORRECTED, "")


def test_the_summary_leads_the_report_and_gives_each_seat_its_spread() -> None:
    study = compare(RULES, RULES, 8, agents=["random"] * 4, seed=3, jobs=1, engine="interpreter")
    report = study.report
    jsonschema.validate(report, SCHEMA)
    assert list(report)[list(report).index("games") + 1] == "summary"
    assert report["summary"][0].startswith("Seat balance: no significant change")
    assert any(line.startswith("Scores: no significant change (+0.0 vp per seat), spread about the same")
               for line in report["summary"])
    scores = [row for row in report["rows"] if row["group"] == "score"]
    assert [row["sd_a"] for row in scores] == [seat["score"]["sd"] for seat in report["a"]["seats"]]
