"""Logs are evidence (issue 21, item 4): `replay` and `explain` believe a log only as far as
its game replays to the very same lines, and name the first line that does not. Each test here
failed before: an edited log replayed with exit 0, and `explain` summed (or crashed on) what
it was told."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app

REPO = Path(__file__).resolve().parents[1]
RULES = str(REPO / "rules" / "knizia2016.yaml")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The lines of a logged three-player game."""
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    result = invoke("run", RULES, "--agents", "random,greedy,random", "--seed", "11", "--json", "--log", str(log))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def written(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def nth(records: list[dict[str, Any]], test: Any, skip: int = 30) -> int:
    """The index of the first record past `skip` that passes `test` (line number: index + 1)."""
    return next(i for i, r in enumerate(records) if i > skip and test(r))


def refused(path: Path, *fragments: str) -> None:
    """Both commands exit 1 in one clean line naming what the log got wrong."""
    for command in ("replay", "explain"):
        result = invoke(command, str(path))
        assert result.exit_code == 1, (command, result.output)
        assert isinstance(result.exception, SystemExit), result.exception
        assert "the log does not replay" in result.output, result.output
        for fragment in fragments:
            assert fragment in result.output, (command, result.output)


def test_an_untouched_log_replays_and_is_explained(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    path = written(tmp_path, records)
    assert invoke("replay", str(path), "-q").exit_code == 0
    result = invoke("explain", str(path), "--json")
    assert result.exit_code == 0, result.output
    final = records[-1]
    assert [s["resources"]["vp"]["total"] for s in json.loads(result.stdout)] == final["scores"]


def test_an_edited_amount_is_named_by_its_line(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    index = nth(records, lambda r: r.get("event") == "gain")
    true = records[index]["amount"]
    records = [*records[:index], {**records[index], "amount": true + 5}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: ", f"'amount' {true + 5}, the replayed game's {true}")


@pytest.mark.parametrize("seat", [99, -1])
def test_an_action_of_a_seat_not_to_move_is_named(tmp_path: Path, records: list[dict[str, Any]], seat: int) -> None:
    index = nth(records, lambda r: "action" in r)
    moving = records[index]["seat"]
    records = [*records[:index], {**records[index], "seat": seat}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: the log says seat {seat} acts, but seat {moving}")


def test_an_action_line_with_more_than_its_seat_and_action_is_named(tmp_path: Path,
                                                                    records: list[dict[str, Any]]) -> None:
    """issue 34, item 7: an action's line carrying an event's key replayed with exit 0."""
    index = nth(records, lambda r: "action" in r)
    records = [*records[:index], {**records[index], "event": "gain"}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: an action's line holds its seat and its action only")


def test_a_changed_event_type_is_named(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    index = nth(records, lambda r: r.get("event") == "gain")
    records = [*records[:index], {**records[index], "event": "tokens"}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: the log has event \"tokens\"")


@pytest.mark.parametrize("edit", [{"amount": "12"}, {"amount": None}, {"amount": [1]}, {"cause": None},
                                  {"cause": {"kind": "card"}}, {"resource": {"a": 1}}])
def test_a_malformed_event_is_named_never_a_crash(tmp_path: Path, records: list[dict[str, Any]],
                                                  edit: dict[str, Any]) -> None:
    index = nth(records, lambda r: r.get("event") == "gain")
    records = [*records[:index], {**records[index], **edit}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: ")


def test_a_dropped_cause_is_named(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    index = nth(records, lambda r: r.get("event") == "gain")
    records = [*records[:index], {k: v for k, v in records[index].items() if k != "cause"}, *records[index + 1:]]
    refused(written(tmp_path, records), f"line {index + 1}: the log's \"gain\" event lacks 'cause'")


def test_a_line_after_the_end_and_an_illegal_action_are_named(tmp_path: Path, records: list[dict[str, Any]]) -> None:
    refused(written(tmp_path, [*records, records[-1]]),
            f"line {len(records) + 1}: the log goes on after the game's end")
    index = nth(records, lambda r: "action" in r)
    bad = {**records[index], "action": {"type": "no_such_action"}}
    refused(written(tmp_path, [*records[:index], bad, *records[index + 1:]]), f"line {index + 1}: ")


def test_where_a_rule_is_written_may_differ_with_the_working_directory(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A cause's `at` names the rules file relative to where the game was run: a log written
    in the repository replays and is explained from anywhere."""
    log = tmp_path / "game.jsonl"
    monkeypatch.chdir(REPO)
    assert invoke("run", "rules/knizia2016.yaml", "--agents", "random,random,random", "--seed", "4", "--json",
                  "--log", str(log)).exit_code == 0
    assert '"at": "rules/knizia2016.yaml:' in log.read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert os.getcwd() != str(REPO)
    assert invoke("replay", str(log), "-q").exit_code == 0
    result = invoke("explain", str(log))
    assert result.exit_code == 0 and "knizia2016.yaml" in result.stdout, result.output


@pytest.mark.parametrize("rules_id", [5, ["knizia2016"], None])
def test_a_header_whose_rules_id_is_not_a_name_is_refused_never_a_crash(tmp_path: Path,
                                                                       records: list[dict[str, Any]],
                                                                       rules_id: Any) -> None:
    """The fuzzer's case: a header naming a missing file and a rules id of another type is
    refused in one line (the file is not there), not a TypeError."""
    header = {**records[0], "rules": "+" + records[0]["rules"], "rules_id": rules_id}
    path = written(tmp_path, [header, *records[1:]])
    for command in ("replay", "explain"):
        result = invoke(command, str(path))
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (command, result.output)
        assert "is not there" in result.output, result.output
