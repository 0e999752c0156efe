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
import random
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


INTERLEAVED = ("knizia2016-expert.yaml", "modern-art.yaml", "pharaohs-heir.yaml", "house/market_until_all_pass.yaml")


@pytest.mark.parametrize("name", INTERLEAVED)
def test_games_played_side_by_side_give_the_same_tensors(name: str) -> None:
    """The tensor keeps what it worked out of one position for the next (interpreter/play/
    observe.py: _Blocks): games of one rules file observed in turn, a decision of each, as a
    vectorised learning loop does, must still give every game's own recorded tensors."""
    rules = rules_of(name)
    recorded = [g for g in RECORDED["games"] if g["rules"] == name]
    plays = [make.play(rules, g["players"], g["seed"], RECORDED["every"]) for g in recorded]
    expected = [iter(g["digests"]) for g in recorded]
    running = set(range(len(plays)))
    while running:
        for i in sorted(running):
            step = next(plays[i], None)
            if step is None:
                running.discard(i)
                continue
            decision, tensors = step
            want = next(expected[i])
            got = [make.digest(t) for t in tensors]
            assert got == want, f"{name} seed {recorded[i]['seed']}: differs at decision {decision} side by side"


def test_each_piece_fills_its_own_part() -> None:
    """Every piece's own fill (a piece of a section fills the section apart and copies its part)
    writes what the whole tensor holds at the piece's offset."""
    from amunre.interpreter.play.observe import pieces
    for name in sorted({g["rules"] for g in RECORDED["games"]}):
        rules = rules_of(name)
        recorded = next(g for g in RECORDED["games"] if g["rules"] == name)
        game = amunre.new_game(rules, recorded["players"], recorded["seed"], events=False)
        pick = random.Random(recorded["seed"])
        for decision in range(10_000):
            if decision % 25 == 0 or game.over:
                for seat in range(recorded["players"]):
                    whole = game.observation_tensor(seat)
                    alone = [0.0] * len(whole)
                    offset = 0
                    for piece in pieces(rules):
                        piece.fill(game, seat, alone, offset)
                        offset += piece.size
                    assert alone == whole, f"{name}, decision {decision}, seat {seat}"
            if game.over:
                break
            game.apply_id(pick.choice(game.legal_action_ids()))
