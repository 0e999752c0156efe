"""Rule options from the command line: `amunre options RULES` lists them, `run -o NAME=VALUE`
sets them (a wrong one is a usage error with a suggestion), and a log replays with them."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from amunre.cli.app import app

runner = CliRunner()
GAME = ["run", "knizia2016", "--seed", "5", "--agents", "random,random,random"]


def test_options_lists_each_option_with_its_default(tmp_path: Path) -> None:
    result = runner.invoke(app, ["options", "knizia2016", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert rows["nile_side_bonus"]["default"] == "province" and "player" in rows["nile_side_bonus"]["values"]
    assert {"temple_scoring", "component_limits", "offering_adjustment"} <= set(rows)
    rows = {row["name"]: row for row in json.loads(runner.invoke(app, ["options", "knizia2003", "--json"]).output)}
    assert rows["gold_change"]["values"] == ["any_time", "payments_only"]
    assert rows["gold_change"]["default"] == "any_time"
    bare = tmp_path / "tiny.yaml"                    # a file without options
    bare.write_text("id: tiny\ntitle: Tiny\nplayers: {min: 2, max: 2}\nresources: {vp: {}}\n"
                    "places: {items: [{id: here}]}\nstructure: {round: [scoring]}\n"
                    "phases: {scoring: {mechanic: score, rules: [{id: none, points: '0'}]}}\n"
                    "winner: {score: vp}\n", encoding="utf-8")
    assert "has no options" in runner.invoke(app, ["options", str(bare)]).output


def test_gold_held_as_cards_from_the_command_line(tmp_path: Path) -> None:
    game = ["run", "knizia2003", "--seed", "2", "--agents", "random,random,random", "-o", "gold_change=payments_only"]
    logged = tmp_path / "game.jsonl"
    result = runner.invoke(app, game + ["--json", "--log", str(logged)])
    assert result.exit_code == 0, result.output
    replayed = runner.invoke(app, ["replay", str(logged), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.output) == json.loads(result.output)
    human = runner.invoke(app, ["run", "knizia2003", "--seed", "2", "--agents", "human,random,random",
                                "-o", "gold_change=payments_only"], input="q\n")
    assert "your gold cards: 10 5 2 2 1" in human.output, human.output


def test_an_option_changes_the_game(tmp_path: Path) -> None:
    plain = json.loads(runner.invoke(app, GAME + ["--json"]).output)
    logged = tmp_path / "game.jsonl"
    result = runner.invoke(app, GAME + ["--json", "-o", "temple_scoring=every_harvest", "--log", str(logged)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) != plain
    header = json.loads(logged.read_text(encoding="utf-8").splitlines()[0])
    assert header["options"] == {"temple_scoring": "every_harvest"}
    replayed = runner.invoke(app, ["replay", str(logged), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.output) == json.loads(result.output)


def test_a_wrong_option_is_a_usage_error_with_a_suggestion() -> None:
    for given, said in (("temple_scorin=every_harvest", "did you mean 'temple_scoring'"),
                        ("temple_scoring=every_harvst", "did you mean 'every_harvest'"),
                        ("temple_scoring", "is not name=value")):
        result = runner.invoke(app, GAME + ["-o", given])
        assert result.exit_code == 2 and said in result.output, result.output


def test_a_log_header_with_bad_options_is_refused(tmp_path: Path) -> None:
    logged = tmp_path / "game.jsonl"
    runner.invoke(app, GAME + ["--quiet", "--log", str(logged)])
    lines = logged.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["options"] = ["not", "a", "mapping"]
    logged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(logged)])
    assert result.exit_code == 1 and "line 1: the header's 'options'" in result.output
