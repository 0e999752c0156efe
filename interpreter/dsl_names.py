"""The names a DSL string may use, gathered from the rules file and the mechanics.

The compiler resolves every name against this table once, at load time; a name that is not
here is an error with a suggestion, so nothing is looked up by string while a game runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .context import Ctx

# The static types the compiler tracks.
NUM, BOOL, STR, PLACE, PLACES, LIST, ANY = "number", "boolean", "text", "place", "places", "list", "any"


@dataclass(frozen=True)
class PlaceAttr:
    """One value a place has: a printed property, a token count, a derived value, a modifier."""
    type: str
    get: Callable[[Ctx, int], Any]


@dataclass(frozen=True)
class ModifierDef:
    """A named, phase-scoped adjustment that effects set and mechanics or formulas read."""
    name: str
    scope: str            # "seat", "place" or "game"
    default: Any
    doc: str = ""


@dataclass(frozen=True)
class Query:
    """A value a mechanic computes for the acting seat (e.g. whether it has been outbid)."""
    type: str
    get: Callable[[Ctx], Any]


@dataclass
class Vocabulary:
    plural: str                                   # the DSL name of all places ("provinces")
    place_index: dict[str, int]
    place_attrs: dict[str, PlaceAttr] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)    # bare words standing for text
    resources: tuple[str, ...] = ()
    decks: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    tile_attrs: dict[str, str] = field(default_factory=dict)
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    modifiers: dict[str, ModifierDef] = field(default_factory=dict)
    queries: dict[str, Query] = field(default_factory=dict)


def modifier_key(scope: str, seat: int | None, place: int | None) -> str:
    """The key under which one modifier value is stored in GameState.mods[name]."""
    if scope == "place":
        return f"p{place}"
    if scope == "seat":
        return f"s{seat}"
    return "game"


def read_modifier(state: Any, mod: ModifierDef, seat: int | None = None, place: int | None = None) -> Any:
    values = state.mods.get(mod.name)
    if not values:
        return mod.default
    return values.get(modifier_key(mod.scope, seat, place), mod.default)
