"""Which engine a study plays on (tools/simulate/compiled_games.py `chosen_engine`): the compiled
engine for random agents where the rules compile and the study is worth a compile, else the
interpreter, said in the report and to the caller."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from amunre.interpreter.compiled import game as compiled_game
from amunre.interpreter.compiled import hubs
from amunre.interpreter.compiled.not_compiled import NotCompiled
from amunre.interpreter.load.rules_cache import load_rules
from amunre.tools.simulate import compare, simulate
from amunre.tools.simulate.compiled_games import chosen_engine

REPO = Path(__file__).resolve().parent.parent
RULES = str(REPO / "rules" / "knizia2016.yaml")
SCHEMA = __import__("json").loads((REPO / "grammar" / "report.schema.json").read_text())
RANDOM4 = ["random"] * 4


@pytest.fixture(scope="module")
def rules() -> Any:
    return load_rules(RULES)


def test_the_interpreter_asked_for_is_used_without_a_word(rules: Any) -> None:
    told: list[str] = []
    assert chosen_engine("interpreter", [rules], ["random", "ismcts"], 10 ** 6, 2, False, told.append) \
        == ("interpreter", None)
    assert chosen_engine("interpreter", [rules], RANDOM4, 10 ** 6, 2, False, told.append) == ("interpreter", None)
    assert chosen_engine("interpreter", [rules], ["greedy"] * 4, 10 ** 6, 2, False, told.append) \
        == ("interpreter", None)
    assert told == []


def test_one_step_bots_look_ahead_on_the_compiled_engine(rules: Any) -> None:
    """greedy, heuristic and ismcts (issue 33), beside random agents or not, and with causes counted:
    those need the real game's change events, and it is played in the interpreter anyway."""
    assert chosen_engine("compiled", [rules], ["random", "greedy"], 10 ** 6, 2, False, None) == ("compiled", None)
    assert chosen_engine("compiled", [rules], ["heuristic:style=build"] * 4, 10 ** 6, 2, True, None) \
        == ("compiled", None)
    assert chosen_engine("compiled", [rules], ["random", "ismcts"], 10 ** 6, 2, False, None) == ("compiled", None)


def test_a_bots_study_counts_the_same_on_both_engines() -> None:
    agents = ["greedy", "heuristic", "random", "ismcts:iterations=8"]
    hubs.prepare(sorted(set(compiled_game.parts_of(load_rules(RULES))) | {"lookahead"}))   # as a second run finds it
    fast = simulate(RULES, 3, agents=agents, seed=2, jobs=1)
    slow = simulate(RULES, 3, agents=agents, seed=2, jobs=1, engine="interpreter")
    assert fast.report["run"]["engine"] == "compiled" and slow.report["run"]["engine"] == "interpreter"
    assert {k: v for k, v in fast.report.items() if k != "run"} == {k: v for k, v in slow.report.items() if k != "run"}


def test_counting_causes_needs_the_interpreter_and_says_why(rules: Any) -> None:
    engine, note = chosen_engine("compiled", [rules], RANDOM4, 10 ** 6, 2, True, None)
    assert engine == "interpreter" and note is not None and "cause" in note


def test_rules_it_does_not_compile_play_in_the_interpreter_and_say_what(rules: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_: Any) -> list[str]:
        raise NotCompiled("a mechanic", "x.yaml:3")
    monkeypatch.setattr(compiled_game, "parts_of", refuse)
    engine, note = chosen_engine("compiled", [rules], RANDOM4, 10 ** 6, 2, False, None)
    assert (engine, note) == ("interpreter", "not compiled: a mechanic (x.yaml:3)")


def test_a_study_smaller_than_the_compile_plays_in_the_interpreter_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the machine code not compiled yet (as on a first run), a few games are not worth it."""
    monkeypatch.setattr(hubs, "missing", lambda names: list(names))
    monkeypatch.setattr(hubs, "prepare", lambda *_: pytest.fail("compiled for a study of 3 games"))
    told: list[str] = []
    study = simulate(RULES, 3, agents=RANDOM4, seed=1, jobs=1, notice=told.append)
    run = study.report["run"]
    assert run["engine"] == "interpreter" and "3 games take less in the interpreter" in run["engine_note"]
    assert told == [f"playing on the interpreter: {run['engine_note']}"]
    jsonschema.validate(study.report, SCHEMA)
    paired = compare(RULES, RULES, 3, agents=RANDOM4, seed=1, jobs=1)    # 3 pairs: each seed under A and B
    assert "6 games take less in the interpreter" in paired.report["run"]["engine_note"]


def test_a_study_on_the_compiled_engine_says_so_and_counts_the_same() -> None:
    hubs.prepare(sorted(set(compiled_game.parts_of(load_rules(RULES))) | {"playout"}))   # as a second run finds it
    told: list[str] = []
    fast = simulate(RULES, 40, agents=RANDOM4, seed=5, jobs=1, notice=told.append)
    slow = simulate(RULES, 40, agents=RANDOM4, seed=5, jobs=1, engine="interpreter")
    assert fast.report["run"]["engine"] == "compiled" and "engine_note" not in fast.report["run"]
    assert slow.report["run"]["engine"] == "interpreter" and "engine_note" not in slow.report["run"]
    assert told == []
    jsonschema.validate(fast.report, SCHEMA)
    assert {k: v for k, v in fast.report.items() if k != "run"} == {k: v for k, v in slow.report.items() if k != "run"}


def test_a_first_study_of_bots_compiles_where_the_interpreter_would_take_longer(monkeypatch: pytest.MonkeyPatch,
                                                                               rules: Any) -> None:
    """Cold machine code: 40 greedy games take over two minutes in the interpreter (3-4 s each),
    more than the compile (estimated at 74 s, then kept), so the study compiles; 2 do not. (A
    random game is timed here: 40 compile while it takes more than 2.5 ms, 5.5-7 ms measured.)"""
    monkeypatch.setattr(hubs, "missing", lambda names: list(names))
    prepared: list[list[str]] = []
    monkeypatch.setattr(hubs, "prepare", lambda names, notice=None: prepared.append(names))
    monkeypatch.setattr(compiled_game, "compiled", lambda rules: None)
    greedy = ["greedy"] * 4
    assert chosen_engine("compiled", [rules], greedy, 40, 1, False, None) == ("compiled", None)
    assert prepared and "lookahead" in prepared[0]
    engine, note = chosen_engine("compiled", [rules], greedy, 2, 1, False, None)
    assert engine == "interpreter" and note is not None and "2 games take less in the interpreter" in note
