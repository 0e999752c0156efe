"""Checked AST -> Python functions, once per string at load time.

Each rule becomes one flat Python function, generated from its checked AST and compiled
with `compile()`: a formula like `a + b * PHASE.tile.c` runs as a
single expression instead of a tree of closures, several times faster. Names were resolved by
the checker. The generated text holds no code from the rules file: every object a rule reads
(a column of the place table, a modifier, a phase's query) is handed to the function in its
namespace as `k0`, `k1`..., and rules-file names and texts appear only as `repr()` literals
(dictionary keys, arguments). Nothing here looks at the DSL text again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..base.errors import AmunreError, GameError
from . import ast
from .checked import NOT_CONSTANT, Checked, Choice, Step
from .context import Ctx
from .names import Verbs


class Fn(Protocol):
    """A compiled rule: called with the context, and with the element `it` stands for where the
    rule is read per element (by default `ctx.it`)."""

    def __call__(self, ctx: Ctx, it: Any = ..., /) -> Any: ...

ABSENT = object()          # `it` not given: the function reads ctx.it


class RuleFailure(Exception):
    """A rule computed something it cannot go on with (e.g. a seat of an unowned place);
    the compiled rule's own handler turns it into a GameError naming the rule."""


CAUGHT = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError, MemoryError)


def rule_failed(rule: Any, error: Exception) -> GameError:
    """The GameError for a failure while a rule ran: it names the rule and its place in the file."""
    if isinstance(error, RuleFailure):
        return GameError(f"{rule.name}: {error}", rule.span)
    return GameError(f"{rule.name} failed while the game ran: {type(error).__name__}: {error}", rule.span)


@dataclass(frozen=True)
class ChoiceFn:
    """A compiled `choose`: the name it binds, its options now, and what it is chosen from."""
    name: str
    options: Fn
    choice: Choice


def _div(left: int, right: int) -> int:
    if right == 0:
        raise RuleFailure("division by zero")
    return left // right


def _some(seat: Any, name: str) -> Any:
    if seat is None:
        raise RuleFailure(f"'{name}' of nobody (e.g. the owner of an unowned place)")
    return seat


def _column(row: Any, name: str) -> Any:
    return 0 if row is None else row.get(name, 0)


_READS = re.compile(r"\b(k\d+)\(ctx\)")      # a game value or phase member read in generated code
_HELPERS = {"_AmunreError": AmunreError, "_RuleFailure": RuleFailure, "_CAUGHT": CAUGHT,
            "_div": _div, "_some": _some, "_column": _column, "_ABSENT": ABSENT}


def verb_names(verbs: Verbs | None) -> dict[str, Any]:
    """The names under which generated code calls the verbs (none before the vocabulary has them)."""
    if verbs is None:
        return {}
    return {"_gain": verbs.gain, "_transfer": verbs.transfer, "_draw": verbs.draw, "_place": verbs.place_tokens,
            "_remove": verbs.remove_tokens, "_move": verbs.move_tokens, "_convert": verbs.convert,
            "_owner": verbs.set_owner, "_owned": verbs.owned_places, "_read": verbs.read_modifier,
            "_write": verbs.set_modifier}
# The built-in folds as the Python source before and after their collection (min and max of
# nothing are 0): built-ins called in place, no helper call per fold.
_FOLDS = {"count": ("len(", ")"), "sum": ("sum(", ")"), "all": ("all(", ")"), "any": ("any(", ")"),
          "min": ("min(", ", default=0)"), "max": ("max(", ", default=0)")}


# The most nodes of generated code a derived value may have to be inlined where it is read
# (every shipped one has at most 20). A larger one is called: its function is compiled once,
# when it is defined, so the code of a file stays linear in its text even when each derived
# value reads the one before twice (cost.py counts the nodes).
INLINE_NODES = 24


def inlines(derived: Any) -> bool:
    """Whether a derived value (its Expression) is inlined where it is read, or called."""
    return getattr(derived, "nodes", INLINE_NODES + 1) <= INLINE_NODES


