"""The order of play as a tree (`flow:`): sequences, repeats (`times`, `until` before or after,
`between`), branches, named lifetimes and the game's own `end_if`, as games play them, and
the problems a rules file's flow is refused for.

Each game here is the 2016 edition with its `structure:` replaced by a flow (a house rule
that extends it), played by seeded random agents through the phase events it logs.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.errors import GameError
from conftest import house, play_random


def phases_run(game: amunre.Game) -> list[tuple[str, int, int]]:
    return [(e["phase"], e["age"], e["round"]) for e in game.log if e["event"] == "phase"]


def test_structure_is_sugar_for_a_tree(rules: Any) -> None:
    """The 2016 `structure:` is a repeat named age (between: new_age) around a repeat named
    round, then the game's end: 37 phases, as the schedule it replaced."""
    flow = rules.flow
    names = {node.name for node in flow.nodes if node.name}
    assert names == {"age", "round", "game_end"}
    assert flow.most_phases(1) == 2 * (3 * 5 + 2) + 1 + 2
    game = play_random(rules, 4, 1)
    assert game.state.step == 37
    run = phases_run(game)
    assert run[:4] == [(p, 1, 1) for p in ("auction", "market", "offering", "harvest")]
    assert ("auction", 2, 1) in run and ("harvest", 1, 3) in run
    assert ("scoring_cards", 1, 3) in run and ("new_age", 1, 3) in run and ("final_scoring", 2, 3) in run
    skipped = [e for e in game.log if e["event"] == "skip"]
    assert len(run) + len(skipped) == 37


def test_until_after_and_before(tmp_path: Path) -> None:
    """`until` checked after each pass runs at least one; checked before, maybe none."""
    after = house(tmp_path, 'flow:\n  - {name: round, until: "round >= 2", repeat: [auction, market]}\n'
                            '  - {name: none, until: "1 == 1", check: before, repeat: offering}\n'
                            '  - final_scoring\n')
    game = play_random(after, 3, 2)
    assert [p for p, _, _ in phases_run(game)] == ["auction", "market", "auction", "market", "final_scoring"]


def test_between_runs_between_passes_only(tmp_path: Path) -> None:
    rules = house(tmp_path, "flow:\n  - {times: 3, repeat: harvest, between: market}\n  - final_scoring\n")
    game = play_random(rules, 3, 3)
    assert [p for p, _, _ in phases_run(game)] == ["harvest", "market", "harvest", "market", "harvest",
                                                    "final_scoring"]


def test_a_branch_runs_the_case_its_value_picks(tmp_path: Path) -> None:
    body = ("options:\n  pace: {values: [slow, fast, none], default: fast}\n"
            "flow:\n  - auction\n  - branch: option.pace\n    cases: {slow: [market, harvest], fast: harvest}\n"
            "    else: final_scoring\n")
    rules = house(tmp_path, body)
    ran = {pace: [p for p, _, _ in phases_run(play_random_with(rules, {"pace": pace}))]
           for pace in ("slow", "fast", "none")}
    assert ran == {"slow": ["auction", "market", "harvest"], "fast": ["auction", "harvest"],
                   "none": ["auction", "final_scoring"]}


def play_random_with(rules: Any, options: dict[str, str]) -> amunre.Game:
    game = amunre.new_game(rules, players=3, seed=4, setup={"options": options})
    pick = random.Random(4)
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
    return game


def test_a_named_node_ends_the_lifetimes_named_after_it(tmp_path: Path) -> None:
    """A modifier that lasts `turn` is forgotten each time the node named turn is done, not
    at the end of its phase."""
    body = ("modifiers:\n  mark: {scope: game, lasts: turn}\n"
            "flow:\n  - name: turn\n    times: 2\n    repeat:\n      - auction\n      - harvest\n"
            "  - final_scoring\n")
    rules = house(tmp_path, body)
    game = amunre.new_game(rules, players=3, seed=5)
    game.state.mods["mark"] = [7]
    seen = []
    pick = random.Random(5)
    while not game.over:
        seen.append((game.step.phase, game.state.passes[0], game.state.mods.get("mark")))
        game.apply_id(pick.choice(game.legal_action_ids()))
    assert seen[0] == ("auction", 1, [7])                 # set in the first pass: kept through its phases
    assert all(mods == [7] for _, number, mods in seen if number == 1)
    assert any(number == 2 for _, number, _ in seen)
    assert all(mods is None for _, number, mods in seen if number == 2)


def test_the_game_ends_early_and_goes_on_at_then(tmp_path: Path) -> None:
    """`end_if` checked after each round: the round in which it holds is the last; play goes
    on at the game's end (the final scoring), and a `game_ends` event says so."""
    body = 'end_if: {if: "any(seats, vp >= 0)", after: round, then: game_end}\n'
    rules = house(tmp_path, body)
    game = play_random(rules, 4, 6)
    run = phases_run(game)
    assert [p for p, _, _ in run] == ["auction", "market", "offering", "harvest", "last_sales", "final_scoring"]
    ends = [e for e in game.log if e["event"] == "game_ends"]
    assert ends == [{"event": "game_ends", "after": "round"}]
    assert game.over and game.result()["over"]


def test_an_end_without_then_ends_the_game_at_once(tmp_path: Path) -> None:
    rules = house(tmp_path, 'end_if: "round == 2"\n')
    game = play_random(rules, 3, 7)
    assert [p for p, _, _ in phases_run(game)][-1] == "auction"          # the first phase of round 2
    assert game.over


@pytest.mark.parametrize("body, message", [
    ("flow: [auction, markt]\n", "unknown phase 'markt'"),
    ("flow:\n  - {name: r, times: 2, repeat: auction}\n  - {name: r, times: 2, repeat: market}\n",
     "two nodes of the flow are named 'r'"),
    ("flow:\n  - {name: phase, times: 2, repeat: auction}\n", "'phase' is a lifetime of its own"),
    ("flow:\n  - branch: option.nile_side_bonus\n    cases: {province: auction, west: market}\n",
     "'west' is not a value the branch can take: province, player"),
    ("flow:\n  - {times: 20000, repeat: auction}\n", "a repeat runs 0 to 10,000 times"),
    ("flow: [auction]\nmodifiers:\n  harvest_bonus: {scope: place, lasts: round}\n", "no lifetime 'round'"),
    ("end_if: {if: \"round == 2\", after: turn}\n", "no node of the flow is named 'turn'"),
    ("end_if: {if: \"round == 2\", then: round}\n", "play can go on only at a node at the top of the flow"),
    ("flow:\n  - {times: 100, repeat: {times: 101, repeat: auction}}\n", "the flow would run more than 10,000 phases"),
])
def test_a_flow_with_a_problem_is_refused_at_its_place(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(amunre.RulesError) as info:
        house(tmp_path, body)
    assert message in info.value.format()
    assert all(p.span is not None for p in info.value.problems), "every problem points into a file"


def test_an_endless_repeat_that_reaches_no_phase_is_a_game_error(tmp_path: Path) -> None:
    rules = house(tmp_path, 'flow:\n  - {until: "1 == 2", repeat: {branch: option.temple_scoring, '
                            'cases: {every_harvest: auction}}}\n')
    with pytest.raises(GameError, match="never end"):
        amunre.new_game(rules, players=3, seed=1)
