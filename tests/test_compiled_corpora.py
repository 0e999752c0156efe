"""The fuzz and hostile corpora on the compiled engine: every rules file there that loads plays
seeded random games identically on both engines (tests/compiled_support.py `play_alike`: the
same positions while the machine plays, the same errors at the same actions, the same ends and
results), or is refused with NotCompiled, which says where; and nothing crashes.

The games run in a child process (tests/compiled_corpora.py): the machine code does not check
its bounds, so a file that made it write out of bounds could kill the process that runs it; in
a child that is a failure that names the file, not a lost test session. The fuzzed files are
drawn by tests/fuzz/strategies.py (rules data mutated, rules text with broken lines), from
hypothesis derandomized: the same files on every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings

from conftest import TESTS
from fuzz import strategies as fz

HOSTILE = sorted((TESTS / "hostile").glob("*.yaml"))
FAST = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
ALLOWED = ("over", "refused", "game error", "long game")


def in_a_child(jobs: list[dict[str, Any]], folder: Path) -> dict[str, dict[str, Any]]:
    """Each job's result from tests/compiled_corpora.py, run in a process of its own."""
    listing = folder / "jobs.json"
    listing.write_text(json.dumps(jobs), encoding="utf-8")
    env = dict(os.environ, AMUNRE_NO_CACHE="1")          # no rules cache for files read once; the machine
    assert env.get("AMUNRE_COMPILED_CACHE_DIR")          # code is the session's own (conftest.py)
    child = subprocess.run([sys.executable, str(TESTS / "compiled_corpora.py"), str(listing)], cwd=TESTS,
                           capture_output=True, text=True, env=env, timeout=900)
    lines = child.stdout.splitlines()
    started = [line.removeprefix("start ") for line in lines if line.startswith("start ")]
    assert child.returncode == 0, (f"the child ended with {child.returncode} in {started[-1:]}:\n"
                                   f"{child.stderr[-3000:]}")
    found = {result["path"]: result for result in map(json.loads, (ln for ln in lines if ln.startswith("{")))}
    assert set(found) == {job["path"] for job in jobs}, "a file was not played"
    return found


def failures(found: dict[str, dict[str, Any]]) -> list[str]:
    """Whatever is neither a clean refusal nor games played alike."""
    bad = []
    for path, result in found.items():
        if result["outcome"] == "not compiled":
            if not result["message"].startswith("not compiled: "):
                bad.append(f"{path}: {result['message']}")
        elif result["outcome"] == "played":
            bad += [f"{path}: {game}" for game in result["games"] if game["outcome"] not in ALLOWED]
        elif result["outcome"] != "refused":
            bad.append(f"{path}: {result['outcome']}: {result.get('message')}")
    return bad


def expectation(path: Path) -> str:
    return path.read_text(encoding="utf-8").split("\n", 1)[0].removeprefix("# expect: ")


def test_the_hostile_rules_files_play_alike_or_are_not_compiled(tmp_path: Path) -> None:
    """The hostile files that load (tests/test_hostile.py checks the others are refused): the
    games of those that play end alike; those whose games fail fail alike, in the set-up or
    in play."""
    loading = [p for p in HOSTILE if expectation(p) == "plays" or expectation(p).startswith("game-error: ")]
    found = in_a_child([{"path": str(p), "seeds": [0, 1, 2]} for p in loading], tmp_path)
    assert failures(found) == []
    for path in loading:
        result = found[str(path)]
        assert result["outcome"] in ("played", "not compiled"), (path.name, result)
        ends = {game["outcome"] for game in result.get("games", [])}
        assert ends <= ({"over"} if expectation(path) == "plays" else {"game error", "refused"}), (path.name, result)
    played = [path for path, result in found.items() if result["outcome"] == "played"]
    assert len(loading) >= 6 and len(played) == len(loading), f"the machine played only {played}"


def fuzzed_texts(count: int) -> list[str]:
    """Rules texts from the fuzz strategies: mutated data of the 2016 rules (JSON is YAML), and
    the rules text with lines dropped, doubled, indented, cut or replaced."""
    texts: list[str] = []

    @settings(max_examples=count, **FAST)
    @given(fz.mutated(fz.BASE_DATA))
    def mutated(data: Any) -> None:
        texts.append(json.dumps(data, ensure_ascii=False, default=str))

    @settings(max_examples=count, **FAST)
    @given(fz.broken_lines(fz.RULES_TEXT, junk=False))
    def broken(text: str) -> None:
        texts.append(text)

    mutated()
    broken()
    return list(dict.fromkeys(texts))


def test_fuzzed_rules_files_play_alike_or_are_not_compiled(tmp_path: Path) -> None:
    texts = fuzzed_texts(25)        # 25 of each strategy (40 took 45 s alone, 61 s in a CI run near its 20 minutes)
    jobs = []
    for i, text in enumerate(texts):
        path = tmp_path / f"fuzzed-{i}.yaml"
        path.write_text(text, encoding="utf-8")
        jobs.append({"path": str(path), "seeds": [len(text)]})
    found = in_a_child(jobs, tmp_path)
    assert failures(found) == []
    played = [path for path, result in found.items() if result["outcome"] == "played"]
    assert len(played) >= 8, f"only {len(played)} of {len(texts)} fuzzed files loaded and played"


def test_the_child_reports_a_crash_and_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks above mean something: a child that dies (here loading a rules file kills
    the process, as a write out of bounds in the machine would) fails and names the file."""
    path = tmp_path / "dies.yaml"
    path.write_text("id: dies\n", encoding="utf-8")
    (tmp_path / "sitecustomize.py").write_text("import os, amunre\n"
                                               "amunre.load_rules = lambda *args: os.kill(os.getpid(), 11)\n",
                                               encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    with pytest.raises(AssertionError, match=r"ended with -11 in \['.*dies.yaml'\]"):
        in_a_child([{"path": str(path), "seeds": [0]}], tmp_path)
