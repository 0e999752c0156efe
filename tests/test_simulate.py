"""`amunre simulate` and `amunre compare` (issue 8): the statistics on a small hand-made sample
equal values worked out by hand; the same seed gives the same report however many processes
play it; a comparison of a rule set with itself finds nothing, and a seat starting with 40
gold instead of 20 is found; Ctrl-C gives a partial report; the JSON follows its schema.

Games here are played by random agents (a few milliseconds each).
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
import signal
import sys
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.interpreter.load.rules_cache import load_rules_and_document
from amunre.tools.simulate import Fixed, Rotating, RuleSet, Tally, compare, game_seed, simulate, stats
from amunre.tools.simulate.batch import Batch, Worker, arm_of
from amunre.tools.simulate.catalogue import Catalogue
from amunre.tools.simulate.paired import PairedTally
from amunre.tools.simulate.picks import possible_picks
from amunre.tools.simulate.playing import GameRecord
from amunre.tools.simulate.report import simulation_report
from conftest import REPO, RULES_PATH, interruptible, play_random, rows_written

RULES = str(RULES_PATH)
PHARAOHS_HEIR = REPO / "rules" / "pharaohs-heir.yaml"
RANDOM4 = ["random"] * 4
SCHEMA = json.loads((REPO / "grammar" / "report.schema.json").read_text(encoding="utf-8"))
runner = CliRunner()


def validate(report: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(report)


def without_run(report: dict) -> dict:
    """A report less how the run went (time, processes): the statistics alone."""
    return {k: v for k, v in report.items() if k != "run"}


# ---- statistics on a small fixed sample, against values worked out by hand ------------------------

def hand_sample() -> list[GameRecord]:
    """Four 3-player games. Seat 0 wins games 0 and 3 (shared with seat 1), seat 1 game 1 (on
    a tie-break), seat 2 game 2; the first start player wins every game."""
    def game(index, scores, winners, start, length, first_age, decided_at, points, gained, cards, picks):
        return GameRecord(index, 100 + index, ("random",) * 3, None, scores, winners,
                          scores.count(max(scores)) > 1, start, length, {"cash": (1, 2, 3)}, points,
                          gained, {}, cards, picks, {}, first_age, decided_at)
    return [
        game(0, (10, 8, 6), (0,), 0, 100, (5, 3, 1), 40, ({"a": 6, "b": 4}, {"a": 8}, {"b": 6}),
             {("vp", "a"): 14, ("vp", "b"): 10}, {("play", "x"): 2, ("sell", "y"): 1}, {("ph", "tile", "t1"): 3}),
        game(1, (7, 9, 9), (1,), 1, 120, (4, 4, 2), 120, ({"a": 7}, {"a": 9}, {"b": 9}),
             {("vp", "a"): 16, ("vp", "b"): 9}, {("play", "x"): 1}, {("ph", "tile", "t1"): 2, ("ph", "tile", "t3"): 1}),
        game(2, (5, 5, 12), (2,), 2, 110, (6, 2, 3), 110, ({"a": 5}, {"a": 5}, {"a": 12}),
             {("vp", "a"): 22}, {}, {("ph", "tile", "t1"): 3}),
        game(3, (9, 9, 3), (0, 1), 0, 90, None, 90, ({"a": 9}, {"b": 9}, {"a": 3}),
             {("vp", "a"): 12, ("vp", "b"): 9}, {("sell", "y"): 2}, {("ph", "tile", "t3"): 3}),
    ]


CATALOGUE = Catalogue(card_actions=(("play", "x"), ("sell", "y"), ("play", "z")),
                      awards=(("vp", "a"), ("vp", "c")),
                      picks=(("ph", "tile", "t1"), ("ph", "tile", "t2"), ("ph", "tile", "t3")),
                      labels={("ph", "tile", t): f"tile {t}" for t in ("t1", "t2", "t3")})


def hand_report() -> dict:
    tally = Tally(3)
    for record in hand_sample():
        tally.add(record)
    return simulation_report(tally, CATALOGUE, {"players": 3}, 4, False)


def test_win_rates_and_intervals_equal_hand_computed_values() -> None:
    report = hand_report()
    assert [s["wins"] for s in report["seats"]] == [2, 2, 1]          # a shared win counts for each winner
    assert report["seats"][0]["win_rate"] == 0.5
    # Wilson at 2 of 4: centre 0.5, half-width 1.96 * sqrt(1/16 + 1.96^2/64) / (1 + 1.96^2/4)
    assert report["seats"][0]["interval"] == pytest.approx([0.150039, 0.849961], abs=1e-6)
    assert report["seats"][2]["interval"] == pytest.approx([0.045587, 0.699358], abs=1e-6)
    assert [t["wins"] for t in report["turn_order"]] == [4, 1, 0]     # the start seat won every game
    assert report["metrics"]["start_advantage"]["value"] == pytest.approx(1 - 1 / 3)
    assert report["metrics"]["balance"]["value"] == pytest.approx(0.75)   # 1 - (2/4 - 1/4)
    # chi-square of wins [2, 2, 1] against 5/3 each: 0.4 on 2 degrees of freedom, p = exp(-0.2)
    assert report["metrics"]["equal_win_rates_p"] == pytest.approx(math.exp(-0.2))


def test_scores_lengths_and_metrics_equal_hand_computed_values() -> None:
    report = hand_report()
    seat0 = report["seats"][0]["score"]
    assert seat0["mean"] == pytest.approx(7.75)                       # 10, 7, 5, 9
    assert seat0["sd"] == pytest.approx(math.sqrt(14.75 / 3))
    assert (seat0["min"], seat0["median"], seat0["max"]) == (5, 8.0, 10)
    assert seat0["interval"] == pytest.approx([7.75 - 3.182446 * math.sqrt(14.75 / 3) / 2,
                                               7.75 + 3.182446 * math.sqrt(14.75 / 3) / 2], abs=1e-5)
    assert report["seats"][0]["reported"]["cash"]["mean"] == 1
    assert report["length"]["mean"] == 105 and report["length"]["median"] == 105
    # drama: game 0's sole leader won, game 2's lost, game 1 had two leaders, game 3 no age data
    assert report["metrics"]["drama"]["value"] == 0.5 and report["metrics"]["drama"]["games"] == 2
    # decisiveness: game 0's winner led for good after 40 of 100 actions; the others only at the end
    assert report["metrics"]["decisiveness"]["value"] == pytest.approx(60 / 420)
    # margins: 10-8, 9-9 (won on a tie-break), 12-5, 9-3 (two winners against seat 2)
    assert report["metrics"]["margin"]["mean"] == pytest.approx(15 / 4)
    assert report["metrics"]["margin"]["median"] == 4.0
    assert report["ties"]["top_score_shared"] == {"games": 2, "rate": 0.5}
    assert report["ties"]["shared_wins"] == {"games": 1, "rate": 0.25}


def test_sources_cards_picks_and_what_never_happened() -> None:
    report = hand_report()
    points = {row["source"]: row for row in report["points"]}
    assert points["a"]["per_seat"] == [(6 + 7 + 5 + 9) / 4, (8 + 9 + 5) / 4, (12 + 3) / 4]
    assert points["a"]["mean"] == pytest.approx(64 / 12)
    cards = {(row["action"], row["card"]): row for row in report["cards"]}
    assert cards["play", "x"]["times"] == 3 and cards["play", "x"]["games"] == 2
    assert cards["sell", "y"]["per_game"] == 0.75
    picks = {row["value"]: row for row in report["picks"]}
    assert picks["t1"]["times"] == 8 and picks["t1"]["share"] == pytest.approx(8 / 12)
    assert report["never"] == {"cards": [{"card": "z", "action": "play"}], "awards": ["c"],
                               "picks": [{"phase": "ph", "key": "tile", "value": "t2", "label": "tile t2"}]}
    sources = {(r["resource"], r["source"]): r for r in report["sources"]}
    assert sources["vp", "a"]["given_per_game"] == 16 and sources["vp", "b"]["games"] == 3


def test_failed_games_are_counted_apart() -> None:
    tally = Tally(3)
    for record in hand_sample():
        tally.add(record)
    tally.add(GameRecord(9, 5, ("random",) * 3, error="GameError: division by zero"))
    report = simulation_report(tally, CATALOGUE, {"players": 3}, 5, False)
    assert report["games"] == {"requested": 5, "played": 4, "failed": 1, "interrupted": False}
    assert report["failures"] == [{"game": 9, "seed": 5, "message": "GameError: division by zero"}]
    assert report["seats"][0]["wins"] == 2


def test_paired_tests_equal_hand_computed_values() -> None:
    """Seat 0 scores 1, 2, 3, 2 more in B; seat 1 shares the win in every B game but in one A game."""
    paired = PairedTally(2)
    winners = [((0,), (0, 1)), ((0,), (0, 1)), ((0,), (0, 1)), ((0, 1), (0, 1))]
    for i, (diff, (won_a, won_b)) in enumerate(zip([1, 2, 3, 2], winners)):
        a, b = (GameRecord(i, i, ("random",) * 2, None, scores, won, False, 0, 50, {}, ({}, {}), {}, {}, {}, {}, {},
                           None, 50) for scores, won in (((10, 10), won_a), ((10 + diff, 10), won_b)))
        paired.add_game((a, b))
    entry = paired.numeric[("score", 0)]
    assert entry[:2] == [8, 18]
    # paired t: mean 2, sd sqrt(2/3), t = 2 / (sd / 2) = 4.899 on 3 degrees of freedom
    assert stats.paired_t(*entry[:2], 4) == pytest.approx(0.016277, abs=1e-5)
    # Wilcoxon: |d| ranks 1, 2.5, 2.5, 4 all positive: W+ = 10, mean 5, variance 7.5 - 6/48
    assert stats.wilcoxon(entry[2]) == pytest.approx(2 * (1 - 0.951208), abs=1e-4)
    assert paired.binary[("win", 1)] == [1, 0, 3]                   # both, only A, only B
    assert stats.mcnemar(0, 3) == pytest.approx(0.25)                  # 2 * (1/2)^3


# ---- streaming: totals merge exactly, in any order ------------------------------------------------

@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    batch = Batch((arm_of(RULES, load_rules_and_document(RULES)[1]),), 4, Fixed(tuple(RANDOM4)), 11, 12)
    worker = Worker(batch, lambda: Tally(4))
    return [worker.play(i)[0] for i in range(12)]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_tally_is_the_same_however_the_games_are_split_and_merged(records: list[GameRecord], data) -> None:
    whole = Tally(4)
    for record in records:
        whole.add(record)
    order = data.draw(st.permutations(records))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(order)), max_size=4)))
    parts = []
    for start, stop in zip([0] + cuts, cuts + [len(order)]):
        part = Tally(4)
        for record in order[start:stop]:
            part.add(record)
        parts.append(part)
    random.Random(data.draw(st.integers(0, 99))).shuffle(parts)
    merged = Tally(4)
    for part in parts:
        merged.merge(part)
    assert merged == whole


def test_seats_rotate_for_an_arena() -> None:
    seating = Rotating(("a", "b", "c"))
    assert [seating.agents(i) for i in range(4)] == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a"), ("a", "b", "c")]


def test_game_seeds_are_fixed_by_the_base_seed_and_index() -> None:
    """Changing these numbers changes every report ever made with a seed: do it knowingly."""
    assert [game_seed(1, 0), game_seed(1, 1), game_seed(7, 0)] == [121464332919225, 209918902756750, 217171048974614]


def test_a_simulated_game_replays_with_amunre_run(tmp_path: Path) -> None:
    rows_path = tmp_path / "games.csv"
    result = runner.invoke(app, ["simulate", RULES, "-n", "3", "-a", "random,random,random", "--seed", "4",
                                 "-j", "1", "-q", "--csv", str(rows_path)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(rows_path.open()))
    assert [int(r["game"]) for r in rows] == [0, 1, 2]
    played = runner.invoke(app, ["run", RULES, "--seed", rows[2]["seed"], "--agents", "random,random,random", "--json"])
    result_json = json.loads(played.output.splitlines()[-1])
    assert result_json["scores"] == [int(rows[2][f"vp_{s}"]) for s in range(3)]


# ---- the same seed, the same report -----------------------------------------------------------------

@pytest.fixture(scope="module")
def one_process() -> dict:
    return simulate(RULES, 40, agents=RANDOM4, seed=3, jobs=1).report


def test_the_same_seed_gives_the_same_report_on_one_or_two_processes(one_process: dict) -> None:
    two = simulate(RULES, 40, agents=RANDOM4, seed=3, jobs=2)
    assert two.outcome.jobs == 2
    assert without_run(two.report) == without_run(one_process)
    assert one_process["games"] == {"requested": 40, "played": 40, "failed": 0, "interrupted": False}
    validate(one_process)


def test_a_report_of_the_shipped_rules_is_whole(one_process: dict) -> None:
    report = one_process
    assert sum(row["times"] for row in report["picks"]) == 40 * 6      # one pick per round, 6 rounds
    assert {row["action"] for row in report["cards"] if row["times"]} >= {"play", "sell"}   # both happened
    assert report["points"] and report["sources"]
    assert sum(t["wins"] for t in report["turn_order"]) == sum(s["wins"] for s in report["seats"])
    assert report["causes"] == []                                      # counted only on request


def test_every_choice_of_a_select_phase_is_one_pick() -> None:
    """Pharaoh's Heir's overseer (a `select` phase) keeps one value that each choice and each
    new round changes: every choice is one pick, and who chose is none. A game's choices (one
    per option and round) are counted from a played game's events."""
    rules = amunre.load_rules(PHARAOHS_HEIR)
    game = play_random(rules, 3, seed=1)
    chosen = Counter(event["option"] for event in game.log if event["event"] == "chosen")
    assert len(chosen) == 5 and len(set(chosen.values())) == 1        # each option once a round
    report = simulate(str(PHARAOHS_HEIR), 4, agents=["random"] * 3, seed=2, jobs=1).report
    assert report["games"]["failed"] == 0
    picks = {(row["key"], row["value"]): row["times"] for row in report["picks"] if row["phase"] == "overseer"}
    assert picks == {("chosen", option): 4 * times for option, times in chosen.items()}


