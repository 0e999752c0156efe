"""Counts that grow with a game's length are compared per round too (issue 36, item 5): a rule
that makes the game longer (a third age) shows as longer games and more cards played per
game, not as more cards played per round; both engines count the rounds alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amunre.interpreter.compiled import game as compiled_game
from amunre.interpreter.compiled import hubs
from amunre.interpreter.load.rules_cache import load_rules
from amunre.tools.simulate import compare

REPO = Path(__file__).resolve().parent.parent
RULES = str(REPO / "rules" / "knizia2016.yaml")
RANDOM4 = ["random"] * 4


@pytest.fixture(scope="module")
def third_age(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("rounds") / "third_age.yaml"
    path.write_text("extends: knizia2016\nid: third-age\ntitle: three ages\nstructure:\n  ages: 3\n", encoding="utf-8")
    return str(path)


def _marked(report: dict[str, Any], group: str) -> list[str]:
    return [row["statistic"] for row in report["rows"] if row["group"] == group and row["significant"]]


def test_a_longer_game_is_longer_not_more_of_each_thing_a_round(third_age: str) -> None:
    report = compare(RULES, third_age, 300, agents=RANDOM4, seed=4, jobs=1, engine="interpreter").report
    assert _marked(report, "length") == ["game length (actions)"]
    assert report["summary"][-1].startswith("Games: 4") and "longer" in report["summary"][-1]
    per_game, per_round = _marked(report, "cards"), _marked(report, "cards per round")
    assert len(per_game) >= 15                      # most cards are played more often in a longer game...
    # ...but not more often a round: the rows left are the architect's, which a third age
    # really does change (hands grow from age to age; measured: 0.20 -> 0.25 plays a round)
    assert len(per_round) <= 2 and all(name.startswith("architect:") for name in per_round)
    assert _marked(report, "picks per round") == []
    rows = {row["statistic"]: row for row in report["rows"]}
    game, round_ = rows["theft: offer per game"], rows["theft: offer per round"]
    assert round_["a"] == pytest.approx(game["a"] / 6) and round_["b"] == pytest.approx(game["b"] / 9)


def test_both_engines_count_the_rounds_alike(third_age: str) -> None:
    hubs.prepare(sorted(set(compiled_game.parts_of(load_rules(RULES))) | {"playout"}))   # as a second run finds it
    fast = compare(RULES, third_age, 40, agents=RANDOM4, seed=9, jobs=1).report
    slow = compare(RULES, third_age, 40, agents=RANDOM4, seed=9, jobs=1, engine="interpreter").report
    assert fast["run"]["engine"] == "compiled"
    assert {k: v for k, v in fast.items() if k != "run"} == {k: v for k, v in slow.items() if k != "run"}
    assert any(row["group"] == "cards per round" for row in fast["rows"])
