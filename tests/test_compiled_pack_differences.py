"""compiled/pack.py's `differences`, which the tests of "the same games" rely on at every
decision: a number changed anywhere it compares is reported under its region's name, and only
there (its one masked pass over the whole state must not hide a change, nor see one it skips)."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import amunre
from amunre.interpreter.compiled import ops
from amunre.interpreter.compiled.game import new_compiled_game
from amunre.interpreter.compiled.pack import differences, pack
from conftest import REPO


@pytest.mark.parametrize("name", ["knizia2016", "modern-art"])
def test_a_number_changed_in_any_region_is_reported_there_and_only_there(name: str) -> None:
    rules = amunre.load_rules(REPO / "rules" / f"{name}.yaml")
    game = amunre.new_game(rules, players=4, seed=3)
    fast = new_compiled_game(rules, players=4, seed=3)
    for _ in range(30):
        action = game.legal_action_ids()[0]
        game.apply_id(action)
        fast.apply_id(action)
    lowering = fast.machine.lowering
    packed, unknown = pack(game, lowering, fast.machine.T)
    assert differences(fast.S, packed, lowering, unknown) == []
    regions = [(region, at, size) for region, at, size in lowering.layout.table() if size > 0]
    assert len(regions) > 10
    for region, at, size in regions:
        compared = region not in unknown
        for where in {0, size - 1}:
            changed = packed.copy()
            changed[at + where] += 1
            found = differences(fast.S, changed, lowering, unknown)
            if compared and not (region == "header" and where >= ops.S_ERR):
                assert [line.split("[")[0] for line in found] == [region], (region, where, found)
            else:
                assert found == [], (region, where, found)
    others = {region for region, _, _ in regions} - {"header"}        # all else unknown: the header alone
    assert differences(fast.S, packed + 1, lowering, others) == [
        f"header[0]: compiled {fast.S[:6].tolist()} interpreter {(packed + 1)[:6].tolist()}"]
