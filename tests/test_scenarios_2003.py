"""Scenarios of the 2003 rules ([O] in docs/sources.md) and of its online variant ([S]) that are
not worked examples of the texts: a reading left open by [O] (an option), and two rules of [S]'s
phase 4. The worked examples themselves, with their exact numbers, are the `examples:` of
rules/knizia2003.yaml and rules/knizia2003-online.yaml, played by `amunre check`."""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from amunre.interpreter.dsl.context import Ctx
from conftest import REPO
from test_scenarios_2016 import act, events, phase

RED, BLACK, BLUE = 0, 1, 2


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(REPO / "rules" / "knizia2003.yaml")


def acquired(rules: Any, lots: list[str], hands: list[list[str]] | None = None, players: int = 4) -> amunre.Game:
    """A game whose first auction offers `lots`, seat i taking lots[i] for 0: the market is next."""
    game = amunre.new_game(rules, players=players, seed=3, setup={
        "start_player": 0, "decks": {"provinces": lots}, "hands": hands or []})
    for seat, lot in enumerate(lots):
        act(game, seat, type="bid", lot=lot, space=0)
    assert phase(game) == "player_actions"
    return game


def scored(rules: Any, game: amunre.Game, phase_id: str) -> dict[str, dict[int, int]]:
    """{award id: {seat: points}} of every award of a scoring phase that applies now."""
    mech, out = rules.phases[phase_id], {}
    for award in mech.awards:
        if award.when is None or award.when.fn(Ctx(game)):
            out[award.id] = {s: v for s, v in mech.points(game, award).items() if v}
    return out


@pytest.mark.parametrize("reading,east", [("nobody", {}), ("stone_tiebreak", {RED: 5})])
def test_a_side_without_pyramids(rules: Any, reading: str, east: dict[int, int]) -> None:
    # Option nile_side_without_pyramids: "the winning province" has the most pyramids; with
    # none on a side, nobody wins it, or (its tie-break read as reaching a 0-0 tie) the most
    # building stones do.
    game = amunre.new_game(rules, players=4, seed=5, setup={"options": {"nile_side_without_pyramids": reading}})
    for pid, seat, tokens in (("thebes", RED, {"stone": 2}), ("mendes", BLACK, {"stone": 1}), ("buto", BLUE, {})):
        game.state.owner[rules.place_index[pid]], game.state.tokens[rules.place_index[pid]] = seat, tokens
    points = scored(rules, game, "kingdom_scoring")
    assert points["nile_east"] == east and points["nile_west"] == {}      # no stones in the west either
    game.state.tokens[rules.place_index["mendes"]] = {"pyramid": 1}       # a pyramid: pyramids decide
    assert scored(rules, game, "kingdom_scoring")["nile_east"] == {BLACK: 5}


# ---- the online variant ([S] Phase 4) ---------------------------------------------------------

@pytest.fixture(scope="module")
def online() -> Any:
    return amunre.load_rules(REPO / "rules" / "knizia2003-online.yaml")


def at_the_sacrifice(rules: Any, hands: list[list[str]] | None = None) -> amunre.Game:
    game = acquired(rules, ["buto", "mendes", "sawu", "kharga"], hands=hands)
    while phase(game) == "player_actions":
        act(game, game.to_move, **next(a for a in game.legal_actions() if a.get("count") == 0 or a["type"] == "done"))
    assert phase(game) == "sacrifice"
    return game


def test_online_power_cards_count_one_gold_each_in_an_offer(online: Any) -> None:
    game = at_the_sacrifice(online, hands=[["free_farmer", "farmer_bonus"], [], [], []])
    act(game, 0, type="attach", card="free_farmer")
    act(game, 0, type="attach", card="farmer_bonus")
    act(game, 0, type="offer", amount=2)                   # 2 gold + 2 cards = 4
    act(game, 1, type="offer", amount=3)
    act(game, 2, type="steal")
    act(game, 3, type="steal")
    settled = events(game, "settled")[-1]
    assert settled["total"] == 4 + 3 - 3 - 3 and settled["ranking"] == [0, 1]
    assert "free_farmer" in game.state.discards["power"] and "farmer_bonus" not in game.state.hands[0]


def test_online_start_player_stays_when_everyone_steals(online: Any) -> None:
    game = at_the_sacrifice(online)
    start = game.state.start_player
    for seat in range(4):
        act(game, seat, type="steal")
    assert events(game, "settled")[-1]["ranking"] == [] and game.state.start_player == start

