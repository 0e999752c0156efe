"""A market's goods may each have their own price curve (`goods[].price`), replacing the
market's `price` for that good alone: the shipped house rule `cheap_farmers` sells farmers at
half price, rounded up, and favor cards and stones at the printed curve (issue 36)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import amunre

REPO = Path(__file__).resolve().parents[1]
CHEAP = REPO / "rules" / "house" / "cheap_farmers.yaml"


def printed(n: int) -> int:
    return n * (n + 1) // 2


def test_each_good_is_priced_by_its_own_curve() -> None:
    rules = amunre.load_rules(CHEAP)
    market = rules.phases["market"]
    goods = [good.id for good, _ in market.goods]
    assert goods == ["favor", "farmer", "stone"]
    game = amunre.new_game(rules, players=3, seed=0)
    for n in range(6):
        assert market.cost(game, 0, n, goods.index("farmer")) == (printed(n) + 1) // 2
        assert market.cost(game, 0, n, goods.index("stone")) == printed(n)
        assert market.cost(game, 0, n, goods.index("favor")) == printed(n)
        assert market.cost(game, 0, n) == printed(n)           # the market's own curve
    assert market.prices is None               # no one curve for every good: tools bound a turn loosely


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_games_charge_what_each_curve_says(seed: int) -> None:
    """Every purchase of a played game: farmers at half price rounded up, the rest as printed,
    and the buyer's gold goes down by that price."""
    game = amunre.new_game(amunre.load_rules(CHEAP), players=4, seed=seed)
    chooser = random.Random(seed)
    while not game.over:
        game.apply_id(chooser.choice(game.legal_action_ids()))
    buys = [e for e in game.log if e.get("event") == "buy"]
    assert any(e["good"] == "farmer" and e["count"] >= 2 for e in buys)
    for event in buys:
        n = event["count"]
        assert event["price"] == ((printed(n) + 1) // 2 if event["good"] == "farmer" else printed(n)), event


def test_a_good_s_own_curve_is_checked_where_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "negative.yaml"
    path.write_text(CHEAP.read_text(encoding="utf-8").replace('price: "(n * (n + 1) // 2 + 1) // 2"', 'price: "1 - n"'),
                    encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    text = info.value.format()
    assert "a price is never below 0, and this curve gives -1 for n = 2" in text
    line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if '"1 - n"' in row)
    assert f"negative.yaml:{line}:" in text
