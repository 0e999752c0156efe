"""Determinization: a guess of every hidden fact that the guessing seat cannot tell from the
real game, drawn from its observation alone, that changes what it cannot see, and that plays on.

Hypothesis drives seeded random games of every bundled rules file to arbitrary points and
guesses for an arbitrary seat.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amunre
from amunre.tools.determinize import Guesses, card_sets, determinize, hidden_cards
from conftest import REPO, every_edition, fit, play_random

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players_st = st.sampled_from([3, 4, 5])
seeds_st = st.integers(min_value=0, max_value=10**6)
actions_st = st.integers(0, 320)


def drive(rules: Any, players: int, seed: int, actions: int) -> amunre.Game:
    return play_random(rules, fit(rules, players), seed, stop=lambda g: len(g.history) >= actions)


def every_card(game: amunre.Game) -> Counter[str]:
    """Every card wherever it lies: hands, piles, discards, set aside, and a phase's hands."""
    state = game.state
    found: Counter[str] = Counter()
    for pile in [*state.hands, *state.decks.values(), *state.discards.values(), *state.boxed.values()]:
        found.update(pile)
    if state.working is not None:
        mech = game.rules.mechanic_at(state.at)
        found.update(held[i] for held, i, _ in hidden_cards(mech, state.working, -1))
    return found


@SETTINGS
@given(players=players_st, seed=seeds_st, actions=actions_st, pick=st.integers(0, 10**6))
def test_the_seat_cannot_tell_the_guess_from_the_game(rules: Any, players: int, seed: int, actions: int,
                                                      pick: int) -> None:
    game = drive(rules, players, seed, actions)
    seat = pick % game.state.players
    seen, tensor, cards = game.observation(seat), game.observation_tensor(seat), every_card(game)
    guess = determinize(game, seat, random.Random(pick), events=True)
    assert guess.observation(seat) == seen
    assert guess.observation_tensor(seat) == tensor
    assert every_card(guess) == cards                       # cards are moved, never made or lost
    assert game.observation(seat) == seen                   # the real game is untouched
    without_log = determinize(game, seat, random.Random(pick))
    assert {**without_log.observation(seat), "log": seen["log"]} == seen
    # A guess depends on the observation alone: from a game the seat cannot tell from the real
    # one, the same generator draws the same guess.
    again = determinize(guess, seat, random.Random(pick))
    assert again.state.to_json() == without_log.state.to_json()


@SETTINGS
@given(players=players_st, seed=seeds_st, actions=actions_st, pick=st.integers(0, 10**6))
def test_guesses_drawn_one_after_another_are_each_a_fresh_guess(rules: Any, players: int, seed: int,
                                                                 actions: int, pick: int) -> None:
    """A position's deal is worked out once for all its guesses (determinize.Deal): each
    guess is dealt into its own copy, so the guesses drawn one after another from one
    position are those that a fresh start would draw from the same generator."""
    game = drive(rules, players, seed, actions)
    seat = pick % game.state.players
    drawing, rng, fresh_rng = Guesses(game, seat), random.Random(pick), random.Random(pick)
    for _ in range(3):
        guess = drawing.draw(rng)
        assert guess.state.to_json() == Guesses(game, seat).draw(fresh_rng).state.to_json()
        guess.state.hands[seat].clear()             # what is done to one guess is not in the next
        for pile in guess.state.decks.values():
            pile.reverse()


def test_a_guess_is_found_where_few_deals_agree() -> None:
    """Five players of knizia2016-expert, scoring cards, seat 0 to move: seat 1 knows seat 0
    holds a card it can play now, and only about one deal in twenty gives it one. Fifty tries
    failed here (hypothesis found it: the guesses of `pick` 1 raised AmunreError)."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016-expert.yaml")
    game = drive(rules, 5, 312, 312)
    assert game.step.phase == "scoring_cards" and game.to_move == 0
    drawing, rng = Guesses(game, 1), random.Random(1)
    seen = game.observation(1)
    for _ in range(3):
        assert {**drawing.draw(rng).observation(1), "log": seen["log"]} == seen     # a guess keeps no events


def test_a_decision_worked_out_again_stands_still(rules: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A guess that stood still while its decision was worked out again is not compared with
    the seat's view (Guesses.draw): so working out the decision of a position at rest runs
    nothing and changes nothing, while the automatic step that begins a game's first phase
    says it ran."""
    from amunre.interpreter import game as game_module
    from amunre.interpreter.base.state import GameState

    answers: list[bool] = []
    advance = game_module.flow.advance
    monkeypatch.setattr(game_module.flow, "advance", lambda game: answers.append(advance(game)) or answers[-1])
    game = amunre.new_game(rules, fit(rules, 4), 5, events=False)
    assert answers == [False]                               # the set-up's step began a phase
    rng = random.Random(5)
    for _ in range(60):
        if game.over:
            break
        restored = amunre.Game(rules, GameState.from_json(game.state.to_json()), list(game.history), events=False)
        assert restored.decide_again()
        assert restored.state.to_json() == game.state.to_json()
        assert restored.legal_action_ids() == game.legal_action_ids()
        game.apply_id(rng.choice(game.legal_action_ids()))


