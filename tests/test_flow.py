"""Flow as data: turn order per phase, `skip_if` and `end_if`, modifier lifetimes, the
one-card-per-kind limit as a deck setting, and the engine's automatic step. Each is a small
house rule over the 2016 file, played through the public API."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter import game as game_module
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.play import modifiers
from conftest import house, play_random


def phase_turns(game: amunre.Game, phase: str) -> list[int]:
    """The seats asked, in order, while the named phase runs once (random agents elsewhere)."""
    rng = random.Random(3)
    while game.step.phase != phase:
        game.apply(rng.choice(game.legal_actions()))
    step, seats = game.state.step, []
    while game.state.step == step and not game.over:
        if not seats or seats[-1] != game.to_move:
            seats.append(game.to_move)
        legal = game.legal_actions()
        closing = [a for a in legal if a["type"] in ("done", "collect")]
        buys = [a for a in legal if a["type"] == "buy" and a["count"] == 0]
        game.apply((closing or buys or legal)[0])
    return seats


def test_clockwise_is_the_default(rules: Any) -> None:
    game = amunre.new_game(rules, players=4, seed=5, setup={"start_player": 2})
    assert phase_turns(game, "market")[:4] == [2, 3, 0, 1]


def test_turn_order_counterclockwise(tmp_path: Path) -> None:
    rules = house(tmp_path, "phases:\n  market: {order: counterclockwise}\n")
    game = amunre.new_game(rules, players=4, seed=5, setup={"start_player": 2})
    assert phase_turns(game, "market")[:4] == [2, 1, 0, 3]


def test_turn_order_by_a_ranking(tmp_path: Path) -> None:
    rules = house(tmp_path, 'phases:\n  auction: {order: {by: "my.gold", highest_first: true}}\n')
    game = amunre.new_game(rules, players=4, seed=5, setup={"start_player": 1, "resources": {"gold": [10, 20, 30, 20]}})
    assert game.to_move == 2                              # the richest bids first
    assert game.state.working["order"] == [2, 1, 3, 0]      # ties keep clockwise order from the start player


def test_skip_if_skips_a_phase(tmp_path: Path) -> None:
    rules = house(tmp_path, 'phases:\n  market: {skip_if: "round == 2"}\n')
    game = play_random(rules, 3, 4)
    skipped = [e for e in game.log if e["event"] == "skip" and e["phase"] == "market"]
    assert [(e["phase"], e["round"]) for e in skipped] == [("market", 2), ("market", 2)]   # both ages
    ran = [(e["phase"], e["age"], e["round"]) for e in game.log if e["event"] == "phase"]
    assert ("market", 1, 2) not in ran and ("market", 1, 1) in ran and ("market", 1, 3) in ran


def test_end_if_ends_a_phase_at_once(tmp_path: Path) -> None:
    rules = house(tmp_path, 'phases:\n  market: {end_if: "players > 0"}\n')
    game = play_random(rules, 4, 9)
    assert game.over
    assert not any(e["event"] in ("buy", "place") for e in game.log)
    markets = [e for e in game.log if e["event"] == "phase" and e["phase"] == "market"]
    assert len(markets) == 6                                # it began, and ended at once


def test_an_auction_ended_early_keeps_every_card(tmp_path: Path) -> None:
    rules = house(tmp_path, 'phases:\n  auction: {end_if: "round == 2"}\n')
    game = amunre.new_game(rules, players=3, seed=2)
    while not (game.step.phase == "market" and game.step.round == 2):
        game.apply(game.legal_actions()[0])
    pile = game.state.decks["provinces"] + game.state.discards["provinces"] + game.state.boxed["provinces"]
    assert sorted(pile) == sorted(rules.place_ids)         # the unsold lots went to the discards


def test_a_modifier_lasts_its_declared_lifetime(tmp_path: Path) -> None:
    rules = house(tmp_path, "modifiers:\n  harvest_bonus: {lasts: age}\n")
    game = amunre.new_game(rules, players=3, seed=7)
    mod = rules.vocab.modifiers["harvest_bonus"]
    assert mod.lasts == "age"
    modifiers.write(game.state, mod, 4, 2, len(rules.place_ids))
    seen = []
    import random
    rng = random.Random(1)
    while not game.over and game.step.age == 1:
        seen.append((game.step.round, game.step.phase, modifiers.read(game.state, mod, 4)))
        game.apply(rng.choice(game.legal_actions()))
    kept = {(rnd, phase) for rnd, phase, value in seen if value == 2}
    assert {(1, "auction"), (1, "market"), (2, "auction"), (3, "offering")} <= kept   # across phases and rounds
    assert modifiers.read(game.state, mod, 4) == 0                     # gone once the age ended


def test_a_phase_modifier_ends_with_its_phase(rules: Any) -> None:
    game = amunre.new_game(rules, players=3, seed=7)
    mod = rules.vocab.modifiers["harvest_bonus"]
    assert mod.lasts == "phase"
    modifiers.write(game.state, mod, 4, 2, len(rules.place_ids))
    step = game.state.step
    while game.state.step == step:
        game.apply(game.legal_actions()[0])
    assert "harvest_bonus" not in game.state.mods


def protection_offered(game: amunre.Game) -> bool:
    return {"type": "play", "card": "protection"} in game.legal_actions()


def _to_next_auction(game: amunre.Game) -> None:
    step = game.state.step
    while game.step.phase != "auction" or game.state.step == step:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a["type"] != "play"), legal[0]))


@pytest.mark.parametrize("lifetime,again_next_round", [("phase", True), ("game", False)])
def test_one_card_of_a_kind_per_lifetime(tmp_path: Path, lifetime: str, again_next_round: bool) -> None:
    rules = house(tmp_path, f"decks:\n  favor: {{one_per_kind: {lifetime}}}\n")
    game = amunre.new_game(rules, players=3, seed=3, setup={"start_player": 0,
                                                           "hands": [["protection", "protection"]]})
    assert protection_offered(game)
    game.apply({"type": "play", "card": "protection"})
    assert game.to_move == 0 and not protection_offered(game)          # one of a kind this phase
    assert game.state.hands[0].count("protection") == 1
    _to_next_auction(game)
    while game.to_move != 0:
        game.apply(game.legal_actions()[0])
    assert protection_offered(game) is again_next_round


def test_a_seat_with_nothing_to_decide_is_not_asked(rules: Any) -> None:
    """Seats with no card to play are not asked in a card window; the scoring runs by itself."""
    game = play_random(rules, 3, 11)
    asked = [e for e in game.log if e["event"] == "phase" and e["phase"] in ("age_scoring", "final_scoring")]
    assert len(asked) == 3
    assert game.over and game.to_move is None



def _play_ids(rules: Any, seed: int, before: Callable[[amunre.Game], None] = lambda game: None) -> amunre.Game:
    """A 4-player game of seeded random choices among the legal ids; `before` sees each decision."""
    game, rng = amunre.new_game(rules, players=4, seed=seed, events=False), random.Random(seed)
    while not game.over:
        before(game)
        game.apply_id(rng.choice(game.legal_action_ids()))
    return game


def test_the_decisions_of_a_step_are_counted_from_its_start(rules: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step asking for more decisions than the limit is stopped with an error naming it; the
    count starts again with every step, so a whole game takes more than the limit."""
    per_step: dict[int, int] = {}
    game = _play_ids(rules, 9, lambda g: per_step.__setitem__(g.state.step, per_step.get(g.state.step, 0) + 1))
    most = max(per_step.values())
    assert most < len(game.history) // 4
    monkeypatch.setattr(game_module, "MAX_DECISIONS_PER_STEP", most)
    assert _play_ids(rules, 9).history == game.history
    monkeypatch.setattr(game_module, "MAX_DECISIONS_PER_STEP", most - 1)
    with pytest.raises(GameError, match=f"asked for more than {most - 1} decisions"):
        _play_ids(rules, 9)
