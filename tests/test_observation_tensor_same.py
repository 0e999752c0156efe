"""observation_tensor() gives the very tensors it gave when tests/observation_tensors/ was recorded.

tests/observation_tensors/make.py played seeded random games of every shipped rules file (at
its fewest and most players) and kept, at every other decision, a digest of every seat's
tensor: its floats packed as IEEE doubles, so a tensor matches only with the same length and
the same floats in the same order. The games are played again here and must give the same
digests: a faster tensor must be the same tensor. The digests are never recorded again to make
this test pass; a change of the layout or of what a piece means is a change of the recording,
made on purpose (and said so in its commit).
"""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest

import amunre
from conftest import REPO, TESTS

FOLDER = TESTS / "observation_tensors"
_spec = importlib.util.spec_from_file_location("observation_tensors_make", FOLDER / "make.py")
assert _spec is not None and _spec.loader is not None
make: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

RECORDED = json.loads((FOLDER / "digests.json").read_text())
_RULES: dict[str, Any] = {}


def rules_of(name: str) -> Any:
    if name not in _RULES:
        _RULES[name] = amunre.load_rules(str(REPO / "rules" / name))
    return _RULES[name]


def test_every_shipped_rules_file_is_recorded() -> None:
    shipped = {str(p.relative_to(REPO / "rules")) for p in make.rules_files()}
    assert {g["rules"] for g in RECORDED["games"]} == shipped


@pytest.mark.parametrize("recorded", RECORDED["games"],
                         ids=[f"{g['rules']}-{g['players']}p-{g['seed']}" for g in RECORDED["games"]])
def test_same_tensors(recorded: dict[str, Any]) -> None:
    rules = rules_of(recorded["rules"])
    game = f"{recorded['rules']} with {recorded['players']} players, seed {recorded['seed']}"
    size = sum(piece["size"] for piece in amunre.new_game(rules, recorded["players"], 0, events=False)
               .observation_layout())
    assert size == recorded["size"], f"{game}: the tensor has {size} numbers, not {recorded['size']}"
    played = make.play(rules, recorded["players"], recorded["seed"], RECORDED["every"])
    for expected, (decision, tensors) in zip(recorded["digests"], played, strict=True):
        for seat, (want, tensor) in enumerate(zip(expected, tensors, strict=True)):
            assert len(tensor) == size, f"{game}, decision {decision}, seat {seat}: {len(tensor)} numbers"
            assert all(type(x) is float for x in tensor), f"{game}, decision {decision}, seat {seat}: not all floats"
            got = make.digest(tensor)
            assert got == want, f"{game}: first differs at decision {decision}, seat {seat} ({got} != {want})"
    assert decision == recorded["decisions"], f"{game}: ended after {decision} decisions, not {recorded['decisions']}"
