"""The lint (tools/lint.py): rules that load but would not play as meant are warned about
at the value concerned; `amunre validate` prints the warnings, `--strict` makes them errors,
`--play N` plays random games and reports runtime errors with their seeds and positions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app
from amunre.interpreter.load.rules_cache import load_rules_and_document
from amunre.tools.lint import KINDS, lint
from conftest import REPO, ok_line, position

# One house rule of the 2016 edition with one mistake of each kind (the base file is fine).
BROKEN = """\
extends: knizia2016
structure:
  rounds: 4
  game_end: [last_sales, final_scoring, bonus, never]
options:
  unread: {values: [a, b]}
  three: {values: [x, y, z]}
derived:
  unread_value: "stone + 1"
modifiers:
  never_set: {scope: place}
  set_unread: {scope: seat}
decks:
  empty: {}
  apart: {}
goods:
  unsold: {draw: favor}
cards:
  no_window: {deck: favor, count: 1, effect: "+1 vp; set set_unread = 1"}
  closed_window: {deck: favor, count: 1, window: nowhere, effect: "+1 vp"}
  out_of_reach: {deck: apart, window: market, effect: "+1 vp"}
phases:
  unscheduled: {mechanic: card_window, window: nowhere}
  never: {mechanic: score, skip_if: "option.three == x or option.three != x", rules: [{id: n, points: 1}]}
  bonus:
    mechanic: score
    rules:
      - {id: zero, points: "2 * 0"}
      - {id: impossible, when: "option.three == x and option.three != x", points: 3}
      - {id: flat, rank: {by: "my.vp", points: [0, 0]}}
      - {id: unbeatable, award: {points: 5, by: ["0"]}}
      - {id: threes, when: "option.three == x", points: 1}
"""

EXPECTED = [   # kind, the text around the position, the position's first characters
    ("deck-runs-out", "rounds: 4", "4"),
    ("option-never-read", "unread: {", "unread"),
    ("option-never-read", "three: {values: [x", "[x"),
    ("unused-definition", "unread_value:", "unread_value"),
    ("modifier-never-set", "never_set:", "never_set"),
    ("unused-definition", "set_unread: {", "set_unread"),
    ("unused-definition", "empty: {}", "empty"),
    ("unused-definition", "unsold:", "unsold"),
    ("card-never-played", "effect: \"+1 vp; set", "effect"),
    ("card-never-played", "window: nowhere, effect", "nowhere"),
    ("card-never-played", "deck: apart", "apart"),
    ("phase-never-runs", "unscheduled:", "unscheduled"),
    ("phase-never-runs", "skip_if: \"option.three", "\"option"),
    ("score-never-awards", "points: \"2 * 0\"", "\"2"),
    ("score-never-awards", "when: \"option.three == x and", "\"option"),
    ("score-never-awards", "points: [0, 0]", "[0"),
    ("score-never-awards", "by: [\"0\"]", "\"0"),
]


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lint") / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def findings(path: Path) -> list:
    rules, doc = load_rules_and_document(path)
    return lint(doc, rules)


def test_each_kind_is_reported_at_its_line_and_column(broken: Path) -> None:
    found = [(f.kind, f.span.line, f.span.col) for f in findings(broken) if f.span.file == str(broken)]
    expected = [(kind, *position(BROKEN, anchor, inner)) for kind, anchor, inner in EXPECTED]
    assert sorted(found) == sorted(expected)
    assert {kind for kind, _, _ in found} == set(KINDS) - {"reconstructed-value", "lint-allow", "loop-never-ends"}


FLOW = """\
extends: knizia2016
flow:
  - name: rounds
    until: "1 == 2"
    repeat: [auction, market, offering, harvest]
  - times: 0
    repeat: [scoring_cards, age_scoring]
  - times: 1
    repeat: last_sales
    between: new_age
  - final_scoring
