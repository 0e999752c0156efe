"""Rule options that change the material rather than a score: whether the component counts
are hard limits (option component_limits of the 2016 file, and of the 2003 file)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.play import material
from conftest import REPO


@pytest.fixture(scope="module", params=["knizia2016", "knizia2003"])
def rules(request: pytest.FixtureRequest) -> Any:
    return amunre.load_rules(REPO / "rules" / f"{request.param}.yaml")


def stones_placed(rules: Any, limits: str, tries: int) -> tuple[amunre.Game, int]:
    game = amunre.new_game(rules, players=3, seed=1, setup={"options": {"component_limits": limits}})
    thebes = rules.place_index["thebes"]
    placed = sum(material.place_tokens(game, thebes, "stone", 1, Cause("card", "test")) for _ in range(tries))
    return game, placed


def test_by_default_a_supply_runs_out(rules: Any) -> None:
    game, placed = stones_placed(rules, "hard", 300)     # stones come back as pyramids are built...
    assert placed < 300                                   # ... until the pyramids run out
    assert game.state.supply["double_pyramid"] == 0 and game.state.supply["pyramid"] == 0


def test_with_unlimited_components_a_supply_never_runs_out(rules: Any) -> None:
    game, placed = stones_placed(rules, "unlimited", 300)
    assert placed == 300
    assert game.state.supply == dict(rules.supply)         # what is taken is replaced
    tokens = game.state.tokens[rules.place_index["thebes"]]
    assert 3 * tokens.get("pyramid", 0) + 6 * tokens.get("double_pyramid", 0) + tokens.get("stone", 0) == 300


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_with_unlimited_components_plays_to_the_end(rules: Any, seed: int) -> None:
    game = amunre.new_game(rules, players=5, seed=seed, setup={"options": {"component_limits": "unlimited"}})
    rng = random.Random(seed)
    while not game.over:
        game.apply_id(rng.choice(game.legal_action_ids()))
    assert game.state.supply == dict(rules.supply)
    assert all(count >= 0 for tokens in game.state.tokens for count in tokens.values())
