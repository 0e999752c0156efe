"""The auction of a lot a seller puts up, in each style (once around, open, sealed, fixed
price), the lay_card phase that puts it up, and a transition: a small game written for them.

Each seat is dealt cards (places) whose `style` says how they are sold; the start player lays
one, which is auctioned in its style, paid to the seller; then the start passes on. Hands
are stacked so that each test knows the cards.
"""

from __future__ import annotations

import json
import random
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import amunre

GAME = """\
id: lots
title: An auction of lots
players: {min: 3, max: 4}
resources:
  money: {start: 20, max: 100, hidden: true}
  vp: {}
places:
  noun: card
  ownership: single
  properties:
    style: {values: [once_around, open, sealed, fixed_price]}
  items:
    - {id: a1, style: once_around}
    - {id: a2, style: once_around}
    - {id: o1, style: open}
    - {id: o2, style: open}
    - {id: s1, style: sealed}
    - {id: s2, style: sealed}
    - {id: f1, style: fixed_price}
    - {id: f2, style: fixed_price}
tokens:
  for_sale: {supply: 10}
decks:
  stock: {of: places}
phases:
  deal: {mechanic: deal, deck: stock, count: 2}
  lead:
    mechanic: lay_card
    order: {from: start_player}
    first_only: true
    deck: stock
    then: "place 1 for_sale in card"
  sale:
    mechanic: auction
    style: lead.card.style
    lot: "cards where for_sale > 0"
    seller: lead.seat
    pay: money
    on_win: "claim it; remove 1 for_sale from it; +1 vp"
  pass_on:
    mechanic: transition
    run: "set start_player = next_player"
flow:
  - deal
  - name: turn
    times: 3
    repeat: [lead, sale, pass_on]
winner: {score: vp, tiebreak: ["my.money"]}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("lots") / "lots.yaml"
    path.write_text(GAME, encoding="utf-8")
    return amunre.load_rules(path)


def game_with(rules: Any, hand: list[str], players: int = 3) -> amunre.Game:
    """A game whose seat 0 (the start player) is dealt `hand` first."""
    return amunre.new_game(rules, players=players, seed=1, setup={"start_player": 0, "decks": {"stock": hand}})


def act(game: amunre.Game, seat: int, **action: Any) -> None:
    assert game.to_move == seat, f"seat {game.to_move} is to move, not {seat}"
    game.apply(action)


def sold(game: amunre.Game) -> dict[str, Any]:
    return [e for e in game.log if e["event"] == "sold"][-1]


def money(game: amunre.Game) -> list[int]:
    return [r["money"] for r in game.state.resources]


def test_once_around_from_the_sellers_left_the_seller_last(rules: Any) -> None:
    game = game_with(rules, ["a1", "o1"])
    act(game, 0, type="lay", card="a1")
    assert {"type": "bid", "amount": 1} in game.legal_actions() and {"type": "decline"} in game.legal_actions()
    act(game, 1, type="bid", amount=5)
    assert {"type": "bid", "amount": 5} not in game.legal_actions()       # above the best bid only
    act(game, 2, type="bid", amount=7)
    act(game, 0, type="decline")                                          # the seller, last
    assert sold(game) == {"event": "sold", "seat": 2, "lot": ["a1"], "price": 7, "to": 0}
    assert money(game) == [27, 20, 13]
    assert game.state.owner[rules.place_index["a1"]] == 2 and game.state.start_player == 1


def test_the_seller_who_wins_pays_the_bank(rules: Any) -> None:
    game = game_with(rules, ["a1", "o1"])
    act(game, 0, type="lay", card="a1")
    act(game, 1, type="decline")
    act(game, 2, type="decline")
    act(game, 0, type="bid", amount=4)
    assert sold(game) == {"event": "sold", "seat": 0, "lot": ["a1"], "price": 4, "to": None}
    assert money(game) == [16, 20, 20]


def test_open_goes_round_until_every_other_seat_declines_in_a_row(rules: Any) -> None:
    game = game_with(rules, ["o1", "a1"])
    act(game, 0, type="lay", card="o1")
    act(game, 1, type="bid", amount=2)
    act(game, 2, type="decline")
    act(game, 0, type="bid", amount=3)
    act(game, 1, type="bid", amount=6)          # seat 1 again: a decline does not leave an open auction
    act(game, 2, type="bid", amount=9)
    act(game, 0, type="decline")
    assert game.to_move == 1                    # two declines are needed after the last bid
    act(game, 1, type="decline")
    assert sold(game) == {"event": "sold", "seat": 2, "lot": ["o1"], "price": 9, "to": 0}


def test_nobody_bidding_leaves_the_lot_to_the_seller_for_nothing(rules: Any) -> None:
    game = game_with(rules, ["o1", "a1"])
    act(game, 0, type="lay", card="o1")
    for seat in (1, 2, 0):
        act(game, seat, type="decline")
    assert sold(game) == {"event": "sold", "seat": 0, "lot": ["o1"], "price": 0, "to": None}
    assert money(game) == [20, 20, 20] and game.state.resources[0]["vp"] == 1


def test_sealed_bids_are_hidden_until_all_are_in_and_ties_go_to_the_earlier(rules: Any) -> None:
    game = game_with(rules, ["s1", "a1"])
    act(game, 0, type="lay", card="s1")
    act(game, 1, type="bid", amount=8)
    seen = game.observation(2)["phase"]["sealed"]
    assert seen[1] == "hidden" and game.observation(1)["phase"]["sealed"][1] == 8
    assert not any(e["event"] == "offered" for e in game.log if e.get("seat") == 1)
    act(game, 2, type="bid", amount=8)
    act(game, 0, type="bid", amount=5)
    offered = [(e["seat"], e["amount"]) for e in game.log if e["event"] == "offered"]
    assert offered == [(1, 8), (2, 8), (0, 5)]
    assert sold(game)["seat"] == 1 and sold(game)["price"] == 8      # a tie: the earlier from the seller's left


def test_sealed_ties_may_go_to_the_seller_first(tmp_path: Path) -> None:
    """With `ties: seller`, a seller tied for the best bid wins; a tie without it goes to the
    earlier from its left."""
    path = tmp_path / "seller_ties.yaml"
    path.write_text(GAME.replace("    pay: money\n", "    pay: money\n    ties: seller\n"), encoding="utf-8")
    rules = amunre.load_rules(path)
    game = game_with(rules, ["s1", "a1", "s2", "a2"])
    act(game, 0, type="lay", card="s1")
    act(game, 1, type="bid", amount=5)
    act(game, 2, type="bid", amount=8)
    act(game, 0, type="bid", amount=8)
    assert sold(game) == {"event": "sold", "seat": 0, "lot": ["s1"], "price": 8, "to": None}
    act(game, 1, type="lay", card="s2")
    act(game, 2, type="bid", amount=6)
    act(game, 0, type="bid", amount=6)
    act(game, 1, type="bid", amount=3)
    assert sold(game) == {"event": "sold", "seat": 2, "lot": ["s2"], "price": 6, "to": 1}


def test_fixed_price_the_first_to_accept_buys_else_the_seller_pays(rules: Any) -> None:
    game = game_with(rules, ["f1", "f2", "a1", "a2"], players=3)
    act(game, 0, type="lay", card="f1")
    assert {"type": "price", "amount": 21} not in game.legal_actions()   # at most what the seller has
    act(game, 0, type="price", amount=6)
    act(game, 1, type="decline")
    act(game, 2, type="buy")
    assert sold(game) == {"event": "sold", "seat": 2, "lot": ["f1"], "price": 6, "to": 0}
    act(game, 1, type="lay", card=game.state.hands[1][0])             # seat 1 leads now: its own card


def test_the_seller_buys_at_its_own_price_when_nobody_does(rules: Any) -> None:
    game = game_with(rules, ["f1", "a1"])
    act(game, 0, type="lay", card="f1")
    act(game, 0, type="price", amount=6)
    act(game, 1, type="decline")
    act(game, 2, type="decline")
    assert sold(game) == {"event": "sold", "seat": 0, "lot": ["f1"], "price": 6, "to": None}
    assert money(game) == [14, 20, 20]


def test_a_hidden_resource_shows_only_to_its_seat(rules: Any) -> None:
    game = game_with(rules, ["a1", "o1"])
    seen = game.observation(1)
    assert seen["resources"][1]["money"] == 20 and seen["resources"][0]["money"] == "hidden"
    assert all("money" not in sources for other, sources in enumerate(seen["sources"]) if other != 1)
    layout = {piece["name"]: piece for piece in game.observation_layout()}
    tensor = game.observation_tensor(1)
    at = layout["resources"]["offset"]
    assert tensor[at:at + 2] == [0.0, 0.0] and tensor[at + 2] == 20.0        # seat 0's hidden, its own shown


def test_random_games_of_every_style_end_and_log_by_the_schema(rules: Any) -> None:
    """Money is only ever paid by a winner, to the seller or the bank; every event follows
    grammar/log.schema.json."""
    schema = json.loads(files("amunre.grammar").joinpath("log.schema.json").read_text(encoding="utf-8"))
    check = Draft202012Validator(schema)
    for seed in range(30):
        game = amunre.new_game(rules, players=3 + seed % 2, seed=seed)
        pick = random.Random(seed)
        while not game.over:
            game.apply_id(pick.choice(game.legal_action_ids()))
        total = sum(r["money"] for r in game.state.resources)
        paid_to_bank = sum(e["price"] for e in game.log if e["event"] == "sold" and e["to"] is None)
        assert total == 20 * game.state.players - paid_to_bank
        for event in game.log:
            check.validate(event)


def test_a_lot_auction_needs_a_lot_and_an_amount_bound(tmp_path: Path) -> None:
    text = GAME.replace('    lot: "cards where for_sale > 0"\n', "").replace("max: 100, ", "")
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    message = info.value.format()
    assert "an auction of a lot needs `lot`" in message and "give it a `max`" in message


def test_a_bot_values_an_even_spread_of_many_amounts(tmp_path: Path) -> None:
    """With 300 to bid, a heuristic bot values 33 amounts (the least and the most among them)
    and every other action, not 300: one step ahead, neighbouring bids are worth the same."""
    from amunre.tools.agents import make_agent
    from amunre.tools.agents.heuristic import SPREAD, spread
    path = tmp_path / "rich.yaml"
    path.write_text(GAME.replace("start: 20, max: 100", "start: 300, max: 1000"), encoding="utf-8")
    game = game_with(amunre.load_rules(path), ["a1", "o1"])
    act(game, 0, type="lay", card="a1")
    ids = game.legal_action_ids()
    kept = spread(game, ids)
    bids = [i for i in ids if game.action_from_id(i)["type"] == "bid"]
    assert len(bids) == 300 and len(kept) == SPREAD + 1
    assert {bids[0], bids[-1], *(i for i in ids if i not in bids)} <= set(kept) <= set(ids)
    assert make_agent("greedy", 0).choose_id(game, ids) in kept


def test_a_deal_count_is_worked_out_with_no_seat(tmp_path: Path) -> None:
    """Every seat is dealt the same count, reckoned once: `my` there is refused as the rules load."""
    path = tmp_path / "my_count.yaml"
    path.write_text(GAME.replace("deck: stock, count: 2}", "deck: stock, count: \"my.money // 10\"}"),
                    encoding="utf-8")
    with pytest.raises(amunre.RulesError, match="'my' means nothing here"):
        amunre.load_rules(path)


def test_a_bot_plays_through_a_reveal_only_where_bids_are_sealed(rules: Any) -> None:
    """A lot auction keeps the others' bids secret only when sealed: an open or once-around one
    is valued one step ahead, not over guesses played to the reveal."""
    from amunre.tools.agents.heuristic import keeps_secret
    seen = {}
    for card in ("a1", "o1", "s1", "f1"):
        game = game_with(rules, [card, "a2"])
        act(game, 0, type="lay", card=card)
        seen[card] = keeps_secret(game)
    assert seen == {"a1": False, "o1": False, "s1": True, "f1": False}
