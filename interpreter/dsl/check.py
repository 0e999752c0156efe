"""Name resolution and type checks of the AST, once, at load time.

The checker walks a tree and records, per node, its type, what each name means (a resource
of a seat, a column of the place table, a phase's query...) and the value of every constant
part; it reports each problem with its offset in the string and goes on, so that one load
lists them all. The compiler then turns the checked tree into code without resolving
anything again. This module checks expressions and names; check_effects.py, statements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import did_you_mean
from . import ast
from .builtins import FUNCTIONS, VALUES, Function
from .check_effects import STATEMENTS, EffectChecks
from .checked import ARITHMETIC, COMPARISON, NOT_CONSTANT, Checked, Report, Scope, Step
from .names import Attr, ModifierDef, Vocabulary, modifier_type
from .types import (
    ANY,
    BOOL,
    NUM,
    PLACES,
    TEXT,
    Type,
    element,
    enum,
    equality_problem,
    is_a,
    is_collection,
    list_of,
    word,
)


class Checker(EffectChecks):
    def __init__(self, vocab: Vocabulary, report: Report) -> None:
        self.vocab = vocab
        self.report = report
        self.out = Checked()
        self.failed = False

    def problem(self, message: str, at: ast.Node | int, hint: str | None = None) -> None:
        self.failed = True
        self.report(message, at if isinstance(at, int) else at.span.start, hint)

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node: ast.Expr, scope: Scope) -> Type:
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            self.problem(f"{type(node).__name__.lower()} cannot stand here", node)
            typ = ANY
        else:
            typ = handler(self, node, scope)
        self.out.types[id(node)] = typ
        return typ

    def expect(self, node: ast.Expr, scope: Scope, wanted: Type, what: str) -> Type:
        typ = self.expr(node, scope)
        if not is_a(typ, wanted):
            self.problem(f"{what} must be {wanted}, not {typ}", node)
        return typ

    def _stateful(self, node: ast.Node, *children: ast.Node | None) -> None:
        if any(c is not None and id(c) in self.out.stateful for c in children):
            self.out.stateful.add(id(node))

    def _number(self, node: ast.Number, scope: Scope) -> Type:
        self.out.consts[id(node)] = node.value
        return NUM

    def _text(self, node: ast.Text, scope: Scope) -> Type:
        self.out.consts[id(node)] = node.value
        return TEXT

    def _list(self, node: ast.ListOf, scope: Scope) -> Type:
        types = [self.expr(item, scope) for item in node.items]
        known = [t for t in types if t != ANY]
        for item, typ in zip(node.items, types):
            if known and typ != ANY and typ.kind != known[0].kind:
                self.problem(f"a list holds values of one kind: {typ} among {known[0].kind}s", item)
        values = [self.out.const(item) for item in node.items]
        if all(v is not NOT_CONSTANT for v in values):
            self.out.consts[id(node)] = tuple(values)
        self._stateful(node, *node.items)
        return list_of(known[0] if known else ANY)

    def _unary(self, node: ast.Unary, scope: Scope) -> Type:
        wanted = BOOL if node.op == "not" else NUM
        typ = self.expect(node.operand, scope, wanted, f"what '{node.op}' applies to")
        value = self.out.const(node.operand)
        if value is not NOT_CONSTANT and is_a(typ, wanted):      # a mistyped one is reported, not folded
            self.out.consts[id(node)] = (not value) if node.op == "not" else -value
        self._stateful(node, node.operand)
        return wanted

    def _binary(self, node: ast.Binary, scope: Scope) -> Type:
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, scope, BOOL, f"each side of '{op}'")
            self.expect(node.right, scope, BOOL, f"each side of '{op}'")
            result = BOOL
        elif op in ("==", "!="):
            left, right = self.expr(node.left, scope), self.expr(node.right, scope)
            why = equality_problem(left, right)
            if why:
                self.problem(why, node)
            result = BOOL
        else:
            what = "arithmetic" if op in ARITHMETIC else f"'{op}'"
            for side in (node.left, node.right):
                self.expect(side, scope, NUM, f"each side of {what}")
            result = NUM if op in ARITHMETIC else BOOL
        self._fold(node)
        self._stateful(node, node.left, node.right)
        return result

    def _fold(self, node: ast.Binary) -> None:
        left, right = self.out.const(node.left), self.out.const(node.right)
        if node.op in ("//", "/") and right == 0 and right is not NOT_CONSTANT and not isinstance(right, bool):
            self.problem("division by zero", node.right)
            return
        if left is NOT_CONSTANT or right is NOT_CONSTANT:
            return
        if node.op == "and":
            value = bool(left) and bool(right)
        elif node.op == "or":
            value = bool(left) or bool(right)
        else:
            fn = ARITHMETIC.get(node.op) or COMPARISON[node.op]
            try:
                value = fn(left, right)
            except (TypeError, ValueError):
                return
        self.out.consts[id(node)] = value

    def _when(self, node: ast.When, scope: Scope) -> Type:
        """Without `else` a number (0 where the condition fails); with it, the value's type, which
        the value after `else` must have too."""
        if node.otherwise is None:
            typ = NUM
            self.expect(node.value, scope, NUM, "the value before 'when'")
        else:
            typ = self.expr(node.value, scope)
            self.expect(node.otherwise, scope, typ, "the value after 'else'")
        self.expect(node.cond, scope, BOOL, "the condition after 'when'")
        self._stateful(node, node.value, node.cond, node.otherwise)
        return typ

    def _where(self, node: ast.Where, scope: Scope) -> Type:
        base = self.collection(node.base, scope)
        self.expect(node.cond, scope.over(element(base)), BOOL, "the condition after 'where'")
        self._stateful(node, node.base, node.cond)
        return base

    def collection(self, node: ast.Expr, scope: Scope) -> Type:
        """A collection: places, seats or a [list], maybe filtered with `where`."""
        typ = self.expr(node, scope)
        if not is_collection(typ):
            self.problem(f"expected a collection ({self.vocab.plural}, seats or a [list]), got {typ}", node)
            return ANY
        return typ

    def _call(self, node: ast.Call, scope: Scope) -> Type:
        name = node.func.name
        fn = FUNCTIONS.get(name)
        if fn is None:
            self.problem(f"unknown function '{name}'", node.func, did_you_mean(name, FUNCTIONS))
            return ANY          # its arguments' scope is unknown: checking them would only add noise
        first = node.args[0]
        if fn.aggregate is not None and (isinstance(first, ast.Where) or fn.scalar is None
                                         or is_collection(self._peek(first, scope))):
            return self._aggregate(node, fn, scope)
        return self._scalar(node, fn, scope)

    def _peek(self, node: ast.Expr, scope: Scope) -> Type:
        """The type of an argument, checked in a throw-away checker (to choose a function's form)."""
        trial = Checker(self.vocab, lambda *args: None)
        return trial.expr(node, scope)

    def _aggregate(self, node: ast.Call, fn: Function, scope: Scope) -> Type:
        name, agg = node.func.name, fn.aggregate
        assert agg is not None                          # called for a function with this form
        coll = self.collection(node.args[0], scope)
        self.out.calls[id(node)] = ("aggregate", fn)
        if agg.value is None:
            if len(node.args) > 1:
                self.problem(f"{name}() takes a collection only: filter it with 'where'", node.args[1])
        elif len(node.args) < 2:
            self.problem(f"{name}() needs a second argument: {name}(collection, value)", node)
        elif len(node.args) > 2:
            self.problem(f"{name}() takes a collection and one value", node.args[2])
        else:
            self.expect(node.args[1], scope.over(element(coll)), agg.value, f"the value {name}() takes of each element")
        self._stateful(node, *node.args)
        return agg.result

    def _scalar(self, node: ast.Call, fn: Function, scope: Scope) -> Type:
        name, sc = node.func.name, fn.scalar
        if sc is None:
            self.problem(f"{name}() takes a collection: {name}{fn.usage}", node)
            return ANY
        arity_ok = len(node.args) >= sc.least and not (sc.least == 1 and len(node.args) > 1)
        if not arity_ok:
            self.problem(f"{name}() takes {fn.usage}", node)
        for arg in node.args:
            if isinstance(arg, ast.Where):
                self.problem("'where' filters a collection, and this is not one", arg)
            self.expect(arg, scope, sc.arg, f"each argument of {name}()")
        self.out.calls[id(node)] = ("scalar", fn)
        values = [self.out.const(arg) for arg in node.args]
        if arity_ok and all(type(v) is int for v in values):
            self.out.consts[id(node)] = sc.apply(*values)
        self._stateful(node, *node.args)
        return sc.result

    # ---- names ---------------------------------------------------------------------------------
    def _name(self, node: ast.Name, scope: Scope) -> Type:
        first = self._head(node, scope)
        if first is None:
            return ANY
        step, typ, used = first
        steps = [step]
        for part in node.parts[used:]:
            link = self._attribute(typ, part)
            if link is None:
                return ANY
            step, typ = link
            steps.append(step)
        self.out.names[id(node)] = tuple(steps)
        if steps[0].kind == "word":
            self.out.consts[id(node)] = steps[0].target
        if not (len(steps) == 1 and steps[0].kind in ("bound", "word")):
            self.out.stateful.add(id(node))     # it reads the game, not only bound names
        return typ

    def _head(self, node: ast.Name, scope: Scope) -> tuple[Step, Type, int] | None:
        """What the first one or two parts of a dotted name mean: (step, type, parts used)."""
        v = self.vocab
        head, rest = node.parts[0], node.parts[1:]
        name = head.name
        if name in scope.bound:
            return Step("bound", name), scope.bound[name], 1
        if name in VALUES:
            value = VALUES[name]
            if value.needs_seat and not scope.seat:
                self.problem(f"'{name}' means nothing here: no seat is acting when this is evaluated", node)
                return None
            return Step("value", name, value), value.type, 1
        if name == "option" and rest:
            return self._option(rest[0])
        if name in v.phases and rest:
            return self._member(node, scope, name, rest[0])
        if name in v.modifiers and v.modifiers[name].scope != "place":
            return self._modifier_value(node, v.modifiers[name], scope, 1)
        if scope.element is not None:
            attrs = v.place_attrs if scope.element.kind == "place" else v.seat_attrs
            if name in attrs:
                return Step("element", name, attrs[name]), attrs[name].type, 1
        if name == v.plural:
            return Step("places", name), PLACES, 1
        if name in v.words and not rest:
            return Step("word", name, name), word(v.words[name]), 1
        hint = did_you_mean(name, self._known_names(scope))
        if hint is None and scope.bound:             # a name this place does not give: say which it does
            hint = f"the names bound here: {', '.join(sorted(scope.bound))}"
        self.problem(f"unknown name '{name}'", head, hint)
        return None

    def _option(self, part: ast.Ident) -> tuple[Step, Type, int] | None:
        """`option.NAME`: the option's value, one of its words."""
        if part.name not in self.vocab.options:
            self.problem(f"unknown option '{part.name}'", part, did_you_mean(part.name, self.vocab.options))
            return None
        return Step("option", part.name), enum(f"option.{part.name}"), 2

    def _member(self, node: ast.Name, scope: Scope, phase: str, part: ast.Ident) -> tuple[Step, Type, int] | None:
        """`PHASE.NAME`: a phase's query, kept value or modifier."""
        member = self.vocab.member(phase, part.name)
        if member is None:
            known = [f"{phase}.{m}" for m in self.vocab.phases[phase]]
            self.problem(f"unknown name '{phase}.{part.name}'", part, did_you_mean(f"{phase}.{part.name}", known))
            return None
        if member.needs_seat and not scope.seat:
            self.problem(f"'{phase}.{part.name}' is about the acting seat, and no seat is acting here", node)
            return None
        if member.modifier is not None:
            return self._modifier_value(node, member.modifier, scope, 2)
        return Step("member", f"{phase}.{part.name}", member), member.type, 2

    def _modifier_value(self, node: ast.Name, mod: ModifierDef, scope: Scope,
                        used: int) -> tuple[Step, Type, int] | None:
        if mod.scope == "place":
            self.problem(f"modifier '{mod.name}' belongs to a place: read it as an attribute of one", node)
            return None
        if mod.scope == "seat" and not scope.seat:
            self.problem(f"modifier '{mod.name}' is kept per seat, and no seat is acting here", node)
            return None
        return Step("modifier", mod.name, mod), modifier_type(mod), used

    def _known_names(self, scope: Scope) -> list[str]:
        v = self.vocab
        names = list(scope.bound) + list(VALUES) + ["option", v.plural] + list(v.words)
        if scope.element is not None:
            names += list(v.place_attrs if scope.element.kind == "place" else v.seat_attrs)
        names += [m for m in v.modifiers if v.modifiers[m].scope != "place"]
        names += [f"{p}.{m}" for p, members in v.phases.items() for m in members]
        return names

    def _attribute(self, typ: Type, part: ast.Ident) -> tuple[Step, Type] | None:
        name, v = part.name, self.vocab
        if typ.kind == "place":
            table, kind, what = v.place_attrs, "place", f"attribute of a {v.noun}"
        elif typ.kind == "seat":
            table, kind, what = v.seat_attrs, "seat", "attribute of a seat"
        elif typ.kind == "row":
            assert typ.table is not None                # a row type names its table
            columns = v.tables.get(typ.table, {})
            if name not in columns:
                self.problem(f"unknown {typ.table.split('.')[-1]} value '{name}'", part, did_you_mean(name, columns))
                return None
            return Step("column", name, typ.table), columns[name]
        elif typ == ANY:
            return None
        else:
            self.problem(f"{typ} has no attribute '{name}'", part)
            return None
        if name not in table:
            self.problem(f"unknown {what} '{name}'", part, did_you_mean(name, table))
            return None
        attr: Attr = table[name]
        return Step(kind, name, attr), attr.type

    def stmt(self, node: ast.Stmt, scope: Scope) -> None:
        handler = STATEMENTS.get(type(node))
        if handler is None:
            self.problem(f"'{type(node).__name__.lower()}' can only stand at the start of an effect", node)
            return
        handler(self, node, scope)


_EXPRESSIONS: dict[type, Callable[[Checker, Any, Scope], Type]] = {
    ast.Number: Checker._number, ast.Text: Checker._text, ast.ListOf: Checker._list,
    ast.Name: Checker._name, ast.Where: Checker._where, ast.Call: Checker._call,
    ast.Unary: Checker._unary, ast.Binary: Checker._binary, ast.When: Checker._when,
}
