"""Intermediate and final scoring of the 2016 rules ([R] Intermediate Scoring, Final Scoring),
on positions set up directly in the state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import amunre
from amunre.interpreter.dsl.context import Ctx

RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"


@pytest.fixture(scope="module")
def rules():
    return amunre.load_rules(RULES)


def position(rules, holdings, tile="mid_high", option="province", gold=None, **options):
    """A 3-player game where holdings = {seat: {place: {token: n}}}."""
    game = amunre.new_game(rules, players=3, seed=1, setup={"options": {"nile_side_bonus": option, **options}})
    for seat, places in holdings.items():
        for pid, tokens in places.items():
            p = rules.place_index[pid]
            game.state.owner[p] = seat
            game.state.tokens[p] = dict(tokens)
    game.state.kept["offering"] = {"tile": tile}       # as the offering phase keeps it
    if gold:
        for seat, g in enumerate(gold):
            game.state.resources[seat]["gold"] = g
    return game


def points(rules, game, phase="age_scoring"):
    """{award id: {seat: vp}} for every award that applies."""
    mech = rules.phases[phase]
    from amunre.interpreter.dsl.context import Ctx
    out = {}
    for award in mech.awards:
        if award.when is None or award.when.fn(Ctx(game)):
            out[award.id] = {s: v for s, v in mech.points(game, award).items() if v}
    return out


def test_temples_pyramids_and_weakest_province(rules):
    game = position(rules, {
        0: {"damanhur": {"pyramid": 1}, "edfu": {"double_pyramid": 1}, "amarna": {"pyramid": 1, "double_pyramid": 1}},
        1: {"thebes": {"pyramid": 1}, "buto": {}, "abu": {"stone": 2}},
    }, tile="mid_high")
    got = points(rules, game)
    assert got["temples"] == {0: 3 * (2 + 1 + 1)}          # 13>22: 3 VP a temple
    assert got["pyramids"] == {0: 1 + 2 + 3, 1: 1}         # a double pyramid counts 2
    assert got["weakest_province"] == {0: 3 * 1}           # seat 1 has an empty province: 0


def test_nile_side_bonus_best_province_with_stone_tiebreak(rules):
    game = position(rules, {
        0: {"thebes": {"pyramid": 1, "double_pyramid": 1}, "damanhur": {"pyramid": 1}},   # east 3
        1: {"mendes": {"double_pyramid": 1, "pyramid": 1, "stone": 1}, "buto": {"pyramid": 1}},  # east 3 + stone
        2: {"avaris": {"pyramid": 1}, "edfu": {"pyramid": 1}},
    })
    got = points(rules, game)
    assert got["nile_east"] == {1: 5}                      # tie on pyramids: more stones wins
    assert got["nile_west"] == {0: 5, 1: 5, 2: 5}          # 1 pyramid each, no stones: all score


def test_nile_side_bonus_player_reading(rules):
    # [T]: most pyramids in total on the side. Seat 0's two east provinces (1 + 1) beat
    # seat 1's single best province (2) only under this reading.
    holdings = {0: {"thebes": {"pyramid": 1}, "amarna": {"pyramid": 1}, "abu": {"pyramid": 1}},
                1: {"mendes": {"double_pyramid": 1}}}
    assert points(rules, position(rules, holdings, option="player"))["nile_east"] == {0: 5}
    assert points(rules, position(rules, holdings, option="province"))["nile_east"] == {1: 5}


def test_no_pyramid_no_side_bonus(rules):
    game = position(rules, {0: {"thebes": {"stone": 2}}, 1: {"buto": {}}})
    got = points(rules, game)
    assert got["nile_east"] == {} and got["nile_west"] == {}


def test_final_gold_ranking_ties_push_down(rules):
    # [R] Final Scoring: two tied for most gold both score 6; the next scores only 2.
    assert points(rules, position(rules, {}, gold=[30, 30, 12]), "final_scoring")["gold"] == {0: 6, 1: 6, 2: 2}
    assert points(rules, position(rules, {}, gold=[5, 30, 12]), "final_scoring")["gold"] == {1: 6, 2: 4, 0: 2}


def test_winner_tiebreak_pyramids_then_stones(rules):
    game = position(rules, {0: {"thebes": {"pyramid": 1}}, 1: {"buto": {"pyramid": 1, "stone": 1}},
                            2: {"mendes": {"stone": 2}}})
    for seat in range(3):
        game.state.resources[seat]["vp"] = 40
    assert game.result()["winners"] == [1]
    game.state.tokens[rules.place_index["thebes"]]["stone"] = 1
    assert game.result()["winners"] == [0, 1]              # still tied: shared victory


def test_scoring_cards_require_their_condition(rules):
    game = position(rules, {0: {"thebes": {}, "abu": {}, "mendes": {}}})   # all east: yes; Nile: yes
    from amunre.interpreter.play import cards
    game.state.hands[0] += ["west_or_east", "nile_or_frontier", "upper_or_lower", "master_of_farmers"]
    plays = {game.action_from_id(i)["card"] for i in cards.playable(game, 0, "scoring")}
    assert plays == {"west_or_east", "nile_or_frontier"}   # Mendes is in Lower Egypt; 0 farmers


@pytest.mark.parametrize("reading", ["province", "player"])
def test_a_side_without_pyramids_scores_nobody_or_the_most_stones(rules, reading):
    # Option nile_side_without_pyramids: [R] names "the Province that contains the most
    # Pyramids" (none: nobody); read through its stones tie-break, a 0-0 tie goes to stones.
    holdings = {0: {"thebes": {"stone": 2}}, 1: {"mendes": {"stone": 1}, "buto": {}}}
    nobody = points(rules, position(rules, holdings, option=reading))
    assert nobody["nile_east"] == {} and nobody["nile_west"] == {}
    stones = points(rules, position(rules, holdings, option=reading, nile_side_without_pyramids="stone_tiebreak"))
    assert stones["nile_east"] == {0: 5}
    assert stones["nile_west"] == {}                       # no stones there either: nobody
    holdings[1]["mendes"] = {"pyramid": 1}                 # a pyramid on the side: pyramids decide again
    assert points(rules, position(rules, holdings, option=reading,
                                  nile_side_without_pyramids="stone_tiebreak"))["nile_east"] == {1: 5}


def test_temples_score_at_the_age_end_or_at_every_harvest(rules):
    # Option temple_scoring: [R] Intermediate Scoring (age end, the default) or the board's
    # permanent-bonus box ("during each Harvest Phase").
    holdings = {0: {"damanhur": {}, "edfu": {}}, 1: {"amarna": {}}}
    at_age_end = position(rules, holdings, tile="mid_high")
    assert points(rules, at_age_end)["temples"] == {0: 3 * 3, 1: 3 * 1}
    assert rules.phases["harvest_temples"].skip_if.fn(Ctx(at_age_end))
    every = position(rules, holdings, tile="mid_high", temple_scoring="every_harvest")
    assert "temples" not in points(rules, every)
    assert not rules.phases["harvest_temples"].skip_if.fn(Ctx(every))
    assert points(rules, every, "harvest_temples")["temples"] == {0: 3 * 3, 1: 3 * 1}


def test_a_game_scoring_temples_at_every_harvest_scores_them_each_round(rules):
    game = amunre.new_game(rules, players=4, seed=3, setup={"options": {"temple_scoring": "every_harvest"}})
    rng = random.Random(3)
    while not game.over:
        game.apply_id(rng.choice(game.legal_action_ids()))
    ran = [e["phase"] for e in game.log if e["event"] == "phase"]
    assert ran.count("harvest_temples") == 6 and not any(e["event"] == "skip" for e in game.log)
    phase, temple_phases = None, set()
    for event in game.log:
        phase = event["phase"] if event["event"] == "phase" else phase
        if event["event"] == "score" and event["source"] == "temples":
            temple_phases.add(phase)
    assert temple_phases == {"harvest_temples"}


def test_the_age_scoring_names_each_award_once(rules) -> None:
    """The nile awards are written once per option variant (each with its `when`); the phase's
    description names each once, in order."""
    scoring = rules.phases["age_scoring"]
    ids = [award.id for award in scoring.awards]
    assert ids.count("nile_west") > 1
    assert scoring.describe() == "Score: " + ", ".join(dict.fromkeys(ids)) + "."
    assert scoring.describe().count("nile_west") == 1
