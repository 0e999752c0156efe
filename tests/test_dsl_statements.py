"""Seats as values and the statements beyond gains: `others`, `seats`, choosing a seat, taking
from and giving to another seat, `each`, `if`, moving and removing tokens, claiming and
releasing places, the start player, modifiers of another seat, and the builtin functions.
Each statement runs on a real 2016 game and its exact effect is checked."""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.base.limits import MAX_AMOUNT
from amunre.interpreter.dsl import Dsl, Effect, Scope
from amunre.interpreter.dsl.builtins import FUNCTIONS, VALUES
from amunre.interpreter.dsl.context import Ctx
from amunre.interpreter.dsl.types import NUM, PLACE, SEAT, SEATS
from conftest import effect_bindings as options


@pytest.fixture
def game(rules: Any) -> amunre.Game:
    return amunre.new_game(rules, players=4, seed=1, setup={"start_player": 0})


def compile_effect(rules: Any, text: str, **bound: Any) -> Effect:
    """Compile an effect with `bound` names (name=SEAT or PLACE) as a caller would bind them."""
    problems: list = []
    effect = Dsl(rules.vocab, lambda *p: problems.append(p)).effect(text, Scope(bound=bound))
    assert problems == [], problems
    return effect


def value(rules: Any, game: amunre.Game, text: str, seat: int = 0) -> Any:
    problems: list = []
    compiled = Dsl(rules.vocab, lambda *p: problems.append(p)).expression(text, Scope())
    assert problems == [], problems
    return compiled.fn(Ctx(game, seat))


def run(game: amunre.Game, effect: Effect, seat: int = 0, **env: Any) -> None:
    effect.run(Ctx(game, seat, dict(env), None, Cause("card", "test")))


def gold(game: amunre.Game) -> list[int]:
    return [r["gold"] for r in game.state.resources]


def test_others_and_seats(rules: Any, game: amunre.Game) -> None:
    assert value(rules, game, "count(seats)") == 4
    assert value(rules, game, "count(others)", seat=2) == 3
    game.state.resources[3]["gold"] = 5
    assert value(rules, game, "count(others where gold > 10)", seat=0) == 2
    assert value(rules, game, "sum(others, gold)", seat=1) == 20 + 20 + 5
    assert value(rules, game, "me == start_player", seat=0) is True
    assert value(rules, game, "my == start_player", seat=1) is False


def test_choose_a_seat_and_take_from_it(rules: Any, game: amunre.Game) -> None:
    effect = compile_effect(rules, "choose victim from others where gold >= 2; take 2 gold from victim")
    game.state.resources[2]["gold"] = 1
    assert options(game, 0, effect) == [{"victim": 1}, {"victim": 3}]     # seat 2 has too little
    run(game, effect, 0, victim=3)
    assert gold(game) == [22, 20, 1, 18]
    assert game.state.sources[0]["gold"]["test"] == 2 and game.state.sources[3]["gold"]["test"] == -2


def test_take_and_give_move_no_more_than_there_is(rules: Any, game: amunre.Game) -> None:
    game.state.resources[1]["gold"] = 3
    run(game, compile_effect(rules, "take 5 gold from victim", victim=SEAT), 0, victim=1)
    assert gold(game) == [23, 0, 20, 20]
    run(game, compile_effect(rules, "give 30 gold to friend", friend=SEAT), 2, friend=1)
    assert gold(game) == [23, 20, 0, 20]


def test_a_gain_past_the_resource_max_is_lost(rules: Any, game: amunre.Game) -> None:
    run(game, compile_effect(rules, "+1000 gold"), 0)
    assert gold(game)[0] == rules.resource_max["gold"] == 392
    run(game, compile_effect(rules, "give 100 gold to friend", friend=SEAT), 1, friend=0)
    assert gold(game)[:2] == [392, 20]                   # no room: nothing moves


def test_a_gain_past_the_largest_amount_is_an_error(rules: Any, game: amunre.Game) -> None:
    """A resource without a max may not pass MAX_AMOUNT: the rule that would is named."""
    assert "vp" not in rules.resource_max
    game.state.resources[0]["vp"] = MAX_AMOUNT - 3
    run(game, compile_effect(rules, "+3 vp"), 0)
    assert game.state.resources[0]["vp"] == MAX_AMOUNT
    with pytest.raises(GameError, match=f"seat 0's vp would pass {MAX_AMOUNT:,}"):
        run(game, compile_effect(rules, "+1 vp"), 0)