"""


def test_the_flow_is_followed_under_every_option(tmp_path: Path) -> None:
    """A loop whose `until` never holds, and phases in the flow that play never gets to: under
    a repeat of no pass, or between the passes of a repeat of one."""
    path = tmp_path / "flow.yaml"
    path.write_text(FLOW, encoding="utf-8")
    found = sorted((f.kind, f.span.line, f.message.split(":")[0]) for f in findings(path)
                   if f.kind in ("loop-never-ends", "phase-never-runs"))
    assert ("loop-never-ends", position(FLOW, "until: \"1", "\"1")[0], "this `until` never holds") in found
    unreached = {message for kind, _, message in found if kind == "phase-never-runs"}
    assert {"the phase 'scoring_cards' is in the flow where play never gets to it, whatever the options",
            "the phase 'age_scoring' is in the flow where play never gets to it, whatever the options",
            "the phase 'new_age' is in the flow where play never gets to it, whatever the options"} <= unreached
    assert not any("'last_sales'" in m or "'final_scoring'" in m or "'auction'" in m for m in unreached)


def test_a_deck_that_runs_out_says_when_and_how_short(broken: Path) -> None:
    short, = [f for f in findings(broken) if f.kind == "deck-runs-out"]
    assert "'provinces' runs out: at 3, 4 and 5 players, 'auction' in age 1, round 4 asks for 3 cards and gets 0" \
        in short.message
    assert "9 cards at 3 players" in short.hint


def test_a_warning_prints_like_an_error_with_its_kind(broken: Path) -> None:
    text = next(f for f in findings(broken) if f.kind == "modifier-never-set").format()
    line, col = position(BROKEN, "never_set:", "never_set")
    assert text.splitlines() == [
        f"{broken}:{line}:{col}: warning: no effect sets the modifier 'never_set': it always has its default "
        "(change it with `set never_set = ...` or `add ... to never_set`) [modifier-never-set]",
        "      never_set: {scope: place}",
        "      ^"]


def base_without_allow(tmp_path: Path) -> tuple[Path, str]:
    text = (REPO / "rules" / "knizia2016.yaml").read_text(encoding="utf-8")
    marked = "  properties:               # lint: allow reconstructed-value"
    assert marked in text
    path = tmp_path / "base.yaml"
    return path, text.replace(marked, "  properties:               #")


def test_rules_reading_reconstructed_board_values_are_reported_per_property(tmp_path: Path) -> None:
    path, text = base_without_allow(tmp_path)
    path.write_text(text, encoding="utf-8")
    found = findings(path)
    assert {f.kind for f in found} == {"reconstructed-value"}
    names = ["side", "region", "nile", "fields", "favor_limit", "temples"]     # those read and marked
    assert [(f.span.line, f.span.col) for f in found] == [position(text, f"    {n}: {{", n) for n in names]
    assert "for 12 of 15 places (buto, damanhur, mendes, ...)" in found[3].message


def test_allow_comments_silence_at_the_line_above_and_in_a_block(tmp_path: Path) -> None:
    path, text = base_without_allow(tmp_path)
    text = text.replace("    side: {", "    # lint: allow reconstructed-value (the map shows the sides)\n    side: {")
    text = text.replace("    nile: {type: boolean,",
                        "    nile: {type: boolean,  # lint: allow reconstructed-value\n     ")
    text = text.replace("    temples: {", "    temples: {  # lint: allow reconstructed-valeu\n     ")
    text = text.replace("  nile_side_bonus:\n", "  nile_side_bonus:  # lint: allow option-never-read\n")
    path.write_text(text, encoding="utf-8")
    found = {(f.kind, f.message.split(",")[0]) for f in findings(path)}
    assert found == {
        ("reconstructed-value", "rules read 'region'"), ("reconstructed-value", "rules read 'fields'"),
        ("reconstructed-value", "rules read 'favor_limit'"), ("reconstructed-value", "rules read 'temples'"),
        ("lint-allow", "unknown lint kind 'reconstructed-valeu'"),
        ("lint-allow", "this comment allows 'option-never-read'")}


# ---- amunre validate -----------------------------------------------------------------------------

runner = CliRunner()
SHIPPED = sorted(str(p) for p in (REPO / "rules").rglob("*.yaml"))


def test_every_shipped_rules_file_lints_clean() -> None:
    result = runner.invoke(app, ["validate", "--strict", *SHIPPED])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [ok_line(path) for path in SHIPPED]


def test_warnings_pass_and_strict_makes_them_errors(broken: Path) -> None:
    lenient = runner.invoke(app, ["validate", str(broken)])
    assert lenient.exit_code == 0
    assert lenient.stdout.count(": warning: ") == len(EXPECTED)
    said = rf"OK {re.escape(str(broken))} \((\d+ examples, )?{len(EXPECTED)} warnings\)$"
    assert re.search(said, lenient.stdout.rstrip()), lenient.stdout
    strict = runner.invoke(app, ["validate", "--strict", str(broken)])
    assert strict.exit_code == 1
    assert strict.stdout.count(": error: ") == len(EXPECTED) and ": warning: " not in strict.stdout
    assert strict.stdout.rstrip().endswith(f"{len(EXPECTED)} problems found.")


FAILING = """\
extends: knizia2016
phases:
  market:
    price: "n * (n + 1) // my.vp"
