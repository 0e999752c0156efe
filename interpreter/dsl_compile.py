"""Compiling DSL text into Python closures, once, at load time.

Each parse-tree node becomes a closure `fn(ctx)`; names are resolved here against the
Vocabulary, so a game step runs only closures and never looks at the text again. Problems
are reported through a callback with the character offset inside the string, and
compilation goes on (with a placeholder) so that one run lists every problem.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable

from lark import Token, Tree

from . import board
from .context import Ctx
from .dsl_names import (ANY, BOOL, LIST, NUM, PLACE, PLACES, STR, PlaceAttr, Vocabulary, modifier_key,
                        read_modifier)
from .dsl_parse import DslSyntaxProblem, parse
from .errors import did_you_mean

Fn = Callable[[Ctx], Any]
Report = Callable[[str, int, "str | None"], None]


@dataclass(frozen=True)
class Scope:
    """What bare names mean where a string is used."""
    element: bool = False                        # bare names are attributes of `it` (a place)
    bound: dict[str, str] = field(default_factory=dict)   # extra names and their types
    seat: bool = True                            # a seat is acting: `my` means something


@dataclass(frozen=True)
class Choice:
    """`choose NAME from COLLECTION`: the acting player picks one element; part of the action."""
    name: str
    options: Fn                                   # -> list of place indices or values
    type: str


@dataclass(frozen=True)
class Effect:
    """A compiled effect: choices to make, conditions that must hold, then what it does."""
    choices: tuple[Choice, ...]
    requires: tuple[Fn, ...]
    run: Callable[[Ctx], None]

    def allowed(self, ctx: Ctx) -> bool:
        return all(req(ctx) for req in self.requires)


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
            "<=": operator.le, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
          "/": operator.floordiv}
_AGGREGATES = ("count", "sum", "min", "max", "all", "any")


def _pos(node: Tree | Token) -> int:
    if isinstance(node, Token):
        return node.start_pos or 0
    return getattr(node.meta, "start_pos", 0) or 0


def _placeholder(ctx: Ctx) -> Any:
    return 0


class Compiler:
    def __init__(self, vocab: Vocabulary, report: Report) -> None:
        self.vocab = vocab
        self.report = report

    # ---- entry points -------------------------------------------------------------------
    def expression(self, text: str, scope: Scope = Scope()) -> tuple[Fn, str]:
        tree = self._parse(text, "expression")
        if tree is None:
            return _placeholder, ANY
        return self._expr(tree.children[0], scope)

    def collection(self, text: str, scope: Scope = Scope()) -> tuple[Fn, str]:
        tree = self._parse(text, "collection_expression")
        if tree is None:
            return (lambda ctx: []), PLACES
        return self._collection(tree.children[0], scope)

    def effect(self, text: str, scope: Scope = Scope()) -> Effect:
        tree = self._parse(text, "effect")
        if tree is None:
            return Effect((), (), lambda ctx: None)
        bound = dict(scope.bound)
        choices, requires, steps = [], [], []
        for stmt in tree.children:
            inner = Scope(scope.element, bound, scope.seat)
            if stmt.data == "choose":
                name, coll = stmt.children
                fn, typ = self._collection(coll, inner)
                element_type = PLACE if typ == PLACES else ANY
                choices.append(Choice(str(name), fn, element_type))
                bound[str(name)] = element_type
            elif stmt.data == "require":
                fn, _ = self._expr(stmt.children[0], inner)
                requires.append(fn)
            else:
                steps.append(getattr(self, "_stmt_" + stmt.data)(stmt, inner))
        steps_t = tuple(steps)

        def run(ctx: Ctx) -> None:
            for step in steps_t:
                step(ctx)
        return Effect(tuple(choices), tuple(requires), run)

    def _parse(self, text: str, start: str) -> Tree | None:
        try:
            return parse(text, start)
        except DslSyntaxProblem as err:
            self.report(err.message, err.offset, None)
            return None

    # ---- statements ---------------------------------------------------------------------
    def _stmt_gain(self, node: Tree, scope: Scope) -> Fn:
        sign, amount_node, res, per = node.children
        amount, _ = self._expr(amount_node, scope)
        resource = self._known(res, self.vocab.resources, "resource")
        factor = -1 if str(sign) == "-" else 1
        if per is not None:
            attr_tok, where_node = per.children
            places, _ = self._places_operand(where_node, scope)
            attr = self._place_attr(attr_tok)
            measure = lambda ctx: sum(attr.get(ctx, p) for p in places(ctx))
        else:
            measure = lambda ctx: 1

        def gain(ctx: Ctx) -> None:
            board.gain(ctx.game, ctx.seat, resource, factor * amount(ctx) * measure(ctx), ctx.source)
        return gain

    def _stmt_draw(self, node: Tree, scope: Scope) -> Fn:
        count_node, deck_tok = node.children
        count, _ = self._expr(count_node, scope)
        deck = self._known(deck_tok, self.vocab.decks, "deck")
        return lambda ctx: board.draw(ctx.game, ctx.seat, deck, count(ctx))

    def _stmt_place(self, node: Tree, scope: Scope) -> Fn:
        count_node, token_tok, where_node = node.children
        count, _ = self._expr(count_node, scope)
        token = self._known(token_tok, self.vocab.tokens, "token")
        where, _ = self._place_operand(where_node, scope)
        return lambda ctx: board.place_tokens(ctx.game, where(ctx), token, count(ctx))

    def _stmt_convert(self, node: Tree, scope: Scope) -> Fn:
        count_node, src_tok, dst_tok, where_node = node.children
        count, _ = self._expr(count_node, scope)
        source = self._known(src_tok, self.vocab.tokens, "token")
        target = self._known(dst_tok, self.vocab.tokens, "token")
        where, _ = self._place_operand(where_node, scope)
        return lambda ctx: board.convert(ctx.game, where(ctx), count(ctx), source, target)

    def _stmt_set_mod(self, node: Tree, scope: Scope) -> Fn:
        ref, value_node = node.children
        key_of, name = self._modifier_ref(ref, scope)
        value, _ = self._expr(value_node, scope)

        def set_mod(ctx: Ctx) -> None:
            ctx.state.mods.setdefault(name, {})[key_of(ctx)] = value(ctx)
        return set_mod

    def _stmt_add_mod(self, node: Tree, scope: Scope) -> Fn:
        value_node, ref = node.children
        value, _ = self._expr(value_node, scope)
        key_of, name = self._modifier_ref(ref, scope)
        mod = self.vocab.modifiers.get(name)
        default = mod.default if mod else 0

        def add_mod(ctx: Ctx) -> None:
            values = ctx.state.mods.setdefault(name, {})
            key = key_of(ctx)
            values[key] = values.get(key, default) + value(ctx)
        return add_mod

    def _modifier_ref(self, ref: Tree, scope: Scope) -> tuple[Callable[[Ctx], str], str]:
        dotted, of = ref.children
        name = ".".join(str(t) for t in dotted.children)
        mod = self.vocab.modifiers.get(name)
        if mod is None:
            self._unknown(dotted.children[0], name, self.vocab.modifiers, "modifier", _pos(dotted))
            return (lambda ctx: "game"), name
        if mod.scope == "place":
            if of is None:
                self.report(f"modifier '{name}' belongs to a place: write 'of <place>'", _pos(dotted), None)
                return (lambda ctx: "game"), name
            place, _ = self._place_operand(of, scope)
            return (lambda ctx: modifier_key("place", None, place(ctx))), name
        if of is not None:
            self.report(f"modifier '{name}' is not kept per place; drop 'of ...'", _pos(of), None)
        if mod.scope == "seat":
            return (lambda ctx: modifier_key("seat", ctx.seat, None)), name
        return (lambda ctx: "game"), name

    # ---- expressions --------------------------------------------------------------------
    def _expr(self, node: Tree | Token, scope: Scope) -> tuple[Fn, str]:
        kind = node.data if isinstance(node, Tree) else None
        method = getattr(self, "_x_" + str(kind), None)
        if method is None:
            self.report(f"cannot use {kind} here", _pos(node), None)
            return _placeholder, ANY
        return method(node, scope)

    def _x_number(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = int(node.children[0])
        return (lambda ctx: value), NUM

    def _x_string(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        value = str(node.children[0])[1:-1]
        return (lambda ctx: value), STR

    def _x_paren(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        return self._expr(node.children[0], scope)

    def _x_list(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        items = [self._expr(child, scope)[0] for child in node.children if child is not None]
        return (lambda ctx: [item(ctx) for item in items]), LIST

    def _x_neg(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        inner, _ = self._expr(node.children[0], scope)
        return (lambda ctx: -inner(ctx)), NUM

    def _x_binop(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, op, right = node.children
        lf, rf = self._expr(left, scope)[0], self._expr(right, scope)[0]
        fn = _ARITH[str(op)]
        if str(op) in ("//", "/"):
            return (lambda ctx: fn(lf(ctx), rf(ctx)) if rf(ctx) else 0), NUM
        return (lambda ctx: fn(lf(ctx), rf(ctx))), NUM

    def _x_compare(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        left, op, right = node.children
        (lf, lt), (rf, rt) = self._expr(left, scope), self._expr(right, scope)
        if ANY not in (lt, rt) and (lt == STR) != (rt == STR):
            self.report(f"cannot compare {lt} with {rt}", _pos(node), None)
        fn = _COMPARE[str(op)]
        return (lambda ctx: fn(lf(ctx), rf(ctx))), BOOL

    def _x_and_(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        a, b = (self._expr(c, scope)[0] for c in node.children)
        return (lambda ctx: bool(a(ctx)) and bool(b(ctx))), BOOL

    def _x_or_(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        a, b = (self._expr(c, scope)[0] for c in node.children)
        return (lambda ctx: bool(a(ctx)) or bool(b(ctx))), BOOL

    def _x_not_(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        a, _ = self._expr(node.children[0], scope)
        return (lambda ctx: not a(ctx)), BOOL

    def _x_when(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        (value, typ), (cond, _) = (self._expr(c, scope) for c in node.children)
        return (lambda ctx: value(ctx) if cond(ctx) else 0), typ

    def _x_call(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        name_tok, coll_node, arg_node = node.children
        name = str(name_tok)
        if name not in _AGGREGATES:
            self._unknown(name_tok, name, _AGGREGATES, "function")
            return _placeholder, ANY
        coll, coll_type = self._collection(coll_node, scope)
        inner = _element_scope(coll_type, scope)
        if name == "count":
            if arg_node is not None:
                self.report("count() takes a collection only: filter it with 'where'", _pos(arg_node), None)
            return (lambda ctx: len(coll(ctx))), NUM
        if arg_node is None:
            self.report(f"{name}() needs a second argument: {name}(collection, value)", _pos(node), None)
            return _placeholder, ANY
        value, _ = self._expr(arg_node, inner)
        each = _per_element(coll, value, coll_type == PLACES)
        if name == "sum":
            return (lambda ctx: sum(each(ctx))), NUM
        if name == "min":
            return (lambda ctx: min(each(ctx), default=0)), NUM
        if name == "max":
            return (lambda ctx: max(each(ctx), default=0)), NUM
        if name == "all":
            return (lambda ctx: all(each(ctx))), BOOL
        return (lambda ctx: any(each(ctx))), BOOL

    def _collection(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        base_node, where_node = node.children
        base, typ = self._expr(base_node, scope)
        if typ not in (PLACES, LIST, ANY):
            self.report(f"expected a collection (places or a [list]), got {typ}", _pos(base_node), None)
        if where_node is None:
            return base, typ
        cond, _ = self._expr(where_node, _element_scope(typ, scope))
        keep = _per_element(base, cond, typ == PLACES, keep_elements=True)
        return keep, typ

    # ---- names --------------------------------------------------------------------------
    def _x_dotted(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        parts = node.children
        head = str(parts[0])
        rest = parts[1:]
        v = self.vocab
        if head in scope.bound:
            fn, typ = self._bound(head, scope.bound[head])
        elif head == "my" and rest:
            if not scope.seat:
                self.report("'my' means nothing here: no seat is acting when this is evaluated",
                            _pos(node), None)
                return _placeholder, ANY
            return self._my(rest[0], rest[1:], node)
        elif head in ("tile", "option") and rest:
            fn, typ = self._tile_or_option(head, rest[0])
            rest = rest[1:]
        elif rest and ".".join(map(str, parts[:2])) in v.queries:
            query = v.queries[".".join(map(str, parts[:2]))]
            fn, typ, rest = query.get, query.type, rest[1:]
        elif rest and ".".join(map(str, parts[:2])) in v.modifiers:
            mod = v.modifiers[".".join(map(str, parts[:2]))]
            fn, typ, rest = (lambda ctx: read_modifier(ctx.state, mod, ctx.seat)), ANY, rest[1:]
        elif head in v.modifiers and v.modifiers[head].scope != "place":
            mod = v.modifiers[head]
            fn, typ = (lambda ctx: read_modifier(ctx.state, mod, ctx.seat)), NUM
        elif scope.element and head in v.place_attrs:
            attr = v.place_attrs[head]
            fn, typ = (lambda ctx: attr.get(ctx, ctx.it)), attr.type
        elif head == v.plural:
            every = list(range(len(v.place_index)))
            fn, typ = (lambda ctx: every), PLACES
        elif head == "players":
            fn, typ = (lambda ctx: ctx.state.players), NUM
        elif head in v.constants and not rest:
            value = v.constants[head]
            fn, typ = (lambda ctx: value), STR
        else:
            names = list(scope.bound) + ["my", "tile", "option", v.plural, "players"]
            names += list(v.constants) + (list(v.place_attrs) if scope.element else [])
            names += list(v.queries) + [m for m in v.modifiers if "." in m]
            self._unknown(parts[0], head, names, "name")
            return _placeholder, ANY
        for attr_tok in rest:
            fn, typ = self._attribute(fn, typ, attr_tok)
        return fn, typ

    def _bound(self, name: str, typ: str) -> tuple[Fn, str]:
        if name == "it":
            return (lambda ctx: ctx.it), typ
        return (lambda ctx: ctx.env[name]), typ

    def _my(self, what: Token, rest: list, node: Tree) -> tuple[Fn, str]:
        v = self.vocab
        name = str(what)
        if name in v.resources:
            fn, typ = (lambda ctx: ctx.state.resources[ctx.seat][name]), NUM
        elif name == v.plural:
            fn, typ = (lambda ctx: board.owned_places(ctx.state, ctx.seat)), PLACES
        elif name == "cards":
            fn, typ = (lambda ctx: len(ctx.state.hands[ctx.seat])), NUM
        else:
            self._unknown(what, name, list(v.resources) + [v.plural, "cards"], "attribute of 'my'")
            return _placeholder, ANY
        for attr_tok in rest:
            fn, typ = self._attribute(fn, typ, attr_tok)
        return fn, typ

    def _tile_or_option(self, head: str, what: Token) -> tuple[Fn, str]:
        name = str(what)
        if head == "tile":
            if name not in self.vocab.tile_attrs:
                self._unknown(what, name, self.vocab.tile_attrs, "tile value")
                return _placeholder, ANY
            return (lambda ctx: ctx.game.rules.tile_value(ctx.state.tile, name)), self.vocab.tile_attrs[name]
        if name not in self.vocab.options:
            self._unknown(what, name, self.vocab.options, "option")
            return _placeholder, ANY
        return (lambda ctx: ctx.state.options[name]), STR

    def _attribute(self, fn: Fn, typ: str, attr_tok: Token) -> tuple[Fn, str]:
        if typ not in (PLACE, ANY):
            self.report(f"a {typ} has no attribute '{attr_tok}'", _pos(attr_tok), None)
            return _placeholder, ANY
        attr = self._place_attr(attr_tok)
        return (lambda ctx: attr.get(ctx, fn(ctx))), attr.type

    def _place_attr(self, tok: Token):
        attr = self.vocab.place_attrs.get(str(tok))
        if attr is None:
            self._unknown(tok, str(tok), self.vocab.place_attrs, f"attribute of a {self.vocab.plural[:-1]}")
            return PlaceAttr(ANY, lambda ctx, p: 0)
        return attr

    def _place_operand(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        fn, typ = self._expr(node, scope)
        if typ not in (PLACE, ANY):
            self.report(f"expected a {self.vocab.plural[:-1]}, got {typ}", _pos(node), None)
        return fn, typ

    def _places_operand(self, node: Tree, scope: Scope) -> tuple[Fn, str]:
        fn, typ = self._expr(node, scope)
        if typ == PLACE:
            return (lambda ctx: [fn(ctx)]), PLACES
        if typ not in (PLACES, ANY):
            self.report(f"expected {self.vocab.plural}, got {typ}", _pos(node), None)
        return fn, PLACES

    def _known(self, tok: Token, known, what: str) -> str:
        name = str(tok)
        if name not in known:
            self._unknown(tok, name, known, what)
        return name

    def _unknown(self, tok, name: str, candidates, what: str, offset: int | None = None) -> None:
        self.report(f"unknown {what} '{name}'", _pos(tok) if offset is None else offset,
                    did_you_mean(name, list(candidates)))


def _per_element(coll: Fn, value: Fn, places: bool, keep_elements: bool = False) -> Fn:
    """Evaluate value for each element (as `it` for places); or keep the elements where true."""
    if places:
        def each(ctx: Ctx) -> list:
            saved, out = ctx.it, []
            for p in coll(ctx):
                ctx.it = p
                v = value(ctx)
                if not keep_elements:
                    out.append(v)
                elif v:
                    out.append(p)
            ctx.it = saved
            return out
        return each

    def each_value(ctx: Ctx) -> list:
        saved, out = ctx.it, []
        for x in coll(ctx):
            ctx.it = x
            v = value(ctx)
            if v or not keep_elements:
                out.append(x if keep_elements else v)
        ctx.it = saved
        return out
    return each_value


def _element_scope(collection_type: str, scope: Scope) -> Scope:
    """Inside an aggregate or `where`: a place's values are bare names; any element is `it`."""
    if collection_type == PLACES:
        return Scope(True, {**scope.bound, "it": PLACE}, scope.seat)
    return Scope(False, {**scope.bound, "it": ANY}, scope.seat)
