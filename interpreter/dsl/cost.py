"""What one evaluation of a checked tree costs, estimated once at load time, and how large its
generated code is.

Every loop of the DSL goes through a finite collection (docs/dsl.md), yet loops nested in
loops multiply: `sum(places, sum(places, ...))` ten deep over 15 places is 15^10 steps each
time a rule reads it, and a game that reads it never ends, though the file checks cleanly.
Every size such a product needs is known when the rules load (the number of places, the most
players the rules allow, a written list's length), so the product is computed here from the
checked tree, and a string whose estimate passes MAX_DSL_COST is refused at the node where it
passes it, before any game: every rule that loads ends each time it is read, in bounded time.

The unit is one node evaluated once. A name, an operator, a statement and each element a loop
visits count 1; a loop multiplies what it runs per element by the size of what it goes
through; `choose`s multiply too (a requirement is checked for every combination of the
choices it reads); reading a derived value costs one evaluation of it (its own estimate, kept
on its Expression, so a chain of derived values each reading the one before twice is priced
at 2^n without walking anything twice). It is an upper bound: a branch not taken, a filter
that keeps few elements, a seat that owns few places are counted in full.

The same walk counts the nodes of the code the compiler generates (`nodes`). A derived value
is inlined where it is read only while its code is that small (compile.inlines), and called
otherwise: inlining everything made code that doubles with each of `d2: "d1 + d1"`,
`d3: "d2 + d2"`... (18 such lines took 1.7 GB to compile). With each derived value's count
kept on its Expression, the code of a file stays linear in its text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..base.limits import MAX_DSL_COST
from . import ast
from .checked import NOT_CONSTANT, Checked, Report
from .compile import inlines
from .names import Attr
from .types import element


@dataclass(frozen=True)
class Counts:
    """The sizes of what a rule may go through, as the rules file declares them."""
    places: int
    seats: int                  # the most players the rules allow


class Estimate:
    """The cost and code size of the parts of one checked tree. The first part found above
    MAX_DSL_COST (the innermost: parts are priced before what holds them) is reported, once;
    `over` says whether one was. So the cost a message gives is at most the limit times the
    size of one collection: a number of a few digits, never a huge one."""

    def __init__(self, checked: Checked, counts: Counts, report: Report) -> None:
        self.info = checked
        self.counts = counts
        self.report = report
        self.over = False

    def _check(self, node: ast.Node, cost: int) -> int:
        """The cost, after reporting it if it is the first part of the tree above the limit (a
        derived value above it was reported where it is defined: reading it is not reported
        again, though the reading string is refused too)."""
        if cost > MAX_DSL_COST and not self.over:
            self.over = True
            self.report(f"too costly: one evaluation would take about {cost:,} steps, and a rule may take at "
                        f"most {MAX_DSL_COST:,}", node.span.start,
                        "loops over places, seats or lists nested in each other multiply their sizes, "
                        "and a derived value costs all it reads each time it is read")
        return cost

    # ---- sizes ---------------------------------------------------------------------------------
    def size(self, node: ast.Expr) -> int:
        """How many elements a collection has at most: a written list its length, places and
        seats as many as the rules have, a filtered collection as many as it filters."""
        value = self.info.const(node)
        if isinstance(value, tuple):
            return len(value)
        if isinstance(node, ast.ListOf):
            return len(node.items)
        if isinstance(node, ast.Where):
            return self.size(node.base)
        typ = self.info.type(node)
        if typ.kind != "list":
            return 1                        # `per ATTR in PLACE`: one place
        item = element(typ).kind
        if item == "place":
            return self.counts.places
        if item == "seat":
            return self.counts.seats
        return self.counts.places + self.counts.seats    # a list of other values no rule writes today

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node: ast.Expr) -> int:
        """The steps one evaluation of the expression takes at most."""
        if self.info.const(node) is not NOT_CONSTANT:
            return 1                        # folded at load time: the generated code holds its value
        handler = _EXPRESSIONS.get(type(node))
        cost = handler(self, node) if handler is not None else 1 + sum(self.expr(c) for c in _exprs(node))
        return self._check(node, cost)

    def _name(self, node: ast.Name) -> int:
        """A step per link; a derived value what it costs; a seat's places, or every seat, the
        list that is built of them."""
        steps = self.info.names.get(id(node), ())
        cost = max(len(steps), 1)
        for step in steps:
            target = step.target
            if isinstance(target, Attr) and target.kind == "derived":
                derived = getattr(target.key, "cost", 1)
                self.over = self.over or derived > MAX_DSL_COST     # refused where it is defined: said once
                cost += derived
            elif isinstance(target, Attr) and target.kind == "places":
                cost += self.counts.places
            elif step.kind == "value" and step.name in ("seats", "others"):
                cost += self.counts.seats
        return cost

    def _where(self, node: ast.Where) -> int:
        return self.expr(node.base) + self.size(node.base) * (self.expr(node.cond) + 1)

    def _call(self, node: ast.Call) -> int:
        """A scalar function costs its arguments; an aggregate its collection, and its value
        once per element."""
        form, _ = self.info.calls.get(id(node), ("scalar", None))
        if form == "scalar":
            return 1 + sum(self.expr(arg) for arg in node.args)
        collection, *value = node.args
        each = 1 + sum(self.expr(v) for v in value)
        return 1 + self.expr(collection) + self.size(collection) * each

    # ---- effects -------------------------------------------------------------------------------
    def effect(self, node: ast.Effect) -> int:
        """The steps to list an effect's allowed actions and to run one. A choice's options and
        a requirement are evaluated once per combination of the choices made before them
        (play/choices.py); the rest runs once per action."""
        combinations = [1]                   # before the k-th choice: the product of the sizes of those before
        cost = 0
        for stmt in node.body:
            if isinstance(stmt, ast.Choose):
                cost += combinations[-1] * (self.expr(stmt.options) + 1)
                combinations.append(combinations[-1] * self.size(stmt.options))
            elif isinstance(stmt, ast.Require):
                level = min(self.info.require_levels.get(id(stmt), 0), len(combinations) - 1)
                cost += combinations[level] * (self.expr(stmt.cond) + 1)
            else:
                cost += self.stmt(stmt)
            self._check(stmt, cost + combinations[-1])
        return cost + combinations[-1]

    def stmt(self, node: ast.Stmt) -> int:
        """A statement: one step and its parts; `each` its body once per element, `per ATTR
        in PLACES` a step per place."""
        if isinstance(node, ast.Each):
            cost = self.expr(node.options) + self.size(node.options) * (self.stmt(node.body) + 1)
        else:
            cost = 1 + sum(self._part(part) for part in _parts(node))
            if isinstance(node, ast.Gain) and node.per_in is not None:
                cost += self.size(node.per_in)
        return self._check(node, cost)

    def _part(self, part: ast.Node) -> int:
        if isinstance(part, ast.Expr):
            return self.expr(part)
        if isinstance(part, ast.Stmt):
            return self.stmt(part)
        if isinstance(part, ast.Target):
            return 1 + (self.expr(part.of) if part.of is not None else 0)
        return 0                             # a written name (resource, token, deck): no evaluation

    # ---- code size -----------------------------------------------------------------------------
    def nodes(self, node: ast.Node) -> int:
        """The nodes of the code generated for the tree: its own, and those of each derived
        value the compiler inlines where it is read."""
        if isinstance(node, ast.Expr) and self.info.const(node) is not NOT_CONSTANT:
            return 1
        count = 1 + sum(self.nodes(part) for part in _parts(node))
        for step in self.info.names.get(id(node), ()) if isinstance(node, ast.Name) else ():
            target = step.target
            if isinstance(target, Attr) and target.kind == "derived" and inlines(target.key):
                count += target.key.nodes
        return count


def _parts(node: ast.Node) -> Iterator[ast.Node]:
    """The nodes a node holds, in order (a block's statements, a call's arguments...)."""
    for name in node.__dataclass_fields__:
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, tuple):
            yield from (item for item in value if isinstance(item, ast.Node))


def _exprs(node: ast.Node) -> Iterator[ast.Expr]:
    return (part for part in _parts(node) if isinstance(part, ast.Expr))


_EXPRESSIONS: dict[type, Callable[[Estimate, Any], int]] = {
    ast.Name: Estimate._name, ast.Where: Estimate._where, ast.Call: Estimate._call,
}