def test_changes_are_counted_by_cause_on_request(one_process: dict) -> None:
    counted = simulate(RULES, 40, agents=RANDOM4, seed=3, jobs=1, causes=True).report
    causes = {(row["kind"], row["id"]): row for row in counted["causes"]}
    # every award that gave points is a 'score' cause, once per seat it gave to
    points = {row["source"] for row in one_process["points"]}
    assert {id_ for kind, id_ in causes if kind == "score"} <= points
    assert causes["start", "hand"]["times"] == 40 * 4 * 2          # each seat starts with two cards
    assert without_run({**counted, "causes": []}) == without_run(one_process)   # the same games


# ---- compare -----------------------------------------------------------------------------------------

def test_a_rule_set_against_itself_differs_in_nothing() -> None:
    report = compare(RULES, RULES, 30, agents=RANDOM4, seed=5, jobs=1).report
    validate(report)
    assert report["games"]["pairs"] == 30
    assert report["rows"] and not any(row["significant"] for row in report["rows"])
    assert all(row["difference"] in (0, None) for row in report["rows"])
    assert without_run(report["a"]) == without_run(report["b"])


def test_a_seat_starting_with_40_gold_is_found_ahead() -> None:
    """Random bots make poor use of gold (a 40-gold start is worth about 1.5 points to them), so
    it takes some 600 pairs for the difference to stand out of some 50 rows tested together."""
    rich = RuleSet(RULES, start={"gold": [40]})
    report = compare(RULES, rich, 600, agents=["random"] * 3, seed=8, jobs=2).report
    validate(report)
    rows = {row["statistic"]: row for row in report["rows"]}
    ahead = rows["seat 0 mean score"]
    assert ahead["difference"] > 1 and ahead["significant"], ahead
    assert ahead["interval"][0] > 0 and ahead["p_wilcoxon"] < 0.001
    assert rows["seat 0 win rate"]["difference"] > 0
    assert sum(rows[f"seat {s} mean score"]["difference"] for s in (1, 2)) < 0
    assert not any(row["significant"] for row in report["rows"] if row["seat"] in (1, 2))
    assert report["b"]["rules"]["start"] == {"gold": [40]}