def test_every_hidden_fact_is_drawn_anew(rules: Any) -> None:
    """Over a few guesses, deck order, other seats' hidden cards and the generator all change;
    the seat's own hand never does."""
    game = drive(rules, 4, 11, 40)
    rng = random.Random(3)
    guesses = [determinize(game, 0, rng) for _ in range(8)]
    real = game.state
    assert all(g.state.hands[0] == real.hands[0] for g in guesses)
    assert any(g.state.decks != real.decks for g in guesses)
    if card_sets(rules).hidden and any(real.hands[1:]):          # some rules hold no hidden hands
        assert any(g.state.hands[1:] != [sorted(h) for h in real.hands[1:]] for g in guesses)
    assert all(g.state.rng != real.rng for g in guesses)
    assert all(set(g.history) == {-1} and len(g.history) == len(game.history) for g in guesses)
    for name, per_seat in real.held.items():                # money held as cards: others' are guessed
        assert any(g.state.held[name][1:] != per_seat[1:] for g in guesses)
        assert all(g.state.held[name][0] == per_seat[0] for g in guesses)
        assert all(sum(cards) == real.resources[s][name] for g in guesses for s, cards in enumerate(g.state.held[name]))


def test_secret_offers_are_chosen_again(rules_2016: Any) -> None:
    """During a secret offer the offers already made are guessed again; the seat's own stays."""
    game = play_random(rules_2016, 4, 5, stop=lambda g: g.step.phase == "offering"
                       and g.state.working is not None and g.state.working["idx"] == 3)
    data = game.state.working
    seat = game.to_move
    made = [s for s in range(4) if data["offers"][s] is not None]
    guessed = [determinize(game, seat, random.Random(k)).state.working["offers"] for k in range(12)]
    assert len({str(g) for g in guessed}) > 1
    for offers in guessed:
        assert [s for s in range(4) if offers[s] is not None] == made
    chooser = determinize(game, seat, random.Random(0), choose=lambda g, other, ids: ids[0])
    assert all(chooser.state.working["offers"][s].get("amount") in (0, 1) for s in made)


def test_sealed_bids_are_chosen_again_and_counted() -> None:
    """During a sealed auction the bids already made are guessed again, and the guess counts
    its declines as a game that made those bids would (the count is hidden from the seat, so
    only this keeps the guess a position the game could be in)."""
    def sealed_half_in(g: Any) -> bool:
        data = g.state.working
        return (data is not None and data.get("style") == "sealed" and data["turn"] >= 2
                and None in data["sealed"])
    modern_art = amunre.load_rules(REPO / "rules" / "modern-art.yaml")
    rng = random.Random(0)
    changed = 0                 # guesses whose declines differ in number from the real game's
    for seed in range(40):
        game = play_random(modern_art, 4, seed, stop=sealed_half_in)
        if game.over:
            continue
        real = game.state.working["sealed"].count(0)
        for _ in range(10):
            data = determinize(game, game.to_move, rng).state.working
            assert data["passed"] == data["sealed"].count(0)
            changed += data["sealed"].count(0) != real
        if changed >= 3:
            break
    assert changed >= 3, "too few guesses changed a bid into a decline or back"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_guess_plays_to_the_end(rules: Any, seed: int) -> None:
    game = drive(rules, 3, seed, 150)
    guess = determinize(game, game.to_move, random.Random(seed))
    rng = random.Random(seed)
    while not guess.over:
        guess.apply_id(rng.choice(guess.legal_action_ids()))
    assert guess.result()["over"]


def test_a_guess_is_for_a_seat_of_the_game(rules_2016: Any) -> None:
    """-1 would read as the last seat and True as seat 1: each is refused, as a seat past the last."""
    game = drive(rules_2016, 3, 1, 40)
    for wrong in (-1, 3, True, None, 1.0):
        with pytest.raises(amunre.AmunreError, match="a guess is made for a seat of the game, 0 to 2"):
            determinize(game, wrong, random.Random(0))
