"""`amunre arena` (issue 9.3): the Bradley-Terry fit against strengths worked out by hand, the
arena's totals on a hand-made sample (shared wins split, pairs of one agent's seats left out),
every agent in every seat, the same report whatever --jobs, a clear error for a bad agent, and
Ctrl-C giving the games finished. Games here are played by random agents and one greedy."""

from __future__ import annotations

import csv
import json
import math
import signal
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app
from amunre.tools.simulate import arena
from amunre.tools.simulate.arena_report import ArenaTally, arena_report, pairs
from amunre.tools.simulate.playing import GameRecord
from amunre.tools.simulate.rating import bradley_terry, elo_scale
from conftest import RULES_PATH, interruptible, rows_written

RULES = str(RULES_PATH)
runner = CliRunner()


# ---- Bradley-Terry ------------------------------------------------------------------------------

def test_bradley_terry_finds_the_strengths_that_explain_the_results_exactly() -> None:
    """Strengths 4, 2, 1 expect a to beat b 2 pairs in 3, b to beat c 2 in 3, a to beat c 4 in 5:
    these results are exactly their expectation, so the fit (without prior) is 4 : 2 : 1, and the
    geometric mean being 2, the ratings are 1500 + 400 log10(2), 1500, 1500 - 400 log10(2)."""
    wins = {("a", "b"): 2, ("b", "a"): 1, ("b", "c"): 2, ("c", "b"): 1, ("a", "c"): 4, ("c", "a"): 1}
    strength = bradley_terry(["a", "b", "c"], wins, prior=0)
    assert strength == pytest.approx({"a": 2.0, "b": 1.0, "c": 0.5}, rel=1e-7)
    ratings = [elo_scale(strength[name]) for name in "abc"]
    assert ratings == pytest.approx([1620.412, 1500.0, 1379.588], abs=1e-3)


def test_two_agents_three_wins_to_one_are_400_log10_3_apart() -> None:
    strength = bradley_terry(["x", "y"], {("x", "y"): 3, ("y", "x"): 1}, prior=0)
    assert elo_scale(strength["x"]) - elo_scale(strength["y"]) == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_the_prior_keeps_an_agent_that_never_lost_finite() -> None:
    """3 wins to 0, with one drawn pair added: 3.5 to 0.5, a ratio of 7."""
    strength = bradley_terry(["x", "y"], {("x", "y"): 3}, prior=1)
    assert strength["x"] / strength["y"] == pytest.approx(7, rel=1e-7)


# ---- the arena's totals on a hand-made sample ------------------------------------------------------

def record(index: int, agents: tuple[str, ...], scores: tuple[int, ...], winners: tuple[int, ...]) -> GameRecord:
    return GameRecord(index, 100 + index, agents, scores=scores, winners=winners)


def test_the_totals_split_shared_wins_and_leave_out_pairs_of_one_agent() -> None:
    tally = ArenaTally(("g", "g", "r"))
    tally.add(record(0, ("g", "g", "r"), (10, 8, 8), (0,)))       # g beats r once, ties it once
    tally.add(record(1, ("r", "g", "g"), (9, 9, 3), (0, 1)))      # r and g share the win, both beat g
    tally.add(record(2, ("g", "r", "g"), (7, 7, 1), (1,)))        # r won the tie-break: beats both g
    assert tally.agents == ("g", "r")
    assert tally.wins == {"g": Fraction(3, 2), "r": Fraction(3, 2)}
    beat, tied = pairs(tally.outcomes)
    assert (beat["g", "r"], tied["g", "r"], beat["r", "g"]) == (1, 2, 3)
    assert beat["g", "g"] == tied["g", "g"] == 0
    report = arena_report(tally, 3, {"agents": ["g", "g", "r"]}, 3, False)
    rows = {row["agent"]: row for row in report["standings"]}
    assert (rows["g"]["games"], rows["g"]["wins"], rows["g"]["win_rate"]) == (6, 1.5, 0.25)
    assert (rows["r"]["games"], rows["r"]["wins"], rows["r"]["win_rate"]) == (3, 1.5, 0.5)
    assert rows["g"]["seats"] == [2, 2, 2] and rows["r"]["seats"] == [1, 1, 1]
    assert rows["g"]["score"]["mean"] == pytest.approx((10 + 8 + 9 + 3 + 7 + 1) / 6)
    assert rows["g"]["pairs"] == rows["r"]["pairs"] == 6
    # r won 3 + 2/2 of 6 pairs, g 1 + 2/2; with the drawn pair, 4.5 to 2.5
    assert rows["r"]["rating"] - rows["g"]["rating"] == pytest.approx(400 * math.log10(4.5 / 2.5), abs=1e-6)
    assert [row["agent"] for row in report["standings"]] == ["r", "g"]
    lower, upper = rows["r"]["rating_interval"]
    assert lower <= rows["r"]["rating"] <= upper and lower < upper


