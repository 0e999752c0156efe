"""The AST printed back as canonical DSL text: one space around operators, `; ` between
statements, parentheses only where precedence needs them.

Two strings that mean the same print the same, so `amunre diff` can compare effects by
meaning and `amunre fmt` can rewrite a file without changing what it says:
`parse(to_text(node)) == node` for every node the parser builds.
"""

from __future__ import annotations

from functools import singledispatch

from . import ast

# Binding strength of each expression form, as in grammar/effects.lark (higher binds tighter).
_WHEN, _OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _OPERAND = range(1, 10)
_BINARY = {"or": _OR, "and": _AND, "+": _SUM, "-": _SUM, "*": _PRODUCT, "//": _PRODUCT, "/": _PRODUCT,
           "==": _COMPARE, "!=": _COMPARE, "<": _COMPARE, "<=": _COMPARE, ">": _COMPARE, ">=": _COMPARE}


def to_text(node: ast.Node) -> str:
    """Canonical text of an effect, a statement, an expression or a collection."""
    return _text(node)


def _strength(node: ast.Node) -> int:
    if isinstance(node, ast.When):
        return _WHEN
    if isinstance(node, ast.Binary):
        return _BINARY[node.op]
    if isinstance(node, ast.Unary):
        return _NOT if node.op == "not" else _UNARY
    return _OPERAND


def _at(node: ast.Expr, least: int) -> str:
    """The expression's text, in parentheses if it binds more loosely than `least`."""
    text = _text(node)
    return f"({text})" if _strength(node) < least else text


def _operand(node: ast.Expr) -> str:
    return _at(node, _OPERAND)


@singledispatch
def _text(node: ast.Node) -> str:
    raise TypeError(f"no canonical text for {type(node).__name__}")


@_text.register
def _(node: ast.Ident) -> str:
    return node.name


@_text.register
def _(node: ast.Number) -> str:
    return str(node.value)


@_text.register
def _(node: ast.Text) -> str:
    return f"'{node.value}'"


@_text.register
def _(node: ast.ListOf) -> str:
    return "[" + ", ".join(_text(item) for item in node.items) + "]"


@_text.register
def _(node: ast.Name) -> str:
    return node.dotted


@_text.register
def _(node: ast.Where) -> str:
    return f"{_text(node.base)} where {_text(node.cond)}"


@_text.register
def _(node: ast.Call) -> str:
    return f"{node.func.name}(" + ", ".join(_text(arg) for arg in node.args) + ")"


@_text.register
def _(node: ast.Unary) -> str:
    if node.op == "not":
        return f"not {_at(node.operand, _NOT)}"
    return f"-{_at(node.operand, _UNARY)}"


@_text.register
def _(node: ast.Binary) -> str:
    strength = _BINARY[node.op]
    # Left-associative operators take an equal left side bare; comparisons chain nothing.
    left = _at(node.left, strength + 1 if strength == _COMPARE else strength)
    return f"{left} {node.op} {_at(node.right, strength + 1)}"


@_text.register
def _(node: ast.When) -> str:
    text = f"{_at(node.value, _OR)} when {_at(node.cond, _OR)}"
    return text if node.otherwise is None else f"{text} else {_at(node.otherwise, _WHEN)}"


# ---- statements -----------------------------------------------------------------------------

def _for(seat: ast.Expr | None) -> str:
    return "" if seat is None else f" for {_operand(seat)}"


@_text.register
def _(node: ast.Gain) -> str:
    per = "" if node.per is None or node.per_in is None else f" per {node.per.name} in {_operand(node.per_in)}"
    return f"{node.sign}{_operand(node.amount)} {node.resource.name}{per}{_for(node.seat)}"


@_text.register
def _(node: ast.Take) -> str:
    return f"take {_operand(node.amount)} {node.resource.name} from {_operand(node.seat)}"


@_text.register
def _(node: ast.Give) -> str:
    return f"give {_operand(node.amount)} {node.resource.name} to {_operand(node.seat)}"


@_text.register
def _(node: ast.Draw) -> str:
    return f"draw {_operand(node.count)} {node.deck.name}{_for(node.seat)}"


@_text.register
def _(node: ast.PlaceTokens) -> str:
    return f"place {_operand(node.count)} {node.token.name} in {_operand(node.place)}"


@_text.register
def _(node: ast.RemoveTokens) -> str:
    return f"remove {_operand(node.count)} {node.token.name} from {_operand(node.place)}"


@_text.register
def _(node: ast.MoveTokens) -> str:
    return (f"move {_operand(node.count)} {node.token.name} from {_operand(node.source)} "
            f"to {_operand(node.target)}")


@_text.register
def _(node: ast.Convert) -> str:
    return (f"convert {_operand(node.count)} {node.source.name} to {node.target.name} "
            f"in {_operand(node.place)}")


@_text.register
def _(node: ast.Claim) -> str:
    return f"claim {_operand(node.place)}{_for(node.seat)}"


@_text.register
def _(node: ast.Release) -> str:
    return f"release {_operand(node.place)}"


@_text.register
def _(node: ast.Choose) -> str:
    return f"choose {node.name.name} from {_text(node.options)}"


@_text.register
def _(node: ast.Require) -> str:
    return f"require {_text(node.cond)}"


@_text.register
def _(node: ast.Target) -> str:
    return node.name.dotted + ("" if node.of is None else f" of {_operand(node.of)}")


@_text.register
def _(node: ast.SetValue) -> str:
    return f"set {_text(node.target)} = {_text(node.value)}"


@_text.register
def _(node: ast.AddValue) -> str:
    return f"add {_text(node.value)} to {_text(node.target)}"


@_text.register
def _(node: ast.Block) -> str:
    return "(" + "; ".join(_text(s) for s in node.body) + ")"


def _body(node: ast.Stmt, before_else: bool = False) -> str:
    """A statement inside `if` or `each`: an inner `if`, or a statement ending in a `when`
    expression, before an `else` is parenthesised, so the `else` stays with the `if` it
    belongs to."""
    text = _text(node)
    inner = isinstance(node, (ast.If, ast.Each)) or " when " in text
    return f"({text})" if before_else and inner else text


@_text.register
def _(node: ast.If) -> str:
    text = f"if {_text(node.cond)} then {_body(node.then, node.otherwise is not None)}"
    return text if node.otherwise is None else f"{text} else {_body(node.otherwise)}"


@_text.register
def _(node: ast.Each) -> str:
    return f"each {node.name.name} in {_text(node.options)}: {_body(node.body)}"


@_text.register
def _(node: ast.Effect) -> str:
    return "; ".join(_text(s) for s in node.body)
