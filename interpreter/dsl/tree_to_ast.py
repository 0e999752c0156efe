"""From lark's parse tree to the AST of `ast.py`, keeping every node's span.

One small method per grammar rule, as in lark's own `create_ast` example: the grammar keeps
the shape of the text, this module says which node each shape is.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args

from . import ast
from .parse import parse


def _span_of(item: Any) -> ast.Span:
    if isinstance(item, Token):
        return ast.Span(item.start_pos or 0, item.end_pos or 0)
    if isinstance(item, ast.Node):
        return item.span
    meta = item
    return ast.Span(getattr(meta, "start_pos", 0) or 0, getattr(meta, "end_pos", 0) or 0)


def _ident(token: Token) -> ast.Ident:
    return ast.Ident(span=_span_of(token), name=str(token))


@v_args(meta=True)
class _ToAst(Transformer):
    """Each method gets the node's meta (its position) and its already-built children."""

    # ---- top level ---------------------------------------------------------------------------
    def effect(self, meta, children):
        (body,) = children
        return ast.Effect(span=_span_of(meta), body=body.body)

    def stmts(self, meta, children):
        return ast.Block(span=_span_of(meta), body=tuple(children))

    def block(self, meta, children):
        (inner,) = children
        if len(inner.body) == 1:           # parentheses around one statement only group it
            return inner.body[0]
        return ast.Block(span=_span_of(meta), body=inner.body)

    def expression(self, meta, children):
        return children[0]

    def collection_expression(self, meta, children):
        return children[0]

    # ---- statements ----------------------------------------------------------------------------
    def gain(self, meta, children):
        sign, amount, resource, per, seat = children
        per_name, per_in = per if per is not None else (None, None)
        return ast.Gain(span=_span_of(meta), sign=str(sign), amount=amount, resource=_ident(resource),
                        per=per_name, per_in=per_in, seat=seat)

    def per(self, meta, children):
        name, places = children
        return (_ident(name), places)

    def for_seat(self, meta, children):
        return children[0]

    def take(self, meta, children):
        amount, resource, seat = children
        return ast.Take(span=_span_of(meta), amount=amount, resource=_ident(resource), seat=seat)

    def give(self, meta, children):
        amount, resource, seat = children
        return ast.Give(span=_span_of(meta), amount=amount, resource=_ident(resource), seat=seat)

    def draw(self, meta, children):
        count, deck, seat = children
        return ast.Draw(span=_span_of(meta), count=count, deck=_ident(deck), seat=seat)

    def place(self, meta, children):
        count, token, where = children
        return ast.PlaceTokens(span=_span_of(meta), count=count, token=_ident(token), place=where)

    def remove(self, meta, children):
        count, token, where = children
        return ast.RemoveTokens(span=_span_of(meta), count=count, token=_ident(token), place=where)

    def move(self, meta, children):
        count, token, source, target = children
        return ast.MoveTokens(span=_span_of(meta), count=count, token=_ident(token), source=source, target=target)

    def convert(self, meta, children):
        count, source, target, where = children
        return ast.Convert(span=_span_of(meta), count=count, source=_ident(source), target=_ident(target),
                           place=where)

    def claim(self, meta, children):
        place, seat = children
        return ast.Claim(span=_span_of(meta), place=place, seat=seat)

    def release(self, meta, children):
        return ast.Release(span=_span_of(meta), place=children[0])

    def choose(self, meta, children):
        name, options = children
        return ast.Choose(span=_span_of(meta), name=_ident(name), options=options)

    def require(self, meta, children):
        return ast.Require(span=_span_of(meta), cond=children[0])

    def target(self, meta, children):
        name, of = children
        return ast.Target(span=_span_of(meta), name=name, of=of)

    def set_value(self, meta, children):
        target, value = children
        return ast.SetValue(span=_span_of(meta), target=target, value=value)

    def add_value(self, meta, children):
        value, target = children
        return ast.AddValue(span=_span_of(meta), value=value, target=target)

    def if_stmt(self, meta, children):
        cond, then, otherwise = children
        return ast.If(span=_span_of(meta), cond=cond, then=then, otherwise=otherwise)

    def each(self, meta, children):
        name, options, body = children
        return ast.Each(span=_span_of(meta), name=_ident(name), options=options, body=body)

    # ---- expressions ---------------------------------------------------------------------------
    def number(self, meta, children):
        return ast.Number(span=_span_of(meta), value=int(children[0]))

    def string(self, meta, children):
        return ast.Text(span=_span_of(meta), value=str(children[0])[1:-1])

    def paren(self, meta, children):
        return children[0]

    def list(self, meta, children):
        return ast.ListOf(span=_span_of(meta), items=tuple(c for c in children if c is not None))

    def call(self, meta, children):
        name, *args = children
        return ast.Call(span=_span_of(meta), func=_ident(name), args=tuple(args))

    def dotted(self, meta, children):
        return ast.Name(span=_span_of(meta), parts=tuple(_ident(t) for t in children))

    def collection(self, meta, children):
        base, cond = children
        if cond is None:
            return base
        return ast.Where(span=_span_of(meta), base=base, cond=cond)

    def neg(self, meta, children):
        return ast.Unary(span=_span_of(meta), op="-", operand=children[0])

    def not_(self, meta, children):
        return ast.Unary(span=_span_of(meta), op="not", operand=children[0])

    def binop(self, meta, children):
        left, op, right = children
        return ast.Binary(span=_span_of(meta), op=str(op), left=left, right=right)

    compare = binop

    def and_(self, meta, children):
        return ast.Binary(span=_span_of(meta), op="and", left=children[0], right=children[1])

    def or_(self, meta, children):
        return ast.Binary(span=_span_of(meta), op="or", left=children[0], right=children[1])

    def when(self, meta, children):
        value, cond, otherwise = children
        return ast.When(span=_span_of(meta), value=value, cond=cond, otherwise=otherwise)


_TO_AST = _ToAst()


def to_ast(tree: Tree) -> Any:
    return _TO_AST.transform(tree)


def parse_effect(text: str) -> ast.Effect:
    """The AST of an effect; DslSyntaxProblem (with its offset) when the text is malformed."""
    return to_ast(parse(text, "effect"))


def parse_expression(text: str) -> ast.Expr:
    return to_ast(parse(text, "expression"))


def parse_collection(text: str) -> ast.Expr:
    return to_ast(parse(text, "collection_expression"))
