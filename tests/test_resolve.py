"""`amunre resolve` (tools/resolve.py): the merged rules, each value with the file and line
it comes from; the output loads as it is, to the same rules."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from conftest import REPO

runner = CliRunner()
HOUSE = REPO / "rules" / "house" / "temples_every_harvest.yaml"
BASE = REPO / "rules" / "knizia2016.yaml"


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_each_value_names_the_file_and_line_it_comes_from() -> None:
    result = runner.invoke(app, ["resolve", str(HOUSE)])
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    house, base = "temples_every_harvest.yaml", "knizia2016.yaml"
    assert f"id: house-temples-every-harvest # {house}:{line_of(HOUSE, 'id: house-')}" in out
    assert f"    default: every_harvest # {house}:{line_of(HOUSE, 'temple_scoring:')}" in out
    # Dakhla is patched by id: its bonus from the house rule, every other value from the base.
    dakhla = line_of(BASE, "{id: dakhla,")
    assert f"    - id: dakhla # {base}:{dakhla}" in out
    assert f"      bonus_gold: 10 # {house}:{line_of(HOUSE, 'bonus_gold: 10')}" in out
    assert f"      gold_mine: 0 # {base}:{dakhla}" in out
    # A row written on one line of one file stays one row, with one comment.
    thebes = next(line for line in out if "{id: thebes," in line)
    assert thebes.endswith(f"}} # {base}:{line_of(BASE, '{id: thebes,')}")
    assert any(line.startswith(f"#   {house}: ") and line.endswith("house/temples_every_harvest.yaml") for line in out)
    assert "extends" not in "\n".join(line for line in out if not line.startswith("#"))


def test_the_output_loads_to_the_same_rules(tmp_path: Path) -> None:
    for source in (HOUSE, REPO / "rules" / "knizia2003-online.yaml"):
        resolved = tmp_path / f"{source.stem}.yaml"
        resolved.write_text(runner.invoke(app, ["resolve", str(source)]).stdout, encoding="utf-8")
        assert amunre.load_rules(resolved).digest == amunre.load_rules(source).digest


def test_a_file_that_does_not_load_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: knizia2016\nresources:\n  gold: {strat: 30}\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", str(broken)])
    assert result.exit_code == 1 and result.stdout == ""
    assert f"{broken}:3:10: unknown key 'strat' (did you mean 'start'?)" in result.stderr
