"""Corrections to the 2016 edition found by a rules audit (issue 6), each against the text it
follows. tests/golden/knizia2016-before-audit.yaml keeps the rules as they were, so each test
also shows the old reading playing differently.
"""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from amunre.interpreter.base.errors import AmunreError
from conftest import TESTS, play_random
from test_scenarios_2016 import _auction_all_zero, _skip_market, act, events, gold, phase

BEFORE_AUDIT = TESTS / "golden" / "knizia2016-before-audit.yaml"


@pytest.fixture(scope="module")
def old_rules() -> Any:
    return amunre.load_rules(BEFORE_AUDIT)


def market_with_no_gold(rules: Any) -> amunre.Game:
    """Seat 0 reaches the market with no gold but its two starting cards that sell."""
    game = amunre.new_game(rules, players=3, seed=5, setup={
        "start_player": 0, "decks": {"provinces": ["buto", "mendes", "thebes"]},
        "resources": {"gold": [0, 20, 20]}})
    _auction_all_zero(game, rules, [0, 1, 2], ["buto", "mendes", "thebes"])
    assert phase(game) == "market"
    return game


# ---- [R] Round structure: "At any time during the game, players may discard any number of
# their Favor cards for 1 Gold each." A seat short of gold is asked to sell, not skipped.

def test_a_seat_without_gold_is_asked_to_sell_rather_than_skipped(rules: Any) -> None:
    game = market_with_no_gold(rules)
    hand = sorted(game.state.hands[0])
    assert game.to_move == 0
    sellable = [{"type": "sell", "card": c} for c in hand if c in rules.standing.id_of]
    assert sellable and game.legal_actions() == [{"type": "pass"}] + sellable
    act(game, 0, **sellable[0])
    assert gold(game, 0) == 1
    buys = [a for a in game.legal_actions() if a["type"] == "buy"]
    assert buys[-1]["count"] == 1                      # the gold of the sale buys the first one
    act(game, 0, **buys[-1])
    assert gold(game, 0) == 0


def test_a_seat_that_passes_skips_what_it_could_not_pay_for(rules: Any) -> None:
    game = market_with_no_gold(rules)
    hand = list(game.state.hands[0])
    kinds = []
    while game.to_move == 0:
        assert {"type": "pass"} in game.legal_actions()
        kinds.append(game.state.working["stage"])
        act(game, 0, type="pass")
    assert kinds == sorted(set(kinds)) and game.to_move == 1
    assert gold(game, 0) == 0 and game.state.hands[0] == hand


def test_before_the_audit_such_a_seat_was_skipped(old_rules: Any) -> None:
    game = market_with_no_gold(old_rules)
    assert game.to_move == 1


def test_a_seat_holding_nothing_to_sell_is_still_skipped(rules: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=5, setup={
        "start_player": 0, "decks": {"provinces": ["buto", "mendes", "thebes"]},
        "resources": {"gold": [0, 20, 20]}})
    game.state.hands[0] = [c for c in game.state.hands[0] if c not in rules.standing.id_of]
    _auction_all_zero(game, rules, [0, 1, 2], ["mendes", "buto", "thebes"])     # mendes gives no card
    assert game.to_move == 1


# ---- ... and every seat gets a chance to sell before gold is ranked at the game's end.

def test_every_seat_holding_cards_may_sell_before_gold_is_ranked(rules: Any) -> None:
    game = play_random(rules, 3, 19, stop=lambda g: g.step.phase == "last_sales")
    holders = [s for s in range(3) if any(c in rules.standing.id_of for c in game.state.hands[s])]
    assert len(holders) == 2, "the seed should leave two seats with cards to sell"
    asked = []
    while game.step.phase == "last_sales":
        seat = game.to_move
        asked.append(seat)
        assert {"type": "done"} in game.legal_actions()            # selling is a choice
        while game.to_move == seat and game.step.phase == "last_sales":   # the last sale closes the turn
            before = gold(game, seat)
            act(game, seat, **next(a for a in game.legal_actions() if a["type"] == "sell"))
            assert gold(game, seat) == before + 1
    assert asked == [s for s in game_order(game, 3) if s in holders]
    assert game.over and events(game, "score")
    assert not any(c in rules.standing.id_of for s in range(3) for c in game.state.hands[s])


def game_order(game: amunre.Game, players: int) -> list[int]:
    start = game.state.start_player
    return [(start + i) % players for i in range(players)]


# ---- [R] Offering phase: the players who each collect 1 Reward do so "in turn order".

def test_single_rewards_go_in_turn_order_not_by_offer(rules: Any, old_rules: Any) -> None:
    def ranking_and_rewards(rules_: Any) -> tuple[list[int], list[int]]:
        game = amunre.new_game(rules_, players=5, seed=7, setup={
            "start_player": 0, "decks": {"provinces": ["buto", "mendes", "thebes", "edfu", "sawu"]}})
        _auction_all_zero(game, rules_, [0, 1, 2, 3, 4], ["buto", "mendes", "thebes", "edfu", "sawu"])
        _skip_market(game)
        for seat, amount in enumerate([1, 2, 3, 9, 8]):       # seats 2, 1, 0 offer least, in that order
            act(game, seat, type="offer", amount=amount)
        ranking = events(game, "settled")[-1]["ranking"]
        takers = []
        while game.step.phase == "offering" and game.to_move is not None:
            takers.append(game.to_move)
            game.apply(next(a for a in game.legal_actions() if a["type"] == "take"))
        return ranking, list(dict.fromkeys(takers))
    ranking, takers = ranking_and_rewards(rules)
    assert ranking == [3, 4, 2, 1, 0]
    assert takers == [3, 4, 0, 1, 2]                    # 3 and 4 by offer; the others in turn order
    assert ranking_and_rewards(old_rules)[1] == [3, 4, 2, 1, 0]


# ---- Set-up: stacking a deck with the same card twice stacks both copies, or is refused.

def test_stacking_repeated_cards_stacks_every_copy(rules: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=1, setup={"decks": {"favor": ["architect", "architect", "bribery"]}})
    assert game.state.decks["favor"][:3] == ["architect", "architect", "bribery"]
    copies = rules.cards["architect"].count
    assert game.state.decks["favor"].count("architect") + sum(h.count("architect") for h in game.state.hands) \
        + game.state.boxed["favor"].count("architect") == copies


def test_stacking_more_copies_than_the_deck_holds_is_refused(rules: Any) -> None:
    too_many = ["bribery"] * (rules.cards["bribery"].count + 1)
    with pytest.raises(AmunreError, match="no such card left"):
        amunre.new_game(rules, players=3, seed=1, setup={"decks": {"favor": too_many}})


# ---- The play-by-play tells the reset between the ages once, not under its heading and again.

@pytest.mark.parametrize("edition,reset", [("knizia2016", "new_age"), ("knizia2003", "new_kingdom")])
def test_the_reset_between_the_ages_is_told_once(edition: str, reset: str) -> None:
    from typer.testing import CliRunner

    from amunre.cli.app import app
    from amunre.cli.render import describe_phase
    result = CliRunner().invoke(app, ["run", edition, "--seed", "1", "--agents", "random,random,random"])
    assert result.exit_code == 0, result.output
    told = describe_phase(amunre.load_rules(TESTS.parent / "rules" / f"{edition}.yaml"), reset)
    assert told and result.output.count(told) == 1
