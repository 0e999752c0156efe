"""Checks of effects: the statements of a rule and what each may name.

A mixin of the Checker (check.py): `effect` checks a whole effect (choices and requirements
at its top only), and one method per statement checks its names, types and acting seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..base.errors import did_you_mean
from . import ast
from .builtins import RESERVED, VALUES
from .checked import Checked, Choice, Scope, Step
from .names import Vocabulary, modifier_type
from .types import ANY, BOOL, NUM, PLACE, PLACES, SEAT, Type, element, equality_problem


class EffectChecks:
    """Statement checks, mixed into the Checker (check.py), which gives what is declared first."""

    vocab: Vocabulary
    out: Checked

    if TYPE_CHECKING:        # the Checker's own methods, declared here for the type checker only
        def problem(self, message: str, at: ast.Node | int, hint: str | None = None) -> None: ...

        def expr(self, node: ast.Expr, scope: Scope) -> Type: ...

        def expect(self, node: ast.Expr, scope: Scope, wanted: Type, what: str) -> Type: ...

        def collection(self, node: ast.Expr, scope: Scope) -> Type: ...

        def stmt(self, node: ast.Stmt, scope: Scope) -> None: ...

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
        elif isinstance(self.out.const(base), (list, tuple)):     # not NOT_CONSTANT, nor a lone number
            self.out.choices[id(stmt)] = Choice("values", tuple(dict.fromkeys(self.out.const(base))))
        elif typ != ANY:
            self.problem("a choice is made among places, seats or a list of fixed values", stmt.options)
        return scope.bind(stmt.name.name, item)

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
        if node.per is not None and node.per_in is not None:       # the grammar gives both or neither
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
        if target is None:
            wanted = NUM
        elif target.kind == "value":
            wanted = target.target.type
        else:
            wanted = modifier_type(target.target)
            if wanted != NUM and isinstance(node, ast.AddValue):
                self.problem(f"modifier '{target.name}' holds a word, not a number: set it, do not add to it", node)
        found = self.expect(node.value, scope, wanted, "the value")
        why = equality_problem(wanted, found) if wanted.kind == "text" else None
        if why and target is not None:
            self.problem(f"modifier '{target.name}' cannot be set so: {why}", node.value)

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


STATEMENTS: dict[type, Callable[[Any, Any, Scope], None]] = {
    ast.Gain: EffectChecks._gain, ast.Take: EffectChecks._transfer, ast.Give: EffectChecks._transfer,
    ast.Draw: EffectChecks._draw, ast.PlaceTokens: EffectChecks._tokens, ast.RemoveTokens: EffectChecks._tokens,
    ast.MoveTokens: EffectChecks._move, ast.Convert: EffectChecks._convert, ast.Claim: EffectChecks._ownership,
    ast.Release: EffectChecks._ownership, ast.SetValue: EffectChecks._set, ast.AddValue: EffectChecks._set,
    ast.If: EffectChecks._if, ast.Each: EffectChecks._each, ast.Block: EffectChecks._block,
}
