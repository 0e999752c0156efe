"""Which parts of the game state a compiled expression reads, from what the checker learned.

A caller that values the same expression on many positions (the agents forecast a scoring
phase's points at every position they look at) may keep its values by what it reads: two
positions alike in those parts give the same value. The checker has resolved every name to
its Steps (checked.py), so what a generated function reads is known without running it. A
part is a tuple: ("players",), ("start_player",), ("owner",), ("tokens",), ("hands",),
("options", NAME), ("resources", NAME), ("mods", NAME), ("kept", PHASE) (what a phase keeps after
it ends, read through a member that declares it: names.Member.reads). Anything read through a
function the DSL cannot see into (a phase's query or a member that declares nothing, `age`,
`round`, a place value read by its own function) makes the answer None: unknown, so nothing
may be kept by it.
"""

from __future__ import annotations

from typing import Any

from .builtins import VALUES
from .checked import NOT_CONSTANT

Part = tuple[str, ...]

# Built-in game values whose functions read only the acting seat and these parts.
_VALUES: dict[int, tuple[Part, ...]] = {
    id(VALUES["me"]): (), id(VALUES["my"]): (), id(VALUES["players"]): (("players",),),
    id(VALUES["seats"]): (("players",),), id(VALUES["others"]): (("players",),),
    id(VALUES["start_player"]): (("start_player",),),
    id(VALUES["next_player"]): (("start_player",), ("players",)),
}

# What reading a place's or a seat's value of each kind (names.Attr.kind) reads, as compile.py
# generates it; a derived value reads what its own expression reads.
_ATTRS: dict[str, tuple[Part, ...]] = {
    "column": (), "owned": (("owner",),), "owner": (("owner",),), "places": (("owner",),),
    "cards": (("hands",),), "token": (("tokens",),),
}


def state_reads(expression: Any) -> frozenset[Part] | None:
    """The parts of the state the expression's value depends on (with the acting seat and the
    element `it`), or None when the checker's record cannot tell."""
    if expression.constant is not NOT_CONSTANT:
        return frozenset()
    checked = expression.checked
    if checked is None:
        return None
    parts: set[Part] = set()
    for steps in checked.names.values():
        for step in steps:
            found = _step(step)
            if found is None:
                return None
            parts.update(found)
    return frozenset(parts)


def _step(step: Any) -> tuple[Part, ...] | None:
    kind = step.kind
    if kind in ("bound", "word", "places", "column"):     # bound names, constants, a row's column
        return ()
    if kind == "option":
        return (("options", step.name),)
    if kind == "value":
        return _VALUES.get(id(step.target))
    if kind == "modifier":
        return (("mods", step.target.name),)
    if kind in ("element", "seat", "place"):
        return _attr(step.target)
    if kind == "member":                            # what the phase declares it reads, if it does
        reads: tuple[Part, ...] | None = getattr(step.target, "reads", None)
        return reads
    return None                                     # anything new


def _attr(attr: Any) -> tuple[Part, ...] | None:
    kind = getattr(attr, "kind", None)
    if kind == "resource":
        return (("resources", attr.key),)
    if kind == "modifier":
        return (("mods", attr.key.name),)
    if kind == "derived":
        inner = state_reads(attr.key)
        return None if inner is None else tuple(inner)
    return _ATTRS.get(kind) if isinstance(kind, str) else None
