"""What the checker learns about a tree, and the scopes it checks names in.

Shared by the checker (check.py, check_effects.py) and the code generator (compile.py): the
type of every node, what every name means, the value of every constant part.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import ast
from .builtins import Function
from .names import Attr
from .types import ANY, Type

Report = Callable[[str, int, "str | None"], None]
NOT_CONSTANT = object()

ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "/": operator.floordiv}
COMPARISON: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


@dataclass(frozen=True)
class Scope:
    """What the names of one string mean where it is used."""
    seat: bool = True                      # a seat is acting: `my`, `me`, `others` mean something
    element: Type | None = None            # bare names are attributes of `it`, a place or a seat
    bound: Mapping[str, Type] = field(default_factory=dict)   # `it`, `n`, chosen names...

    def bind(self, name: str, typ: Type) -> Scope:
        return Scope(self.seat, self.element, {**self.bound, name: typ})

    def over(self, item: Type) -> Scope:
        """Inside `where`, an aggregate or an element formula: `it` is the element, and a place's
        or a seat's values are bare names."""
        inner = item if item.kind in ("place", "seat") else None
        return Scope(self.seat, inner, {**self.bound, "it": item})


ACTING_SEAT = Scope()        # the usual scope: a seat acts, no element, nothing bound (a shared default)
NO_SEAT = Scope(seat=False)  # a rule about the game, read with no seat acting


@dataclass(frozen=True)
class Step:
    """One link of a dotted name, in the order they are read."""
    kind: str        # bound, value, option, member, modifier, element, places, word, place, seat, column
    name: str
    target: Any = None   # the Value, Member, ModifierDef or Attr read; a word's text


@dataclass(frozen=True)
class Choice:
    """What a `choose` picks from: every place, every seat, or fixed values."""
    kind: str                    # "places", "seats" or "values"
    values: tuple[Any, ...] = ()


@dataclass
class Checked:
    """What the checker learned about one tree."""
    types: dict[int, Type] = field(default_factory=dict)
    names: dict[int, tuple[Step, ...]] = field(default_factory=dict)
    consts: dict[int, Any] = field(default_factory=dict)
    calls: dict[int, tuple[str, Function]] = field(default_factory=dict)      # node -> (form, function)
    targets: dict[int, Step] = field(default_factory=dict)
    choices: dict[int, Choice] = field(default_factory=dict)
    require_levels: dict[int, int] = field(default_factory=dict)   # require -> choices it needs
    stateful: set[int] = field(default_factory=set)    # nodes that read the game, not just bound names
    per_attrs: dict[int, Attr] = field(default_factory=dict)   # `+N RES per ATTR in ...` -> ATTR

    def type(self, node: ast.Node) -> Type:
        return self.types.get(id(node), ANY)

    def const(self, node: ast.Node) -> Any:
        return self.consts.get(id(node), NOT_CONSTANT)
