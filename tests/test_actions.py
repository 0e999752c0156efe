"""Integer actions: every rules file has a fixed action space; legal ids are sorted, within it,
and in the order of the legal dicts; ids and dicts convert both ways; random play through
ids is the same game as random play through dicts."""

from __future__ import annotations

import random
from typing import Any

import pytest

import amunre
from amunre import IllegalAction
from conftest import play_random


def test_the_action_space_is_fixed_by_the_rules(rules: Any) -> None:
    sizes = {amunre.new_game(rules, players=p, seed=s).num_distinct_actions() for p in (3, 4, 5) for s in (1, 2)}
    assert len(sizes) == 1
    size = sizes.pop()
    blocks = rules.actions.blocks
    assert size == sum(b.size for b in blocks) and blocks[0].base == 0
    assert all(a.base + a.size == b.base for a, b in zip(blocks, blocks[1:]))
    kinds = [b.type for b in blocks]
    assert kinds.index("bid") < kinds.index("play") < kinds.index("done") < kinds.index("sell")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ids_and_dicts_agree_at_every_decision(rules: Any, players: int) -> None:
    def check(game: amunre.Game, action: dict[str, Any], index: int) -> None:
        if game.over:
            assert game.legal_action_ids() == [] and game.legal_actions() == []
            return
        ids = game.legal_action_ids()
        assert ids == sorted(set(ids)) and ids, ids
        assert all(0 <= i < game.num_distinct_actions() for i in ids)
        legal = game.legal_actions()
        assert [game.action_from_id(i) for i in ids] == legal
        assert [game.action_to_id(a) for a in legal] == ids
    for seed in range(12):
        play_random(rules, players, seed, after=check)


def test_random_play_through_ids_equals_random_play_through_dicts(rules: Any) -> None:
    for seed in range(50):
        players = 3 + seed % 3
        by_dict = amunre.new_game(rules, players=players, seed=seed)
        by_id = amunre.new_game(rules, players=players, seed=seed)
        pick_dict, pick_id = random.Random(seed), random.Random(seed)
        while not by_dict.over:
            by_dict.apply(pick_dict.choice(by_dict.legal_actions()))
            by_id.apply_id(pick_id.choice(by_id.legal_action_ids()))
        assert by_id.over and by_id.history == by_dict.history
        assert by_id.to_json() == by_dict.to_json() and by_id.log == by_dict.log
        assert by_id.result() == by_dict.result()


def test_an_id_means_its_dict_in_the_position_it_is_taken(rules: Any) -> None:
    """A bid names a lot by its slot: the same id is a bid on another place in another auction."""
    game = amunre.new_game(rules, players=3, seed=1, setup={"start_player": 0,
                                                           "decks": {"provinces": ["thebes", "dakhla", "abydos"]}})
    first_bid = game.legal_action_ids()[0]
    assert game.action_from_id(first_bid) == {"type": "bid", "lot": "thebes", "space": 0}
    other = amunre.new_game(rules, players=3, seed=1, setup={"start_player": 0,
                                                            "decks": {"provinces": ["buto", "dakhla", "abydos"]}})
    assert other.action_from_id(first_bid) == {"type": "bid", "lot": "buto", "space": 0}


@pytest.mark.parametrize("bad", [-1, 10 ** 30, 3.0, "0", None, True, [0]])
def test_apply_id_refuses_what_is_not_a_legal_id(rules: Any, bad: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply_id(bad)
    assert game.to_json() == before


def test_an_id_that_is_not_legal_now_is_refused(rules: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=1)
    not_now = next(i for i in range(game.num_distinct_actions()) if i not in game.legal_action_ids())
    with pytest.raises(IllegalAction, match="not among the legal action ids"):
        game.apply_id(not_now)


def test_action_to_id_refuses_a_dict_no_rule_has(rules: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=1)
    for bad in ({"type": "teleport"}, {"type": "bid", "lot": "atlantis", "space": 0},
                {"type": "buy", "good": "favor", "count": True}, {"type": "done", "extra": 1}):
        with pytest.raises(IllegalAction):
            game.action_to_id(bad)


def test_a_clone_plays_on_with_ids(rules: Any, play: Any) -> None:
    game = play(4, 5, stop=lambda g: len(g.history) >= 70)
    copy = game.clone(events=False)
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not game.over:
        game.apply_id(rng_a.choice(game.legal_action_ids()))
        copy.apply_id(rng_b.choice(copy.legal_action_ids()))
    assert copy.state == game.state and copy.history == game.history and copy.log is None
