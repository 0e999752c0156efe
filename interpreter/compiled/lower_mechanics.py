"""Each mechanic's parameters lowered to the row of numbers its machine code reads, and the
registry of the mechanics the compiled engine plays.

A mechanic is one module of this package (`MECHANICS` says which, by the interpreter's class):
its `lower` function writes the phase's parameters as a row of T (fields its own module names)
and says how many numbers of working data it keeps while it runs and how many it keeps after
(`PHASE.NAME` members read those); its `member` function, if any, resolves its DSL members;
its hub (compiled/hubs.py) is its machine code. The rows hold what the interpreter's
mechanic object holds once built: the same blocks, programs for its expressions, indices for
its names. A mechanic not listed, or whose module is not there, is not compiled.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from . import ops
from .not_compiled import NotCompiled

# The interpreter's mechanic class (by name) -> (kind, module of this package, its lowering, its hub).
MECHANICS: dict[str, tuple[int, str, str, str]] = {
    "PlacementAuction": (ops.M_PLACEMENT, "placement", "lower", "hub"),
    "LotAuction": (ops.M_LOT_AUCTION, "lot_auction", "lower", "hub"),
    "Market": (ops.M_MARKET, "market", "lower", "hub"),
    "SecretOffer": (ops.M_SECRET_OFFER, "offer", "lower", "hub"),
    "Income": (ops.M_INCOME, "turns", "lower_income", "income_hub"),
    "CardWindow": (ops.M_CARD_WINDOW, "turns", "lower_card_window", "card_window_hub"),
    "Score": (ops.M_SCORE, "scoring", "lower_score", "score_hub"),
    "Reset": (ops.M_RESET, "scoring", "lower_reset", "reset_hub"),
    "Deal": (ops.M_DEAL, "deal", "lower", "hub"),
    "SecretPick": (ops.M_SECRET_PICK, "secret_pick", "lower", "hub"),
    "Moves": (ops.M_MOVES, "moves", "lower", "hub"),
    "Select": (ops.M_SELECT, "select", "lower", "hub"),
    "Draft": (ops.M_DRAFT, "draft", "lower", "hub"),
    "Reveal": (ops.M_REVEAL, "reveal", "lower", "hub"),
    "Transition": (ops.M_TRANSITION, "transition", "lower", "hub"),
    "LayCard": (ops.M_LAY_CARD, "lay_card", "lower", "hub"),
}


def module_of(mech: Any) -> tuple[int, ModuleType, str, str] | None:
    """(kind, module, lowering's name, hub's name) of a mechanic, if it is compiled."""
    entry = MECHANICS.get(type(mech).__name__)
    if entry is None:
        return None
    kind, name, lower_name, hub = entry
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError:
        return None
    return kind, module, lower_name, hub


def hub_of(kind: int) -> Any:
    """The hub (a Python function the machine compiles) of a mechanic kind."""
    for entry_kind, name, _, hub in MECHANICS.values():
        if entry_kind == kind:
            return getattr(importlib.import_module(f"{__package__}.{name}"), hub)
    raise KeyError(kind)


def lower_phase(lowering: Any, pid: str, mech: Any) -> tuple[int, int, int, int]:
    """(mechanic kind, params offset, working numbers, kept numbers) of one phase."""
    found = module_of(mech)
    if found is None:
        raise NotCompiled(f"the mechanic '{mech.name}' (phase '{pid}')", lowering.rules.path)
    kind, module, lower_name, _ = found
    params, work, kept = getattr(module, lower_name)(lowering, pid, mech)
    picks = getattr(module, "picks", None)
    if picks is not None:
        lowering.picks[pid] = picks(lowering, pid, mech)
    return kind, params, work, kept


def member_of(lowering: Any, pid: str, mech: Any, name: str) -> tuple[int, int, int] | None:
    """A `PHASE.NAME` the DSL reads, as (member kind, phase, argument): the phase's module says."""
    phase = lowering.phases.index(pid)
    if name == "outbid" and type(mech).__name__ in ("PlacementAuction", "LotAuction"):
        return ops.MEMBER_OUTBID, phase, 0         # read from the running phase, whichever auction it is
    found = module_of(mech)
    member = getattr(found[1], "member", None) if found is not None else None
    return member(lowering, phase, mech, name) if member is not None else None


def turn_head(lowering: Any) -> int:
    """The working numbers of a mechanic that takes turns, before its own: count, order, index."""
    return 2 + lowering.rules.max_players


def row(fields: dict[int, int]) -> list[int]:
    """A row of parameters from its fields (index -> value)."""
    out = [0] * (max(fields) + 1)
    for index, value in fields.items():
        out[index] = int(value)
    return out


def lower_held(lowering: Any) -> list[list[int]]:
    """The resources held as cards (rules.denominations, in its order): per resource a row of
    HELD_* fields, its card values (largest first) and start cards (counts per value) as lists
    in T, its `when` as a program (-1: always). HELD_S, its region of S, is laid out later."""
    rows = []
    for name, held in lowering.rules.denominations.items():
        values = list(held.values)
        start = [held.start.count(value) for value in values]
        rows.append(row({ops.HELD_RES: lowering.resource(name), ops.HELD_N_VALUES: len(values),
                         ops.HELD_VALUES: lowering.put(values), ops.HELD_START: lowering.put(start),
                         ops.HELD_WHEN: lowering.program(held.when), ops.HELD_S: 0}))
    return rows
