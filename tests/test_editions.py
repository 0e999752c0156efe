"""Editions by name: `amunre editions` lists the shipped rules files, `amunre run NAME` plays
one from any directory, and `extends: NAME` in a house rule finds a shipped file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from conftest import EDITIONS

runner = CliRunner()


def test_editions_lists_every_shipped_file_with_its_year() -> None:
    result = runner.invoke(app, ["editions", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert sorted(rows) == EDITIONS
    assert rows["knizia2003"]["year"] == 2003 and rows["knizia2016"]["year"] == 2016
    assert rows["knizia2016-expert"]["publisher"] == rows["knizia2016"]["publisher"]     # inherited
    assert all("error" not in row and row["title"] and row["source"] for row in rows.values())
    table = runner.invoke(app, ["editions"])
    assert table.exit_code == 0 and "knizia2003" in table.output and "Hans im" in table.output


def test_editions_cite_each_source_as_a_reader_would_look_it_up() -> None:
    """A source names its year, its language and its publisher or author (the file's
    `publisher` without a remark in brackets), and no number of the project's working notes
    ("seed" and a number): docs/sources.md maps those to the texts."""
    rows = json.loads(runner.invoke(app, ["editions", "--json"]).output)
    for row in rows:
        source = row["source"]
        assert str(row["year"]) in source and "English" in source, row
        assert row["publisher"].split(" (")[0] in source, row
        assert not re.search(r"\bseed\b|\b00\d\b", source, re.I), row


@pytest.mark.parametrize("name", ["knizia2003", "knizia2016-expert.yaml", "house/no_theft"])
def test_a_shipped_file_runs_by_name_from_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["run", name, "--quiet", "--seed", "1", "--agents", "random,random,random"])
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output


@pytest.mark.parametrize("parent", ["knizia2016", "knizia2016.yaml"])
def test_extends_finds_a_shipped_file_by_name(tmp_path: Path, parent: str) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {parent}\nid: house\ntitle: A house rule\nresources:\n  gold: {{start: 25}}\n",
                     encoding="utf-8")
    rules = amunre.load_rules(house)
    assert rules.id == "house" and rules.resources["gold"] == 25 and rules.year == 2016
    game = amunre.new_game(rules, players=3, seed=2)
    assert game.state.resources[0]["gold"] == 25


def test_extends_with_an_unknown_name_says_which_are_shipped(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: knizia2017\ntitle: Typo\n", encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(house)
    text = info.value.format()
    assert "house.yaml:1:10" in text and "knizia2016" in text and "does not exist" in text


@pytest.mark.parametrize("name", ["house/../knizia2016", "other/no_theft", "house/", "/etc/passwd"])
def test_only_shipped_folders_are_found_by_name(name: str) -> None:
    from amunre.interpreter.load.shipped import shipped_path
    assert shipped_path(name) is None


def test_the_wheel_ships_every_rules_and_grammar_file(tmp_path: Path) -> None:
    """A plain (non-editable) install gets what the package data globs name: every rules file,
    house rules included, and every grammar file."""
    import shutil
    import subprocess
    import sys
    import zipfile
    repo = Path(__file__).resolve().parent.parent
    source = tmp_path / "source"             # a copy: a build/ folder left in the checkout would hide a gap

    shutil.copytree(repo, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache",
        ".ruff_cache", "tests"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           "-w", str(tmp_path), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    names = set(zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist())
    wanted = {f"amunre/rules/{p.relative_to(repo / 'rules').as_posix()}" for p in (repo / "rules").rglob("*.yaml")}
    wanted |= {f"amunre/grammar/{p.name}" for p in (repo / "grammar").iterdir() if p.suffix in (".json", ".lark")}
    assert wanted - names == set()
