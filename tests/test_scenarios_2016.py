"""The 2016 rulebook's worked examples ([R] in docs/sources.md) live in rules/knizia2016.yaml's
`examples:` and are played by `amunre check` (tests/test_examples.py). What stays here is a
number no example reaches, the market's price curve beyond the printed scale, and the small
helpers other scenario tests play with."""

from __future__ import annotations

from pathlib import Path

import amunre

RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"


def act(game, seat, **action):
    """Apply an action for the seat that must be to move, checking it is offered as legal."""
    assert game.to_move == seat, f"expected seat {seat} to move, not {game.to_move}"
    assert action in game.legal_actions(), f"{action} not legal; legal: {game.legal_actions()}"
    game.apply(action)


def gold(game, seat):
    return game.state.resources[seat]["gold"]


def place(game, rules, pid):
    return game.state.tokens[rules.place_index[pid]]


def owner(game, rules, pid):
    return game.state.owner[rules.place_index[pid]]


def phase(game):
    return game.step.phase


def events(game, kind):
    return [e for e in game.log if e["event"] == kind]


def _auction_all_zero(game, rules, order, lots):
    """Each seat in order bids 0 on its own lot."""
    for seat, lot in zip(order, lots):
        act(game, seat, type="bid", lot=lot, space=0)


def _skip_market(game):
    """Every seat buys nothing and plays nothing."""
    while phase(game) == "market":
        legal = game.legal_actions()
        act(game, game.to_move, **next(a for a in legal if a.get("count") == 0 or a["type"] == "done"))


def test_market_price_curve_beyond_the_printed_scale():
    rules = amunre.load_rules(RULES)
    market = rules.phases["market"]
    game = amunre.new_game(rules, players=3, seed=6)
    assert [market.cost(game, 0, n) for n in range(1, 10)] == [1, 3, 6, 10, 15, 21, 28, 36, 45]
