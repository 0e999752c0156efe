"""Decks made ready as data: a deck of some places only, the places a game uses, stacks topped
by chosen cards, a face-up display, and a reset that gathers a deck from its discards or from
the cards set aside. Each is a small house rule over the 2016 file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import amunre
from conftest import house, play_random


def every_card(game: amunre.Game, deck: str) -> list[str]:
    state = game.state
    lots = [game.rules.place_ids[p] for p in (state.working or {}).get("lots", [])]
    return sorted(state.decks[deck] + state.discards[deck] + state.boxed[deck] + state.shown.get(deck, []) + lots)


def test_a_deck_of_some_places(tmp_path: Path) -> None:
    rules = house(tmp_path, 'decks:\n  provinces: {where: "side == west"}\nsetup:\n  decks:\n    provinces: ~\n')
    west = [pid for p, pid in enumerate(rules.place_ids) if rules.place_props[p]["side"] == "west"]
    assert rules.decks["provinces"].places == tuple(west)
    assert "thebes" not in rules.cards and "buto" in rules.cards       # an east province is no card
    game = amunre.new_game(rules, players=3, seed=4)
    assert every_card(game, "provinces") == sorted(west)


def test_a_deck_of_places_reads_printed_properties_only(tmp_path: Path) -> None:
    with pytest.raises(amunre.RulesError) as info:
        house(tmp_path, 'decks:\n  provinces: {where: "stone == 0"}\n')
    assert "printed properties only" in info.value.format()


def test_a_game_uses_the_places_its_set_up_admits(tmp_path: Path) -> None:
    rules = house(tmp_path, 'setup:\n  decks:\n    provinces: {where: "nile or option.nile_side_bonus == player"}\n')
    nile = sorted(pid for p, pid in enumerate(rules.place_ids) if rules.place_props[p]["nile"])
    game = amunre.new_game(rules, players=3, seed=4)
    used = sorted(game.state.decks["provinces"] + [rules.place_ids[p] for p in game.state.working["lots"]])
    assert set(used) <= set(nile) and len(used) == 9                 # 3 per player, all on the Nile
    assert every_card(game, "provinces") == sorted(rules.place_ids)   # the rest are set aside
    other = amunre.new_game(rules, players=3, seed=4, setup={"options": {"nile_side_bonus": "player"}})
    assert not set(other.state.decks["provinces"]) <= set(nile)       # the option admits every province


def test_stacks_topped_by_chosen_cards(tmp_path: Path) -> None:
    rules = house(tmp_path, 'setup:\n  decks:\n    provinces: {count: 15, stacks: 3, top: "not nile"}\n')
    frontier = {pid for p, pid in enumerate(rules.place_ids) if not rules.place_props[p]["nile"]}
    tops = Counter()
    for seed in range(40):
        game = amunre.new_game(rules, players=3, seed=seed)
        lots = [rules.place_ids[p] for p in game.state.working["lots"]]      # the first stack, drawn as the lots
        deck = lots + game.state.decks["provinces"]
        assert len(deck) == 15 and {deck[0], deck[5], deck[10]} <= frontier, (seed, deck)
        tops.update(deck[i] for i in (0, 5, 10))
        assert amunre.new_game(rules, players=3, seed=seed).to_json() == game.to_json()
    assert set(tops) == frontier                                      # any frontier province may come up


DISPLAY = """
decks:
  provinces: {display: 2}
phases:
  new_age: {rebuild_from_set_aside: "players == 3"}
"""


def test_a_display_lies_face_up_and_is_laid_out_again_by_a_rebuild(tmp_path: Path) -> None:
    rules = house(tmp_path, DISPLAY)
    game = amunre.new_game(rules, players=3, seed=6)
    shown = game.state.shown["provinces"]
    assert len(shown) == 2 and not set(shown) & set(game.state.decks["provinces"])
    for seat in range(3):
        assert game.observation(seat)["shown"] == {"provinces": shown}
    layout = {p["name"]: p for p in game.observation_layout()}["shown"]
    tensor = game.observation_tensor(1)[layout["offset"]:layout["offset"] + layout["size"]]
    assert sum(tensor) == 2.0
    assert game.log[0] == {"event": "laid_out", "deck": "provinces", "cards": shown}

    def at_age_two(g: amunre.Game) -> bool:
        return g.step.age == 2
    game = play_random(rules, 3, 6, stop=at_age_two)
    state = game.state
    assert every_card(game, "provinces") == sorted(rules.place_ids)
    assert state.discards["provinces"] == [] and state.boxed["provinces"] == []    # both gathered (3 players)
    assert len(state.shown["provinces"]) == 2
    four = play_random(rules, 4, 6, stop=at_age_two)
    assert len(four.state.boxed["provinces"]) == 15 - 12                # set aside: they stay aside


def test_a_rebuild_may_leave_the_discards_out(tmp_path: Path) -> None:
    rules = house(tmp_path, 'phases:\n  new_age: {rebuild_from_discards: "players == 4", '
                            'rebuild_from_set_aside: "players == 3"}\n')
    game = play_random(rules, 3, 2, stop=lambda g: g.step.age == 2)
    state = game.state
    assert len(state.discards["provinces"]) == 9 and state.boxed["provinces"] == []   # the 6 unused + 3 lots now
    assert len(state.decks["provinces"]) + len(game.state.working["lots"]) == 6
