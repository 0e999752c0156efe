"""The compiled engine's parts, each compiled once when first needed, and `H`, the table of
their addresses the parts call each other through (compiled/pointers.py says why).

The parts: `run` (the rules' bytecode machine, vm.py), `advance` (the automatic step,
flow.py), one hub per mechanic kind, and `machine` (entry.py), the one Python calls. A rules
file needs the core and the hubs of its own mechanics; the hub of a kind it does not use is
a stub that never runs. Each part's machine code is kept between processes (compiled/cache.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numba import njit
from numba.experimental.function_type import _get_jit_address

from . import entry, flow, mechanics, playout, vm
from .lower_mechanics import hub_of
from .pointers import (
    ADVANCE_SIGNATURE,
    H_ADVANCE,
    H_MACHINE,
    H_MECHANICS,
    H_RUN,
    H_SIZE,
    MACHINE_SIGNATURE,
    MECHANIC_SIGNATURE,
    PLAYOUT_SIGNATURE,
    RUN_SIGNATURE,
)


_parts: dict[Any, Any] = {}


def part(function: Callable[..., Any], signature: Any) -> Any:
    """The compiled part of a Python function (compiled, or loaded from the cache, once)."""
    found = _parts.get(function)
    if found is None:
        found = _parts[function] = njit(signature, cache=True)(function)
    return found


def address(function: Callable[..., Any], signature: Any) -> int:
    return int(_get_jit_address(part(function, signature), signature))


def table(kinds: Iterable[int]) -> np.ndarray:
    """H for rules whose phases have these mechanic kinds: the core's addresses and those
    kinds' hubs (every other kind: the stub)."""
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


def playouts() -> Any:
    """The loop of whole games with random agents (playout.py), compiled when a study first needs it."""
    return part(playout.play, PLAYOUT_SIGNATURE)
