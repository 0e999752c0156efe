"""A bot's hint (tools/agents/hints.py): its first move is the move the bot makes in the same
position with the same seed, and it tells nothing hidden from the seat: the same position dealt
otherwise behind the screens (another seat's cards, a secret offer, a hidden purse, the decks'
order) gives the same hint.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import amunre
from amunre.tools.agents import choose_id, make_agent
from amunre.tools.agents.hints import hint
from amunre.tools.determinize import Guesses
from conftest import REPO

SPECS = ("greedy", "heuristic:style=build", "ismcts:iterations=40")


def positions(name: str, every: int, seed: int = 3) -> list[Any]:
    """Copies of a seeded random game's position at every `every`-th decision."""
    rules = amunre.load_rules(REPO / "rules" / f"{name}.yaml")
    game = amunre.new_game(rules, players=3, seed=seed)
    pick, found = random.Random(seed), []
    while not game.over and len(found) < 12:
        if len(game.history) % every == 0 and len(game.legal_action_ids()) > 1:
            found.append(game.clone())
        game.apply_id(pick.choice(game.legal_action_ids()))
    return found


@pytest.mark.parametrize("name", ["knizia2016", "modern-art"])
@pytest.mark.parametrize("spec", SPECS)
def test_the_hints_first_move_is_the_bots_own_choice(name: str, spec: str) -> None:
    for n, game in enumerate(positions(name, 9)):
        shown = hint(game, spec, seed=n)
        assert shown["choice"] == shown["moves"][0]["id"] == choose_id(make_agent(spec, n), game)
        assert {m["id"] for m in shown["moves"]} <= set(game.legal_action_ids())
        values = [m["value"] for m in shown["moves"][1:]]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("name", ["knizia2016", "modern-art"])
def test_a_hint_is_the_same_for_every_deal_of_what_the_seat_cannot_see(name: str) -> None:
    secrets = 0
    for n, game in enumerate(positions(name, 7)):
        seat = game.to_move
        asked = hint(game, "greedy", seed=n)
        for k in range(3):
            other = Guesses(game, seat).draw(random.Random(1000 * n + k))
            assert {**other.observation(seat), "log": 0} == {**game.observation(seat), "log": 0}
            secrets += other.state.hands != game.state.hands or other.state.decks != game.state.decks
            assert hint(other, "greedy", seed=n) == asked, (game.step.phase, k)
    assert secrets, "no position dealt otherwise: the test compared a game with itself"


def test_a_bot_that_does_not_rank_moves_is_refused() -> None:
    game = positions("knizia2016", 5)[0]
    with pytest.raises(ValueError, match="does not rank moves"):
        hint(game, "random", 1)
