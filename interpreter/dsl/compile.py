"""Checked AST -> Python closures, once per string at load time.

Every node becomes a closure `fn(ctx)`. Names were resolved by the checker, so each closure
reads its value directly (a list index, a dict key known in advance); constant parts were
folded and become plain values. Nothing here looks at the text again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import material, modifiers
from ..context import Ctx
from . import ast
from .check import ARITHMETIC, COMPARISON, NOT_CONSTANT, Checked, Choice, Step

Fn = Callable[[Ctx], Any]


class RuleFailure(Exception):
    """A rule computed something it cannot go on with (e.g. a seat of an unowned place);
    the guard of the compiled rule turns it into a GameError naming the rule."""


@dataclass(frozen=True)
class ChoiceFn:
    """A compiled `choose`: the name it binds, its options now, and what it is chosen from."""
    name: str
    options: Fn
    choice: Choice


class Compiler:
    def __init__(self, checked: Checked, places: int) -> None:
        self.info = checked
        self.places = tuple(range(places))

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node: ast.Expr) -> Fn:
        value = self.info.const(node)
        if value is not NOT_CONSTANT:
            if isinstance(value, tuple):
                return lambda ctx: list(value)
            return lambda ctx: value
        return _EXPRESSIONS[type(node)](self, node)

    def _list(self, node: ast.ListOf) -> Fn:
        items = [self.expr(item) for item in node.items]
        return lambda ctx: [item(ctx) for item in items]

    def _unary(self, node: ast.Unary) -> Fn:
        inner = self.expr(node.operand)
        if node.op == "not":
            return lambda ctx: not inner(ctx)
        return lambda ctx: -inner(ctx)

    def _binary(self, node: ast.Binary) -> Fn:
        left, right = self.expr(node.left), self.expr(node.right)
        op = node.op
        if op == "and":
            return lambda ctx: bool(left(ctx)) and bool(right(ctx))
        if op == "or":
            return lambda ctx: bool(left(ctx)) or bool(right(ctx))
        fn = ARITHMETIC.get(op) or COMPARISON[op]
        if op in ("//", "/"):
            def divide(ctx: Ctx) -> int:
                divisor = right(ctx)
                if divisor == 0:
                    raise RuleFailure("division by zero")
                return left(ctx) // divisor
            return divide
        return lambda ctx: fn(left(ctx), right(ctx))

    def _when(self, node: ast.When) -> Fn:
        value, cond = self.expr(node.value), self.expr(node.cond)
        return lambda ctx: value(ctx) if cond(ctx) else 0

    def _where(self, node: ast.Where) -> Fn:
        base, cond = self.expr(node.base), self.expr(node.cond)

        def keep(ctx: Ctx) -> list:
            saved, out = ctx.it, []
            for x in base(ctx):
                ctx.it = x
                if cond(ctx):
                    out.append(x)
            ctx.it = saved
            return out
        return keep

    def _call(self, node: ast.Call) -> Fn:
        form, fn = self.info.calls[id(node)]
        if form == "scalar":
            args = [self.expr(arg) for arg in node.args]
            apply = fn.scalar.apply
            if len(args) == 2:
                a, b = args
                return lambda ctx: apply(a(ctx), b(ctx))
            return lambda ctx: apply(*(arg(ctx) for arg in args))
        coll = self.expr(node.args[0])
        fold = fn.aggregate.fold
        if fn.aggregate.value is None:
            return lambda ctx: fold(coll(ctx))
        value = self.expr(node.args[1])

        def aggregate(ctx: Ctx) -> Any:
            saved, out = ctx.it, []
            for x in coll(ctx):
                ctx.it = x
                out.append(value(ctx))
            ctx.it = saved
            return fold(out)
        return aggregate

    # ---- names ---------------------------------------------------------------------------------
    def _name(self, node: ast.Name) -> Fn:
        steps = self.info.names[id(node)]
        fn = self._first(steps[0])
        for step in steps[1:]:
            fn = _link(fn, step)
        return fn

    def _first(self, step: Step) -> Fn:
        kind, name, target = step.kind, step.name, step.target
        if kind == "bound":
            if name == "it":
                return lambda ctx: ctx.it
            return lambda ctx: ctx.env[name]
        if kind in ("value", "member"):
            return target.read
        if kind == "option":
            return lambda ctx: ctx.state.options[name]
        if kind == "modifier":
            if target.scope == "seat":
                return lambda ctx: modifiers.read(ctx.state, target, ctx.seat)
            return lambda ctx: modifiers.read(ctx.state, target, 0)
        if kind == "element":
            return _attr_of_it(target)
        if kind == "places":
            places = self.places
            return lambda ctx: places
        raise AssertionError(f"unresolved name step {step}")

    # ---- statements ----------------------------------------------------------------------------
    def effect(self, node: ast.Effect) -> tuple[tuple[ChoiceFn, ...], tuple[tuple[int, Fn], ...], Fn]:
        """An effect's choices, its requirements (each with how many choices it needs), and
        the closure that does the rest."""
        choices, requires, steps = [], [], []
        for stmt in node.body:
            if isinstance(stmt, ast.Choose):
                choices.append(ChoiceFn(stmt.name.name, self.expr(stmt.options), self.info.choices.get(
                    id(stmt), Choice("values"))))
            elif isinstance(stmt, ast.Require):
                requires.append((self.info.require_levels.get(id(stmt), 0), self.expr(stmt.cond)))
            else:
                steps.append(self.stmt(stmt))
        return tuple(choices), tuple(requires), _sequence(steps)

    def stmt(self, node: ast.Stmt) -> Fn:
        return _STATEMENTS[type(node)](self, node)

    def _seat(self, node: ast.Expr | None) -> Fn:
        """Whose it is: the seat written after `for`, else the acting seat."""
        if node is None:
            return lambda ctx: ctx.seat
        seat = self.expr(node)

        def checked(ctx: Ctx) -> int:
            value = seat(ctx)
            if value is None:
                raise RuleFailure("the seat is nobody (e.g. the owner of an unowned place)")
            return value
        return checked

    def _gain(self, node: ast.Gain) -> Fn:
        amount, seat = self.expr(node.amount), self._seat(node.seat)
        resource, factor = node.resource.name, -1 if node.sign == "-" else 1
        if node.per is None:
            return lambda ctx: material.gain(ctx.game, seat(ctx), resource, factor * amount(ctx), ctx.source)
        read = _place_reader(self.info.per_attrs[id(node)])
        places = self.expr(node.per_in)
        single = self.info.type(node.per_in).kind == "place"

        def gain_per(ctx: Ctx) -> None:
            where = [places(ctx)] if single else places(ctx)
            measure = sum(read(ctx, p) for p in where)
            material.gain(ctx.game, seat(ctx), resource, factor * amount(ctx) * measure, ctx.source)
        return gain_per

    def _take(self, node: ast.Take) -> Fn:
        amount, other, resource = self.expr(node.amount), self._seat(node.seat), node.resource.name
        return lambda ctx: material.transfer(ctx.game, other(ctx), ctx.seat, resource, amount(ctx), ctx.source)

    def _give(self, node: ast.Give) -> Fn:
        amount, other, resource = self.expr(node.amount), self._seat(node.seat), node.resource.name
        return lambda ctx: material.transfer(ctx.game, ctx.seat, other(ctx), resource, amount(ctx), ctx.source)

    def _draw(self, node: ast.Draw) -> Fn:
        count, seat, deck = self.expr(node.count), self._seat(node.seat), node.deck.name
        return lambda ctx: material.draw(ctx.game, seat(ctx), deck, count(ctx))

    def _place(self, node: ast.PlaceTokens) -> Fn:
        count, where, token = self.expr(node.count), self.expr(node.place), node.token.name
        return lambda ctx: material.place_tokens(ctx.game, where(ctx), token, count(ctx))

    def _remove(self, node: ast.RemoveTokens) -> Fn:
        count, where, token = self.expr(node.count), self.expr(node.place), node.token.name
        return lambda ctx: material.remove_tokens(ctx.game, where(ctx), token, count(ctx))

    def _move(self, node: ast.MoveTokens) -> Fn:
        count, source, target = self.expr(node.count), self.expr(node.source), self.expr(node.target)
        token = node.token.name
        return lambda ctx: material.move_tokens(ctx.game, source(ctx), target(ctx), token, count(ctx))

    def _convert(self, node: ast.Convert) -> Fn:
        count, where = self.expr(node.count), self.expr(node.place)
        source, target = node.source.name, node.target.name
        return lambda ctx: material.convert(ctx.game, where(ctx), count(ctx), source, target)

    def _claim(self, node: ast.Claim) -> Fn:
        where, seat = self.expr(node.place), self._seat(node.seat)
        return lambda ctx: material.set_owner(ctx.game, where(ctx), seat(ctx))

    def _release(self, node: ast.Release) -> Fn:
        where = self.expr(node.place)
        return lambda ctx: material.set_owner(ctx.game, where(ctx), None)

    def _set(self, node: ast.SetValue | ast.AddValue) -> Fn:
        target = self.info.targets.get(id(node.target))
        value = self.expr(node.value)
        if target is None:
            return lambda ctx: None
        if target.kind == "value":          # a game value: the start player
            seat = self._seat(node.value)
            return lambda ctx: ctx.game.set_start_player(seat(ctx))
        mod = target.target
        index = self._modifier_index(node.target, mod.scope)
        places = len(self.places)
        if isinstance(node, ast.SetValue):
            return lambda ctx: modifiers.write(ctx.state, mod, index(ctx), value(ctx), places)

        def add(ctx: Ctx) -> None:
            i = index(ctx)
            modifiers.write(ctx.state, mod, i, modifiers.read(ctx.state, mod, i) + value(ctx), places)
        return add

    def _modifier_index(self, target: ast.Target, scope: str) -> Fn:
        if scope == "game":
            return lambda ctx: 0
        if target.of is None:
            return lambda ctx: ctx.seat
        return self._seat(target.of) if scope == "seat" else self.expr(target.of)

    def _if(self, node: ast.If) -> Fn:
        cond, then = self.expr(node.cond), self.stmt(node.then)
        otherwise = self.stmt(node.otherwise) if node.otherwise is not None else None

        def branch(ctx: Ctx) -> None:
            if cond(ctx):
                then(ctx)
            elif otherwise is not None:
                otherwise(ctx)
        return branch

    def _each(self, node: ast.Each) -> Fn:
        options, body, name = self.expr(node.options), self.stmt(node.body), node.name.name

        def each(ctx: Ctx) -> None:
            for x in list(options(ctx)):
                ctx.env[name] = x
                body(ctx)
            ctx.env.pop(name, None)
        return each

    def _block(self, node: ast.Block) -> Fn:
        return _sequence([self.stmt(s) for s in node.body])


def _sequence(steps: list[Fn]) -> Fn:
    if len(steps) == 1:
        return steps[0]
    steps_t = tuple(steps)

    def run(ctx: Ctx) -> None:
        for step in steps_t:
            step(ctx)
    return run


def _place_reader(attr: Any) -> Callable[[Ctx, int], Any]:
    if attr.column is not None:
        column = attr.column
        return lambda ctx, place: column[place]
    return attr.read


def _attr_of_it(attr: Any) -> Fn:
    if attr.column is not None:
        column = attr.column
        return lambda ctx: column[ctx.it]
    read = attr.read
    return lambda ctx: read(ctx, ctx.it)


def _link(prev: Fn, step: Step) -> Fn:
    """One more `.name` after a value."""
    kind, target = step.kind, step.target
    if kind == "place":
        if target.column is not None:
            column = target.column
            return lambda ctx: column[prev(ctx)]
        read = target.read
        return lambda ctx: read(ctx, prev(ctx))
    if kind == "seat":
        read = target.read

        def of_seat(ctx: Ctx) -> Any:
            seat = prev(ctx)
            if seat is None:
                raise RuleFailure(f"'{step.name}' of nobody (e.g. the owner of an unowned place)")
            return read(ctx, seat)
        return of_seat
    name = step.name                        # a column of a table row (None: no row yet)

    def column_of(ctx: Ctx) -> Any:
        row = prev(ctx)
        return 0 if row is None else row.get(name, 0)
    return column_of


_EXPRESSIONS: dict[type, Callable[[Compiler, Any], Fn]] = {
    ast.ListOf: Compiler._list, ast.Name: Compiler._name, ast.Where: Compiler._where,
    ast.Call: Compiler._call, ast.Unary: Compiler._unary, ast.Binary: Compiler._binary,
    ast.When: Compiler._when,
}

_STATEMENTS: dict[type, Callable[[Compiler, Any], Fn]] = {
    ast.Gain: Compiler._gain, ast.Take: Compiler._take, ast.Give: Compiler._give, ast.Draw: Compiler._draw,
    ast.PlaceTokens: Compiler._place, ast.RemoveTokens: Compiler._remove, ast.MoveTokens: Compiler._move,
    ast.Convert: Compiler._convert, ast.Claim: Compiler._claim, ast.Release: Compiler._release,
    ast.SetValue: Compiler._set, ast.AddValue: Compiler._set, ast.If: Compiler._if, ast.Each: Compiler._each,
    ast.Block: Compiler._block,
}

