"""Where the compiled engine stops, the interpreter goes on: the game stays the interpreter's.

The machine stops where the interpreter would raise (a rule failing: a division by zero) and
where a number leaves its range (2**62, which the interpreter's integers never leave); the
game is then replayed in the interpreter from its seed, set-up and actions, and plays on there.
Each case is a house rule of the 2016 edition written here: the compiled game must give the
same ids, positions and result as the interpreter game, wherever the machine stops (the set-up,
mid-game, the result), and raise the interpreter's GameError at the very action it raises it.
Rules, or a set-up, that the compiled engine does not play at all raise NotCompiled, which
says what and where; `engine="auto"` then plays them in the interpreter.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

import amunre
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.compiled.game import new_compiled_game
from amunre.interpreter.compiled.not_compiled import NotCompiled
from compiled_support import play_alike
from conftest import house

BIG = 999_999_999_999_999                  # the largest number the DSL writes: two of them multiplied pass 2**62
DIVIDES_BY_ZERO = "phases:\n  harvest:\n    amount: \"gold_mine + 12 // (3 - round) + farmers\"\n"
OVERFLOWS_AT_HARVEST = f"phases:\n  harvest:\n    amount: \"gold_mine + (farmers + {BIG}) * {BIG} // {BIG} - {BIG}\"\n"
OVERFLOWS_AT_THE_START = ("setup:\n  decks:\n"
                          f"    provinces: {{count: \"3 * players + (players * {BIG} * {BIG}) * 0\"}}\n")
OVERFLOWS_IN_THE_RESULT = (f"winner:\n  tiebreak: [\"(my.gold + {BIG}) * {BIG} // {BIG}\", "
                           "\"sum(my.provinces, stones)\"]\n")
CAPACITY_FROM_A_DERIVED_VALUE = "tokens:\n  farmer: {capacity: favor_symbols}\n"


def play_to_the_end(game: Any, seed: int) -> list[int]:
    chooser = random.Random(seed)
    while not game.over:
        game.apply_id(chooser.choice(game.legal_action_ids()))
    return list(game.history)


def test_a_rule_failing_mid_game_fails_at_the_same_action(tmp_path: Path) -> None:
    """12 // (3 - round) fails at the third round's harvest: both engines raise the same
    GameError after the same actions, the compiled one having played every action before."""
    rules = house(tmp_path, DIVIDES_BY_ZERO)
    for seed, players in ((0, 3), (1, 4), (2, 5)):
        outcome, steps, handed = play_alike(rules, players, seed)
        assert (outcome, handed) == ("game error", None), f"seed {seed}: {outcome} after {steps}, handed {handed}"
        assert steps > 10 * players
    game = amunre.new_game(rules, players=4, seed=7, events=False)
    fast = new_compiled_game(rules, players=4, seed=7)
    chooser, played = random.Random(7), []
    with pytest.raises(GameError) as interpreted:
        while not game.over:
            assert fast.engine == "compiled" and fast.legal_action_ids() == game.legal_action_ids()
            action = chooser.choice(game.legal_action_ids())
            game.apply_id(action)
            fast.apply_id(action)
            played.append(action)
    assert "division by zero" in str(interpreted.value)
    assert game.step.round == 3 and game.step.phase == "harvest"
    with pytest.raises(GameError) as compiled:
        fast.apply_id(action)
    assert str(compiled.value) == str(interpreted.value)
    assert fast.engine == "interpreter" and fast.history == played


def test_a_number_past_the_machines_range_hands_over_mid_game(tmp_path: Path) -> None:
    """(farmers + BIG) * BIG passes 2**62 at the first harvest, not Python's integers: the
    machine stops there and the interpreter plays the rest, the very same game."""
    rules = house(tmp_path, OVERFLOWS_AT_HARVEST)
    for seed, players in ((0, 3), (1, 4), (2, 5)):
        outcome, steps, handed = play_alike(rules, players, seed)
        assert outcome == "over" and handed is not None and 0 < handed < steps, (seed, outcome, steps, handed)
    fast = new_compiled_game(rules, players=3, seed=4)
    chooser = random.Random(4)
    while fast.engine == "compiled":
        before = fast.clone()
        fast.apply_id(chooser.choice(fast.legal_action_ids()))
    assert fast.to_game(events=False).state == fast.fallback.state
    copy = fast.clone()                                    # a clone of a handed-over game is its own game
    assert copy.engine == "interpreter" and copy.fallback is not fast.fallback
    assert play_to_the_end(copy, 1) != play_to_the_end(fast, 2)
    assert copy.result() == copy.to_game(events=False).result()
    assert fast.result() == fast.to_game(events=False).result()
    assert before.engine == "compiled" and not before.over         # the position before it: still the machine's
    play_to_the_end(before, 3)
    assert before.engine == "interpreter" and before.result() == before.to_game(events=False).result()


def test_a_number_past_the_machines_range_in_the_set_up_hands_over_at_once(tmp_path: Path) -> None:
    rules = house(tmp_path, OVERFLOWS_AT_THE_START)
    assert new_compiled_game(rules, players=3, seed=0).engine == "interpreter"
    for seed, players in ((0, 3), (1, 5)):
        assert play_alike(rules, players, seed)[::2] == ("over", 0)


def test_a_number_past_the_machines_range_in_the_result_hands_over_there(tmp_path: Path) -> None:
    rules = house(tmp_path, OVERFLOWS_IN_THE_RESULT)
    for seed, players in ((0, 3), (1, 4)):
        fast = new_compiled_game(rules, players=players, seed=seed)
        history = play_to_the_end(fast, seed)
        assert fast.engine == "compiled"
        expected = amunre.new_game(rules, players=players, seed=seed, events=False)
        for action in history:
            expected.apply_id(action)
        assert fast.result() == expected.result()
        assert fast.engine == "interpreter"
        assert play_alike(rules, players, seed)[0] == "over"


def test_the_largest_starting_amounts_play_the_same_game(rules_2016: Any) -> None:
    """Starting amounts near the set-up's limit (10**15, MAX_AMOUNT): a game that keeps below
    it plays to its end, one that passes it fails in both engines at the same action with
    the same GameError (play_alike compares them)."""
    for seed in (0, 1):
        near = {"resources": {"gold": [10 ** 15 - 100] * 3}}
        assert play_alike(rules_2016, 3, seed, near)[0] == "over"
        past = {"resources": {"vp": [10 ** 15] * 4, "gold": [300] * 4}}
        assert play_alike(rules_2016, 4, seed, past)[0] == "game error"


def test_rules_it_does_not_compile_say_what_and_where(tmp_path: Path) -> None:
    """A token capacity read from a derived value (not a printed property) is not compiled:
    NotCompiled names the piece, the file and the line; `engine="auto"` plays it in the
    interpreter, the same game as engine="interpreter"."""
    rules = house(tmp_path, CAPACITY_FROM_A_DERIVED_VALUE)
    with pytest.raises(NotCompiled) as info:
        new_compiled_game(rules, players=3, seed=1)
    message = str(info.value)
    assert message.startswith("not compiled: a token capacity")
    assert f"{tmp_path / 'house.yaml'}:3" in message, message
    with pytest.raises(NotCompiled):
        amunre.new_game(rules, players=3, seed=1, events=False, engine="compiled")
    auto = amunre.new_game(rules, players=3, seed=1, events=False, engine="auto")
    assert isinstance(auto, amunre.Game)
    reference = amunre.new_game(rules, players=3, seed=1, events=False)
    assert play_to_the_end(auto, 5) == play_to_the_end(reference, 5) and auto.result() == reference.result()


def test_a_set_up_it_does_not_play_is_not_compiled(rules_2016: Any) -> None:
    """Cards dealt or stacked by the set-up: NotCompiled; `auto` plays the game in the
    interpreter; the set-ups it does play (start player, options, resources) stay compiled."""
    setup = {"hands": [["architect"]]}
    with pytest.raises(NotCompiled, match="not compiled: a set-up with hands"):
        new_compiled_game(rules_2016, players=3, seed=1, setup=setup)
    assert isinstance(amunre.new_game(rules_2016, 3, 1, setup=setup, events=False, engine="auto"), amunre.Game)
    native = {"start_player": 2, "options": {"temple_scoring": "every_harvest"}, "resources": {"gold": [5, 50, 0]}}
    fast = amunre.new_game(rules_2016, 3, 1, setup=native, events=False, engine="auto")
    assert fast.engine == "compiled" and fast.to_move == amunre.new_game(rules_2016, 3, 1, setup=native).to_move


def test_new_game_on_an_engine(rules_2016: Any) -> None:
    """`amunre.new_game(..., engine=...)`: compiled games are the compiled engine's; a game
    with an event log or a chance function is the interpreter's (auto), or refused (compiled)."""
    fast = amunre.new_game(rules_2016, 4, 3, events=False, engine="compiled")
    assert fast.engine == "compiled"
    assert play_to_the_end(fast, 3) == play_to_the_end(amunre.new_game(rules_2016, 4, 3, events=False), 3)
    assert isinstance(amunre.new_game(rules_2016, 4, 3, engine="auto"), amunre.Game)     # a log: the interpreter
    with pytest.raises(amunre.AmunreError, match="keeps no event log"):
        amunre.new_game(rules_2016, 4, 3, engine="compiled")
    with pytest.raises(amunre.AmunreError, match="unknown engine"):
        amunre.new_game(rules_2016, 4, 3, events=False, engine="numba")
