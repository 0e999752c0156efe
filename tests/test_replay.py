"""Replays, copies and refusals: a game is its rules + seed + actions; a clone shares nothing;
everything is plain JSON; an illegal action is refused with a reason and changes nothing.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

import amunre
from amunre import AmunreError, IllegalAction
from conftest import TESTS, every_edition, fit, play_random, random_agents

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file


def replay(rules: Any, players: int, seed: int, history: list[dict[str, Any]],
           setup: dict[str, Any] | None = None) -> amunre.Game:
    game = amunre.new_game(rules, players=players, seed=seed, setup=setup)
    for action in history:
        game.apply(action)
    return game


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3), (4, 99)])
def test_finished_game_replays_from_seed_and_actions(rules: Any, play: Any, players: int, seed: int) -> None:
    players = fit(rules, players)
    game = play(players, seed)
    assert game.over
    again = replay(rules, players, seed, game.actions())
    assert again.over
    assert again.to_json() == game.to_json()
    assert again.result() == game.result()


@pytest.mark.parametrize("cut", [1, 17, 60, 133])
def test_unfinished_game_replays_from_seed_and_actions(rules: Any, play: Any, cut: int) -> None:
    game = play(4, 21, stop=lambda g: len(g.history) >= cut)
    actions = game.actions()
    assert len(actions) == cut and not game.over
    again = replay(rules, 4, 21, actions)
    assert again.to_json() == game.to_json()
    assert again.to_move == game.to_move and again.legal_actions() == game.legal_actions()


def test_replay_with_setup_overrides(rules_2016: Any) -> None:
    rules = rules_2016
    setup = {"start_player": 2, "decks": {"provinces": ["thebes", "avaris"]}}
    game = amunre.new_game(rules, players=3, seed=5, setup=setup)
    assert game.state.start_player == 2 and game.to_move == 2
    assert {"thebes", "avaris"} <= {rules.place_ids[p] for p in game.state.working["lots"]}
    agents = random_agents(5, 3)
    while not game.over:
        game.apply(agents[game.to_move].choose(game, game.legal_actions()))
    again = replay(rules, 3, 5, game.actions(), setup)
    assert again.to_json() == game.to_json()
    other = amunre.new_game(rules, players=3, seed=5)
    with pytest.raises(IllegalAction):     # without the setup the same actions do not fit
        for action in game.actions():
            other.apply(action)


def test_replay_with_a_different_seed_diverges(rules: Any, play: Any) -> None:
    game = play(4, 8)
    other = amunre.new_game(rules, players=4, seed=9)
    assert other.to_json()["state"]["decks"] != game.to_json()["state"]["decks"] or \
        other.state.start_player != game.state.start_player
    diverged = False
    try:
        for action in game.actions():
            other.apply(action)
    except IllegalAction:
        diverged = True
    assert diverged or other.to_json() != game.to_json()


def test_clone_is_independent_at_every_kind_of_step(rules_2016: Any) -> None:
    """Clone at many points (every phase, mid-offering too); playing and mutating the clone
    leaves the original untouched, and the original goes on exactly as an untouched twin."""
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=31)
    twin = amunre.new_game(rules, players=4, seed=31)
    rng = random.Random(4)
    phases_seen = set()
    index = 0
    while not game.over:
        key = (game.step.phase, game.state.working.get("stage"))
        if index % 5 == 0 or key not in phases_seen:
            phases_seen.add((game.step.phase, game.state.working.get("stage")))
            before = game.to_json()
            copy = game.clone()
            assert copy.to_json() == before
            # Play the copy on, then scribble over every container it has.
            crng = random.Random(index)
            for _ in range(25):
                if copy.over:
                    break
                copy.apply(crng.choice(copy.legal_actions()))
            s = copy.state
            for seat in range(s.players):
                s.resources[seat]["gold"] += 100
                s.hands[seat].append("theft")
                s.sources[seat].setdefault("vp", {})["x"] = 1
            for pile in list(s.decks.values()) + list(s.discards.values()) + list(s.boxed.values()):
                pile.reverse()
                pile.append("architect")
            s.owner[0] = 3
            s.tokens[1]["stone"] = 99
            s.supply["stone"] = -5
            copy.history.append(-1)
            s.mods.setdefault("harvest_bonus", [None] * 15)[0] = 9
            s.kept.setdefault("offering", {})["tile"] = "x"
            for value in (s.working or {}).values():
                if isinstance(value, list):
                    value.append(None)
                    for item in value:
                        if isinstance(item, list):
                            item.append("x")
            s.played.setdefault("phase", [[] for _ in range(s.players)])[0].append("x")
            assert game.to_json() == before, f"mutating a clone changed the original at action {index}"
        action = rng.choice(game.legal_actions())
        game.apply(action)
        twin.apply(action)
        index += 1
    assert game.to_json() == twin.to_json()
    phases = {p for p, _ in phases_seen}
    assert {"auction", "market", "offering", "harvest"} <= phases
    assert ("offering", "offer") in phases_seen


def test_original_changes_do_not_reach_the_clone(rules_2016: Any) -> None:
    game = play_random(rules_2016, 5, 12,
                       stop=lambda g: g.step.phase == "offering" and g.state.working.get("idx", 0) >= 2)
    copy = game.clone()
    saved = copy.to_json()
    game.state.working["offers"][0] = {"amount": 77}
    game.state.working["attached"][0].append("bribery")
    game.state.hands[1].clear()
    game.state.tokens[0]["farmer"] = 5
    assert copy.to_json() == saved


def test_kept_of_a_kind_of_its_own_is_cloned_plain_in_one_copy(rules_2016: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A study keeps `kept` as a counting dict of its own (tools/simulate/playing.py): a clone's
    is a plain dict, equal and independent, copied in one go (never walked value by value:
    a bot clones at every guess)."""
    from amunre.interpreter.base import state as state_module

    class Counting(dict):
        pass

    game = play_random(rules_2016, 4, 3, stop=lambda g: len(g.state.kept) >= 2)
    game.state.kept = Counting(game.state.kept)
    monkeypatch.setattr(state_module, "plain_copy", lambda value: pytest.fail("copied value by value"))
    copy = game.clone()
    assert type(copy.state.kept) is dict and copy.state.kept == game.state.kept
    next(iter(game.state.kept.values())).clear()
    assert copy.state.kept != game.state.kept