def test_each_and_gains_for_another_seat(rules: Any, game: amunre.Game) -> None:
    run(game, compile_effect(rules, "each s in others: (+1 vp for s; -2 gold for s)"), 1)
    assert [r["vp"] for r in game.state.resources] == [1, 0, 1, 1]
    assert gold(game) == [18, 20, 18, 18]
    hands = [len(h) for h in game.state.hands]
    run(game, compile_effect(rules, "each s in seats: draw 1 favor for s"), 0)
    assert [len(h) for h in game.state.hands] == [n + 1 for n in hands]


def test_if_then_else(rules: Any, game: amunre.Game) -> None:
    effect = compile_effect(rules, "if my.gold > 20 then +1 vp else (-1 gold; +2 vp)")
    run(game, effect, 0)
    assert game.state.resources[0] == {"gold": 19, "vp": 2}
    game.state.resources[1]["gold"] = 25
    run(game, effect, 1)
    assert game.state.resources[1] == {"gold": 25, "vp": 1}


def test_move_remove_claim_and_release(rules: Any, game: amunre.Game) -> None:
    a, b = rules.place_index["thebes"], rules.place_index["buto"]
    run(game, compile_effect(rules, "claim a; place 2 stone in a; place 3 farmer in a", a=PLACE), 2, a=a)
    assert game.state.owner[a] == 2
    stones = game.state.supply["stone"]
    run(game, compile_effect(rules, "move 1 stone from a to b; remove 2 farmer from a", a=PLACE, b=PLACE), 2, a=a, b=b)
    assert game.state.tokens[a] == {"stone": 1, "farmer": 1} and game.state.tokens[b] == {"stone": 1}
    assert game.state.supply["stone"] == stones
    # only 1 to move: 2 there
    run(game, compile_effect(rules, "move 3 stone from b to a", a=PLACE, b=PLACE), 2, a=a, b=b)
    assert game.state.tokens[a]["stone"] == 2 and game.state.tokens[b]["stone"] == 0
    run(game, compile_effect(rules, "claim a for s", a=PLACE, s=SEAT), 0, a=a, s=3)
    assert game.state.owner[a] == 3
    run(game, compile_effect(rules, "release a", a=PLACE), 0, a=a)
    assert game.state.owner[a] == -1


def test_the_start_player_is_a_named_effect(rules: Any, game: amunre.Game) -> None:
    run(game, compile_effect(rules, "set start_player = me"), 2)
    assert game.state.start_player == 2
    assert game.log[-1] == {"event": "start_player", "seat": 2, "cause": {"kind": "card", "id": "test"}}
    run(game, compile_effect(rules, "choose s from others; set start_player = s"), 2, s=0)
    assert game.state.start_player == 0


def test_a_modifier_of_another_seat(rules: Any, game: amunre.Game) -> None:
    run(game, compile_effect(rules, "set auction.extra_blocked_spaces of s = 2", s=SEAT), 0, s=3)
    assert game.state.mods["auction.extra_blocked_spaces"] == [None, None, None, 2]


def test_min_max_abs_take_numbers_or_collections(rules: Any, game: amunre.Game) -> None:
    assert value(rules, game, "min(3, my.gold)") == 3
    assert value(rules, game, "max(3, my.gold, 7)") == 20
    assert value(rules, game, "abs(3 - my.gold)") == 17
    assert value(rules, game, "max(provinces, caravan)") == 8


def test_builtins_are_one_registry(rules: Any) -> None:
    """Every builtin value and function has a type and a line of documentation."""
    assert VALUES["others"].type == SEATS and VALUES["players"].type == NUM
    assert all(v.doc for v in VALUES.values()) and all(f.doc for f in FUNCTIONS.values())
    assert {"count", "sum", "min", "max", "all", "any", "abs"} <= set(FUNCTIONS)


def test_choices_over_seats_are_actions(rules: Any, tmp_path) -> None:
    """A card that chooses a seat: each allowed seat is one play action, by seat number."""
    text = (rules.path and open(rules.path, encoding="utf-8").read())
    old = 'effect: "require sum(my.provinces, favor_symbols) >= 7; +3 vp"'
    path = tmp_path / "steal.yaml"
    path.write_text(text.replace(old, 'effect: "choose victim from others where gold > 0; take 1 gold from victim"'),
                    encoding="utf-8")
    steal = amunre.load_rules(path)
    game = amunre.new_game(steal, players=3, seed=2, setup={"start_player": 0, "hands": [["master_of_scribes"]]})
    from amunre.interpreter.play import cards
    plays = [game.action_from_id(i) for i in cards.playable(game, 0, "scoring")]
    assert plays == [{"type": "play", "card": "master_of_scribes", "victim": 1},
                     {"type": "play", "card": "master_of_scribes", "victim": 2}]
