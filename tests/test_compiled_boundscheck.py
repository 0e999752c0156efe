"""The compiled engine's games under numba's bounds checks (slow: skipped unless asked for).

The machine code does not check the bounds of its arrays: an index past the end would read or
write whatever lies there, silently. With NUMBA_BOUNDSCHECK=1 every access is checked and one
out of bounds raises IndexError. Here, in child processes with that setting, seeded games of
several rules files are played side by side with the interpreter (tests/compiled_support.py),
studies are played in the machine's own loop, and the hostile corpus is played: all must pass.
The machine code is compiled anew for it (its cache folder is keyed by the setting): several
minutes, so it runs only with

    AMUNRE_BOUNDSCHECK_TESTS=1 python -m pytest -q tests/test_compiled_boundscheck.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.environ.get("AMUNRE_BOUNDSCHECK_TESTS") != "1",
                                 reason="recompiles the machine code with bounds checks: AMUNRE_BOUNDSCHECK_TESTS=1")]

pytest.importorskip("numpy")
pytest.importorskip("numba")

from conftest import REPO, TESTS

FILES = {"knizia2016": 15, "knizia2016-expert": 9, "knizia2003": 9, "modern-art": 9, "pharaohs-heir": 8,
         "house/once_around_auction": 6, "house/market_until_all_pass": 6}
STUDY = """
import amunre.interpreter.compiled.hubs as hubs
import amunre.interpreter.compiled.study as study
hubs.missing = lambda names: []                        # studies this small play compiled all the same
from amunre.interpreter.compiled.playout import G_STATUS
from amunre.tools.simulate.studies import simulate
stops = []
real = study.play_random
def spy(*args):
    rows = real(*args)
    stops.extend(rows.games[:, G_STATUS].tolist())     # an IndexError in the loop is a stop: the
    return rows                                        # interpreter plays that game
study.play_random = spy
for name, players in (("knizia2016", 5), ("knizia2003", 3), ("modern-art", 4), ("pharaohs-heir", 3)):
    fast = simulate(f"{REPO}/rules/{name}.yaml", 20, agents=["random"] * players, seed=1, jobs=1, engine="compiled")
    slow = simulate(f"{REPO}/rules/{name}.yaml", 20, agents=["random"] * players, seed=1, jobs=1,
                    engine="interpreter")
    assert fast.fold == slow.fold and fast.fold.games == 20, name
assert stops == [0] * 80, f"the machine stopped in {sum(stops)} of the studies' games"
print("studies the same")
"""


def checked(command: list[str], seconds: float = 1800) -> str:
    """Run a command with bounds checks on; its output (the test fails if it does)."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1")
    env.pop("AMUNRE_NO_CACHE", None)
    child = subprocess.run(command, cwd=TESTS, capture_output=True, text=True, env=env, timeout=seconds)
    shown = " ".join(command[1:])[:120]
    assert child.returncode == 0, f"{shown} ended with {child.returncode}:\n{child.stdout[-3000:]}\n" \
                                  f"{child.stderr[-3000:]}"
    return child.stdout


def test_the_machine_code_checks_its_bounds_in_the_child() -> None:
    """The setting reaches the child: numba there reads NUMBA_BOUNDSCHECK=1 (else every test
    here would pass without checking anything)."""
    out = checked([sys.executable, "-c", "import numba; print(numba.config.BOUNDSCHECK)"])
    assert out.strip() == "1"


@pytest.mark.parametrize("name", sorted(FILES))
def test_seeded_games_with_bounds_checked(name: str) -> None:
    games = FILES[name]
    out = checked([sys.executable, str(TESTS / "compiled_support.py"), str(REPO / "rules" / f"{name}.yaml"),
                   str(games)])
    assert f"{games} of {games} games the same" in out, out


def test_studies_with_bounds_checked() -> None:
    assert "studies the same" in checked([sys.executable, "-c", f"REPO = {str(REPO)!r}\n" + STUDY])


BOTS = """
from test_agent_machine import play
for name, spec in (("knizia2016", "ismcts:iterations=10"), ("modern-art", "ismcts:iterations=10"),
                   ("knizia2016", "heuristic:samples=2")):
    path = f"{REPO}/rules/{name}.yaml"
    assert play(path, spec, 2, "compiled") == play(path, spec, 2, "interpreter"), (name, spec)
print("bots the same")
"""


def test_bots_on_the_machine_with_bounds_checked() -> None:
    """The lookahead and the search's whole decisions (their deal, tree and playouts) too."""
    assert "bots the same" in checked([sys.executable, "-c", f"REPO = {str(REPO)!r}\n" + BOTS])


def test_hostile_corpus_with_bounds_checked(tmp_path: Path) -> None:
    hostile = sorted((TESTS / "hostile").glob("*.yaml"))
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([{"path": str(p), "seeds": [0, 1, 2]} for p in hostile]), encoding="utf-8")
    out = checked([sys.executable, str(TESTS / "compiled_corpora.py"), str(jobs)])
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(results) == len(hostile)
    assert all(r["outcome"] in ("refused", "played", "not compiled") for r in results), results
    assert sum(r["outcome"] == "played" for r in results) >= 6
