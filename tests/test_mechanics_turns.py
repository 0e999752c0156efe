"""The building blocks a second game brought (moves, select, draft, reveal), each on a small
rules file of its own, for what the Pharaoh's Heir examples do not show: a move's `times`,
a turn a seat may end or must play out, a draft of cards into hands, a reveal, and the
mistakes a rules file can make with them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import amunre

TOY = """
id: toy
title: A toy of turns
players: {min: 2, max: 3}
resources:
  coins: {start: 3}
  vp: {}
places:
  noun: field
  ownership: single
  properties:
    worth: {type: integer}
    omen: {type: boolean}
  items:
    - {id: north, worth: 1, omen: false, owner: 0}
    - {id: south, worth: 2, omen: false, owner: 1}
    - {id: east, worth: 3, omen: false}
    - {id: west, worth: 4, omen: false}
    - {id: sun, worth: 5, omen: true}
    - {id: rain, worth: 1, omen: true}
    - {id: wind, worth: 2, omen: true}
tokens:
  seed: {supply: 50}
modifiers:
  left: {scope: seat}
decks:
  omens: {of: places, where: "omen"}
  fields: {of: places, where: "worth >= 3 and not omen", display: 1}
  gifts: {display: 2}
cards:
  gift: {deck: gifts, count: 4}
setup:
  decks:
    omens: {stacks: 2, top: "worth >= 2"}
structure:
  rounds: 2
  round: [weather, {repeat: 2, phases: [pick, plant, trade]}, gifts_draft, fields_draft]
phases:
  weather:
    mechanic: reveal
    deck: omens
    then: "each s in seats: +weather.card.worth coins for s"
  pick:
    mechanic: select
    options: [plant, trade]
  plant:
    mechanic: moves
    skip_if: "pick.chosen != plant"
    order: {from: pick.chooser}
    start: "set left = 2"
    moves:
      - {id: sow, effect: "choose f from my.fields; require left > 0; place 1 seed in f; add -1 to left"}
      - {id: bonus, times: 1, effect: "require me == pick.chooser; +1 vp"}
    until: "left == 0"
    may_stop: "left == 0"
  trade:
    mechanic: moves
    skip_if: "pick.chosen != trade"
    moves:
      - {id: barter, times: 2, effect: "require my.coins > 0; -1 coins; +1 vp"}
  gifts_draft:
    mechanic: draft
    deck: gifts
  fields_draft:
    mechanic: draft
    deck: fields
    take: "claim card"
winner:
  score: vp
