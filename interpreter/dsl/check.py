"""Name resolution and type checks of the AST, once, at load time.

The checker walks a tree and records, per node, its type, what each name means (a resource
of a seat, a column of the place table, a phase's query...) and the value of every constant
part; it reports each problem with its offset in the string and goes on, so that one load
lists them all. The compiler then turns the checked tree into closures without resolving
anything again.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..errors import did_you_mean
from . import ast
from .builtins import FUNCTIONS, RESERVED, VALUES, Function
from .names import Attr, Vocabulary
from .types import (ANY, BOOL, NUM, PLACE, PLACES, SEAT, TEXT, Type, element, enum, equality_problem,
                    is_a, is_collection, list_of, word)

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


class Checker:
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
        self.expect(node.operand, scope, wanted, f"what '{node.op}' applies to")
        value = self.out.const(node.operand)
        if value is not NOT_CONSTANT:
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
        self.expect(node.value, scope, NUM, "the value before 'when'")
        self.expect(node.cond, scope, BOOL, "the condition after 'when'")
        self._stateful(node, node.value, node.cond)
        return NUM

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
            opt = rest[0].name
            if opt not in v.options:
                self.problem(f"unknown option '{opt}'", rest[0], did_you_mean(opt, v.options))
                return None
            return Step("option", opt), enum(f"option.{opt}"), 2
        if name in v.phases and rest:
            member = v.member(name, rest[0].name)
            if member is None:
                known = [f"{name}.{m}" for m in v.phases[name]]
                self.problem(f"unknown name '{name}.{rest[0].name}'", rest[0],
                             did_you_mean(f"{name}.{rest[0].name}", known))
                return None
            if member.needs_seat and not scope.seat:
                self.problem(f"'{name}.{rest[0].name}' is about the acting seat, and no seat is acting here", node)
                return None
            if member.modifier is not None:
                return self._modifier_value(node, member.modifier, scope, 2)
            return Step("member", f"{name}.{rest[0].name}", member), member.type, 2
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
        self.problem(f"unknown name '{name}'", head, did_you_mean(name, self._known_names(scope)))
        return None

    def _modifier_value(self, node: ast.Name, mod: Any, scope: Scope, used: int) -> tuple[Step, Type, int] | None:
        if mod.scope == "place":
            self.problem(f"modifier '{mod.name}' belongs to a place: read it as an attribute of one", node)
            return None
        if mod.scope == "seat" and not scope.seat:
            self.problem(f"modifier '{mod.name}' is kept per seat, and no seat is acting here", node)
            return None
        return Step("modifier", mod.name, mod), NUM, used

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

    # ---- statements ----------------------------------------------------------------------------
    def effect(self, node: ast.Effect, scope: Scope, automatic: bool = False) -> None:
        """An effect's statements; `choose` and `require` only at the top, and not at all in an
        effect that runs by itself (`automatic`)."""
        chosen: list[str] = []
        for stmt in node.body:
            if isinstance(stmt, (ast.Choose, ast.Require)):
                if automatic:
                    self.problem(f"this effect runs by itself: it cannot '{type(stmt).__name__.lower()}'", stmt)
                if isinstance(stmt, ast.Choose):
                    scope = self._choose(stmt, scope)
                    chosen.append(stmt.name.name)
                else:
                    self.expect(stmt.cond, scope, BOOL, "a requirement")
                    used = self._bound_names(stmt.cond) & set(chosen)
                    self.out.require_levels[id(stmt)] = max((chosen.index(n) + 1 for n in used), default=0)
            else:
                self.stmt(stmt, scope)

    def _bound_names(self, node: ast.Node) -> set[str]:
        found: set[str] = set()
        stack: list[Any] = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, ast.Name):
                steps = self.out.names.get(id(item))
                if steps and steps[0].kind == "bound":
                    found.add(steps[0].name)
            if isinstance(item, ast.Node):
                stack.extend(getattr(item, f) for f in item.__dataclass_fields__ if f != "span")
            elif isinstance(item, tuple):
                stack.extend(item)
        return found

    def _new_name(self, ident: ast.Ident, scope: Scope) -> None:
        if ident.name in RESERVED:
            self.problem(f"'{ident.name}' is a reserved word of the DSL: choose another name", ident)
        elif ident.name in scope.bound:
            self.problem(f"'{ident.name}' already names something here: choose another name", ident)

    def _choose(self, stmt: ast.Choose, scope: Scope) -> Scope:
        self._new_name(stmt.name, scope)
        typ = self.collection(stmt.options, scope)
        item = element(typ)
        base = stmt.options.base if isinstance(stmt.options, ast.Where) else stmt.options
        if item.kind == "place":
            self.out.choices[id(stmt)] = Choice("places")
        elif item.kind == "seat":
            self.out.choices[id(stmt)] = Choice("seats")
        elif self.out.const(base) is not NOT_CONSTANT:
            self.out.choices[id(stmt)] = Choice("values", tuple(dict.fromkeys(self.out.const(base))))
        elif typ != ANY:
            self.problem("a choice is made among places, seats or a list of fixed values", stmt.options)
        return scope.bind(stmt.name.name, item)

    def stmt(self, node: ast.Stmt, scope: Scope) -> None:
        handler = _STATEMENTS.get(type(node))
        if handler is None:
            self.problem(f"'{type(node).__name__.lower()}' can only stand at the start of an effect", node)
            return
        handler(self, node, scope)

    def _acting(self, node: ast.Node, scope: Scope, seat: ast.Expr | None) -> None:
        if seat is not None:
            self.expect(seat, scope, SEAT, "'for'")
        elif not scope.seat:
            self.problem("no seat is acting here: say whose it is with 'for SEAT'", node)

    def _known(self, ident: ast.Ident, known: tuple[str, ...] | Mapping[str, Any], what: str) -> None:
        if ident.name not in known:
            self.problem(f"unknown {what} '{ident.name}'", ident, did_you_mean(ident.name, known))

    def _gain(self, node: ast.Gain, scope: Scope) -> None:
        self.expect(node.amount, scope, NUM, "the amount")
        self._known(node.resource, self.vocab.resources, "resource")
        if node.per is not None:
            attr = self.vocab.place_attrs.get(node.per.name)
            if attr is None:
                self.problem(f"unknown attribute of a {self.vocab.noun} '{node.per.name}'", node.per,
                             did_you_mean(node.per.name, self.vocab.place_attrs))
            elif attr.type != NUM:
                self.problem(f"'per' counts a number, and '{node.per.name}' is {attr.type}", node.per)
            else:
                self.out.per_attrs[id(node)] = attr
            typ = self.expr(node.per_in, scope)
            if typ not in (PLACE, PLACES, ANY):
                self.problem(f"expected a {self.vocab.noun} or {self.vocab.plural}, got {typ}", node.per_in)
        self._acting(node, scope, node.seat)

    def _transfer(self, node: ast.Take | ast.Give, scope: Scope) -> None:
        self.expect(node.amount, scope, NUM, "the amount")
        self._known(node.resource, self.vocab.resources, "resource")
        self.expect(node.seat, scope, SEAT, "the other seat")
        self._acting(node, scope, None)

    def _draw(self, node: ast.Draw, scope: Scope) -> None:
        self.expect(node.count, scope, NUM, "the count")
        self._known(node.deck, self.vocab.decks, "deck")
        self._acting(node, scope, node.seat)

    def _tokens(self, node: ast.PlaceTokens | ast.RemoveTokens, scope: Scope) -> None:
        self.expect(node.count, scope, NUM, "the count")
        self._known(node.token, self.vocab.tokens, "token")
        self.expect(node.place, scope, PLACE, f"where (a {self.vocab.noun})")

    def _move(self, node: ast.MoveTokens, scope: Scope) -> None:
        self.expect(node.count, scope, NUM, "the count")
        self._known(node.token, self.vocab.tokens, "token")
        self.expect(node.source, scope, PLACE, f"where from (a {self.vocab.noun})")
        self.expect(node.target, scope, PLACE, f"where to (a {self.vocab.noun})")

    def _convert(self, node: ast.Convert, scope: Scope) -> None:
        self.expect(node.count, scope, NUM, "the count")
        self._known(node.source, self.vocab.tokens, "token")
        self._known(node.target, self.vocab.tokens, "token")
        self.expect(node.place, scope, PLACE, f"where (a {self.vocab.noun})")

    def _ownership(self, node: ast.Claim | ast.Release, scope: Scope) -> None:
        if not self.vocab.ownership:
            self.problem(f"{self.vocab.plural} have no owners in these rules (see places.ownership)", node)
        self.expect(node.place, scope, PLACE, f"what (a {self.vocab.noun})")
        if isinstance(node, ast.Claim):
            self._acting(node, scope, node.seat)

    def _set(self, node: ast.SetValue | ast.AddValue, scope: Scope) -> None:
        target = self._target(node.target, scope, adding=isinstance(node, ast.AddValue))
        wanted = target.target.type if target is not None and target.kind == "value" else NUM
        self.expect(node.value, scope, wanted, "the value")

    def _target(self, node: ast.Target, scope: Scope, adding: bool) -> Step | None:
        name, v = node.name.dotted, self.vocab
        if name in VALUES and VALUES[name].settable:
            if adding or node.of is not None:
                self.problem(f"'{name}' can only be set: set {name} = ...", node)
            self.out.targets[id(node)] = step = Step("value", name, VALUES[name])
            return step
        mods = v.all_modifiers()
        mod = mods.get(name)
        if mod is None:
            settable = [n for n, val in VALUES.items() if val.settable]
            self.problem(f"unknown modifier '{name}'", node.name, did_you_mean(name, list(mods) + settable))
            if node.of is not None:
                self.expr(node.of, scope)
            return None
        if mod.scope == "place" and node.of is None:
            self.problem(f"modifier '{name}' belongs to a {v.noun}: write 'of <{v.noun}>'", node.name)
        elif mod.scope == "game" and node.of is not None:
            self.problem(f"modifier '{name}' is kept once for the game; drop 'of ...'", node.of)
        elif node.of is not None:
            self.expect(node.of, scope, PLACE if mod.scope == "place" else SEAT, f"'of' for modifier '{name}'")
        elif mod.scope == "seat" and not scope.seat:
            self.problem(f"modifier '{name}' is kept per seat: say whose with 'of SEAT'", node.name)
        self.out.targets[id(node)] = step = Step("modifier", name, mod)
        return step

    def _if(self, node: ast.If, scope: Scope) -> None:
        self.expect(node.cond, scope, BOOL, "the condition after 'if'")
        self.stmt(node.then, scope)
        if node.otherwise is not None:
            self.stmt(node.otherwise, scope)

    def _each(self, node: ast.Each, scope: Scope) -> None:
        self._new_name(node.name, scope)
        typ = self.collection(node.options, scope)
        self.stmt(node.body, scope.bind(node.name.name, element(typ)))

    def _block(self, node: ast.Block, scope: Scope) -> None:
        for stmt in node.body:
            self.stmt(stmt, scope)


_EXPRESSIONS: dict[type, Callable[[Checker, Any, Scope], Type]] = {
    ast.Number: Checker._number, ast.Text: Checker._text, ast.ListOf: Checker._list,
    ast.Name: Checker._name, ast.Where: Checker._where, ast.Call: Checker._call,
    ast.Unary: Checker._unary, ast.Binary: Checker._binary, ast.When: Checker._when,
}

_STATEMENTS: dict[type, Callable[[Checker, Any, Scope], None]] = {
    ast.Gain: Checker._gain, ast.Take: Checker._transfer, ast.Give: Checker._transfer,
    ast.Draw: Checker._draw, ast.PlaceTokens: Checker._tokens, ast.RemoveTokens: Checker._tokens,
    ast.MoveTokens: Checker._move, ast.Convert: Checker._convert, ast.Claim: Checker._ownership,
    ast.Release: Checker._ownership, ast.SetValue: Checker._set, ast.AddValue: Checker._set,
    ast.If: Checker._if, ast.Each: Checker._each, ast.Block: Checker._block,
}
