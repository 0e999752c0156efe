"""Modern Art (rules/modern-art.yaml), written as a rules file alone: what its worked examples
cannot say. The examples of the CMON rulebook ([M]) with their numbers (the value of an artist
over four rounds, the fifth painting, doubles, the fixed price, the cards dealt, the paintings
counted) are the file's own `examples:`, played by `amunre check` (and by
tests/test_examples.py); here: hidden money, random games, the command line, the money bound.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from conftest import REPO


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(REPO / "rules" / "modern-art.yaml")


def funds(game: amunre.Game) -> list[int]:
    return [r["funds"] for r in game.state.resources]


def play_random(rules: Any, players: int, seed: int) -> amunre.Game:
    game = amunre.new_game(rules, players=players, seed=seed)
    pick = random.Random(seed)
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
    return game


def test_money_is_hidden_from_the_other_dealers(rules: Any) -> None:
    """[M] Game setup 3: money stays behind each screen."""
    game = amunre.new_game(rules, players=4, seed=3)
    seen = game.observation(1)["resources"]
    assert seen[1]["funds"] == 100 and all(seen[s]["funds"] == "hidden" for s in (0, 2, 3))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_with_money_accounted_for(rules: Any, players: int) -> None:
    """Every game ends after four rounds at most; money only moves from buyer to seller, to the
    bank, or from the bank for paintings sold; no painting is owned at the end."""
    for seed in range(4):
        game = play_random(rules, players, seed)
        to_bank = sum(e["price"] for e in game.log if e["event"] == "sold" and e["to"] is None)
        from_bank = sum(e["amount"] for e in game.log if e["event"] == "gain" and e["cause"]["id"] == "sell_paintings")
        assert sum(funds(game)) == 100 * players - to_bank + from_bank
        assert all(owner < 0 for owner in game.state.owner)                 # every painting sold back
        assert max(e["round"] for e in game.log if e["event"] == "phase") <= 4


@pytest.mark.parametrize("players", ["3", "4", "5"])
def test_the_cli_plays_it_by_its_shipped_name(players: str) -> None:
    result = CliRunner().invoke(app, ["run", "modern-art", "--players", players, "--seed", "1",
                                      "--agents", ",".join(["random"] * int(players))])
    assert result.exit_code == 0, result.output
    assert "Round 4" in result.stdout and "Winner" in result.stdout and "Age" not in result.stdout


def test_no_game_comes_near_the_money_bound(rules: Any) -> None:
    """The file bounds money (the game does not): games of greedy bots stay well below it, so
    the bound, which would keep a seat's money from growing, never plays a part."""
    from amunre.tools.agents import make_agent
    most = 0
    for seed in range(6):
        players = 3 + seed % 3
        game = amunre.new_game(rules, players=players, seed=seed, events=False)
        agents = [make_agent("greedy", seed * 7 + seat) for seat in range(players)]
        while not game.over:
            game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
            most = max(most, *funds(game))
    assert most < rules.resource_max["funds"] // 2
