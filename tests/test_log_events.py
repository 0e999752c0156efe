"""Play that explains itself: every change of a resource, of the tokens on a place or of an
owner is a change event with its cause, so a log's events alone rebuild each seat's resources
(and the board) exactly; every event follows the log schema; and keeping the log changes
nothing in how a game plays.

Fifty seeded random games of every bundled rules file (editions and house rules) are played
with their log; every event must validate against grammar/log.schema.json, and summing the
change events (tools/ledger.py) must give the final resources, the seats' sources, the
tokens and the owners.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import jsonschema
import pytest

import amunre
from amunre.interpreter.base.causes import KINDS, position
from amunre.interpreter.mechanics import MECHANICS
from amunre.tools.ledger import ledger
from conftest import REPO, play_random

RULES_FILES = sorted(str(p.relative_to(REPO)) for p in [*REPO.glob("rules/*.yaml"), *REPO.glob("rules/house/*.yaml")])
GAMES = 25                  # per rules file (50 until CI ran over its 20 minutes, 29 November 2026)


def seeded_games(path: str) -> list[amunre.Game]:
    rules = amunre.load_rules(REPO / path)
    span = rules.max_players - rules.min_players + 1
    return [play_random(rules, rules.min_players + seed % span, seed) for seed in range(GAMES)]


@pytest.fixture(scope="module", params=RULES_FILES)
def games(request: Any) -> list[amunre.Game]:
    return seeded_games(request.param)


def test_every_bundled_rules_file_is_played() -> None:
    assert len(RULES_FILES) >= 8 and any("house/" in p for p in RULES_FILES)


def test_the_events_rebuild_every_resource_token_and_owner(games: list[amunre.Game]) -> None:
    for game in games:
        book, state, rules = ledger(game.log), game.state, game.rules
        where = f"seed {state.seed}"
        for seat in range(state.players):
            assert {r: book.amount(seat, r) for r in state.resources[seat]} == state.resources[seat], where
            for resource in state.resources[seat]:
                kept = {k: v for k, v in state.sources[seat].get(resource, {}).items() if v}
                assert book.by_source_id(seat, resource) == kept, where
        for place, place_id in enumerate(rules.place_ids):
            held = {k: v for k, v in book.tokens.get(place_id, {}).items() if v}
            assert held == {k: v for k, v in state.tokens[place].items() if v}, where
            owner = book.owner.get(place_id)
            assert (-1 if owner is None else owner) == state.owner[place], where


SCHEMA = json.loads(files("amunre.grammar").joinpath("log.schema.json").read_text(encoding="utf-8"))
WHOLE = jsonschema.Draft202012Validator(SCHEMA)


def _inlined(node: Any) -> Any:
    """The schema with its `$defs` references written out (validating is many times faster)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        rest = {k: _inlined(v) for k, v in node.items() if k != "$ref"}
        return {**_inlined(SCHEMA["$defs"][ref.rsplit("/", 1)[1]]), **rest} if ref else rest
    return [_inlined(v) for v in node] if isinstance(node, list) else node


# One validator per event type: what the schema's `event` branch applies to an event of that type.
BY_TYPE = {name[len("event_"):]: jsonschema.Draft202012Validator(_inlined(definition))
           for name, definition in SCHEMA["$defs"].items() if name.startswith("event_")}


def test_the_log_schema_is_a_schema_and_knows_every_event_and_cause() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["$defs"]["event"]["properties"]["event"]["enum"]) == set(BY_TYPE)
    declared = {doc.name for mechanic in MECHANICS.values() for doc in mechanic.events}
    assert declared <= set(BY_TYPE), declared - set(BY_TYPE)
    assert set(SCHEMA["$defs"]["cause"]["properties"]["kind"]["enum"]) == set(KINDS)


def test_every_event_follows_the_log_schema(games: list[amunre.Game]) -> None:
    first = games[0].log
    assert all(WHOLE.is_valid(event) for event in first), next(WHOLE.iter_errors(e) for e in first
                                                               if not WHOLE.is_valid(e))
    seen: set[str] = set()
    for game in games:
        for event in game.log:
            text = json.dumps(event, sort_keys=True)
            if text in seen:                  # the same event again (a phase begins...): the same verdict
                continue
            seen.add(text)
            validator = BY_TYPE.get(event["event"])
            assert validator is not None, f"seed {game.state.seed}: an event type the schema lacks: {event}"
            if not validator.is_valid(event):
                error = jsonschema.exceptions.best_match(validator.iter_errors(event))
                pytest.fail(f"seed {game.state.seed}: {event}: {error.message}")


def test_the_schema_refuses_what_is_not_an_event() -> None:
    cause = {"kind": "card", "id": "x", "at": "r.yaml:3:5"}
    good = {"event": "gain", "seat": 1, "resource": "gold", "amount": -3, "to": 2, "cause": cause}
    assert WHOLE.is_valid(good)
    for bad in ({**good, "amount": 0}, {**good, "seat": -1}, {**good, "bonus": 1},
                {**good, "cause": {**cause, "kind": "magic"}}, {**good, "cause": {**cause, "at": "r.yaml"}},
                {"event": "meteor"}, {k: v for k, v in good.items() if k != "cause"}):
        assert not WHOLE.is_valid(bad), bad


def test_every_change_has_a_cause_with_a_position(games: list[amunre.Game]) -> None:
    changes = [e for game in games for e in game.log if e["event"] in CHANGES]
    assert changes
    for event in changes:
        cause = event["cause"]
        assert cause["kind"] in KINDS and cause["id"], event
        if cause["kind"] != "start":
            file, line, col = cause["at"].rsplit(":", 2)
            assert file.endswith(".yaml") and int(line) > 0 and int(col) > 0, event


CHANGES = ("gain", "draw", "tokens", "convert", "owner", "modifier", "start_player")


def test_the_log_is_observation_only() -> None:
    """The same seeds and actions with and without the log reach the very same position."""
    rules = amunre.load_rules(REPO / "rules/knizia2016.yaml")
    for seed in range(5):
        kept = play_random(rules, 4, seed)
        bare = amunre.new_game(rules, players=4, seed=seed, events=False)
        for action in kept.history:
            bare.apply_id(action)
        assert bare.log is None and bare.state.to_json() == kept.state.to_json()


def test_a_card_its_cause_and_its_amount() -> None:
    """A scoring card played: the play, then +3 points put down to the card, at its effect."""
    rules = amunre.load_rules(REPO / "rules/knizia2016.yaml")
    for game in seeded_games("rules/knizia2016.yaml")[:20]:
        for i, event in enumerate(game.log):
            if event["event"] == "play" and event["card"] == "master_of_scribes":
                gain = game.log[i + 1]
                assert gain["event"] == "gain" and gain["seat"] == event["seat"]
                assert gain["resource"] == "vp" and gain["amount"] == 3
                at = position(rules.cards["master_of_scribes"].effect.rule.span)
                assert gain["cause"] == {"kind": "card", "id": "master_of_scribes", "at": at}
                _, line, col = at.rsplit(":", 2)               # the card's `effect:` value in the file
                text = (REPO / "rules/knizia2016.yaml").read_text(encoding="utf-8").splitlines()[int(line) - 1]
                assert text[int(col) - 1:].startswith('"require sum(my.provinces, favor_symbols) >= 7; +3 vp"')
                return
    pytest.fail("no master_of_scribes played in 20 games")
