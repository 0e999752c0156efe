"""Fuzzing in the suite: about 1,500 hostile inputs per run (and thousands of garbage actions
within the random games), each of which must end in a clean amunre error or a game that ends
(tests/fuzz/strategies.py says what each check accepts). hypothesis draws other inputs at each
run (no database, not derandomized), so runs add up: the numbers are halved since 29 November
2026 to keep CI within its 20 minutes.

`AMUNRE_FUZZ_SCALE=N` multiplies every number of examples (2: the former budget);
tests/fuzz/run.py is the long run."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amunre
from conftest import play_random
from fuzz import strategies as fz

SCALE = int(os.environ.get("AMUNRE_FUZZ_SCALE", "1"))
FAST = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(autouse=True, scope="module")
def _no_rules_cache() -> Iterator[None]:
    """Each fuzzed rules file is loaded once: caching it would only cost time and disk."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AMUNRE_NO_CACHE", "1")
        yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where fuzzed files are written (pytest keeps only its last few runs' folders)."""
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=25 * SCALE, **FAST)          # a rules file built and played: 0.4 s each
@given(fz.mutated(fz.BASE_DATA))
def test_mutated_rules_files(folder: Path, data: Any) -> None:
    text = json.dumps(data, ensure_ascii=False, default=str)      # JSON is YAML
    assert fz.outcome_of_rules_text(text, folder) in ("refused", "played", "game error", "long game")


@settings(max_examples=25 * SCALE, **FAST)
@given(fz.broken_lines(fz.RULES_TEXT))
def test_rules_text_with_broken_lines(folder: Path, text: str) -> None:
    assert fz.outcome_of_rules_text(text, folder) in ("refused", "played", "game error", "long game")


@settings(max_examples=1000 * SCALE, **FAST)
@given(st.sampled_from(["expression", "collection", "effect"]), st.one_of(fz.dsl_soup, st.text(max_size=40)))
def test_dsl_strings(rules: Any, kind: str, text: str) -> None:
    game = amunre.new_game(rules, players=4, seed=len(text))
    assert fz.outcome_of_dsl(rules, game, kind, text) in ("refused", "ran", "game error")


@settings(max_examples=300 * SCALE, **FAST)
@given(st.integers(0, 400), st.data())
def test_corrupted_saves(rules: Any, cut: int, data: st.DataObject) -> None:
    game = play_random(rules, 3 + cut % 3, cut, stop=lambda g: len(g.history) >= cut)
    save = data.draw(fz.mutated(game.to_json()))
    assert fz.outcome_of_save(rules, save) in ("refused", "restored")


@settings(max_examples=40 * SCALE, **FAST)
@given(st.data())
def test_corrupted_logs(rules: Any, folder: Path, data: st.DataObject) -> None:
    log = folder / "source.jsonl"
    if not log.exists():
        from typer.testing import CliRunner

        from amunre.cli.app import app
        CliRunner().invoke(app, ["run", str(fz.RULES_PATH), "--seed", "4", "--agents", "random,random,random",
                                 "--quiet", "--log", str(log)])
    lines = log.read_text(encoding="utf-8").splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[at]) if lines[at].startswith("{") else lines[at]
        lines[at] = json.dumps(data.draw(fz.mutated(record)), default=str) if isinstance(record, dict) else "x"
    with pytest.MonkeyPatch.context() as patch:       # the log's rules file is the shipped one: its cached
        patch.delenv("AMUNRE_NO_CACHE")               # build is read, as on a user's machine (4x faster)
        assert fz.outcome_of_log(lines, folder) in ("refused", "replayed")


@settings(max_examples=15 * SCALE, **FAST)
@given(st.integers(0, 10 ** 6), st.data())
def test_random_play_with_illegal_tries(rules: Any, seed: int, data: st.DataObject) -> None:
    """Agents that also try garbage at random: each refusal changes nothing, and the game still
    ends as it would have."""
    rng = random.Random(seed)
    game = amunre.new_game(rules, players=3 + seed % 3, seed=seed)
    twin = amunre.new_game(rules, players=3 + seed % 3, seed=seed)
    while not game.over:
        if rng.random() < 0.2:
            garbage = data.draw(st.one_of(fz.json_values, st.integers(-5, game.num_distinct_actions() + 5)))
            if fz.outcome_of_garbage_action(game, garbage) == "legal by chance":
                twin.apply(game.actions()[-1])
            continue
        action = rng.choice(game.legal_action_ids())
        game.apply_id(action)
        twin.apply_id(action)
    assert twin.over and twin.to_json() == game.to_json()


ODD_VALUES = st.one_of(fz.json_values, st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
                       st.integers(-(10 ** 30), 10 ** 30), st.integers(-3, 900), st.text(max_size=8),
                       st.binary(max_size=4))


@settings(max_examples=30 * SCALE, **FAST)
@given(st.integers(0, 10 ** 6), st.lists(ODD_VALUES, min_size=1, max_size=6))
def test_adapter_calls_with_odd_values(rules: Any, seed: int, values: list[Any]) -> None:
    """The PettingZoo env and the game's API given anything in place of an action id, a seat or
    an agent's name: a legal id is played; anything else is refused as an AmunreError and
    changes nothing (the env's game still equals a twin that saw only the legal ids)."""
    from amunre.adapters.pettingzoo import raw_env
    zoo = raw_env(rules, players=3, seed=seed)
    zoo.reset(seed=seed)
    twin = amunre.new_game(rules, players=3, seed=seed)
    calls = {"step": zoo.step, "observe": zoo.observe, "observation": zoo.game.observation,
             "action_from_id": zoo.game.action_from_id}
    for value in values:
        for name, call in calls.items():
            before = zoo.game.to_json()
            try:
                call(value)
            except amunre.AmunreError:
                assert zoo.game.to_json() == before, name         # a refusal changes nothing
                continue
            if name == "step":
                twin.apply_id(value)
    assert zoo.game.to_json()["state"] == twin.to_json()["state"]
