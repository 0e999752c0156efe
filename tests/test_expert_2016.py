"""The 2016 Expert rules ([R] Expert Rules; rules/knizia2016-expert.yaml): each player
holds 3 secret province cards; each auction's lots are the cards the players pick in secret,
revealed together; the cards played in the first age are dealt out again for the second.

The counts with numbers (3 cards each for 3 to 5 players, the deck left empty, one auction's
picks as its lots, the nine cards dealt again in the New Kingdom) are the file's own
`examples:`, played by `amunre check` (and by tests/test_examples.py). Here: what an example
cannot read (the box, what each seat sees, the cards in a hand), random games, save and replay.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import amunre
from conftest import REPO

EXPERT = REPO / "rules" / "knizia2016-expert.yaml"


@pytest.fixture(scope="module")
def expert() -> Any:
    return amunre.load_rules(EXPERT)


def provinces(rules: Any, hand: list[str]) -> list[str]:
    return [card for card in hand if card in rules.place_index]


def play_until(game: amunre.Game, rng: random.Random, done: Any) -> None:
    while not game.over and not done(game):
        game.apply_id(rng.choice(game.legal_action_ids()))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_province_cards_are_secret_and_the_rest_boxed(expert: Any, players: int) -> None:
    game = amunre.new_game(expert, players=players, seed=players)
    assert len(game.state.boxed["provinces"]) == 15 - 3 * players
    for seat in range(players):
        seen = game.observation(seat)["hands"]
        for other in range(players):
            shown = provinces(expert, seen[other])
            assert shown == (provinces(expert, game.state.hands[seat]) if other == seat else []), (seat, other)


def test_the_lots_are_the_picks_revealed_together(expert: Any) -> None:
    game = amunre.new_game(expert, players=4, seed=7)
    rng = random.Random(7)
    for _ in range(6):                                   # every auction of the game
        play_until(game, rng, lambda g: g.step.phase == "pick_lots")
        held = [list(h) for h in game.state.hands]
        while game.step.phase == "pick_lots":
            seat = game.to_move
            picks = [a for a in game.legal_actions() if a["type"] == "pick"]
            assert picks == [{"type": "pick", "card": c} for c in sorted(set(provinces(expert, held[seat])))]
            game.apply(picks[rng.randrange(len(picks))])
            data = game.state.working if game.step.phase == "pick_lots" else None
            if data is not None:                         # others see that it picked, not what
                for other in range(4):
                    seen = game.observation(other)["phase"]["picks"]
                    assert seen[seat] == ("hidden" if other != seat else data["picks"][seat])
        revealed = [e for e in game.log if e["event"] == "revealed"][-1]["picks"]
        lots = [e for e in game.log if e["event"] == "lots"][-1]["lots"]
        assert sorted(lots) == sorted(p for p in revealed if p is not None) and len(lots) == 4
        for seat, card in enumerate(revealed):
            assert card in held[seat] and card not in game.state.hands[seat]
    assert game.step.phase != "pick_lots"


def test_the_first_ages_cards_are_dealt_again_for_the_second(expert: Any) -> None:
    # Card for card, which the example new-kingdom-deals-played-cards cannot say: the hands of
    # the second age are exactly the first age's lots.
    game = amunre.new_game(expert, players=3, seed=5)
    rng = random.Random(5)
    play_until(game, rng, lambda g: g.step.age == 2)          # its first decision: the first pick
    assert game.step.phase == "pick_lots"
    played = sorted(lot for e in game.log if e["event"] == "lots" for lot in e["lots"])
    assert len(played) == 9
    assert sorted(c for hand in game.state.hands for c in provinces(expert, hand)) == played
    assert [len(provinces(expert, hand)) for hand in game.state.hands] == [3, 3, 3]


def test_an_expert_game_saves_and_replays(expert: Any) -> None:
    game = amunre.new_game(expert, players=5, seed=11)
    play_until(game, random.Random(11), lambda g: len(g.history) >= 30)
    data = json.loads(json.dumps(game.to_json()))
    restored = amunre.Game.from_json(data, expert)
    assert restored.to_json() == data and restored.observation(2) == game.observation(2)
