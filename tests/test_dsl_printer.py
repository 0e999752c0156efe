"""The AST prints back as canonical DSL text, and that text parses to the same AST: for every
DSL string of the bundled rules, and for random trees (hypothesis). Canonical text is one
form per meaning: spacing and redundant parentheses do not survive a round trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre.interpreter.base.limits import MAX_DSL_LENGTH
from amunre.interpreter.dsl import ast
from amunre.interpreter.dsl.parse import DslSyntaxProblem
from amunre.interpreter.dsl.printer import to_text
from amunre.interpreter.dsl.tree_to_ast import parse_collection, parse_effect, parse_expression
from amunre.interpreter.load.loader import load_document
from amunre.interpreter.mechanics import MECHANICS
from amunre.interpreter.mechanics.params import Effect as EffectParam
from amunre.interpreter.mechanics.params import flatten

REPO = Path(__file__).resolve().parent.parent


def dsl_strings(data: Any, path: tuple = ()) -> list[tuple[tuple, str]]:
    """Every string value of a rules document that is DSL (not ids, docs, labels)."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "examples":                      # of an example, only its conditions are DSL
                found += [(("examples", i, "expect"), check) for i, example in enumerate(value)
                          for step in example["steps"] for check in step.get("expect", []) if isinstance(check, str)]
            elif key not in ("doc", "title", "label", "id", "mechanic", "extends", "publisher", "source", "layout"):
                found += dsl_strings(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += dsl_strings(value, path + (i,))
    elif isinstance(data, str) and any(c in data for c in " .(+*"):
        found.append((path, data))
    return found


EFFECT_KEYS = {name.split(".")[-1].split("[]")[-1] for cls in MECHANICS.values()
               for name, param in flatten(cls.params) if isinstance(param, EffectParam)}   # on_win, start, take...


def parser_for(path: tuple, text: str):
    if "effect" in path or path[-1] in EFFECT_KEYS:
        return parse_effect
    if path[-1] in ("among", "lot"):                # the parameters that are collections
        return parse_collection
    return parse_expression


def test_every_dsl_string_of_the_bundled_rules_round_trips() -> None:
    seen = 0
    for rules_file in sorted((REPO / "rules").glob("*.yaml")):
        for path, text in dsl_strings(load_document(rules_file).data):
            parse = parser_for(path, text)
            tree = parse(text)
            printed = to_text(tree)
            assert parse(printed) == tree, (path, text, printed)
            assert to_text(parse(printed)) == printed         # canonical: printing is a fixed point
            seen += 1
    assert seen > 30


def test_canonical_text_drops_spacing_and_needless_parentheses() -> None:
    assert to_text(parse_expression("(  1+2 ) *(3)")) == "(1 + 2) * 3"
    assert to_text(parse_expression("((a when b))")) == "a when b"
    assert to_text(parse_expression("a when b else (c when d else e)")) == "a when b else c when d else e"
    assert to_text(parse_expression("(a when b else c) when d")) == "(a when b else c) when d"
    then = ast.SetValue(target=ast.Target(name=ast.Name(parts=(ast.Ident(name="x"),))),
                        value=ast.When(value=ast.Number(value=1), cond=ast.Name(parts=(ast.Ident(name="b"),))))
    branch = ast.If(cond=ast.Name(parts=(ast.Ident(name="a"),)), then=then,
                    otherwise=ast.Gain(amount=ast.Number(value=1), resource=ast.Ident(name="vp")))
    assert to_text(branch) == "if a then (set x = 1 when b) else +1 vp"       # the else stays the if's
    assert to_text(parse_effect("if a then (set x = 1 when b) else +1 vp")) == \
        "if a then (set x = 1 when b) else +1 vp"
    assert to_text(parse_expression("a - (b - c)")) == "a - (b - c)"
    assert to_text(parse_expression("(a - b) - c")) == "a - b - c"
    assert to_text(parse_effect("+ ( 2 ) gold ;draw 1  favor")) == "+2 gold; draw 1 favor"
    assert to_text(parse_effect("if a then (if b then +1 vp) else +2 vp")) == \
        "if a then (if b then +1 vp) else +2 vp"
    assert parse_expression("1+2") == parse_expression("1 + 2")          # spans take no part in equality


# ---- random trees ----------------------------------------------------------------------------

IDENTS = ["a", "b", "gold", "vp", "target", "x1", "my_thing"]
ident = st.sampled_from(IDENTS).map(lambda n: ast.Ident(name=n))
names = st.lists(ident, min_size=1, max_size=3).map(lambda parts: ast.Name(parts=tuple(parts)))
leaves = st.one_of(st.integers(0, 99).map(lambda v: ast.Number(value=v)),
                   st.sampled_from(["", "ab", "x y"]).map(lambda v: ast.Text(value=v)), names)


def _composite(inner: st.SearchStrategy) -> st.SearchStrategy:
    ops = st.sampled_from(["+", "-", "*", "//", "/", "==", "!=", "<", "<=", ">", ">=", "and", "or"])
    return st.one_of(
        st.builds(lambda op, left, right: ast.Binary(op=op, left=left, right=right), ops, inner, inner),
        st.builds(lambda op, x: ast.Unary(op=op, operand=x), st.sampled_from(["-", "not"]), inner),
        st.builds(lambda v, c, o: ast.When(value=v, cond=c, otherwise=o), inner, inner, st.none() | inner),
        st.builds(lambda items: ast.ListOf(items=tuple(items)), st.lists(inner, max_size=3)),
        st.builds(lambda f, base, cond, more: ast.Call(func=f, args=(ast.Where(base=base, cond=cond),) + tuple(more)),
                  ident, inner, inner, st.lists(inner, max_size=2)),
        st.builds(lambda f, args: ast.Call(func=f, args=tuple(args)), ident, st.lists(inner, min_size=1, max_size=3)),
    )


expressions = st.recursive(leaves, _composite, max_leaves=12)


def _statements(expr: st.SearchStrategy) -> st.SearchStrategy:
    simple = st.one_of(
        st.builds(lambda sign, amount, res, seat: ast.Gain(sign=sign, amount=amount, resource=res, seat=seat),
                  st.sampled_from("+-"), expr, ident, st.none() | names),
        st.builds(lambda amount, res, per, where: ast.Gain(amount=amount, resource=res, per=per, per_in=where),
                  expr, ident, ident, expr),
        st.builds(lambda n, res, seat: ast.Take(amount=n, resource=res, seat=seat), expr, ident, expr),
        st.builds(lambda n, res, seat: ast.Give(amount=n, resource=res, seat=seat), expr, ident, expr),
        st.builds(lambda n, deck, seat: ast.Draw(count=n, deck=deck, seat=seat), expr, ident, st.none() | expr),
        st.builds(lambda n, tok, p: ast.PlaceTokens(count=n, token=tok, place=p), expr, ident, expr),
        st.builds(lambda n, tok, p: ast.RemoveTokens(count=n, token=tok, place=p), expr, ident, expr),
        st.builds(lambda n, tok, a, b: ast.MoveTokens(count=n, token=tok, source=a, target=b), expr, ident, expr, expr),
        st.builds(lambda n, a, b, p: ast.Convert(count=n, source=a, target=b, place=p), expr, ident, ident, expr),
        st.builds(lambda p, seat: ast.Claim(place=p, seat=seat), expr, st.none() | expr),
        st.builds(lambda p: ast.Release(place=p), expr),
        st.builds(lambda name, of, v: ast.SetValue(target=ast.Target(name=name, of=of), value=v), names,
                  st.none() | expr, expr),
        st.builds(lambda v, name, of: ast.AddValue(value=v, target=ast.Target(name=name, of=of)), expr, names,
                  st.none() | expr),
    )
    return st.recursive(simple, lambda inner: st.one_of(
        st.builds(lambda c, then, other: ast.If(cond=c, then=then, otherwise=other), expr, inner, st.none() | inner),
        st.builds(lambda n, coll, body: ast.Each(name=n, options=coll, body=body), ident, expr, inner),
        st.lists(inner, min_size=2, max_size=3).map(lambda body: ast.Block(body=tuple(body)))), max_leaves=6)


effects = st.builds(
    lambda head, body: ast.Effect(body=tuple(head) + tuple(body)),
    st.lists(st.one_of(st.builds(lambda n, c: ast.Choose(name=n, options=c), ident, expressions),
                       st.builds(lambda c: ast.Require(cond=c), expressions)), max_size=2),
    st.lists(_statements(expressions), min_size=1, max_size=3))


@settings(max_examples=200, deadline=None)           # drawn anew each run (halved for CI's time)
@given(expressions)
def test_random_expressions_round_trip(tree: ast.Expr) -> None:
    assert parse_expression(to_text(tree)) == tree


@settings(max_examples=150, deadline=None)
@given(effects)
def test_random_effects_round_trip(tree: ast.Effect) -> None:
    text = to_text(tree)
    if len(text) > MAX_DSL_LENGTH:        # a generated effect may be longer than a rule may be
        with pytest.raises(DslSyntaxProblem, match="at most"):
            parse_effect(text)
        return
    assert parse_effect(text) == tree, text
