"""The 2003 option `gold_change: payments_only`: gold held as the cards dealt and paid, so an
offer is a sum of a player's own cards (rules/knizia2003.yaml says why), and the engine's
`denominations` of a resource that make it work (interpreter/play/denominations.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import amunre
from amunre import RulesError
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.play import material
from amunre.interpreter.play.denominations import paying, payout, sums
from conftest import REPO, random_agents
from test_scenarios_2016 import act, events, gold, phase

HELD = {"options": {"gold_change": "payments_only"}}
START = [10, 5, 2, 2, 1]                    # [O] Preparation


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(REPO / "rules" / "knizia2003.yaml")


def cards(game: amunre.Game, seat: int) -> list[int]:
    return game.state.held["gold"][seat]


def setup(**more: Any) -> dict[str, Any]:
    return {**HELD, "start_player": 0, **more}


def at_the_sacrifice(rules: Any, held: bool = True, **more: Any) -> amunre.Game:
    """Every seat takes a province for 0 and buys nothing: the sacrifice is next."""
    lots = ["buto", "mendes", "sawu", "kharga"]
    chosen = setup(decks={"provinces": lots}, **more)
    if not held:
        del chosen["options"]
    game = amunre.new_game(rules, players=4, seed=3, setup=chosen)
    for seat, lot in enumerate(lots):
        act(game, seat, type="bid", lot=lot, space=0)
    while phase(game) == "player_actions":
        act(game, game.to_move, **next(a for a in game.legal_actions() if a.get("count") == 0 or a["type"] == "done"))
    assert phase(game) == "sacrifice"
    return game


def offers(game: amunre.Game) -> list[int]:
    return [a["amount"] for a in game.legal_actions() if a["type"] == "offer" and "amount" in a]


# ---- how money moves ------------------------------------------------------------------------------

VALUES = (20, 10, 5, 2, 1)


@pytest.mark.parametrize("amount,paid", [(6, [5, 1]), (3, [2, 1]), (4, [2, 2]), (8, [5, 2, 1]), (9, [5, 2, 2]),
                                         (10, [10]), (20, START), (0, [])])
def test_a_payment_the_cards_make_exactly_takes_the_fewest_cards(amount: int, paid: list[int]) -> None:
    assert sorted(paying(START, amount), reverse=True) == paid
    assert sum(paid) == amount


@pytest.mark.parametrize("held,amount,paid", [([20, 1], 3, [20]), ([10, 5], 3, [5]), ([10, 5], 12, [10, 5]),
                                              ([5, 5, 2], 6, [5, 2]), ([2, 2, 2, 5], 5, [5])])
def test_a_payment_they_cannot_make_takes_the_smallest_sum_above_it(held: list[int], amount: int,
                                                                    paid: list[int]) -> None:
    assert sorted(paying(held, amount), reverse=True) == paid


def test_the_bank_pays_with_the_largest_cards_first() -> None:
    assert payout(VALUES, 17) == [10, 5, 2]         # [O] the income example's 17 gold
    assert payout(VALUES, 3) == [2, 1]              # stealing 3 gold
    assert payout(VALUES, 12) == [10, 2]            # Dakhla's free gold
    assert payout(VALUES, 0) == []


def test_the_sums_the_cards_make() -> None:
    made = sums([10, 5])
    assert [n for n in range(20) if made >> n & 1] == [0, 5, 10, 15]
    assert all(sums(START) >> n & 1 for n in range(21))     # the starting hand makes every amount


# ---- the option in play ---------------------------------------------------------------------------

def test_the_option_is_listed_and_off_by_default(rules: Any) -> None:
    option = rules.options["gold_change"]
    assert option.values == ("any_time", "payments_only") and option.default == "any_time"
    assert "[O]" in option.doc and "[R]" in option.doc        # both editions' rules, docs/sources.md
    game = amunre.new_game(rules, players=4, seed=1)
    assert game.state.held == {} and "held" not in game.to_json()["state"]
    assert "held" not in game.observation(0)


def test_each_seat_holds_the_cards_it_was_dealt(rules: Any) -> None:
    game = amunre.new_game(rules, players=4, seed=1, setup=HELD)
    assert game.state.held == {"gold": [START] * 4}
    other = amunre.new_game(rules, players=3, seed=1, setup={**HELD, "resources": {"gold": [20, 9]}})
    assert other.state.held["gold"] == [[20], [5, 2, 2], START]      # a set-up amount, as the bank pays it


def test_an_offer_its_cards_cannot_make_is_not_legal(rules: Any) -> None:
    game = at_the_sacrifice(rules, resources={"gold": [20, 9]})
    assert cards(game, 0) == [20]
    assert offers(game) == [20]                    # no change at the sacrifice: all or nothing
    act(game, 0, type="offer", amount=20)
    assert cards(game, 1) == [5, 2, 2]
    assert offers(game) == [2, 4, 5, 7, 9]
    with pytest.raises(amunre.IllegalAction):
        game.apply({"type": "offer", "amount": 3})
    # Without the option the same seat may offer any amount up to what it holds.
    free = at_the_sacrifice(rules, held=False, resources={"gold": [20, 9]})
    assert free.state.held == {} and offers(free) == list(range(1, 21))


def test_an_offer_is_paid_with_exactly_its_cards_and_a_thief_is_paid_3(rules: Any) -> None:
    game = at_the_sacrifice(rules, resources={"gold": [20, 9]})
    act(game, 0, type="offer", amount=20)
    act(game, 1, type="offer", amount=7)
    act(game, 2, type="offer", amount=8)
    act(game, 3, type="offer", card="minus_three")
    assert events(game, "settled")[-1]["total"] == 20 + 7 + 8 - 3
    assert cards(game, 0) == [] and cards(game, 1) == [2]     # no change given
    assert cards(game, 2) == [10, 2]                          # 8 = 5 + 2 + 1
    assert cards(game, 3) == START[:3] + [2, 2, 1, 1]         # 3 gold from the bank: 2 + 1


def test_payments_to_the_bank_get_change(rules: Any) -> None:
    # The bidding example of [O] phase 2 with gold held as cards: white pays 10, blue 6, red
    # takes Dakhla's 12 free gold.
    red, black, blue, white = 0, 1, 2, 3
    game = amunre.new_game(rules, players=4, seed=1, setup=setup(
        decks={"provinces": ["abydos", "sawu", "dakhla", "baharya"]}))
    for seat, lot, space in ((red, "abydos", 3), (black, "sawu", 1), (blue, "abydos", 6), (white, "abydos", 10),
                             (red, "dakhla", 0), (blue, "sawu", 6), (black, "baharya", 0)):
        act(game, seat, type="bid", lot=lot, space=space)
    assert cards(game, white) == [5, 2, 2, 1]                 # the 10 card
    assert cards(game, blue) == [10, 2, 2]                    # 6 = 5 + 1
    assert cards(game, red) == [10, 10, 5, 2, 2, 2, 1]        # + 10 + 2 from the bank
    assert cards(game, black) == START


def test_the_price_table_example_in_cards(rules: Any) -> None:
    # [O] phase 3: 2 power cards (3) + 4 farmers (10) + 3 building stones (6) = 19 gold.
    lots = ["thebes", "buto", "mendes", "sawu"]
    game = amunre.new_game(rules, players=4, seed=3, setup=setup(decks={"provinces": lots}))
    for seat, lot in enumerate(lots):
        act(game, seat, type="bid", lot=lot, space=0)
    act(game, 0, type="buy", good="power", count=2)
    assert cards(game, 0) == [10, 5, 2]                       # 3 = 2 + 1
    act(game, 0, type="buy", good="farmer", count=4)
    assert cards(game, 0) == [5, 2]                           # the 10 card
    for _ in range(4):
        act(game, 0, type="place", token="farmer", at="thebes")
    act(game, 0, type="buy", good="stone", count=3)
    assert cards(game, 0) == [1] and gold(game, 0) == 20 - 19  # 6 paid with 5 + 2, 1 back


def test_a_power_card_sold_brings_a_1_gold_card(rules: Any) -> None:
    game = amunre.new_game(rules, players=4, seed=1, setup=setup(hands=[["farmer_bonus"]]))
    assert game.to_move == 0
    act(game, 0, type="sell", card="farmer_bonus")
    assert cards(game, 0) == START + [1]


def test_a_loss_beyond_the_total_takes_every_card(rules: Any) -> None:
    game = amunre.new_game(rules, players=4, seed=1, setup=HELD)
    material.gain(game, 0, "gold", -7, Cause("score", "a test"))
    assert cards(game, 0) == [10, 2, 1] and gold(game, 0) == 13      # 7 = 5 + 2: no change
    material.gain(game, 0, "gold", -50, Cause("score", "a test"))
    assert cards(game, 0) == [] and gold(game, 0) == 0
    material.gain(game, 0, "gold", 500, Cause("score", "a test"))      # capped by the max, 392
    assert gold(game, 0) == 392 and sum(cards(game, 0)) == 392 and cards(game, 0)[-1] == 2


# ---- save and replay ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [8, 9])
def test_a_game_with_the_option_saves_and_replays(rules: Any, seed: int) -> None:
    game = amunre.new_game(rules, players=4, seed=seed, setup=HELD)
    agents = random_agents(seed, 4)
    while not game.over and len(game.history) < 150:
        game.apply(agents[game.to_move].choose(game, game.legal_actions()))
    data = json.loads(json.dumps(game.to_json()))
    assert data["state"]["held"]["gold"] == game.state.held["gold"] != [START] * 4
    restored = amunre.Game.from_json(data)
    assert restored.state == game.state and restored.to_json() == data
    while not game.over:
        action = agents[game.to_move].choose(game, game.legal_actions())
        game.apply(action)
        restored.apply(action)
    assert restored.state == game.state and restored.result() == game.result()
    again = amunre.new_game(rules, players=4, seed=seed, setup=HELD)
    for action in game.actions():
        again.apply(action)
    assert again.to_json() == game.to_json()
    data["state"]["held"]["gold"][0].append(1)                # a save whose cards are not those played
    with pytest.raises(amunre.AmunreError, match="held"):
        amunre.Game.from_json(data)


# ---- the declaration ------------------------------------------------------------------------------

@pytest.mark.parametrize("held,message", [
    ("{values: [2, 5]}", "need a value 1"),
    ("{values: [1, 5], start: [5, 5]}", "add up to 10, and gold starts at 20"),
    ("{values: [1, 5], start: [5, 5, 7, 3]}", "7 is not one of the values"),
    ("{values: [1, 5], when: \"option.nope == x\"}", "nope"),
])
def test_a_wrong_declaration_is_refused_at_its_line(tmp_path: Any, held: str, message: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: knizia2003\nresources:\n  gold:\n    denominations: {held}\n", encoding="utf-8")
    with pytest.raises(RulesError) as error:
        amunre.load_rules(path)
    assert message in str(error.value) and "house.yaml:4:" in error.value.format()


def test_held_as_cards_needs_a_bounded_resource(tmp_path: Any) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: knizia2003\nresources:\n  vp:\n    denominations: {values: [1]}\n", encoding="utf-8")
    with pytest.raises(RulesError, match="needs a `max`"):
        amunre.load_rules(path)