def test_totals_merge_to_the_same_whatever_the_split() -> None:
    games = [record(i, ("a", "b", "c")[i % 3:] + ("a", "b", "c")[:i % 3], (i % 5, (i * 7) % 5, 3), (i % 3,))
             for i in range(12)]
    whole, first, second = ArenaTally(("a", "b", "c")), ArenaTally(("a", "b", "c")), ArenaTally(("a", "b", "c"))
    for game in games:
        whole.add(game)
    for game in games[:5]:
        first.add(game)
    for game in games[5:]:
        second.add(game)
    assert second.merge(first) == whole


# ---- the command -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def one_process() -> dict:
    return arena(RULES, 6, ["random", "greedy", "random"], seed=5, jobs=1).report


def test_every_agent_sits_in_every_seat(one_process: dict) -> None:
    rows = {row["agent"]: row for row in one_process["standings"]}
    assert rows["greedy"]["seats"] == [2, 2, 2] and rows["random"]["seats"] == [4, 4, 4]
    assert rows["greedy"]["games"] == 6 and rows["random"]["games"] == 12
    assert sum(row["wins"] for row in one_process["standings"]) == 6


def test_the_same_seed_gives_the_same_report_whatever_jobs(tmp_path: Path, one_process: dict) -> None:
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["arena", RULES, "-a", "random,greedy,random", "-n", "6", "--seed", "5", "-j", "2",
                                 "-q", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Standings (6 games" in result.output and "Head to head" not in result.output
    two = json.loads(out.read_text())
    assert {k: v for k, v in two.items() if k != "run"} == {k: v for k, v in one_process.items() if k != "run"}
    assert two["run"]["jobs"] == 2


@pytest.mark.parametrize("agents, fragment", [
    ("random,nobody,random", "unknown agent 'nobody'"),
    ("random,ismcts:ms=fast,random", "ms is a whole number"),
    ("random,human,random", "bots only"),
    ("greedy,greedy,greedy", "two different agents"),
])
def test_a_bad_agent_is_a_usage_error(agents: str, fragment: str) -> None:
    result = runner.invoke(app, ["arena", RULES, "-a", agents, "-n", "2", "-q"])
    assert result.exit_code == 2
    assert fragment in result.output


def test_ctrl_c_prints_the_games_finished_so_far(tmp_path: Path) -> None:
    """Once games have reached the CSV file (in blocks, as its buffer fills), Ctrl-C: exit 130
    and the report of the games finished, every one of them in the file."""
    out, rows = tmp_path / "r.json", tmp_path / "g.csv"
    command = [sys.executable, "-m", "amunre.cli.app", "arena", RULES, "-n", "100000", "-a", "random,random,greedy",
               "--seed", "1", "-j", "1", "--json", str(out), "--csv", str(rows)]
    process = interruptible(command)
    assert rows_written(rows, process) > 0
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    report = json.loads(out.read_text())
    played = report["games"]["played"]
    assert report["games"]["interrupted"] and 0 < played < 100000
    assert "Interrupted: these statistics are of the" in stdout and "Standings (" in stdout
    assert sum(row["games"] for row in report["standings"]) == 3 * played
    assert len(list(csv.reader(rows.open()))) == played + 1
