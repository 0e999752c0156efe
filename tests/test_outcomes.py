"""What each legal action would change (`Game.outcomes`, interpreter/play/outcomes.py), over
random positions of every bundled rules file: the price and gain shown beside an action are
what taking it really does, a price paid later is the one paid when the choice stands, and
nothing shown depends on what the seat cannot know (the generator, the decks' order).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.actions import PLAY
from conftest import every_edition, fit, random_agents

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file

SEEDS = (1, 2)
DECISIONS = 260             # decisions looked at per game (the whole game, for most files)
CHECKED = 6                 # legal actions taken on a copy per decision (all of them: a bidding
                            # war's hundreds of amounts would take minutes)


def _decisions(rules: Any, seed: int):
    """(game, outcomes) at each decision of a seeded random game, then the action taken."""
    players = fit(rules, 3 + seed % 2)
    game = amunre.new_game(rules, players=players, seed=seed)
    agents = random_agents(seed, players)
    for _ in range(DECISIONS):
        if game.over:
            return
        found = game.outcomes()
        assert sorted(found) == game.legal_action_ids()
        chosen = yield game, found
        if chosen is None:
            chosen = game.action_to_id(agents[game.to_move].choose(game, game.legal_actions()))
        game.apply_id(chosen)


def _gains(events: list[dict[str, Any]], seat: int) -> dict[str, int]:
    found: dict[str, int] = defaultdict(int)
    for event in events:
        if event.get("event") == "gain" and event["seat"] == seat:
            found[event["resource"]] += event["amount"]
    return found


def test_what_is_shown_now_is_what_the_action_does(rules: Any) -> None:
    """Taken for real, an action changes the seat's resources by what its outcome shows now,
    plus what the automatic steps after it tell (a resolution, the next phase): the log's lines
    of the action's own change come first, and those after them are the steps'."""
    checked = shown = 0
    for seed in SEEDS:
        walk = _decisions(rules, seed)
        try:
            game, found = next(walk)
            while True:
                seat = game.to_move
                picks = random.Random(seed * 7919 + len(game.history)).sample(sorted(found), min(CHECKED, len(found)))
                for action_id in picks:
                    outcome = found[action_id]
                    if outcome.chance:
                        continue                     # the copy's stand-in answered chance: it may differ
                    own = game.clone(events=True)
                    own.carry_out(seat, action_id)
                    real = game.clone(events=True)
                    real.apply_id(action_id)
                    own_log, real_log = own.log or [], real.log or []
                    assert real_log[:len(own_log)] == own_log      # the action's own lines come first
                    steps = _gains(real_log[len(own_log):], seat)
                    before, after = game.state.resources[seat], real.state.resources[seat]
                    hidden = rules.hidden_resources
                    for name in before:
                        if name in hidden and name not in outcome.now and after[name] - before[name] != steps[name]:
                            continue                 # left unsaid: another seat's hidden purse moved
                        assert after[name] - before[name] == outcome.now.get(name, 0) + steps[name], (
                            f"seed {seed}, {game.action_from_id(action_id)}: {name} {before[name]} -> "
                            f"{after[name]}, shown {outcome.now}, after it {dict(steps)}")
                    checked += 1
                    shown += bool(outcome.now)
                game, found = walk.send(None)
        except StopIteration:
            pass
    assert checked > 100
    assert shown > 0 or rules.id in NOTHING_AT_ONCE, "no action of this file shows a price or gain"


# Files whose every price is paid later: Modern Art's money moves only as its auctions close.
NOTHING_AT_ONCE = frozenset({"modern_art"})


def test_a_price_paid_later_is_the_one_paid(rules: Any) -> None:
    """A bid's (or offer's) price shown `later` is what the seat pays if the choice stands:
    over each run of a phase, what the automatic steps take from the seat, under the phase's
    own causes, is nothing or that price (a bid that lost pays nothing), and is the price
    somewhere in the game."""
    paid_as_shown, shown_later = 0, False
    for seed in SEEDS:
        walk = _decisions(rules, seed)
        pending: dict[int, tuple[str, dict[str, int]]] = {}    # seat -> (phase, its last later price)
        try:
            game, found = next(walk)
            while True:
                phase, seat = game.step.phase, game.to_move
                chosen = random.Random(seed * 31 + len(game.history)).choice(sorted(found))
                shown_later = shown_later or any(o.later for o in found.values())
                if found[chosen].later:
                    pending[seat] = (phase, found[chosen].later)
                own = game.clone(events=True)
                own.carry_out(seat, chosen)
                real = game.clone(events=True)
                real.apply_id(chosen)
                after = (real.log or [])[len(own.log or []):]
                for other, (where, later) in list(pending.items()):
                    taken = [e for e in after if e.get("event") == "gain" and e["seat"] == other
                             and e["cause"]["id"] == where and e["amount"] * next(iter(later.values())) > 0]
                    if not taken:
                        continue
                    for name, price in later.items():
                        paid = sum(e["amount"] for e in taken if e["resource"] == name)
                        assert paid in (0, price), (
                            f"seed {seed}, seat {other} in {where}: shown {later}, the steps after "
                            f"{game.action_from_id(chosen)} took {paid} {name}")
                        paid_as_shown += paid == price != 0
                    del pending[other]
                for other in [s for s, (where, _) in pending.items() if where != real.step.phase]:
                    del pending[other]           # the phase ended with nothing taken: a bid that lost
                game, found = walk.send(chosen)
        except StopIteration:
            pass
    if shown_later:
        assert paid_as_shown > 0, "no price shown later was ever paid"


def test_nothing_shown_depends_on_what_the_seat_cannot_know(rules: Any) -> None:
    """The outcomes are the same whatever the generator holds and however every deck lies:
    a draw's card is never worked out, only that something is drawn."""
    for seed in SEEDS:
        walk = _decisions(rules, seed)
        try:
            game, found = next(walk)
            while True:
                if len(game.history) % 5 == 0:
                    guess = game.clone(events=False)
                    shuffler = random.Random(seed + len(game.history))
                    guess.state.rng ^= 0x5DEECE66D
                    for pile in guess.state.decks.values():
                        shuffler.shuffle(pile)
                    assert {i: o.to_json() for i, o in guess.outcomes().items()} == \
                        {i: o.to_json() for i, o in found.items()}
                game, found = walk.send(None)
        except StopIteration:
            pass


def test_a_card_that_raises_what_closing_brings_says_by_how_much(rules_2016: Any) -> None:
    """2016: a harvest card (more gold per farmer, a fixed yield) shows what it adds to the
    seat's collect, which shows the whole income."""
    seen = 0
    for seed in range(1, 30):
        game = amunre.new_game(rules_2016, players=3, seed=seed)
        agents = random_agents(seed, 3)
        while not game.over and game.step.phase != "harvest":
            game.apply(agents[game.to_move].choose(game, game.legal_actions()))
        if game.over:
            continue
        found = game.outcomes()
        seat = game.to_move
        collect = next(o for i, o in found.items() if game.action_from_id(i)["type"] == "collect")
        for action_id, outcome in found.items():
            if game.rules.actions.block_at[action_id].rank != PLAY:
                continue
            played = game.clone(events=False)
            played.apply_id(action_id)
            while played.to_move == seat and played.step.phase == "harvest":
                played.apply(next(a for a in played.legal_actions() if a["type"] == "collect"))
            income = played.state.resources[seat]["gold"] - game.state.resources[seat]["gold"]
            assert income == collect.now.get("gold", 0) + outcome.then.get("gold", 0), game.action_from_id(action_id)
            seen += outcome.then.get("gold", 0) > 0
    assert seen > 0
