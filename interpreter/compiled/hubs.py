"""The compiled engine's parts, each compiled once when first needed, and `H`, the table of
their addresses the parts call each other through (compiled/pointers.py says why).

The parts: `run` (the rules' bytecode machine, vm.py), `advance` (the automatic step,
flow.py), one hub per mechanic kind, and `machine` (entry.py), the one Python calls. A rules
file needs the core and the hubs of its own mechanics; the hub of a kind it does not use is
a stub that never runs. The observation tensor (`tensor`), the playout loop, the bots'
lookahead, the search bot's decision, the vector environment's step and its random actions are
parts compiled when a caller first needs them. Each part's machine code is kept between
processes (compiled/cache.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import njit
from numba.core.caching import FunctionCache
from numba.experimental.function_type import _get_jit_address

from . import entry, flow, lookahead, mechanics, ops, playout, search, vector, vm
from .cache import machine_code_dir
from .jit import NO_COUNTS
from .lower_mechanics import hub_of
from .pointers import (
    ADVANCE_SIGNATURE,
    H_ADVANCE,
    H_MACHINE,
    H_MECHANICS,
    H_RUN,
    H_SIZE,
    H_TENSOR,
    LOOKAHEAD_SIGNATURE,
    MACHINE_SIGNATURE,
    MECHANIC_SIGNATURE,
    PLAYOUT_SIGNATURE,
    RANDOM_LEGAL_SIGNATURE,
    RUN_SIGNATURE,
    SEARCH_SIGNATURE,
    TENSOR_SIGNATURE,
    VECTOR_SIGNATURE,
)

_parts: dict[Any, Any] = {}

# Roughly how long each part takes to compile cold, in seconds on one core (measured one after
# another in one process: run, advance, machine, lookahead, the hubs, then the rest; on a quiet
# machine, 29 November 2026, after the literal twins went: jit.py; a hub by its mechanic kind,
# ops.M_*): to say how long a cold compile takes, to weigh it against a study's games in the
# interpreter, and to share it fairly between two processes. The helper process starts later
# than this one by about HELPER_START seconds (Python, numba and amunre imported).
COST = {"run": 25.4, "advance": 12.9, "machine": 12.7, "absent": 0.1, "lookahead": 25.5, "tensor": 6.5,
        "vector": 13.4, "playout": 5.6, "search": 9.9, "random legal": 0.1}
HUB_COSTS = {ops.M_PLACEMENT: 9.3, ops.M_LOT_AUCTION: 10.1, ops.M_MARKET: 5.7, ops.M_SECRET_OFFER: 20.2,
             ops.M_INCOME: 1.8, ops.M_CARD_WINDOW: 0.8, ops.M_SCORE: 5.1, ops.M_RESET: 2.7, ops.M_DEAL: 1.2,
             ops.M_SECRET_PICK: 2.8, ops.M_MOVES: 3.8, ops.M_SELECT: 2.7, ops.M_DRAFT: 4.0, ops.M_REVEAL: 1.7,
             ops.M_TRANSITION: 1.0, ops.M_LAY_CARD: 2.9}
HUB_COST = 3.0                              # a kind not measured
HELPER_START = 2.5


def part(function: Callable[..., Any], signature: Any) -> Any:
    """The compiled part of a Python function (compiled, or loaded from the cache, once)."""
    found = _parts.get(function)
    if found is None:
        found = _parts[function] = njit(signature, cache=True, **NO_COUNTS)(function)
    return found


def address(function: Callable[..., Any], signature: Any) -> int:
    return int(_get_jit_address(part(function, signature), signature))


def parts_for(kinds: Iterable[int], playouts: bool = False) -> list[str]:
    """The names of the parts rules of these mechanic kinds need: the core, their hubs (and
    the playout loop, for a study)."""
    names = ["run", "advance", "absent", "machine"] + [f"hub {kind}" for kind in sorted(kinds)]
    return names + (["playout"] if playouts else [])


def function_of(name: str) -> tuple[Callable[..., Any], Any]:
    """A part's Python function and its signature, by name."""
    if name.startswith("hub "):
        return hub_of(int(name.split()[1])), MECHANIC_SIGNATURE
    core: dict[str, tuple[Callable[..., Any], Any]] = {
        "run": (vm.run, RUN_SIGNATURE), "advance": (flow.advance, ADVANCE_SIGNATURE),
        "absent": (mechanics.absent, MECHANIC_SIGNATURE), "machine": (entry.machine, MACHINE_SIGNATURE),
        "playout": (playout.play, PLAYOUT_SIGNATURE), "lookahead": (lookahead.lookahead, LOOKAHEAD_SIGNATURE),
        "vector": (vector.step_games, VECTOR_SIGNATURE), "tensor": (entry.observe, TENSOR_SIGNATURE),
        "search": (search.search, SEARCH_SIGNATURE),
        "random legal": (vector.random_legal, RANDOM_LEGAL_SIGNATURE)}
    return core[name]


def missing(names: list[str]) -> list[str]:
    """The parts not yet compiled in this process nor kept in the cache (compiling those takes
    a while: a cold start)."""
    found = []
    for name in names:
        function, _ = function_of(name)
        if function in _parts:
            continue
        try:
            cached = bool(FunctionCache(function)._cache_file._load_index())
        except Exception:                   # no cache to read: it compiles
            cached = False
        if not cached:
            found.append(name)
    return found


