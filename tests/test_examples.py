"""Worked examples as data: every shipped rules file proves itself with `amunre check`; an
example fails, naming its first differing number, when a rule it depends on changes; a house
rule's examples hold on it and fail on its parent; the examples' mistakes point into the file;
and the position API the examples stand on reads a position by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.cli.check import move_words
from amunre.interpreter.load.rules_cache import load_rules_and_document
from amunre.tools.diff import diff_documents
from amunre.tools.examples import check_examples
from conftest import REPO

SHIPPED = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
HOUSE = sorted((REPO / "rules" / "house").glob("*.yaml"))
runner = CliRunner()


def check(path: Path | str) -> list[Any]:
    return check_examples(amunre.load_rules(path), move_words)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_example_of_a_shipped_file_holds(path: Path) -> None:
    outcomes = check(path)
    failed = [f"{o.example.id}: {o.problem.format()}" for o in outcomes if not o.passed and o.problem]
    assert not failed, "\n".join(failed)


def test_the_shipped_files_hold_at_least_thirty_worked_examples() -> None:
    editions = sorted((REPO / "rules").glob("*.yaml"))
    assert sum(len(amunre.load_rules(p).examples) for p in editions) >= 30


def test_amunre_check_runs_a_file_and_its_parents_and_says_so_in_json() -> None:
    result = runner.invoke(app, ["check", "knizia2016-expert", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    files = [Path(f["file"]).name for f in report["files"]]
    assert files == ["knizia2016-expert.yaml", "knizia2016.yaml"]
    assert report["failed"] == 0 and report["broken"] == 0
    ids = [e["id"] for e in report["files"][1]["examples"]]
    assert "auction-round" in ids and all(e["passed"] for e in report["files"][1]["examples"])


def test_a_file_that_does_not_load_is_reported_and_exits_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: broken\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(broken), "knizia2016", "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["broken"] == 1 and report["failed"] == 0
    assert "error" in report["files"][0] and report["files"][1]["examples"]


# ---- a changed rule fails its example, at the first number that differs ------------------------

def _changed_copy(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of a shipped edition with one line changed (a parent named by `extends` is found
    beside the original)."""
    source = REPO / "rules" / f"{name}.yaml"
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {name}"
    text = text.replace(old, new)
    lines = [f"extends: {source.parent / line.split(':', 1)[1].strip()}" if line.startswith("extends:") else line
             for line in text.splitlines()]
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


CHANGES = [
    # edition, the line changed, to what, the example that must fail, what its report names
    ("knizia2016", "gold: {start: 20, max", "gold: {start: 21, max", "auction-round", "seb.gold is 23"),
    ("knizia2003", 'price: "n * (n + 1) // 2"', 'price: "n * (n + 1) // 2 + 1"', "price-table", "red.gold is 16"),
    ("knizia2003-online", "steal: {card: ~}", "steal: {card: ~, gain: 4}", "sacrifice-steal",
     "(black.gold == 20 + 3): black.gold is 24"),
    ("knizia2016-expert", "    count: 3\n", "    count: 2\n", "three-secret-provinces",
     "no event {event: draw, seat: 0, deck: provinces, count: 3}"),
    ("modern-art", "place (30 - 10 * a.round_rank) tiles_won", "place (30 - 5 * a.round_rank) tiles_won",
     "artist-value", "karl_gitter.tiles_won is 25"),
    ("pharaohs-heir", "grain: {start: 4,", "grain: {start: 5,", "sacrifice", "(bob.grain == 1): bob.grain is 2"),
]


