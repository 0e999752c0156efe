"""Every value checked at the adapters' edge (issue 21, item 5): action ids of any integral type
and of no other (no `int()` of a text or a float), PettingZoo's convention for an agent whose
game is over, a clear error for an agent that is not in the game, and OpenSpiel's SpielError
for a bad parameter. Each test here failed before."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.errors import IllegalAction

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "rules" / "knizia2016.yaml"


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(RULES)


# ---- the engine: ids of any integral type -------------------------------------------------------

class Index:
    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_an_action_id_may_be_any_integral_value(rules: Any) -> None:
    np = pytest.importorskip("numpy")
    for make in (np.int64, np.uint16, np.array, Index):
        game = amunre.new_game(rules, players=3, seed=2)
        first = game.legal_action_ids()[0]
        assert game.action_from_id(make(first)) == game.action_from_id(first)
        game.apply_id(make(first))
        assert game.history == [first] and type(game.history[0]) is int


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, [1], math.nan])
def test_an_action_id_is_never_coerced(rules: Any, value: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=2)
    before = game.to_json()
    for attempt in (game.apply_id, game.action_from_id):
        with pytest.raises(IllegalAction, match="an action id is a whole number from 0 to"):
            attempt(value)
    assert game.to_json() == before


# ---- PettingZoo ---------------------------------------------------------------------------------

@pytest.fixture
def environment() -> Any:
    pytest.importorskip("pettingzoo")
    from amunre.adapters.pettingzoo import env
    environment = env(RULES, players=3, seed=5)
    environment.reset(seed=5)
    return environment


@pytest.mark.parametrize("action", [None, [], "abc", "2", math.nan, math.inf, 1.9, 2.0, True, {"type": "bid"}],
                         ids=["None", "list", "text", "digit-text", "nan", "inf", "1.9", "2.0", "True", "dict"])
def test_a_live_agents_step_takes_an_integral_id_only(environment: Any, action: Any) -> None:
    game = environment.unwrapped.game
    before, agent = game.to_json(), environment.agent_selection
    with pytest.raises(IllegalAction) as info:
        environment.step(action)
    assert "action id" in str(info.value)
    assert game.to_json() == before and environment.agent_selection == agent


def test_a_numpy_integer_is_a_step(environment: Any) -> None:
    np = pytest.importorskip("numpy")
    game = environment.unwrapped.game
    legal = game.legal_action_ids()
    environment.step(np.int64(legal[-1]))
    assert game.history == [legal[-1]]


def test_an_agent_whose_game_is_over_steps_with_none_only(environment: Any) -> None:
    """PettingZoo's convention: after the end each agent is stepped with None, and removed."""
    import numpy as np
    pick = np.random.default_rng(0)
    while not environment.unwrapped.game.over:
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(pick.choice(np.flatnonzero(mask))))
    assert all(environment.terminations.values())
    with pytest.raises(ValueError, match="only valid action is None"):
        environment.step(0)
    while environment.agents:
        environment.step(None)
    assert environment.agents == []


@pytest.mark.parametrize("agent", ["nobody", "player_3", 0, None])
def test_observing_an_agent_not_in_the_game_says_which_are(environment: Any, agent: Any) -> None:
    with pytest.raises(amunre.AmunreError, match="the agents of this game are player_0, player_1, player_2"):
        environment.observe(agent)


# ---- OpenSpiel ----------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [{"players": 9}, {"players": 1}, {"reward": "score"},
                                    {"component_limits": "soft"}])
def test_a_bad_openspiel_parameter_is_a_spiel_error(params: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from amunre.adapters.openspiel import short_name
    with pytest.raises(pyspiel.SpielError) as info:
        pyspiel.load_game(short_name("knizia2016"), params)
    assert isinstance(info.value, amunre.AmunreError)          # still an amunre error too
