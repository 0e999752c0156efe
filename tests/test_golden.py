"""Golden games: 20 seeded random 2016 games recorded before the engine-core refactor.

`golden/knizia2016-random.json` holds, per game, the player count, the seed, every action the
seeded random agents chose and the result. Replaying the same seeds with the same agents must
choose the very same actions (so legal actions keep their order) and end with the same result
(so the rules still play the same). The file was written by the engine as it stood at commit
36e8374; it is never regenerated to make this test pass. The games are played under
`golden/knizia2016-before-audit.yaml`: the 2016 rules as they were then, before issue 6's
rules audit corrected them (that file says what changed).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import amunre
from conftest import TESTS, play_random

GOLDEN = json.loads((TESTS / "golden" / "knizia2016-random.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rules() -> Any:
    """The rules the golden games were recorded under."""
    return amunre.load_rules(TESTS / "golden" / "knizia2016-before-audit.yaml")


def test_the_golden_file_holds_twenty_real_games() -> None:
    assert len(GOLDEN) == 20
    assert {g["players"] for g in GOLDEN} == {3, 4, 5}
    assert all(len(g["actions"]) > 100 and g["result"]["over"] for g in GOLDEN)


@pytest.mark.parametrize("recorded", GOLDEN, ids=[f"{g['players']}p-seed{g['seed']}" for g in GOLDEN])
def test_seeded_random_game_plays_as_recorded(rules: Any, recorded: dict[str, Any]) -> None:
    game = play_random(rules, recorded["players"], recorded["seed"])
    actions = game_actions(game)
    first_difference = next((i for i, (a, b) in enumerate(zip(actions, recorded["actions"])) if a != b), None)
    assert first_difference is None, (
        f"action {first_difference} differs: {actions[first_difference]} != {recorded['actions'][first_difference]}")
    assert len(actions) == len(recorded["actions"])
    assert game.result() == recorded["result"]


@pytest.mark.parametrize("recorded", GOLDEN[:5], ids=[f"{g['players']}p-seed{g['seed']}" for g in GOLDEN[:5]])
def test_recorded_actions_replay_to_the_recorded_result(rules: Any, recorded: dict[str, Any]) -> None:
    game = amunre.new_game(rules, players=recorded["players"], seed=recorded["seed"])
    for action in recorded["actions"]:
        game.apply(action)
    assert game.over and game.result() == recorded["result"]


def game_actions(game: amunre.Game) -> list[dict[str, Any]]:
    return game.actions()
