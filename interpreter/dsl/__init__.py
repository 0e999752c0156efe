"""The rules DSL: text -> parse tree -> typed AST -> checked -> one generated Python function.

`Dsl(vocab, report)` compiles one string at a time for interpreter/load/build_context.py: `expression`,
`collection` and `effect` each parse the text (`parse.py`, grammar/effects.lark), build the AST
(`tree_to_ast.py`, `ast.py`), resolve names and check types (`check.py`, `check_effects.py`),
estimate what one evaluation costs and how large its code is (`cost.py`: a string above the
cost limit is refused, so that a rule that loads ends; a derived value is inlined where it is
read only while it is small), then generate Python source for the checked tree and compile
it, with `compile()` and `exec`, once, at load time (`compile.py`): a game step runs that
function, and never parses the text or walks a tree. The source is generated from
the checked AST only: rules-file names appear in it as `repr()` literals, never as code.
Problems go to `report(message, offset, hint)` with the character offset in the string; a
string with problems compiles to an inert placeholder, so one load lists every problem. Each
compiled rule handles its own failures: one while it runs is a GameError that names the rule
and its place in the rules file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import Span
from . import ast
from .check import Checker
from .checked import ACTING_SEAT, NOT_CONSTANT, Checked, Report, Scope
from .compile import ChoiceFn, Compiler, Fn
from .context import Ctx
from .cost import Counts, Estimate
from .names import Vocabulary
from .parse import DslSyntaxProblem
from .tree_to_ast import parse_collection, parse_effect, parse_expression
from .types import ANY, Type

__all__ = ["Dsl", "Effect", "Expression", "Rule", "Scope", "Vocabulary"]


@dataclass(frozen=True)
class Rule:
    """Where a compiled string comes from, for runtime errors: `phases.market.price` at a span."""
    name: str
    span: Span | None = None


@dataclass(frozen=True)
class Expression:
    """A compiled expression or collection: `fn(ctx)`, or `at(ctx, it)` for a given element."""
    fn: Fn
    type: Type
    tree: ast.Expr | None
    rule: Rule
    constant: Any = NOT_CONSTANT     # its value, when it depends on nothing
    pure: bool = False               # it depends only on bound names (`n`, `it`) and constants
    checked: Any = field(default=None, compare=False, repr=False)   # what the checker learned (for inlining)
    cost: int = field(default=1, compare=False)      # the steps one evaluation takes at most (cost.py)
    nodes: int = field(default=1, compare=False)     # the nodes of its generated code, small derived values inlined

    @property
    def at(self) -> Callable[..., Any]:
        return self.fn                # compiled functions take (ctx, it=ctx.it)


@dataclass(frozen=True)
class Effect:
    """A compiled effect: choices to make, requirements (each checked once the choices it
    needs are made), then what it does."""
    choices: tuple[ChoiceFn, ...]
    requires: tuple[tuple[int, Fn], ...]
    run: Fn
    tree: ast.Effect | None
    rule: Rule
    checked: Any = field(default=None, compare=False, repr=False)   # what the checker learned (compiled/)

    def allowed(self, ctx: Ctx) -> bool:
        return all(req(ctx) for _, req in self.requires)


def _zero(ctx: Ctx, *it: Any) -> int:
    return 0


def _nothing(ctx: Ctx, *it: Any) -> None:
    return None


class Dsl:
    def __init__(self, vocab: Vocabulary, report: Report) -> None:
        self.vocab = vocab
        self.report = report

    def _parse(self, parser: Callable[[str], Any], text: str) -> Any:
        try:
            return parser(text)
        except DslSyntaxProblem as err:
            self.report(err.message, err.offset, None)
            return None

    def expression(self, text: str, scope: Scope = ACTING_SEAT, rule: Rule = Rule("")) -> Expression:
        return self._value(parse_expression, text, scope, rule, collection=False)

    def collection(self, text: str, scope: Scope = ACTING_SEAT, rule: Rule = Rule("")) -> Expression:
        return self._value(parse_collection, text, scope, rule, collection=True)

    def _value(self, parser: Callable[[str], Any], text: str, scope: Scope, rule: Rule,
               collection: bool) -> Expression:
        tree = self._parse(parser, text)
        if tree is None:
            return Expression(_zero, ANY, None, rule)
        return self.checked(tree, scope, rule, collection)

    def checked(self, tree: ast.Expr, scope: Scope = ACTING_SEAT, rule: Rule = Rule(""),
                collection: bool = False) -> Expression:
        """An expression already parsed (a part of one, say) checked and compiled: no text parsed
        again."""
        checker = Checker(self.vocab, self.report)
        typ = checker.collection(tree, scope) if collection else checker.expr(tree, scope)
        if checker.failed:
            return Expression(_zero, ANY, tree, rule)
        info = checker.out
        constant = info.const(tree)
        if constant is not NOT_CONSTANT:
            if isinstance(constant, tuple):                  # a fresh list each time: callers may keep it
                return Expression(lambda ctx, *it: list(constant), typ, tree, rule, constant, True)
            return Expression(lambda ctx, *it: constant, typ, tree, rule, constant, True)
        estimate = self._estimate(info)
        cost = estimate.expr(tree)
        if estimate.over:             # refused; what reads it is refused too, without a second report
            return Expression(_zero, ANY, tree, rule, cost=cost)
        fn = Compiler(info, len(self.vocab.place_ids), rule, self.vocab.verbs).expr(tree)
        return Expression(fn, typ, tree, rule, constant, id(tree) not in info.stateful, info,
                          cost, estimate.nodes(tree))

    def _estimate(self, checked: Checked) -> Estimate:
        """The cost estimate of a checked tree, with the sizes these rules give (cost.py)."""
        counts = Counts(len(self.vocab.place_ids), self.vocab.max_players)
        return Estimate(checked, counts, self.report)

    def effect(self, text: str, scope: Scope = ACTING_SEAT, rule: Rule = Rule(""),
               automatic: bool = False) -> Effect:
        """An effect; `automatic` ones run by themselves and may not choose or require."""
        tree = self._parse(parse_effect, text)
        if tree is None:
            return Effect((), (), _nothing, None, rule)
        checker = Checker(self.vocab, self.report)
        checker.effect(tree, scope, automatic)
        if checker.failed:
            return Effect((), (), _nothing, tree, rule)
        estimate = self._estimate(checker.out)
        estimate.effect(tree)
        if estimate.over:
            return Effect((), (), _nothing, tree, rule)
        choices, requires, run = Compiler(checker.out, len(self.vocab.place_ids), rule, self.vocab.verbs).effect(tree)
        return Effect(choices, requires, run, tree, rule, checker.out)
