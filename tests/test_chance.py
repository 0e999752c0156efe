"""Explicit chance: every random draw of the engine is one `Game.random_below(n)`, which a game
started with `chance=` answers from outside (as a game-theory tool's chance nodes do) instead of
the seeded generator. Seeded games are untouched (tests/test_golden.py); here: the hook sees
every draw, its answers are recorded, and a save replays them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import amunre
from amunre.interpreter.base import rng
from conftest import every_edition

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file


def generator_as_chance(seed: int) -> Any:
    """A chance function that answers exactly as the seeded generator of `seed` would."""
    state = [seed & ((1 << 64) - 1)]

    def chance(n: int) -> int:
        state[0], value = rng.below(state[0], n)
        return value
    return chance


def play_ids(game: amunre.Game, seed: int) -> amunre.Game:
    pick = random.Random(seed)
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
    return game


@pytest.mark.parametrize("seed", [0, 11])
def test_every_draw_goes_through_the_hook(rules: Any, seed: int) -> None:
    """Answering the draws as the generator would plays the very same game: so no rule draws
    behind the hook's back (the generator in the state is never touched)."""
    seeded = play_ids(amunre.new_game(rules, players=4, seed=seed), seed)
    hooked = play_ids(amunre.new_game(rules, players=4, seed=seed, chance=generator_as_chance(seed)), seed)
    assert hooked.history == seeded.history
    assert hooked.result() == seeded.result()
    assert hooked.state.rng == seed and seeded.draws is None
    assert len(hooked.draws) > sum(len(p) for p in seeded.state.decks.values()) // 2


def test_the_answers_decide_the_shuffles_and_the_start_player(rules: Any) -> None:
    zeros = amunre.new_game(rules, players=3, chance=lambda n: 0)
    lasts = amunre.new_game(rules, players=3, chance=lambda n: n - 1)
    assert zeros.state.start_player == 0 and lasts.state.start_player == 2
    assert zeros.state.decks != lasts.state.decks
    # A start player fixed by the set-up is no draw.
    fixed = amunre.new_game(rules, players=3, setup={"start_player": 1}, chance=lambda n: 0)
    assert len(fixed.draws) == len(zeros.draws) - 1


def test_a_shuffle_of_k_cards_is_k_minus_1_draws_the_first_choosing_the_last_card(rules_2016: Any) -> None:
    game = amunre.new_game(rules_2016, players=4, chance=lambda n: 0)
    before = list(game.draws)
    asked: list[int] = []

    def chance(n: int) -> int:
        asked.append(n)
        return 0
    game.chance = chance
    items = list("abcde")
    game.shuffle(items)
    assert asked == [5, 4, 3, 2]
    assert items == ["b", "c", "d", "e", "a"]          # 'a' chosen to go last, then 'b' before it...
    assert game.draws == before + [0, 0, 0, 0]


def test_a_seeded_game_keeps_its_generator(rules_2016: Any) -> None:
    game = amunre.new_game(rules_2016, players=4, seed=1)
    with pytest.raises(amunre.AmunreError, match="seeded game"):
        game.chance = lambda n: 0
    assert game.chance is None


def test_a_bad_answer_is_refused(rules_2016: Any) -> None:
    for answer in (4, -1, True, 1.0, "0"):
        with pytest.raises(amunre.AmunreError, match="chance outcome"):
            amunre.new_game(rules_2016, players=4, chance=lambda n, a=answer: n if a == 4 else a)


def test_an_outside_answered_game_saves_and_replays_its_draws(rules: Any) -> None:
    game = play_ids(amunre.new_game(rules, players=4, chance=random.Random(3).randrange), 3)
    save = game.to_json()
    assert save["draws"] == game.draws and save["state"]["seed"] == 0
    restored = amunre.Game.from_json(save, rules)
    assert restored.state.to_json() == game.state.to_json() and restored.draws == game.draws
    restored.chance = lambda n: 0                # to go on from the save, answer its next draws
    assert game.actions()[:3] == restored.actions()[:3]
    seeded = amunre.new_game(rules, players=4, seed=0).to_json()
    assert "draws" not in seeded


def test_a_save_with_other_draws_is_refused(rules_2016: Any) -> None:
    game = play_ids(amunre.new_game(rules_2016, players=3, chance=random.Random(4).randrange), 4)
    save = game.to_json()
    fewer = dict(save, draws=save["draws"][:-1])
    with pytest.raises(amunre.AmunreError):
        amunre.Game.from_json(fewer, rules_2016)
    more = dict(save, draws=save["draws"] + [0])
    with pytest.raises(amunre.AmunreError, match="chance outcomes"):
        amunre.Game.from_json(more, rules_2016)
    other = dict(save, draws=[0] * len(save["draws"]))
    with pytest.raises(amunre.AmunreError):
        amunre.Game.from_json(other, rules_2016)
