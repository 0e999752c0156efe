"""A corpus of hostile inputs (tests/hostile/): rules files, game logs and saves that once made
amunre crash, hang or eat memory. Each must end in a clean, located amunre error or in a
game that plays to its end, through the API and through the command line alike.

- `tests/hostile/*.yaml`: the first line says `# expect: MESSAGE` (a RulesError holding it),
  `# expect: game-error: MESSAGE` (the rules load; playing ends in that GameError), or
  `# expect: plays` (the rules load and a random game ends normally);
- `tests/hostile/logs/*.jsonl` and `logs/expected.json`: what `amunre replay` must say;
- `tests/hostile/saves/*.json` and `saves/expected.json`: what `Game.from_json` must say
  (`"CURRENT"` stands for the digest of the rules as they are now). The saves hold action ids
  and positions of the rules as they are: `saves/make.py` writes them again when the rules
  change.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.base.limits import MAX_CARD_COPIES, MAX_PLAYERS, MAX_SAVE_ACTIONS, MAX_SUPPLY
from conftest import MAX_ACTIONS, REPO, play_random

HOSTILE = Path(__file__).resolve().parent / "hostile"
RULES_FILES = sorted(HOSTILE.glob("*.yaml"))
LOGS = json.loads((HOSTILE / "logs" / "expected.json").read_text(encoding="utf-8"))
SAVES = json.loads((HOSTILE / "saves" / "expected.json").read_text(encoding="utf-8"))


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert first.startswith("# expect: "), f"{path.name} does not say what it expects"
    return first.removeprefix("# expect: ")


def play_to_the_end(rules: Any, seed: int = 3) -> amunre.Game:
    game = amunre.new_game(rules, players=rules.min_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.over:
            return game
        game.apply_id(rng.choice(game.legal_action_ids()))
    raise AssertionError("the game did not end")


def test_the_corpus_covers_every_attack() -> None:
    assert len(RULES_FILES) >= 30 and len(LOGS) >= 10 and len(SAVES) >= 12
    outcomes = {expectation(p).split(":")[0] for p in RULES_FILES}
    assert {"plays", "game-error"} <= outcomes


@pytest.mark.parametrize("path", RULES_FILES, ids=[p.stem for p in RULES_FILES])
def test_hostile_rules_file(path: Path) -> None:
    expect = expectation(path)
    if expect == "plays":
        assert play_to_the_end(amunre.load_rules(path)).over
    elif expect.startswith("game-error: "):
        rules = amunre.load_rules(path)
        with pytest.raises(GameError, match=expect.removeprefix("game-error: ")):
            play_to_the_end(rules)
    else:
        with pytest.raises(amunre.RulesError) as info:
            amunre.load_rules(path)
        problems = info.value.problems
        assert any(expect in p.format() for p in problems), info.value.format()
        assert all(p.span is not None for p in problems), "every problem points into the file"


@pytest.mark.parametrize("path", RULES_FILES, ids=[p.stem for p in RULES_FILES])
def test_hostile_rules_file_on_the_command_line(path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    loads = expectation(path) == "plays" or expectation(path).startswith("game-error")
    assert result.exit_code == (0 if loads else 1), result.output


# Rules that check cleanly but whose rules would take too long to read: refused where the cost
# estimate (interpreter/dsl/cost.py) passes the limit, at that line and column.
COSTLY = {"derived-doubling-60": (23, 9), "derived-sum-nested-10": (5, 87)}


@pytest.mark.parametrize("name", sorted(COSTLY))
def test_a_rule_too_costly_to_play_is_refused_where_it_is_written(name: str) -> None:
    """Such a file once validated and then never finished a game (or ate all memory while it
    loaded): now it is refused while it loads, so `validate` and `validate --play` agree on
    it, and no game starts."""
    path = HOSTILE / f"{name}.yaml"
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    [problem] = info.value.problems                     # said once, not again by whatever reads it
    assert problem.span is not None and (problem.span.line, problem.span.col) == COSTLY[name]
    line, col = COSTLY[name]
    for args in (["validate", str(path)], ["validate", "--play", "3", str(path)]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert f"{path.name}:{line}:{col}: too costly" in result.output and "playing" not in result.output


def test_a_file_past_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("id: huge\n" + "# padding\n" * 120_000, encoding="utf-8")
    with pytest.raises(amunre.RulesError, match="larger than 1,000,000 bytes"):
        amunre.load_rules(path)


# ---- logs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["replay", "explain"])
@pytest.mark.parametrize("name", sorted(LOGS))
def test_hostile_log(tmp_path: Path, rules: Any, name: str, command: str) -> None:
    """`replay` refuses each hostile log with the message it must give; `explain` believes no
    more than `replay` does (or finds nothing to tell), and never fails on what a log holds."""
    text = (HOSTILE / "logs" / f"{name}.jsonl").read_text(encoding="utf-8").replace("CURRENT", rules.digest)
    path = tmp_path / f"{name}.jsonl"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, [command, str(path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output, result.exception
    told = LOGS[name] in result.output or (command == "explain" and "tells no changes" in result.output)
    assert told, result.output


# ---- saves --------------------------------------------------------------------------------------

def load_save(rules: Any, name: str) -> Any:
    text = (HOSTILE / "saves" / f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text.replace("CURRENT", rules.digest))


@pytest.mark.parametrize("name", sorted(SAVES))
def test_hostile_save(rules: Any, name: str) -> None:
    data = load_save(rules, name)
    if SAVES[name] == "plays":
        game = amunre.Game.from_json(data, rules)
        assert game.to_json()["state"] == data["state"] and not game.over
        return
    with pytest.raises(amunre.AmunreError) as info:
        amunre.Game.from_json(data, rules)
    assert SAVES[name] in str(info.value)


def test_a_save_restores_by_reloading_its_rules(rules: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(REPO / "rules", tmp_path / "rules")
    monkeypatch.chdir(tmp_path)
    played = play_random(amunre.load_rules("rules/knizia2016.yaml"), 3, 5, stop=lambda g: len(g.history) >= 40)
    data = json.loads(json.dumps(played.to_json()))
    game = amunre.Game.from_json(data)
    assert game.rules.digest == rules.digest and game.history == played.history
    assert game.to_json() == data


def test_a_save_with_more_actions_than_any_game_is_refused_before_replaying(rules: Any) -> None:
    data = load_save(rules, "good")
    data["actions"] = [0] * (MAX_SAVE_ACTIONS + 1)
    with pytest.raises(amunre.AmunreError, match="more than 1,000,000 actions"):
        amunre.Game.from_json(data, rules)


def test_the_schemas_state_the_limits_the_engine_holds() -> None:
    saves = json.loads((REPO / "grammar" / "save.schema.json").read_text(encoding="utf-8"))
    assert saves["properties"]["actions"]["maxItems"] == MAX_SAVE_ACTIONS
    assert saves["properties"]["state"]["properties"]["players"]["maximum"] == MAX_PLAYERS
    rules = json.loads((REPO / "grammar" / "rules.schema.json").read_text(encoding="utf-8"))["properties"]
    assert rules["players"]["properties"]["max"]["maximum"] == MAX_PLAYERS
    assert rules["tokens"]["additionalProperties"]["properties"]["supply"]["maximum"] == MAX_SUPPLY
    assert rules["cards"]["additionalProperties"]["properties"]["count"]["maximum"] == MAX_CARD_COPIES


def test_a_long_flat_list_is_told_as_too_many_values_and_its_line_cut(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A 60 kB line of one value more than the limit: refused as too many values (no alias in
    sight), the line shown as the SHOWN characters around the column, the caret under the value.
    The limit is cut to a tenth here: YAML's parser reads some 11,000 values a second, so the
    real one (200,000) took 24 s of the suite, on the same path."""
    from amunre.interpreter.base.errors import SHOWN
    from amunre.interpreter.base.limits import MAX_YAML_VALUES
    from amunre.interpreter.load import yaml_guard
    limit = MAX_YAML_VALUES // 10
    monkeypatch.setattr(yaml_guard, "MAX_YAML_VALUES", limit)
    path = tmp_path / "flat.yaml"
    path.write_text("id: flat\nitems: [" + ", ".join(["1"] * (limit + 1)) + "]\n", encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    message = info.value.format()
    head, source, caret = message.splitlines()[:3]
    assert f"more than {limit:,} values: more than any rules file needs" in head
    assert len(source) <= 4 + SHOWN + 6 and source.lstrip().startswith("...")
    col = int(head.split(":")[2])
    assert source[len(caret) - 1] == "1" and col > 3 * (limit - 10)     # "1, " a value: at the last


def test_a_caret_on_a_short_line_is_as_before() -> None:
    from amunre.interpreter.base.errors import Span
    assert Span("f.yaml", 1, 5, "abc: 1").caret() == "    abc: 1\n        ^"
