"""Studies of random agents give the same totals on either engine.

`simulate`, `compare` and `arena` (tools/simulate/studies.py) play games of random agents on
the compiled engine, whole games in machine code (interpreter/compiled/study.py), unless told
`engine="interpreter"`; every total they fold (`Study.fold`: a Tally, a PairedTally, an
ArenaTally, compared field by field) must be the same either way: scores, winners, lengths,
points and gains by source, cards played, picks kept, first-age scores, errors. The games the
machine hands over (a number past its range) or that fail (a rule raising) are in it too.
Each test also checks the compiled engine did play them (a spy on its study entry point), to
the end where the rules give it no reason to stop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

import amunre.interpreter.compiled.hubs as hubs
import amunre.interpreter.compiled.study as compiled_study
from amunre.interpreter.compiled.playout import G_STATUS
from amunre.tools.simulate.studies import RuleSet, arena, compare, simulate
from conftest import REPO, RULES_PATH

BIG = 999_999_999_999_999


@pytest.fixture
def machine_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """For each game the compiled engine's study loop played: 0 if the machine played it to the
    end, 1 if it stopped (the interpreter then played it: a stop in a shipped file's game would
    hide a fault of the machine behind the interpreter's right totals)."""
    played: list[int] = []
    real = compiled_study.play_random
    # As a second run finds the machine code (kept): a study this small plays in the
    # interpreter while it is not compiled yet (tests/test_simulate_engine.py).
    monkeypatch.setattr(hubs, "missing", lambda names: [])

    def spy(*args: Any) -> Any:
        rows = real(*args)
        played.extend(rows.games[:, G_STATUS].tolist())
        return rows
    monkeypatch.setattr(compiled_study, "play_random", spy)
    return played


def both(study: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    return (study(*args, jobs=1, engine="compiled", **kwargs).fold,
            study(*args, jobs=1, engine="interpreter", **kwargs).fold)


@pytest.mark.parametrize("name, players", [("knizia2016", 4), ("knizia2003", 3), ("modern-art", 5),
                                           ("pharaohs-heir", 3), ("house/once_around_auction", 5)])
def test_simulate_totals_are_the_same_on_both_engines(name: str, players: int, machine_games: list[int]) -> None:
    path = str(REPO / "rules" / f"{name}.yaml")
    fast, slow = both(simulate, path, 12, agents=["random"] * players, seed=3)
    assert machine_games == [0] * 12
    assert fast.games == 12 and fast.errors == 0 and sum(fast.wins) >= 12
    assert fast == slow


def test_simulate_with_options_and_starting_amounts(machine_games: list[int]) -> None:
    ruleset = RuleSet(str(RULES_PATH), options={"temple_scoring": "every_harvest", "component_limits": "unlimited"},
                      start={"gold": [10, 30, 50]})
    fast, slow = both(simulate, ruleset, 10, agents=["random"] * 3, seed=11)
    assert machine_games == [0] * 10 and fast.games == 10
    assert fast == slow


def test_compare_totals_are_the_same_on_both_engines(machine_games: list[int]) -> None:
    fast, slow = both(compare, str(RULES_PATH), str(REPO / "rules" / "house" / "no_theft.yaml"), 10,
                      agents=["random"] * 4, seed=5)
    assert machine_games == [0] * 20 and fast.a.games == fast.b.games == 10
    assert fast == slow


def test_arena_totals_are_the_same_on_both_engines(machine_games: list[int]) -> None:
    fast, slow = both(arena, str(REPO / "rules" / "knizia2016-expert.yaml"), 12, ["random"] * 4, seed=2)
    assert machine_games == [0] * 12
    assert fast == slow


def test_games_the_machine_hands_over_or_that_fail_count_the_same(tmp_path: Path, machine_games: list[int]) -> None:
    """A harvest past 2**62 (the interpreter plays those games on) and a division by zero in
    round 3 (every game fails: the same errors, with the same messages, are counted)."""
    (tmp_path / "knizia2016.yaml").write_bytes(RULES_PATH.read_bytes())
    overflows = tmp_path / "overflows.yaml"
    overflows.write_text("extends: knizia2016.yaml\nphases:\n  harvest:\n"
                         f"    amount: \"gold_mine + (farmers + {BIG}) * {BIG} // {BIG} - {BIG}\"\n", encoding="utf-8")
    fails = tmp_path / "fails.yaml"
    fails.write_text("extends: knizia2016.yaml\nphases:\n  harvest:\n"
                     "    amount: \"gold_mine + 12 // (3 - round) + farmers\"\n", encoding="utf-8")
    fast, slow = both(simulate, str(overflows), 6, agents=["random"] * 3, seed=1)
    assert fast.games == 6 and fast.errors == 0 and fast == slow
    fast, slow = both(simulate, str(fails), 6, agents=["random"] * 3, seed=1)
    assert fast.errors == 6 and "division by zero" in fast.error_samples[0][2]
    assert fast == slow
    assert machine_games == [1] * 12                    # each stopped, and the interpreter played it
