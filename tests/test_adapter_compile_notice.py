"""The adapters say so on standard error when they compile the machine code: once per install,
in an environment's constructor or first reset, for half a minute to two, which a learner's
script would otherwise sit through in silence. Nothing is compiled here: every part is said to
be missing from the cache (hubs.missing), and what would be compiled is recorded instead."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from amunre.adapters.gymnasium import AmunreGymEnv
from amunre.adapters.gymnasium_vector import AmunreVectorEnv
from amunre.adapters.pettingzoo import raw_env
from amunre.interpreter.compiled import hubs

NOTICE = "amunre: compiling rules for speed (once; about "


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The parts each prepare compiles, recorded instead: a part is missing until "compiled"
    (recorded), no helper process starts, and the machine code the test plays is loaded as
    ever (or compiled by numba on its own, silently, on a cold cache)."""
    compiled: list[list[str]] = []
    monkeypatch.setattr(hubs, "missing", lambda names: [name for name in names if not any(name in c for c in compiled)])
    monkeypatch.setattr(hubs, "_start", lambda names: None)
    monkeypatch.setattr(hubs, "compile_parts", lambda names: compiled.append(list(names)))
    return compiled


def notices(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith(NOTICE)]


def test_the_gymnasium_env_says_it_compiles_the_engine_then_the_bots_lookahead(
        cold: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    env = AmunreGymEnv("knizia2016", players=3, opponents="greedy")
    assert len(notices(capsys)) == 1
    assert {"run", "tensor"} <= {name for parts in cold for name in parts}   # the engine's and the observation's
    env.reset(seed=1)                                       # the bots' first decisions
    assert len(notices(capsys)) == 1 and cold[-1] == ["lookahead"]
    env.reset(seed=2)
    assert notices(capsys) == []                            # compiled once: then kept


def test_random_opponents_compile_no_lookahead(cold: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    env = AmunreGymEnv("knizia2016", players=3, opponents="random")
    env.reset(seed=1)
    assert len(notices(capsys)) == 1 and ["lookahead"] not in cold


def test_the_interpreter_compiles_nothing(cold: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    env = AmunreGymEnv("knizia2016", players=3, opponents="greedy", engine="interpreter")
    env.reset(seed=1)
    assert cold == [] and notices(capsys) == []


@pytest.mark.parametrize("make", [
    lambda: AmunreVectorEnv("knizia2016", num_envs=2),
    lambda: raw_env("knizia2016", players=3),
], ids=["vector", "pettingzoo"])
def test_the_other_adapters_say_it_too(make: Any, cold: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    make()
    assert notices(capsys)
    assert any("vector" in parts or "tensor" in parts for parts in cold)


def test_openspiel_says_it_too(cold: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from amunre.adapters.openspiel import short_name
    pyspiel.load_game(short_name("knizia2016"), {"players": 3}).new_initial_state()
    assert notices(capsys)