def _json_identity(value: Any) -> bool:
    """True if value survives plain json.dumps/json.loads unchanged (no tuples, no int keys)."""
    return json.loads(json.dumps(value)) == value


@pytest.mark.parametrize("players,seed", [(3, 40), (5, 41)])
def test_everything_is_plain_json(rules: Any, players: int, seed: int) -> None:
    players = fit(rules, players)
    game = amunre.new_game(rules, players=players, seed=seed)
    agents = random_agents(seed, players)
    index = 0
    while not game.over:
        legal = game.legal_actions()
        assert _json_identity(legal), legal
        assert all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in legal)
        if index % 10 == 0:
            assert _json_identity(game.to_json()), f"to_json at action {index}"
            for seat in range(players):
                assert _json_identity(game.observation(seat)), f"observation({seat}) at action {index}"
        game.apply(agents[game.to_move].choose(game, legal))
        index += 1
    data = game.to_json()
    text = json.dumps(data)                   # no custom encoder
    assert amunre.Game.from_json(json.loads(text)).to_json() == data
    assert _json_identity(game.result()) and _json_identity(game.log)
    assert json.loads(json.dumps(game.result()))["winners"] == game.result()["winners"]


def test_illegal_action_type_names_the_possible_ones(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=3)
    before = game.to_json()
    legal_types = sorted({a["type"] for a in game.legal_actions()})
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "teleport"})
    reason = err.value.reason
    assert "teleport" in reason and "possible" in reason
    for kind in legal_types:
        assert kind in reason
    assert err.value.action == {"type": "teleport"}
    assert isinstance(err.value, AmunreError)
    assert game.to_json() == before, "a refused action changed the game"


def test_illegal_variant_of_a_legal_type_lists_allowed_ones(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=3)
    legal = game.legal_actions()
    bid = next(a for a in legal if a["type"] == "bid")
    lots = {rules.place_ids[p] for p in game.state.working["lots"]}
    outside = next(p for p in rules.place_ids if p not in lots)
    before = game.to_json()
    with pytest.raises(IllegalAction) as err:
        game.apply({**bid, "lot": outside})
    reason = err.value.reason
    assert "allowed" in reason and "'bid'" in reason
    assert str(bid) in reason or any(str(a) in reason for a in legal if a["type"] == "bid")
    with pytest.raises(IllegalAction) as err:
        game.apply({**bid, "space": 7})        # not a bid space
    assert "allowed" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        game.apply("bid")                       # not even a dict
    assert "dict" in err.value.reason
    with pytest.raises(IllegalAction):
        game.apply({**bid, "extra": 1})
    assert game.to_json() == before


