"""House rules as small files (rules/house/): `extends` a shipped edition, patch list items by
their id, take things out with `~`; each plays, and an overlay's mistake points at its line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

import amunre
from conftest import REPO

HOUSE = sorted((REPO / "rules" / "house").glob("*.yaml"))


def test_there_are_house_rules() -> None:
    assert len(HOUSE) >= 4


@pytest.mark.parametrize("path", HOUSE, ids=[p.stem for p in HOUSE])
def test_a_house_rule_plays_fifty_random_games(path: Path) -> None:
    rules = amunre.load_rules(path)
    assert rules.id.startswith("house-")
    for seed in range(50):
        game = amunre.new_game(rules, players=3 + seed % 3, seed=seed, events=False)
        rng = random.Random(seed)
        while not game.over:
            game.apply_id(rng.choice(game.legal_action_ids()))
            assert all(r["gold"] >= 0 for r in game.state.resources)


def load(name: str) -> Any:
    return amunre.load_rules(REPO / "rules" / "house" / f"{name}.yaml")


def test_a_province_is_patched_by_its_id(rules: Any) -> None:
    house = load("temples_every_harvest")
    assert house.place_ids == rules.place_ids                  # the same places, in the same order
    dakhla = rules.place_index["dakhla"]
    assert house.place_props[dakhla] == {**rules.place_props[dakhla], "bonus_gold": 10}
    assert all(house.place_props[i] == rules.place_props[i] for i in range(len(rules.place_ids)) if i != dakhla)
    assert house.options["temple_scoring"].default == "every_harvest"


def test_a_card_is_taken_out(rules: Any) -> None:
    house = load("no_theft")
    assert "theft" in rules.cards and "theft" not in house.cards and "theft" not in house.decks
    game = amunre.new_game(house, players=3, seed=1)
    assert game.state.hands == [["architect"]] * 3
    rng = random.Random(1)
    while not game.over:
        assert not any(a["type"] in ("steal",) or a.get("card") == "theft" for a in game.legal_actions())
        game.apply_id(rng.choice(game.legal_action_ids()))


def test_an_effect_is_changed(rules: Any) -> None:
    house = load("architect_one_stone")
    assert house.cards["architect"].count == rules.cards["architect"].count          # kept
    span = house.cards["architect"].effect.rule.span
    assert span.file.endswith("architect_one_stone.yaml") and "stone >= 1" in span.line_text   # from the overlay


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("extends: knizia2016\nid: house-test\ntitle: Test\n" + text, encoding="utf-8")
    return path


def test_a_tile_is_added_and_another_removed_by_id(tmp_path: Path) -> None:
    rules = amunre.load_rules(write(tmp_path, "phases:\n  offering:\n    tiles:\n"
                                    "      - {id: high, remove: true}\n"
                                    "      - {id: huge, label: '30>', min: 30, farmer_gold: 5, temple_vp: 5, "
                                    "camel: false}\n"))
    assert [t.id for t in rules.phases["offering"].tiles] == ["low", "mid_low", "mid_high", "huge"]


def test_a_mistake_in_an_overlay_points_at_the_overlay(tmp_path: Path) -> None:
    path = write(tmp_path, "places:\n  items:\n    - {id: dakhla, bonus_gold: lots}\n")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    assert f"{path}:6:" in info.value.format()
    path = write(tmp_path, "places:\n  items:\n    - {id: atlantis, remove: true}\n")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    assert f"{path}:6:" in info.value.format() and "no item 'atlantis' to remove" in info.value.format()


def overlay_validator() -> Any:
    return Draft202012Validator(json.loads((REPO / "grammar" / "overlay.schema.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", HOUSE + sorted((REPO / "rules").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_rules_file_is_a_valid_overlay(path: Path) -> None:
    """What an editor sees: no false error on a house rule (nor on a whole file)."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    assert [e.message for e in overlay_validator().iter_errors(data)] == []


def test_the_overlay_schema_still_checks_keys_and_types() -> None:
    validator = overlay_validator()
    assert not validator.is_valid({"extends": "knizia2016", "resourcs": {}})
    assert not validator.is_valid({"extends": "knizia2016", "resources": {"gold": {"start": "lots"}}})
    assert not validator.is_valid({"extends": "knizia2016", "places": {"items": [{"id": "x", "remove": False}]}})
    assert validator.is_valid({"extends": "knizia2016", "cards": {"theft": None},
                               "places": {"items": [{"id": "x", "remove": True}]}})