def test_compare_on_the_command_line_with_an_option_for_b(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    result = runner.invoke(app, ["compare", RULES, "-n", "8", "-a", "random,random,random", "--seed", "2", "-j", "1",
                                 "-q", "--option-b", "temple_scoring=every_harvest", "--json", str(out), "--all"])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    validate(report)
    assert report["b"]["rules"]["options"] == {"temple_scoring": "every_harvest"}
    assert "Main statistics" in result.output and "McNemar" in result.output
    assert re.search(r"8 pairs \(16 games\) in [\d.]+ s \([\d.]+ pairs/s\)", result.output), result.output


# ---- the command line ----------------------------------------------------------------------------------

def test_simulate_writes_json_csv_and_a_plot(tmp_path: Path) -> None:
    out, rows, picture = tmp_path / "r.json", tmp_path / "g.csv", tmp_path / "p.png"
    result = runner.invoke(app, ["simulate", RULES, "-n", "6", "-a", "random,random,random,random", "--seed", "1",
                                 "-j", "2", "--json", str(out), "--csv", str(rows), "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert "Seats (6 games)" in result.output and "Never happened" in result.output
    validate(json.loads(out.read_text()))
    assert len(list(csv.reader(rows.open()))) == 7
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_to_standard_output_is_the_report_alone() -> None:
    result = runner.invoke(app, ["simulate", RULES, "-n", "2", "-a", "random,random,random", "--seed", "1", "-j", "1",
                                 "-q", "--json", "-"])
    assert result.exit_code == 0
    validate(json.loads(result.stdout))


@pytest.mark.parametrize("args, fragment", [
    (["-a", "human,random,random"], "bots only"),
    (["-o", "temple_scoring=never"], "temple_scoring"),
    (["--start", "treasure=5"], "RESOURCE=N"),
    (["--address", "auto"], "--backend ray"),
    (["--backend", "cloud"], "local"),
])
def test_bad_options_are_usage_errors(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["simulate", RULES, "-n", "2", "-q"] + args)
    assert result.exit_code == 2
    assert fragment in result.output


def test_games_a_rule_breaks_are_reported_with_their_seeds(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: {RULES}\nid: broken\nphases:\n  final_scoring:\n    rules:\n"
                      "      - {id: gold, rank: ~, points: \"1 // (my.gold - my.gold)\"}\n")
    result = runner.invoke(app, ["simulate", str(broken), "-n", "2", "-a", "random,random,random", "--seed", "1",
                                 "-j", "1", "-q"])
    assert result.exit_code == 1
    assert "2 games stopped with an error" in result.output and "division" in result.output
    assert f"seed {game_seed(1, 0)}" in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_games_finished_so_far(tmp_path: Path, jobs: str) -> None:
    out, rows = tmp_path / "r.json", tmp_path / "g.csv"
    command = [sys.executable, "-m", "amunre.cli.app", "simulate", RULES, "-n", "100000", "-a",
               "random,random,random", "--seed", "1", "-j", jobs, "--json", str(out), "--csv", str(rows)]
    process = interruptible(command)
    assert rows_written(rows, process) > 0
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Interrupted: these statistics are of the" in stdout and "Seats (" in stdout
    report = json.loads(out.read_text())
    validate(report)
    assert report["games"]["interrupted"] and 0 < report["games"]["played"] < 100000
    assert len(list(csv.reader(rows.open()))) >= report["games"]["played"] + 1


def test_ctrl_c_while_the_worker_pool_starts_stops_the_run() -> None:
    """Ctrl-C as the worker processes start, before any game: the run stops with no game played
    and its workers end. (Interrupted half made, the pool started workers again behind the
    process's exit, which then waited for them for ever.)"""
    script = (
        "import os, signal, multiprocessing.pool as pools\n"
        "from amunre.tools.simulate import simulate\n"
        "start = pools.Pool._repopulate_pool\n"
        "def interrupted(pool):\n"
        "    os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C as the pool starts its workers\n"
        "    return start(pool)\n"
        "pools.Pool._repopulate_pool = interrupted\n"
        f"games = simulate({RULES!r}, 20, agents=['random'] * 3, seed=1, jobs=2).report['games']\n"
        "print(games['interrupted'], games['played'])\n")
    process = interruptible([sys.executable, "-c", script])
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    assert stdout.split() == ["True", "0"]


def test_the_picks_a_phase_never_made_are_listed_whatever_its_mechanic() -> None:
    """Every mechanic that keeps picks names them (`POSSIBLE_PICKS`): Pharaoh's Heir's overseer
    options and the Nile tiles its reveal phase turns up are all listed, labelled as the rules
    name them, and those no game made are the ones never made."""
    rules = amunre.load_rules(PHARAOHS_HEIR)
    report = simulate(str(PHARAOHS_HEIR), 1, agents=["random"] * 3, seed=2, jobs=1).report
    possible = {(phase, key, value) for phase, mech in rules.phases.items()
                for key, value in possible_picks(mech, rules)}
    assert {rules.phases[phase].name for phase, _, _ in possible} == {"select", "reveal"}
    rows = {(row["phase"], row["key"], row["value"]): row for row in report["picks"]}
    assert possible <= set(rows)
    assert {(row["phase"], row["key"], row["value"]) for row in report["never"]["picks"]} == \
        {pick for pick in possible if rows[pick]["times"] == 0}
    reveal = {pick for pick in possible if rules.phases[pick[0]].name == "reveal"}
    assert {rows[pick]["label"] for pick in reveal} == {f"{rules.place_ids[value]} turned up" for _, _, value in reveal}


@pytest.mark.parametrize("agents, quick", [("heuristic,random,random", True), ("random,random,random", False)])
def test_a_long_study_says_how_long_after_its_first_games(monkeypatch: pytest.MonkeyPatch, agents: str,
                                                          quick: bool) -> None:
    """Past LONG_STUDY (here: any study) the first games' pace gives the expected time, and
    where bots play, the quick look random agents give."""
    from amunre.cli import simulate as command
    monkeypatch.setattr(command, "LONG_STUDY", 0.0)
    result = runner.invoke(app, ["simulate", RULES, "-n", "4", "-a", agents, "--seed", "1", "-j", "1", "-q",
                                 "--engine", "interpreter"])
    assert result.exit_code == 0, result.output
    assert re.search(r"about \d+ (s|minutes) for 4 games \(\d+\.\d games/s\)", result.stderr), result.stderr
    assert ("for a quick look, random agents play in machine code in seconds: --agents random,random,random"
            in result.stderr) == quick


def test_the_forecast_paces_from_the_first_game_not_from_the_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold compile of 40 s before the first game is paid once: the pace is one game a second
    from there (it said 0.0 games/s and 18 hours for a 4-minute study)."""
    from types import SimpleNamespace

    from amunre.cli import simulate as command
    clock = iter([0.0, 40.0, 51.0])          # started; the first game after the compile; 11 more
    monkeypatch.setattr(command, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    said: list[str] = []
    progress = command._forecast(None, said.append, "simulate", 4, ["greedy"] * 4)
    progress(1, 2000)
    progress(12, 2000)
    assert said and said[0].startswith("about 34 minutes for 2,000 games (1.0 games/s)"), said


def test_a_short_study_says_nothing_of_its_time() -> None:
    result = runner.invoke(app, ["simulate", RULES, "-n", "4", "-a", "random,random,random", "--seed", "1", "-j", "1",
                                 "-q", "--engine", "interpreter"])
    assert result.exit_code == 0 and "about" not in result.stderr