def test_illegal_after_legal_actions_are_used_up(rules_2016: Any) -> None:
    """Replaying an action that was legal a moment ago (a second bid in a row) is refused."""
    rules = rules_2016
    game = amunre.new_game(rules, players=3, seed=6)
    first = game.legal_actions()[0]
    seat = game.to_move
    game.apply(first)
    assert first["type"] == "bid" and game.to_move != seat
    assert first not in game.legal_actions()      # that space on that lot is taken now
    with pytest.raises(IllegalAction) as err:
        game.apply(first)
    assert "allowed 'bid' actions" in err.value.reason
    assert game.actions() == [first]


def test_acting_after_the_game_is_over(rules: Any, play: Any) -> None:
    game = play(3, 77)
    assert game.over and game.to_move is None and game.legal_actions() == []
    final = game.to_json()
    last = game.actions()[-1]
    for action in (last, {"type": "collect"}, {"type": "done"}, {"type": "sell", "card": "theft"}):
        with pytest.raises(IllegalAction) as err:
            game.apply(action)
        assert "over" in err.value.reason
    assert game.to_json() == final


def test_same_game_under_any_hash_seed(rules: Any) -> None:
    """No set or dict ordering leaks into play: separate interpreters with different
    PYTHONHASHSEED values play the same seeds to the same bytes."""
    script = (
        "import hashlib, json, sys\n"
        f"sys.path.insert(0, {str(TESTS)!r})\n"
        "import amunre\n"
        "from conftest import fit, play_random\n"
        f"rules = amunre.load_rules({rules.path!r})\n"
        "h = hashlib.sha256()\n"
        "for players, seed in [(3, 5), (4, 6), (5, 7)]:\n"
        "    data = play_random(rules, fit(rules, players), seed).to_json()\n"
        "    h.update(json.dumps(data, sort_keys=True).encode())\n"
        "print(h.hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1 and len(next(iter(digests))) == 64


def test_editing_a_returned_action_changes_nothing(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=1)
    legal = game.legal_actions()
    snapshot = copy.deepcopy(legal)
    bid = next(a for a in legal if a["type"] == "bid")
    bid["space"] = 99                          # not a bid space at all
    assert game.legal_actions() == snapshot
    with pytest.raises(IllegalAction):
        game.apply(bid)


def test_history_keeps_its_own_copy_of_each_action(rules_2016: Any) -> None:
    rules = rules_2016
    game = amunre.new_game(rules, players=4, seed=1)
    action = dict(next(a for a in game.legal_actions() if a["type"] == "bid" and a["space"] == 0))
    game.apply(action)
    action["space"] = 36
    assert game.actions()[0]["space"] == 0


def test_the_digest_covers_the_parent_of_an_extending_file(tmp_path, rules: Any) -> None:
    """A saved game names its rules by a hash of the merged data: a changed parent is noticed."""
    import shutil

    from conftest import RULES_PATH
    shutil.copy(RULES_PATH, tmp_path / "knizia2016.yaml")
    child = tmp_path / "child.yaml"
    child.write_text("extends: knizia2016.yaml\ntitle: a child\n", encoding="utf-8")
    first = amunre.load_rules(child)
    saved = amunre.new_game(first, players=3, seed=1).to_json()
    assert first.digest != rules.digest                  # the title differs
    parent = (tmp_path / "knizia2016.yaml").read_text(encoding="utf-8")
    (tmp_path / "knizia2016.yaml").write_text(parent.replace("start: 20,", "start: 21,"), encoding="utf-8")
    second = amunre.load_rules(child)
    assert second.digest != first.digest
    with pytest.raises(AmunreError, match="changed since this game was saved"):
        amunre.Game.from_json(saved, second)
    (tmp_path / "knizia2016.yaml").write_text(parent, encoding="utf-8")
    assert amunre.load_rules(child).digest == first.digest