@pytest.mark.parametrize("name,old,new,example,says", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_rule_fails_its_example(tmp_path: Path, name: str, old: str, new: str, example: str,
                                          says: str) -> None:
    path = _changed_copy(tmp_path, name, old, new)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1, result.output
    failing = [line for line in result.output.splitlines() if "FAIL" in line]
    assert any(f"FAIL  {example} " in line for line in failing), result.output
    assert says in result.output and ("(after " in result.output or "(before the first move)" in result.output)


# ---- house rules explain themselves -------------------------------------------------------------

def _on_parent(tmp_path: Path, house: Path) -> Path:
    """The house rule's examples, on its parent: a file that extends the parent and only adds them."""
    yaml = YAML(typ="safe")
    data = yaml.load(house.read_text(encoding="utf-8"))
    parent = amunre.load_rules(house).parents[0]
    path = tmp_path / "on-parent.yaml"
    path.write_text(json.dumps({"extends": parent, "id": "on-parent", "examples": data["examples"]}), encoding="utf-8")
    return path


@pytest.mark.parametrize("house", HOUSE, ids=[p.stem for p in HOUSE])
def test_a_house_rule_has_an_example_that_fails_on_its_parent(tmp_path: Path, house: Path) -> None:
    rules = amunre.load_rules(house)
    assert rules.examples, f"{house.name} has no example"
    assert all(o.passed for o in check(house))
    outcomes = check(_on_parent(tmp_path, house))
    assert not all(o.passed for o in outcomes), f"every example of {house.name} also holds on its parent"


# ---- examples are part of the file: checked as it loads, left out of its digest -----------------

def _example_file(tmp_path: Path, examples: str) -> Path:
    path = tmp_path / "ex.yaml"
    path.write_text(f"extends: {REPO / 'rules' / 'knizia2016.yaml'}\nexamples:\n{examples}", encoding="utf-8")
    return path


SIMPLE = """\
  - id: simple
    section: test
    setup: {players: 3, seats: [ann, bob, cy], start_player: ann}
    steps:
      - expect: [ann.gold == 20]
"""


def test_examples_leave_the_digest_and_the_diff_alone_and_are_not_inherited(tmp_path: Path) -> None:
    rules, doc = load_rules_and_document(_example_file(tmp_path, SIMPLE))
    parent, parent_doc = load_rules_and_document(REPO / "rules" / "knizia2016.yaml")
    assert [e.id for e in rules.examples] == ["simple"]          # the parent's are its own
    assert parent.examples and rules.digest == parent.digest
    assert diff_documents(parent_doc, doc) == []                 # examples prove the rules, they are not rules


@pytest.mark.parametrize("text,message", [
    (SIMPLE.replace("ann.gold", "anne.gold"), "unknown name 'anne' (did you mean 'ann'?)"),
    (SIMPLE.replace("ann.gold == 20", "ann.gold + 20"), "must be true or false"),
    (SIMPLE.replace("players: 3, seats: [ann, bob, cy]", "players: 3, seats: [ann, bob]"), "name each of the 3 seats"),
    (SIMPLE.replace("start_player: ann", "start_player: dan"), "'dan' names no seat of this example"),
    (SIMPLE.replace("players: 3,", "players: 6,"), "for 3 to 5 players, not 6"),
    (SIMPLE.replace("start_player: ann}", "start_player: ann, owners: {atlantis: bob}}"), "unknown place 'atlantis'"),
    (SIMPLE.replace("- expect: [ann.gold == 20]", "- expect: [{phase: market, round: 1}]"), "one check per item"),
    (SIMPLE.replace("- expect: [ann.gold == 20]", "- expect: [phase: markt]"), "unknown phase 'markt'"),
    (SIMPLE.replace("- expect: [ann.gold == 20]", "- {ann: done, bob: done}"), "a step is"),
    (SIMPLE + SIMPLE, "there is already an example 'simple'"),
])
def test_a_mistake_in_an_example_points_into_the_file(tmp_path: Path, text: str, message: str) -> None:
    path = _example_file(tmp_path, text)
    with pytest.raises(amunre.RulesError) as caught:
        amunre.load_rules(path)
    shown = caught.value.format()
    assert message in shown and f"{path}:" in shown, shown


# ---- how an example fails ---------------------------------------------------------------------------

def _outcome(tmp_path: Path, steps: str) -> Any:
    text = SIMPLE.replace("      - expect: [ann.gold == 20]\n", steps)
    (outcome,) = check(_example_file(tmp_path, text))
    return outcome


@pytest.mark.parametrize("steps,says,after", [
    ("      - bob: {type: bid}\n", "bob is not to move: ann is", ""),
    ("      - ann: bid 99 on nowhere\n", "bid 99 on nowhere is not a legal move of ann; the legal moves: bid 0 on", ""),
    ("      - ann: {type: bid}\n", "matches", ""),
    ("      - ann: {type: bid, space: 0, lot: avaris}\n      - expect: [ann.gold == 19]\n",
     "ann.gold == 19 does not hold: ann.gold is 20", "ann: {type: bid, space: 0, lot: avaris}"),
    ("      - expect: [to_move: bob]\n", "ann is to move, expected bob", ""),
    ("      - expect: [hidden: [{from: ann, of: bob, resource: gold}]]\n", "ann sees bob's gold: 20", ""),
    ("      - {ann: bid 0 on avaris, times: 2}\n", "ann is not to move: bob is", ""),
    ("      - {move: bid 0 on avaris, times: 2}\n", "bid 0 on avaris (time 2 of 2) is not a legal move of bob", ""),
    ("      - ann: bid 0 on avaris\n      - expect: [no_events: [{event: bid, seat: ann}]]\n",
     "an event {event: bid, seat: 0} happened since the last check", "ann: bid 0 on avaris"),
    ("      - expect: [events: [{event: bid}]]\n", "no event {event: bid} since the last check", ""),
    ("      - expect: [illegal: [{type: bid}]]\n", "ann may still make bid 0 on", ""),
    ("      - play: random\n        until: {round: 2}\n      - expect: [round: 3]\n", "the round is 2, expected 3",
     "bots (random) until {round: 2}"),
    ("      - play: random\n        until: end\n      - expect: [over: false]\n", "the game is over", ""),
    ("      - play: genius\n        until: end\n", "play: unknown agent 'genius'", ""),
    ("      - expect: [thebes.owner.gold == 0]\n", "a check cannot be worked out: ", ""),
    ("      - play: random\n        until: end\n      - play: random\n        until: {age: 3}\n",
     "the game ended before {age: 3}", ""),
])
def test_a_failing_example_says_what_and_after_which_move(tmp_path: Path, steps: str, says: str, after: str) -> None:
    outcome = _outcome(tmp_path, steps)
    assert not outcome.passed and outcome.problem is not None
    assert says in outcome.problem.message, outcome.problem.message
    if after:
        assert outcome.after == after


def test_bots_play_to_the_end_and_the_winners_are_checked(tmp_path: Path) -> None:
    outcome = _outcome(tmp_path, "      - play: greedy\n        until: end\n      - expect: [over: true]\n")
    assert outcome.passed, outcome.problem


def test_what_a_seat_sees_is_checked(tmp_path: Path) -> None:
    outcome = _outcome(tmp_path, "      - expect: [shown: [{from: ann, of: bob, resource: gold}]]\n")
    assert outcome.passed, outcome.problem


# ---- the position API ---------------------------------------------------------------------------------

def test_a_position_reads_by_name() -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=3, seed=1, setup={
        "start_player": 0, "decks": {"provinces": ["thebes", "dakhla", "abydos"]}, "owners": {"edfu": 2}})
    assert game.place("edfu").owner == 2 and game.place("thebes").owner is None
    assert game.seat(2).places == ["edfu"] and game.seat(0)["gold"] == 20
    assert game.deck("provinces").left == len(game.state.decks["provinces"])
    game.apply({"type": "bid", "lot": "dakhla", "space": 10})
    game.apply({"type": "bid", "lot": "thebes", "space": 3})
    game.apply({"type": "bid", "lot": "thebes", "space": 6})
    game.apply({"type": "bid", "lot": "abydos", "space": 0})
    assert game.last("won")["lot"] in ("dakhla", "thebes", "abydos")
    assert game.place("abydos")["stone"] == 1 and game.place("abydos")["pyramid"] == 0
    view = game.seat(0)
    view.resources["gold"] = 999                       # a copy: the game is unchanged
    assert game.seat(0)["gold"] == 22
    with pytest.raises(amunre.AmunreError, match="no place 'thebs'.*thebes"):
        game.place("thebs")
    with pytest.raises(amunre.AmunreError, match="a seat is a number from 0 to 2"):
        game.seat(3)
    with pytest.raises(amunre.AmunreError, match="no deck"):
        game.deck("nope")


@pytest.mark.parametrize("owners,message", [
    ({"atlantis": 0}, "setup's owners map a place's id"),
    ({"edfu": 3}, "setup's owners map a place's id"),
    ([("edfu", 0)], "setup's owners map a place's id"),
])
def test_setup_owners_are_checked(owners: Any, message: str) -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    with pytest.raises(amunre.AmunreError, match=message):
        amunre.new_game(rules, players=3, seed=1, setup={"owners": owners})


def test_a_game_with_owners_given_saves_and_restores(tmp_path: Path) -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=3, seed=1, setup={"owners": {"edfu": 1}})
    game.apply_id(game.legal_action_ids()[0])
    restored = amunre.Game.from_json(json.loads(json.dumps(game.to_json())), rules)
    assert restored.place("edfu").owner == 1 and restored.history == game.history