def compile_parts(names: list[str]) -> None:
    """Compile (or load) these parts in this process."""
    for name in names:
        part(*function_of(name))


def prepare(names: list[str], notice: Callable[[str], None] | None = None) -> None:
    """Make the parts ready, sharing a cold compile with a second process when the machine
    has a second core (numba compiles in one thread a process): each part it leaves to the
    other is then only loaded from the cache here. `notice` is told once if it compiles.
    Processes that start cold together (`--jobs`, test workers, two commands) compile one at
    a time: the others wait, then load what the first compiled."""
    cold = missing(names)
    if not cold:
        return
    if notice is not None:
        notice(f"compiling rules for speed (once; about {estimate(cold):.0f} s)")
    with compiling():
        cold = missing(names)                       # what another process compiled meanwhile is kept
        mine, theirs = _split(cold)
        helper = _start(theirs) if theirs else None
        compile_parts(mine)
        if helper is not None:
            helper.wait()
    compile_parts(names)


@contextmanager
def compiling() -> Iterator[None]:
    """Held by one process at a time while it compiles into the shared cache (a lock file
    beside the machine code; where files cannot be locked, every process compiles for itself,
    which is slower, never wrong: numba writes each file whole)."""
    try:
        import fcntl
    except ImportError:                              # not on a Unix
        yield
        return
    with open(machine_code_dir() / "compiling.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def estimate(cold: list[str]) -> float:
    """About how many seconds compiling these parts takes (shared between two processes)."""
    return sum(_cost(name) for name in cold) / _workers(cold) + 5


def _cost(name: str) -> float:
    if name.startswith("hub "):
        return HUB_COSTS.get(int(name.split()[1]), HUB_COST)
    return COST.get(name, HUB_COST)


def _workers(cold: list[str]) -> int:
    return 2 if len(cold) > 1 and (os.cpu_count() or 1) > 1 else 1


def _split(cold: list[str]) -> tuple[list[str], list[str]]:
    """The cold parts in two shares of about the same cost: this process's, the helper's."""
    if _workers(cold) < 2:
        return cold, []
    mine: list[str] = []
    theirs: list[str] = []
    for name in sorted(cold, key=_cost, reverse=True):
        (mine if sum(map(_cost, mine)) <= HELPER_START + sum(map(_cost, theirs)) else theirs).append(name)
    return mine, theirs


def _start(names: list[str]) -> subprocess.Popen | None:
    """A second process compiling these parts into the shared cache (None if it cannot start)."""
    try:
        return subprocess.Popen([sys.executable, "-m", f"{__package__}.warm", *names],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def table(kinds: Iterable[int]) -> np.ndarray:
    """H for rules whose phases have these mechanic kinds: the core's addresses and those
    kinds' hubs (every other kind: the stub); the tensor's address stays 0 until asked for
    (tensor_address)."""
    H = np.zeros(H_SIZE, dtype=np.int64)
    H[H_RUN] = address(vm.run, RUN_SIGNATURE)
    H[H_ADVANCE] = address(flow.advance, ADVANCE_SIGNATURE)
    stub = address(mechanics.absent, MECHANIC_SIGNATURE)
    H[H_MECHANICS:H_MACHINE] = stub
    H[H_MACHINE] = address(entry.machine, MACHINE_SIGNATURE)
    for kind in kinds:
        H[H_MECHANICS + kind] = address(hub_of(kind), MECHANIC_SIGNATURE)
    return H


def machine() -> Any:
    """The part Python calls: machine(S, T, X, H, R, command, arg)."""
    return part(entry.machine, MACHINE_SIGNATURE)


def unchecked(dispatcher: Any) -> Any:
    """A part's machine code behind numba's own wrapper, without the dispatcher that works out
    the arguments' types at every call: half of what a step called from Python pays to cross
    over (0.2 -> 0.1 us). Nothing checks the arguments then (a float is cut to a whole number,
    an array of floats read as integers), so only callers that make them themselves use it."""
    return dispatcher.overloads[dispatcher.signatures[0]].entry_point


def tensor_address() -> tuple[int, int]:
    """Where the tensor's address goes in H, and the address (the part compiled if need be)."""
    prepare(["tensor"])
    return H_TENSOR, address(entry.observe, TENSOR_SIGNATURE)


def playouts() -> Any:
    """The loop of whole games with random agents (playout.py), compiled when a study first needs it."""
    return part(playout.play, PLAYOUT_SIGNATURE)


def lookaheads() -> Any:
    """A one-step bot's lookahead (lookahead.py), compiled when a bot first needs it."""
    return part(lookahead.lookahead, LOOKAHEAD_SIGNATURE)


def searches() -> Any:
    """The search bot's decision (search.py), compiled when a search first needs it."""
    return part(search.search, SEARCH_SIGNATURE)


def vectors() -> Any:
    """Many games stepped in one call (vector.py), compiled when a vector environment first needs it."""
    return part(vector.step_games, VECTOR_SIGNATURE)


def random_legals() -> Any:
    """A random legal id a game of a batch (vector.py), compiled when a vector environment first draws them."""
    return part(vector.random_legal, RANDOM_LEGAL_SIGNATURE)