"""


def load(tmp_path: Path, text: str = TOY) -> Any:
    path = tmp_path / "toy.yaml"
    path.write_text(text, encoding="utf-8")
    return amunre.load_rules(path)


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load(tmp_path_factory.mktemp("toy"))


def types(game: amunre.Game) -> list[str]:
    return sorted({a["type"] for a in game.legal_actions()})


def test_a_reveal_turns_the_prepared_top_card(toy: Any) -> None:
    game = amunre.new_game(toy, players=2, seed=3, setup={"start_player": 0})
    assert toy.decks["omens"].places == ("sun", "rain", "wind")      # the places its `where` admits
    turned = [e["card"] for e in game.log if e["event"] == "turned"]
    assert len(turned) == 1 and turned[0] in ("sun", "wind")         # `top`: each stack opens with 2 or more
    worth = toy.place_props[toy.place_index[turned[0]]]["worth"]
    assert [r["coins"] for r in game.state.resources] == [3 + worth, 3 + worth]
    assert game.state.decks["omens"] == ["rain", ({"sun", "wind"} - set(turned)).pop()]   # and the second
    assert game.state.shown == {"fields": game.state.shown["fields"], "gifts": ["gift", "gift"]}   # plain cards too


def test_a_turn_with_a_debt_and_a_move_made_once(toy: Any) -> None:
    game = amunre.new_game(toy, players=2, seed=3, setup={"start_player": 0})
    game.apply({"type": "choose", "option": "plant"})
    assert game.state.start_player == 1 and game.to_move == 0        # the chooser goes first
    assert types(game) == ["bonus", "sow"]                           # no `done` while a seed is left
    game.apply({"type": "bonus"})
    assert types(game) == ["sow"]                                    # `times: 1`
    game.apply({"type": "sow", "f": "north"})
    game.apply({"type": "sow", "f": "north"})
    assert game.to_move == 1 and types(game) == ["sow"]              # `until` ended the turn
    assert game.state.tokens[toy.place_index["north"]] == {"seed": 2}
    assert [e["move"] for e in game.log if e["event"] == "move"] == ["bonus", "sow", "sow"]


def test_a_turn_a_seat_may_end(toy: Any) -> None:
    game = amunre.new_game(toy, players=2, seed=3, setup={"start_player": 0})
    game.apply({"type": "choose", "option": "trade"})
    assert game.to_move == 1 and types(game) == ["barter", "done"]    # a clockwise order, from the start player
    game.apply({"type": "barter"})
    game.apply({"type": "barter"})
    assert game.to_move == 0 and types(game) == ["barter", "done"]    # `times: 2`: the turn closed itself
    game.apply({"type": "done"})
    assert game.step.phase == "plant" and game.to_move == 1          # the last option, taken for seat 1


def test_the_last_option_is_taken_without_asking(toy: Any) -> None:
    game = amunre.new_game(toy, players=2, seed=3, setup={"start_player": 0})
    game.apply({"type": "choose", "option": "trade"})
    while game.step.phase != "plant":
        game.apply({"type": "done"})
    chosen = [(e["seat"], e["option"]) for e in game.log if e["event"] == "chosen"]
    assert chosen == [(0, "trade"), (1, "plant")]


def test_drafts_take_cards_into_hands_and_places_into_ownership(toy: Any) -> None:
    game = amunre.new_game(toy, players=2, seed=3, setup={"start_player": 0})
    while game.step.phase != "gifts_draft":
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a["type"] == "done"), legal[0]))
    assert types(game) == ["take"] and game.legal_actions() == [{"type": "take", "card": "gift"}]
    game.apply({"type": "take", "card": "gift"})
    game.apply({"type": "take", "card": "gift"})
    assert game.state.hands == [["gift"], ["gift"]]
    assert game.state.shown["gifts"] == ["gift", "gift"]             # laid out again from the deck
    (card,) = game.state.shown["fields"]
    assert game.legal_actions() == [{"type": "take", "card": card}]
    seat = game.to_move
    game.apply({"type": "take", "card": card})
    assert game.state.owner[toy.place_index[card]] == seat               # the `take` effect claims it
    assert game.step.phase != "fields_draft"                              # nothing left for the other seat
    assert len(game.state.shown["fields"]) == 1 and game.state.shown["fields"] != [card]   # laid out again


@pytest.mark.parametrize("old,new,message", [
    ("- {id: sow, effect", "- {id: done, effect", "'done' is an action of the engine's own: name the move otherwise"),
    ("  gifts: {display: 2}", "  gifts: {}", "the deck 'gifts' lays no cards face up: give it a `display`"),
    ("    deck: omens\n    then: \"each s in seats: +weather.card.worth coins for s\"",
     "    deck: gifts\n    then: \"each s in seats: +1 coins for s\"", "the deck 'gifts' holds cards, not places"),
    ("options: [plant, trade]", "options: [plants, trade]", "unknown name 'plant' (did you mean 'plants'?)"),
])
def test_mistakes_with_the_new_blocks(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in TOY
    with pytest.raises(amunre.RulesError) as info:
        load(tmp_path, TOY.replace(old, new))
    assert message in info.value.format()


def test_the_lint_follows_drafts_and_reveals(toy: Any) -> None:
    """A draft asks each seat to take a face-up card; a reveal turns one a run: the deck check
    of `amunre validate` follows both (here the fields' display of 1 leaves a seat nothing)."""
    from amunre.tools.lint_decks import deck_findings
    found = {path: message for path, _, message, _ in deck_findings(toy, amunre.new_game(toy, players=2, seed=0))}
    assert "has 1 face-up cards for 2 seats" in found[("phases", "fields_draft", "deck")]
    assert ("phases", "weather", "deck") not in found              # three omens for two rounds
    assert "at 3 players," in found[("phases", "gifts_draft", "deck")]    # two gifts lie face up
