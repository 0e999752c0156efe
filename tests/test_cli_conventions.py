"""The command line as a user expects it (issue 7.6, 7.7): `explain` says where every point
and coin came from, `--json` says what game it was, `--version`, `-h`, shell completion that
installs and completes, help without placeholders, and `replay --rules` for a log whose rules
file has moved. Seats are numbered from 0 in every output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.tools.ledger import ledger

RULES = str(Path(__file__).resolve().parents[1] / "rules" / "knizia2016.yaml")
runner = CliRunner()


def invoke(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env)


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A logged four-player game and the result `run --json` printed for it."""
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    result = invoke("run", RULES, "--agents", "greedy,random,greedy,random", "--seed", "7", "--json", "--log", str(log))
    assert result.exit_code == 0, result.output
    return log, json.loads(result.stdout)


def events_of(log: Path) -> list[dict]:
    return [r for r in map(json.loads, log.read_text().splitlines()[1:]) if "event" in r]


# ---- --json and the log's header ----------------------------------------------------------------

def test_json_result_says_which_game_it_was(logged: tuple[Path, dict]) -> None:
    log, printed = logged
    rules = amunre.load_rules(RULES)
    assert printed["seed"] == 7 and printed["rules_id"] == "knizia2016" and printed["digest"] == rules.digest
    assert printed["agents"] == ["greedy", "random", "greedy", "random"] and printed["players"] == 4
    assert printed["options"] == {} and printed["over"] is True and len(printed["scores"]) == 4
    header = json.loads(log.read_text().splitlines()[0])
    assert Path(header["rules"]).is_absolute() and Path(header["rules"]) == Path(RULES).resolve()
    assert header["score"] == "vp"
    replayed = invoke("replay", str(log), "--json")
    assert replayed.exit_code == 0 and json.loads(replayed.stdout) == printed


# ---- explain -------------------------------------------------------------------------------------

def test_explain_lists_each_seats_sources_rule_by_rule(logged: tuple[Path, dict]) -> None:
    log, printed = logged
    result = invoke("explain", str(log), "--seat", "2")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Seat 2 (greedy)" in text and "Seat 1" not in text and "seats numbered from 0" in text
    book = ledger(events_of(log))
    rows = {}
    for line in text.splitlines():
        found = re.match(r"\s+([+-]\d+)\s+x(\d+)\s+(\S+)\s+(.+?)\s+(\S+\.yaml:\d+:\d+)\s*$", line)
        if found:
            rows[(found[3], found[4])] = (int(found[1]), int(found[2]))
    for resource in ("vp", "gold"):
        lines = book.sources(2, resource)
        assert lines and all(rows[(x.kind, x.id)] == (x.amount, x.times) for x in lines)
        assert sum(x.amount for x in lines) == book.amount(2, resource)
    assert re.search(rf"^vp\s+{printed['scores'][2]}\s*$", text, re.M)          # the score first
    assert re.search(rf"^gold\s+{printed['gold'][2]}\s*$", text, re.M)
    assert text.index("vp") < text.index("gold")
    assert re.search(r"\+20\s+x1\s+start\s+gold\s+knizia2016\.yaml:\d+:\d+", text)
    assert re.search(r"-\d+\s+x\d+\s+price\s+auction\s+knizia2016\.yaml", text)


def test_explain_as_json_sums_to_the_final_resources(logged: tuple[Path, dict]) -> None:
    log, printed = logged
    result = invoke("explain", str(log), "--json")
    assert result.exit_code == 0, result.output
    seats = json.loads(result.stdout)
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    for seat in seats:
        vp, gold = seat["resources"]["vp"], seat["resources"]["gold"]
        assert list(seat["resources"])[0] == "vp"
        assert vp["total"] == printed["scores"][seat["seat"]] == sum(s["amount"] for s in vp["sources"])
        assert gold["total"] == printed["gold"][seat["seat"]] == sum(s["amount"] for s in gold["sources"])
        assert all(s["at"].endswith(tuple("0123456789")) and s["times"] >= 1 for s in gold["sources"])


