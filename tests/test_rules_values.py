"""Generic values a rules file may declare, each shown on a small house rule over the 2016
file: places owned from the start, an option allowed only at some tables, a modifier holding
a word, phases repeated within a round, ranked awards with averaged ties and a tally."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.dsl.context import Ctx
from conftest import house, walked


def problems(tmp_path: Path, body: str) -> str:
    with pytest.raises(amunre.RulesError) as info:
        house(tmp_path, body)
    return info.value.format()


# ---- places owned from the start -----------------------------------------------------------------

def test_a_place_may_belong_to_a_seat_from_the_start(tmp_path: Path) -> None:
    rules = house(tmp_path, "places:\n  items:\n    - {id: thebes, owner: 0}\n    - {id: buto, owner: 3}\n")
    thebes, buto = rules.place_index["thebes"], rules.place_index["buto"]
    four = amunre.new_game(rules, players=4, seed=1)
    assert four.state.owner[thebes] == 0 and four.state.owner[buto] == 3
    three = amunre.new_game(rules, players=3, seed=1)
    assert three.state.owner[thebes] == 0 and three.state.owner[buto] == -1     # no fourth seat: unowned
    assert "owner" not in rules.place_props[thebes]                             # not a printed property


def test_an_owner_needs_places_with_owners(tmp_path: Path) -> None:
    text = problems(tmp_path, "places:\n  ownership: ~\n  items:\n    - {id: thebes, owner: 0}\n")
    assert "have no owners in these rules" in text


# ---- options allowed only at some tables ---------------------------------------------------------

def test_an_option_value_may_be_refused_for_a_table(tmp_path: Path) -> None:
    rules = house(tmp_path, 'options:\n  component_limits: '
                            '{allowed_if: "option.component_limits == hard or players == 3"}\n')
    amunre.new_game(rules, players=3, seed=1, setup={"options": {"component_limits": "unlimited"}})
    amunre.new_game(rules, players=4, seed=1)
    refused = "component_limits=unlimited is not for this game .4 players.*players == 3"
    with pytest.raises(amunre.AmunreError, match=refused):
        amunre.new_game(rules, players=4, seed=1, setup={"options": {"component_limits": "unlimited"}})


# ---- a modifier holding a word ------------------------------------------------------------------

WORD_MODIFIER = """
modifiers:
  facing: {scope: place, values_of: side, default: east, lasts: game, doc: "which side a province faces"}
cards:
  architect:
    effect: "choose target from my.provinces where facing != side; set facing of target = target.side"
"""


def test_a_modifier_may_hold_the_words_of_a_property(tmp_path: Path) -> None:
    rules = house(tmp_path, WORD_MODIFIER)
    mod = rules.vocab.modifiers["facing"]
    assert (mod.enum, mod.default) == ("side", "east")
    game = amunre.new_game(rules, players=3, seed=2, setup={"start_player": 0})
    buto = rules.place_index["buto"]                      # a west province: it faces east until turned
    game.state.owner[buto] = 0
    card = rules.cards["architect"]
    ctx = Ctx(game, 0, {"target": buto}, None, Cause("card", "architect"))   # as cards.run gives it
    assert card.effect.allowed(ctx)
    card.effect.run(ctx)
    assert game.state.mods["facing"][buto] == "west"
    tensor = dict((p["name"], p) for p in game.observation_layout())["mod.facing"]
    assert game.observation_tensor(0)[tensor["offset"] + buto] == 0.0     # west: the first value of side


@pytest.mark.parametrize("effect,message", [
    ("choose t from my.provinces; set facing of t = upper", "a region value is not a side value"),
    ("choose t from my.provinces; set facing of t = 2", "the value must be a side value, not a number"),
    ("choose t from my.provinces; add 1 to facing of t", "holds a word, not a number"),
    ("choose t from my.provinces; require t.facing > 1", "each side of '>' must be a number"),
])
def test_a_word_modifier_is_typed(tmp_path: Path, effect: str, message: str) -> None:
    body = WORD_MODIFIER.replace(
        'effect: "choose target from my.provinces where facing != side; set facing of target = target.side"',
        f'effect: "{effect}"')
    assert message in problems(tmp_path, body)


def test_a_word_modifier_names_a_property_with_values(tmp_path: Path) -> None:
    text = problems(tmp_path, "modifiers:\n  facing: {scope: place, values_of: fields}\n")
    assert "'fields' is not a place property with `values`" in text
    text = problems(tmp_path, "modifiers:\n  facing: {scope: place, values_of: side, default: north}\n")
    assert "default 'north' is not one of ['west', 'east']" in text


# ---- phases repeated within a round -------------------------------------------------------------

def test_a_round_may_repeat_a_run_of_phases(tmp_path: Path) -> None:
    rules = house(tmp_path, "structure:\n  round: [{repeat: 2, phases: [auction, market]}, offering, harvest]\n")
    steps = walked(rules)
    first_round = [s.phase for s in steps if s.age == 1 and s.round == 1]
    assert first_round == ["auction", "market", "auction", "market", "offering", "harvest"]
    assert len(steps) == 2 * 3 * 6 + 2 + 1 + 2 + 2


def test_a_repeated_phase_must_exist(tmp_path: Path) -> None:
    text = problems(tmp_path, "structure:\n  round: [{repeat: 2, phases: [auction, markt]}, offering]\n")
    assert "unknown phase 'markt'" in text and "market" in text


# ---- ranked awards: averaged ties and a tally ----------------------------------------------------

@pytest.fixture(scope="module")
def ranking(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The 2016 rules with a gold ranking whose ties are read as `request.param` says."""
    ties = request.param
    return house(tmp_path_factory.mktemp(ties), f"""
resources:
  gold_points: {{doc: "the points the gold ranking gave"}}
phases:
  final_scoring:
    rules:
      - {{id: gold, rank: {{by: "my.gold", points: [6, 4, 2, 1], ties: {ties}}}, tally: gold_points}}
""")


def gold_ranking(rules: Any, gold: list[int]) -> tuple[list[int], list[int]]:
    """(vp, tally) after the final scoring's gold ranking, with the given gold per seat."""
    game = amunre.new_game(rules, players=len(gold), seed=1, setup={"resources": {"gold": gold}})
    mech = rules.phases["final_scoring"]
    points = mech.points(game, mech.awards[0])
    game.state.working = {"done": False}
    mech.auto(game)
    vp = [r["vp"] for r in game.state.resources]
    assert vp == [points[s] for s in range(len(gold))]
    return vp, [r["gold_points"] for r in game.state.resources]


@pytest.mark.parametrize("ranking,gold,expected", [
    ("best", [10, 10, 5, 5], [6, 6, 2, 2]),            # tied seats score their best place and push the rest down
    ("average", [10, 10, 5, 5], [5, 5, 1, 1]),         # (6+4)/2 = 5, (2+1)/2 = 1.5 -> 1
    ("average", [7, 7, 7, 0], [4, 4, 4, 1]),           # (6+4+2)/3 = 4
    ("average", [7, 7, 7], [4, 4, 4]),
    ("average", [1, 2, 3, 4], [1, 2, 4, 6]),           # no ties: as ranked
    ("average", [0, 0, 0, 9], [2, 2, 2, 6]),           # (4+2+1)/3 = 2.33 -> 2
], indirect=["ranking"])
def test_ranked_ties(ranking: Any, gold: list[int], expected: list[int]) -> None:
    vp, tally = gold_ranking(ranking, gold)
    assert vp == expected and tally == expected
