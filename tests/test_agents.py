"""The agents: specs and their options, that the bots play only on what their seat may see,
that a seeded search with an iteration budget replays, and that every agent finishes a game of
every bundled rules file (tiny budgets: strength is measured in benchmarks/, not here).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.tools.agents import AGENTS, GreedyAgent, HeuristicAgent, IsmctsAgent, check_spec, make_agent
from amunre.tools.agents.options import split_specs
from amunre.tools.agents.value import value, values
from amunre.tools.determinize import determinize
from conftest import REPO, play_random

BUNDLED = sorted((REPO / "rules").rglob("*.yaml"))
TINY = {"random": "random", "greedy": "greedy:samples=1", "heuristic": "heuristic:style=high_offer,samples=1",
        "ismcts": "ismcts:iterations=4,horizon=6"}


# ---- specs -------------------------------------------------------------------------------------

def test_a_list_of_specs_splits_at_agent_names() -> None:
    assert split_specs("ismcts:ms=500,c=0.5,greedy, heuristic:style=build,random") == [
        "ismcts:ms=500,c=0.5", "greedy", "heuristic:style=build", "random"]
    assert split_specs("greedy") == ["greedy"]


def test_options_are_typed_and_defaulted() -> None:
    name, settings = check_spec("ISMCTS: ms=500, c=0.5")
    assert name == "ismcts" and settings["ms"] == 500 and settings["c"] == 0.5
    assert settings["iterations"] is None and settings["style"] == "balanced"
    assert make_agent("ismcts:ms=500").iterations == 0                  # a time budget alone
    assert make_agent("ismcts").iterations == 300 and make_agent("ismcts:ms=500,iterations=50").iterations == 50
    agent = make_agent("heuristic:style=cautious,noise=0,money=0.9", seed=3)
    assert agent.weights.money == 0.9 and agent.weights.cards == 0.6      # set, and the style's


@pytest.mark.parametrize("spec, message", [
    ("foo", "unknown agent 'foo'; choose from random, greedy, heuristic, ismcts"),
    ("ismcts:iter=5", "agent 'ismcts' has no option 'iter' (did you mean 'iterations'?)"),
    ("random:c=1", "agent 'random' has no option 'c'; its options: none"),
    ("ismcts:ms=fast", "ismcts: ms is a whole number from 0 to 3,600,000, not 'fast'"),
    ("ismcts:iterations=0", "ismcts: give a budget, iterations or ms (both are 0)"),
    ("ismcts:iterations=10000001", "ismcts: iterations is a whole number from 0 to 10,000,000, not 10000001"),
    ("ismcts:c=-1", "ismcts: c is a number from 0, not -1"),
    ("heuristic:style=bild",
     "style is one of balanced, cautious, build, high_offer, not 'bild' (did you mean 'build'?)"),
    ("ismcts:ms", "'ms' is not key=value"),
    ("ismcts:ms=1,ms=2", "ms is given twice"),
    ("greedy:", "has a ':' but no options"),
])
def test_a_bad_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=None) as error:
        check_spec(spec)
    assert message in str(error.value)


def test_a_search_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="give a budget"):
        make_agent("ismcts:iterations=0")


def test_every_option_is_documented() -> None:
    text = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
    for name, cls in AGENTS.items():
        assert f"`{name}`" in text
        for option in cls.options:
            assert f"`{option.key}`" in text, f"docs/agents.md lacks {name}'s option {option.key}"


# ---- what the bots know ------------------------------------------------------------------------

def positions(rules: Any) -> list[amunre.Game]:
    """Decisions of a 2016 game: in a bidding, a purchase, and a secret offer with offers made."""
    found = []
    for phase, idx in (("auction", None), ("market", None), ("offering", 2)):
        found.append(play_random(rules, 4, 21, stop=lambda g, phase=phase, idx=idx:
                                 g.step.phase == phase and len(g.legal_action_ids()) > 1
                                 and (idx is None or (g.state.working or {}).get("idx") == idx)))
    return found


@pytest.mark.parametrize("spec", ["greedy", "heuristic:samples=2", "ismcts:iterations=12,horizon=4"])
def test_bots_choose_the_same_in_games_their_seat_cannot_tell_apart(rules_2016: Any, spec: str) -> None:
    """A bot that peeked at other hands, secret offers or the deck would choose differently
    in a game whose hidden facts were drawn anew; these choose the same."""
    for game in positions(rules_2016):
        seat = game.to_move
        twin = determinize(game, seat, random.Random(8), events=True)
        assert twin.state.to_json() != game.state.to_json()
        for seed in range(3):
            assert make_agent(spec, seed).choose_id(game, game.legal_action_ids()) == \
                make_agent(spec, seed).choose_id(twin, twin.legal_action_ids())


# ---- the search ----------------------------------------------------------------------------------

def play_prefix(rules: Any, agents: list[Any], decisions: int) -> list[int]:
    game = amunre.new_game(rules, players=len(agents), seed=4, events=False)
    while not game.over and len(game.history) < decisions:
        game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
    return game.history


def test_a_seeded_search_with_an_iteration_budget_replays(rules_2016: Any) -> None:
    def agents() -> list[Any]:
        return [IsmctsAgent(seed, iterations=15, horizon=5) for seed in (1, 2, 3)]
    first = play_prefix(rules_2016, agents(), 40)
    assert play_prefix(rules_2016, agents(), 40) == first
    assert play_prefix(rules_2016, [IsmctsAgent(seed, iterations=15, horizon=5) for seed in (4, 5, 6)], 40) != first


def test_the_search_keeps_its_budget(rules_2016: Any) -> None:
    game = play_random(rules_2016, 4, 3, stop=lambda g: g.step.phase == "auction" and len(g.legal_action_ids()) > 5)
    agent = IsmctsAgent(0, iterations=60, horizon=4)
    assert agent.choose_id(game, game.legal_action_ids()) in game.legal_action_ids()
    assert agent.searched == 60
    timed = IsmctsAgent(0, iterations=0, ms=1)
    timed.engine = "interpreter"        # it reads the clock after every iteration (the machine's: test_agent_machine)
    timed.choose_id(game, game.legal_action_ids())
    assert 1 <= timed.searched < 60


@pytest.mark.parametrize("actions", [0, 60, 140, 230])
def test_every_seats_worth_at_once_is_each_seats_worth(rules_2016: Any, actions: int) -> None:
    """`values` (forecasts worked out once for all seats) agrees with `value` seat by seat."""
    game = play_random(rules_2016, 4, 9, stop=lambda g: len(g.history) >= actions)
    weights = HeuristicAgent(0, style="build", noise=0.0).weights
    assert values(game, weights) == pytest.approx([value(game, s, weights) for s in range(4)])


def test_the_heuristic_styles_differ(rules_2016: Any) -> None:
    weights = {style: HeuristicAgent(0, style=style, noise=0.0).weights for style in
               ("balanced", "cautious", "build", "high_offer")}
    assert len(set(weights.values())) == 4
    assert GreedyAgent(0).weights == weights["balanced"]
    noisy = {HeuristicAgent(seed).weights for seed in range(5)}
    assert len(noisy) == 5                                    # noise varies the weights per game


# ---- every agent, every rules file --------------------------------------------------------------

@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.relative_to(REPO / "rules").as_posix())
def test_every_agent_plays_every_rules_file_to_the_end(path: Path) -> None:
    rules = amunre.load_rules(path)
    names = list(TINY.values())[:rules.max_players]
    players = max(rules.min_players, len(names))
    agents = [make_agent(names[s % len(names)], s) for s in range(players)]
    game = amunre.new_game(rules, players=players, seed=len(path.name), events=False)
    while not game.over:
        game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
    assert game.result()["over"]