def test_explain_refuses_a_seat_the_game_lacks_and_a_log_without_changes(logged: tuple[Path, dict],
                                                                         tmp_path: Path) -> None:
    log, _ = logged
    result = invoke("explain", str(log), "--seat", "4")
    assert result.exit_code == 2 and "seats 0 to 3" in result.output
    old = tmp_path / "old.jsonl"
    lines = log.read_text().splitlines()
    old.write_text("\n".join(line for line in lines if '"cause"' not in line) + "\n")
    result = invoke("explain", str(old))
    assert result.exit_code == 1 and "tells no changes" in result.output
    result = invoke("explain", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 1 and "cannot read log file" in result.output


# ---- replay --rules ------------------------------------------------------------------------------

def test_replay_finds_moved_rules_with_rules_option_and_checks_the_digest(tmp_path: Path) -> None:
    rules_dir = tmp_path / "mine"
    rules_dir.mkdir()
    copy = rules_dir / "edition.yaml"                 # not the shipped file (which a log may fall back on)
    copy.write_text(Path(RULES).read_text().replace("start: 20", "start: 22", 1))
    log = tmp_path / "game.jsonl"
    played = invoke("run", str(copy), "--agents", "random,random,random", "--seed", "3", "--json", "--log", str(log))
    assert played.exit_code == 0, played.output
    moved = tmp_path / "elsewhere.yaml"
    copy.rename(moved)
    lost = invoke("replay", str(log), "--json")
    assert lost.exit_code == 1 and "is not there; give it with --rules FILE" in lost.output
    found = invoke("replay", str(log), "--rules", str(moved), "--json")
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout) == json.loads(played.stdout)
    changed = tmp_path / "changed.yaml"
    changed.write_text(moved.read_text().replace("start: 22", "start: 21", 1))
    refused = invoke("replay", str(log), "--rules", str(changed))
    assert refused.exit_code == 1 and "is not the rules this game was played with" in refused.output


def test_replay_of_a_shipped_edition_whose_path_moved_uses_the_shipped_file(logged: tuple[Path, dict],
                                                                           tmp_path: Path) -> None:
    log, printed = logged
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["rules"] = str(tmp_path / "gone" / "knizia2016.yaml")     # another machine's path
    moved = tmp_path / "moved.jsonl"
    moved.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    result = invoke("replay", str(moved), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == printed


# ---- --version, -h, help text --------------------------------------------------------------------

def test_version_and_short_help() -> None:
    result = invoke("--version")
    assert result.exit_code == 0 and re.fullmatch(r"amunre \d+\.\d+\.\d+\S*\n", result.stdout)
    assert invoke("-h").stdout == invoke("--help").stdout
    assert "Usage: amunre run" in invoke("run", "-h").stdout


def commands() -> list[str]:
    return sorted(typer.main.get_command(app).commands)


@pytest.mark.parametrize("command", ["", *commands()])
def test_help_has_no_placeholders(command: str) -> None:
    result = invoke(*([command] if command else []), "-h")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert not re.search(r"\{[A-Z]+\}|<[a-z\[\]]+>", text), text          # {RULES}, <str>, <list[str]>
    assert "-h, --help" in text


def test_every_command_is_listed_and_explain_is_one() -> None:
    assert "explain" in commands() and "replay" in commands()
    text = invoke("-h").stdout
    assert all(name in text for name in commands())


# ---- shell completion ----------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("bash") is None or os.name != "posix", reason="bash completion needs bash")
def test_completion_installs_in_home_and_completes(tmp_path: Path) -> None:
    # The shell is named, not detected from the parent process (under `sh -c`, as the team's
    # landing command runs the tests, typer would find sh and refuse it).
    env = {**os.environ, "HOME": str(tmp_path), "SHELL": "/bin/bash",
           "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    script = Path(sys.executable).with_name("amunre")          # the console script pip installed
    if not script.exists():
        pytest.skip("no amunre console script beside this Python")
    command = [str(script)]
    installed = subprocess.run([*command, "--install-completion", "bash"], env=env, capture_output=True,
                               text=True, timeout=60)
    if installed.returncode != 0:                   # a typer whose flag takes no shell: it reads $SHELL
        installed = subprocess.run([*command, "--install-completion"], env=env, capture_output=True,
                                   text=True, timeout=60)
    assert installed.returncode == 0, installed.stderr
    assert "completion installed" in installed.stdout
    sourced = re.search(r"source '?([^'\n]+)'?", (tmp_path / ".bashrc").read_text())
    assert sourced and Path(sourced[1]).is_file()
    env["PATH"] = f"{Path(command[0]).parent}{os.pathsep}{env.get('PATH', '')}"
    # what bash does on TAB: the installed script's function, asked for `amunre ex` and `amunre run --ag`
    asked = (f"source '{sourced[1]}'; COMP_WORDS=(amunre ex); COMP_CWORD=1; _amunre_completion amunre; "
             'echo "${COMPREPLY[@]}"; COMP_WORDS=(amunre run --ag); COMP_CWORD=2; _amunre_completion amunre; '
             'echo "${COMPREPLY[@]}"')
    completed = subprocess.run(["bash", "-c", asked], env=env, capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines() == ["explain", "--agents"]