class Compiler:
    """Generates the functions of one checked tree; `rule` (its `name` and `span`) is what a
    failure while one of them runs is put down to."""

    def __init__(self, checked: Checked, places: int, rule: Any, verbs: Verbs | None) -> None:
        self.info = checked
        self.places = tuple(range(places))
        self.names: dict[str, Any] = dict(_HELPERS)
        self.names.update(verb_names(verbs))
        self.names["_failed"] = lambda error: rule_failed(rule, error)
        self._ids: dict[int, str] = {}
        self._vars = 0
        # While an expression compiles, the collections it always evaluates are built by loops
        # put before its `return` (`_hoisted`): a comprehension's own call costs more than its
        # loop over a few places. None: not hoisting (effects run their statements in order).
        self._hoisted: list[str] | None = None

    # ---- the namespace the code reads -------------------------------------------------------------
    def ref(self, obj: Any) -> str:
        """The name under which the generated code reads `obj`."""
        key = id(obj)
        if key not in self._ids:
            self._ids[key] = f"k{len(self._ids)}"
            self.names[self._ids[key]] = obj
        return self._ids[key]

    def var(self) -> str:
        self._vars += 1
        return f"_e{self._vars}"

    def function(self, body: list[str], name: str = "_rule") -> Callable[..., Any]:
        """Compile `def _rule(ctx, it=_ABSENT)` with the given body lines. A failure inside it
        is a GameError naming the rule (its handler costs nothing while nothing fails)."""
        text = "\n".join(body)
        head = [f"def {name}(ctx, it=_ABSENT):", "  try:"]
        if re.search(r"\bstate\b", text):         # only the locals the body reads: rules run often
            head.append("    state = ctx.state")
        if re.search(r"\benv\b", text):
            head.append("    env = ctx.env")
        if re.search(r"\bit\b", text):
            head += ["    if it is _ABSENT:", "        it = ctx.it"]
        handlers = ["  except _AmunreError:", "    raise",
                    "  except _RuleFailure as error:", "    raise _failed(error) from None",
                    "  except _CAUGHT as error:", "    raise _failed(error) from error"]
        source = "\n".join(head + ["    " + line for line in body] + handlers)
        namespace = dict(self.names)
        exec(compile(source, "<rules DSL>", "exec"), namespace)      # generated from the checked AST (see above)
        return namespace[name]

    # ---- expressions -------------------------------------------------------------------------------
    def expr(self, node: ast.Expr) -> Callable[..., Any]:
        """A function (ctx, it=ctx.it) -> the expression's value. A game value read more than once
        (a phase's kept row, for two of its columns, say) is read once: an expression changes
        nothing, so both reads would give the same."""
        self._hoisted = []
        try:
            body = self._hoisted + [f"return {self.code(node, 'it')}"]
        finally:
            self._hoisted = None
        text = "\n".join(body)
        reads = _READS.findall(text)
        first = []
        for read in dict.fromkeys(r for r in reads if reads.count(r) > 1):
            local = self.var()
            first.append(f"{local} = {read}(ctx)")
            text = re.sub(rf"\b{read}\(ctx\)", local, text)
        return self.function(first + text.split("\n"))

    def _sometimes(self, node: ast.Expr, it: str) -> str:
        """Code for a part evaluated only sometimes (a branch, a condition per element): nothing
        in it is hoisted, so it still runs only when it did."""
        hoisted, self._hoisted = self._hoisted, None
        try:
            return self.code(node, it)
        finally:
            self._hoisted = hoisted

    def _collected(self, element: str, collection: str, item: str, cond: str | None = None) -> str:
        """The list of `item` for each `element` of `collection` (where `cond`): a loop hoisted
        before the expression's return when it always runs, else a comprehension."""
        if self._hoisted is None:
            return f"[{item} for {element} in {collection}{f' if {cond}' if cond else ''}]"
        items = self.var()
        add = ([f"    {items}.append({item})"] if cond is None
               else [f"    if {cond}:", f"        {items}.append({item})"])
        self._hoisted += [f"{items} = []", f"for {element} in {collection}:"] + add
        return items

    def code(self, node: ast.Expr, it: str) -> str:
        """Python source of the expression; `it` is the variable holding the current element."""
        value = self.info.const(node)
        if value is not NOT_CONSTANT:
            if isinstance(value, tuple):
                return f"list({self.ref(value)})"
            return repr(value) if isinstance(value, (bool, int, str)) else self.ref(value)
        return _EXPRESSIONS[type(node)](self, node, it)

    def _list(self, node: ast.ListOf, it: str) -> str:
        return "[" + ", ".join(self.code(item, it) for item in node.items) + "]"

    def _unary(self, node: ast.Unary, it: str) -> str:
        inner = self.code(node.operand, it)
        return f"(not {inner})" if node.op == "not" else f"(-{inner})"

    def _binary(self, node: ast.Binary, it: str) -> str:
        if node.op in ("and", "or"):
            left, right = self.code(node.left, it), self._sometimes(node.right, it)
            return f"(bool({left}) {node.op} bool({right}))"
        left, right = self.code(node.left, it), self.code(node.right, it)
        if node.op in ("//", "/"):
            return f"_div({left}, {right})"
        return f"({left} {node.op} {right})"

    def _when(self, node: ast.When, it: str) -> str:
        cond = self.code(node.cond, it)
        otherwise = "0" if node.otherwise is None else self._sometimes(node.otherwise, it)
        return f"({self._sometimes(node.value, it)} if {cond} else {otherwise})"

    def _where(self, node: ast.Where, it: str) -> str:
        element, base = self.var(), self.code(node.base, it)
        return self._collected(element, base, element, self._sometimes(node.cond, element))

    def _call(self, node: ast.Call, it: str) -> str:
        form, fn = self.info.calls[id(node)]
        name = node.func.name
        if form == "scalar":
            assert fn.scalar is not None                # the checker chose a form the function has
            return f"{self.ref(fn.scalar.apply)}(" + ", ".join(self.code(a, it) for a in node.args) + ")"
        assert fn.aggregate is not None
        before, after = _FOLDS.get(name) or (self.ref(fn.aggregate.fold) + "(", ")")
        collection = self.code(node.args[0], it)
        if fn.aggregate.value is None:
            return f"{before}{collection}{after}"
        element = self.var()
        return f"{before}{self._collected(element, collection, self._sometimes(node.args[1], element))}{after}"

    # ---- names -------------------------------------------------------------------------------------
    def _name(self, node: ast.Name, it: str) -> str:
        steps = self.info.names[id(node)]
        code = self._first(steps[0], it)
        for before, step in zip(steps, steps[1:]):
            code = self._link(code, step, nullable=_may_be_nobody(before))
        return code

    def _first(self, step: Step, it: str) -> str:
        kind, name, target = step.kind, step.name, step.target
        if kind == "bound":
            return it if name == "it" else f"env[{name!r}]"
        if kind in ("value", "member"):
            if kind == "value" and name in ("me", "my"):
                return "ctx.seat"
            if kind == "value" and name == "players":
                return "state.players"
            return f"{self.ref(target.read)}(ctx)"
        if kind == "option":
            return f"state.options[{name!r}]"
        if kind == "modifier":
            return f"_read(state, {self.ref(target)}, {'ctx.seat' if target.scope == 'seat' else 0})"
        if kind == "element":
            return self._attr(target, it)
        if kind == "places":
            return self.ref(self.places)
        raise AssertionError(f"unresolved name step {step}")

    def _attr(self, attr: Any, of: str) -> str:
        """Python source reading an attribute of the place or seat `of`."""
        kind = attr.kind
        if kind == "column":
            return f"{self.ref(attr.column)}[{of}]"
        if kind == "token":
            return f"state.tokens[{of}].get({attr.key!r}, 0)"
        if kind == "modifier":
            return f"_read(state, {self.ref(attr.key)}, {of})"
        if kind == "derived":
            return self._inlined(attr.key, of) or f"{self.ref(attr.key.at)}(ctx, {of})"
        if kind == "owned":
            return f"(state.owner[{of}] >= 0)"
        if kind == "resource":
            return f"state.resources[{of}][{attr.key!r}]"
        if kind == "cards":
            return f"len(state.hands[{of}])"
        if kind == "places":
            return f"_owned(ctx.game, {of})"
        return f"{self.ref(attr.read)}(ctx, {of})"

    def _inlined(self, derived: Any, of: str) -> str | None:
        """A derived value's own code in place of a call to its function (a call per place adds up
        in sums over places), for a small one (`inlines`). Only when `of` is a variable, so that
        it is read once either way, and when nothing in the code can fail: a failure must name
        the derived value's own rule."""
        if not inlines(derived) or derived.checked is None or derived.tree is None or not of.isidentifier():
            return None
        outer, self.info = self.info, derived.checked
        try:
            code = self.code(derived.tree, of)
        finally:
            self.info = outer
        return None if "_div(" in code or "_some(" in code else f"({code})"

    def _link(self, code: str, step: Step, nullable: bool) -> str:
        """One more `.name` after a value."""
        if step.kind == "column":
            return f"_column({code}, {step.name!r})"
        if step.kind == "seat" and nullable:
            code = f"_some({code}, {step.name!r})"
        return self._attr(step.target, code)

    # ---- effects -----------------------------------------------------------------------------------
    def effect(self, node: ast.Effect) -> tuple[tuple[ChoiceFn, ...], tuple[tuple[int, Fn], ...], Fn]:
        """An effect's choices, its requirements (each with how many choices it needs), and
        the function that does the rest."""
        choices, requires, body = [], [], []
        for stmt in node.body:
            if isinstance(stmt, ast.Choose):
                choices.append(ChoiceFn(stmt.name.name, self.expr(stmt.options),
                                        self.info.choices.get(id(stmt), Choice("values"))))
            elif isinstance(stmt, ast.Require):
                requires.append((self.info.require_levels.get(id(stmt), 0), self.expr(stmt.cond)))
            else:
                body += self.lines(stmt)
        return tuple(choices), tuple(requires), self.function(body or ["pass"])

    def lines(self, node: ast.Stmt) -> list[str]:
        return _STATEMENTS[type(node)](self, node)

    def _seat(self, node: ast.Expr | None) -> str:
        """Whose it is: the seat written after `for`, else the acting seat."""
        return "ctx.seat" if node is None else f"_some({self.code(node, 'it')}, 'seat')"

    def _gain(self, node: ast.Gain) -> list[str]:
        amount = self.code(node.amount, "it")
        if node.sign == "-":
            amount = f"-({amount})"
        if node.per is not None and node.per_in is not None:
            places, attr = self.code(node.per_in, "it"), self.info.per_attrs[id(node)]
            if self.info.type(node.per_in).kind == "place":
                measure = self._attr(attr, f"({places})")
            else:
                element = self.var()
                measure = f"sum({self._attr(attr, element)} for {element} in {places})"
            amount = f"({amount}) * {measure}"
        return [f"_gain(ctx.game, {self._seat(node.seat)}, {node.resource.name!r}, {amount}, ctx.cause)"]

    def _take(self, node: ast.Take) -> list[str]:
        return [f"_transfer(ctx.game, {self._seat(node.seat)}, ctx.seat, {node.resource.name!r}, "
                f"{self.code(node.amount, 'it')}, ctx.cause)"]

    def _give(self, node: ast.Give) -> list[str]:
        return [f"_transfer(ctx.game, ctx.seat, {self._seat(node.seat)}, {node.resource.name!r}, "
                f"{self.code(node.amount, 'it')}, ctx.cause)"]

    def _draw(self, node: ast.Draw) -> list[str]:
        count = self.code(node.count, "it")
        return [f"_draw(ctx.game, {self._seat(node.seat)}, {node.deck.name!r}, {count}, ctx.cause)"]

    def _place(self, node: ast.PlaceTokens) -> list[str]:
        return [f"_place(ctx.game, {self.code(node.place, 'it')}, {node.token.name!r}, {self.code(node.count, 'it')}, "
                "ctx.cause)"]

    def _remove(self, node: ast.RemoveTokens) -> list[str]:
        return [f"_remove(ctx.game, {self.code(node.place, 'it')}, {node.token.name!r}, "
                f"{self.code(node.count, 'it')}, ctx.cause)"]

    def _move(self, node: ast.MoveTokens) -> list[str]:
        return [f"_move(ctx.game, {self.code(node.source, 'it')}, {self.code(node.target, 'it')}, "
                f"{node.token.name!r}, {self.code(node.count, 'it')}, ctx.cause)"]

    def _convert(self, node: ast.Convert) -> list[str]:
        return [f"_convert(ctx.game, {self.code(node.place, 'it')}, {self.code(node.count, 'it')}, "
                f"{node.source.name!r}, {node.target.name!r}, ctx.cause)"]

    def _claim(self, node: ast.Claim) -> list[str]:
        return [f"_owner(ctx.game, {self.code(node.place, 'it')}, {self._seat(node.seat)}, ctx.cause)"]

    def _release(self, node: ast.Release) -> list[str]:
        return [f"_owner(ctx.game, {self.code(node.place, 'it')}, None, ctx.cause)"]

    def _set(self, node: ast.SetValue | ast.AddValue) -> list[str]:
        target = self.info.targets.get(id(node.target))
        if target is None:
            return ["pass"]
        value = self.code(node.value, "it")
        if target.kind == "value":            # a game value: the start player
            return [f"ctx.game.set_start_player({self._seat(node.value)}, cause=ctx.cause)"]
        mod = target.target
        if mod.scope == "game":
            index = "0"
        elif node.target.of is None:
            index = "ctx.seat"
        elif mod.scope == "seat":
            index = self._seat(node.target.of)
        else:
            index = self.code(node.target.of, "it")
        name, places = self.ref(mod), len(self.places)
        if isinstance(node, ast.AddValue):
            slot = self.var()
            return [f"{slot} = {index}",
                    f"_write(ctx.game, {name}, {slot}, _read(state, {name}, {slot}) + {value}, {places}, ctx.cause)"]
        return [f"_write(ctx.game, {name}, {index}, {value}, {places}, ctx.cause)"]

    def _if(self, node: ast.If) -> list[str]:
        out = [f"if {self.code(node.cond, 'it')}:"] + _indent(self.lines(node.then))
        if node.otherwise is not None:
            out += ["else:"] + _indent(self.lines(node.otherwise))
        return out

    def _each(self, node: ast.Each) -> list[str]:
        element, name = self.var(), node.name.name
        return ([f"for {element} in list({self.code(node.options, 'it')}):", f"    env[{name!r}] = {element}"]
                + _indent(self.lines(node.body)) + [f"env.pop({name!r}, None)"])

    def _block(self, node: ast.Block) -> list[str]:
        return [line for stmt in node.body for line in self.lines(stmt)] or ["pass"]


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _may_be_nobody(step: Step) -> bool:
    """Whether a step's value may be no seat at all (the owner of an unowned place)."""
    return getattr(step.target, "kind", None) == "owner"


_EXPRESSIONS: dict[type, Callable[[Compiler, Any, str], str]] = {
    ast.ListOf: Compiler._list, ast.Name: Compiler._name, ast.Where: Compiler._where,
    ast.Call: Compiler._call, ast.Unary: Compiler._unary, ast.Binary: Compiler._binary,
    ast.When: Compiler._when,
}

_STATEMENTS: dict[type, Callable[[Compiler, Any], list[str]]] = {
    ast.Gain: Compiler._gain, ast.Take: Compiler._take, ast.Give: Compiler._give, ast.Draw: Compiler._draw,
    ast.PlaceTokens: Compiler._place, ast.RemoveTokens: Compiler._remove, ast.MoveTokens: Compiler._move,
    ast.Convert: Compiler._convert, ast.Claim: Compiler._claim, ast.Release: Compiler._release,
    ast.SetValue: Compiler._set, ast.AddValue: Compiler._set, ast.If: Compiler._if, ast.Each: Compiler._each,
    ast.Block: Compiler._block,
}