"""


def test_play_reports_runtime_errors_with_seeds_position_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING, encoding="utf-8")
    result = runner.invoke(app, ["validate", "--play", "3", "--seed", "5", str(path)])
    assert result.exit_code == 1
    line, col = position(FAILING, "price: \"n", "\"n")
    assert "3 of 3 random games (seeds 5 to 7) stopped with an error:" in result.stdout
    assert f"seeds 5, 6, 7: {path}:{line}:{col}: phases.market.price: division by zero" in result.stdout
    replay = re.search(r"replay: (amunre run .*)", result.stdout).group(1)
    assert replay == f"amunre run {path} --seed 5 --agents random,random,random,random,random"   # 3 + 5 % 3
    again = runner.invoke(app, replay.split()[1:])
    assert again.exit_code == 1 and f"{path}:{line}:{col}: phases.market.price: division by zero" in again.output
    assert runner.invoke(app, ["validate", "--play", "3", "--seed", "5", str(path)]).stdout == result.stdout


def test_play_passes_when_every_game_ends() -> None:
    result = runner.invoke(app, ["validate", "--play", "2", "knizia2016"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [ok_line("knizia2016"), "  played 2 random games (seeds 0 to 1): no errors"]


@pytest.mark.parametrize("kind, command", [("lint", ["validate"]), ("lint-play", ["validate", "--play", "3"])])
def test_the_examples_of_the_lint_page_are_real(kind: str, command: list[str], tmp_path: Path, monkeypatch) -> None:
    from test_docs import blocks
    monkeypatch.chdir(tmp_path)
    found = {b.kind: b for b in blocks("lint.md")}
    name = found[f"{kind}-file"].arg("file")
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(found[f"{kind}-file"].body, encoding="utf-8")
    result = runner.invoke(app, [*command, name])
    assert result.stdout.rstrip() == found[f"{kind}-output"].body.rstrip()


@pytest.mark.parametrize(("count", "short"), [("players", True), ("players when round <= 3", False)])
def test_the_deck_check_reads_the_round_it_walks(tmp_path: Path, count: str, short: bool) -> None:
    """A count written by `round` is worked out for the round being walked: four rounds of
    `players` lots run the province deck out, four whose last draws none do not."""
    (tmp_path / "knizia2016.yaml").write_text((REPO / "rules" / "knizia2016.yaml").read_text(encoding="utf-8"),
                                              encoding="utf-8")
    path = tmp_path / "four_rounds.yaml"
    path.write_text("extends: knizia2016.yaml\nstructure: {rounds: 4}\n"
                    f"phases:\n  auction: {{lots: {{deck: provinces, count: \"{count}\"}}}}\n", encoding="utf-8")
    assert any(f.kind == "deck-runs-out" for f in findings(path)) is short
