"""The DSL's checked trees as bytecode for the compiled engine's machine (compiled/vm.py).

It mirrors interpreter/dsl/compile.py construct by construct: the same names resolved by the
checker, read the same way, in the same order, so that a rule computes the same value and
fails where the interpreter's fails (a seat of nobody, a division by zero). What the
interpreter generates as Python text, this emits as instructions of four numbers each (see
compiled/ops.py); the text is never read again. A construct it does not know raises
`NotCompiled` naming the rule, so the file falls back to the interpreter.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..dsl import ast
from ..dsl.checked import NOT_CONSTANT, Checked, Step
from . import ops
from .not_compiled import NotCompiled


class Names(Protocol):
    """What the writer asks the lowering (compiled/lower.py Lowering) for: the index or id of each
    name a rule reads."""

    def value(self, value: Any, rule: Any = None) -> int: ...
    def const_list(self, values: list[int]) -> int: ...
    def slot(self, name: str) -> int: ...
    def member(self, name: str, rule: Any = None) -> tuple[int, int, int]: ...
    def option(self, name: str) -> int: ...
    def modifier(self, name: str, rule: Any = None) -> int: ...
    def row_column(self, table: str, column: str, rule: Any = None) -> tuple[int, int]: ...
    def column(self, attr: Any, rule: Any = None) -> int: ...
    def token(self, name: str) -> int: ...
    def resource(self, name: str) -> int: ...
    def deck(self, name: str) -> int: ...

INLINE_LIMIT = 20_000       # instructions of one program: a derived value inlined past this is refused


class ProgramWriter:
    """Writes one program: an expression, a collection or an effect's statements."""

    def __init__(self, lowering: Names, checked: Checked | None, rule: Any) -> None:
        self.lowering = lowering
        self.info = checked
        self.rule = rule
        self.code: list[list[int]] = []
        self.temps = 0
        self.depth = 0          # the stack now
        self.most = 0           # the deepest the stack gets

    @property
    def checked(self) -> Checked:
        """What the checker learned of the rule being written (there is none for a rule that
        did not compile)."""
        if self.info is None:
            raise NotCompiled("a rule that did not compile", self.rule)
        return self.info

    # ---- emitting ----------------------------------------------------------------------------
    def emit(self, op: int, a: int = 0, b: int = 0, c: int = 0, pushes: int = 0) -> int:
        self.code.append([op, a, b, c])
        if len(self.code) > INLINE_LIMIT:
            raise NotCompiled("a rule this long (derived values inlined)", self.rule)
        self.depth += pushes
        self.most = max(self.most, self.depth)
        return len(self.code) - 1

    def patch(self, at: int, target: int, field: int = 1) -> None:
        self.code[at][field] = target

    def here(self) -> int:
        return len(self.code)

    def temp(self) -> int:
        """A temporary of this program's frame: slots -1, -2, ... (the machine reads a negative
        slot in the frame, a slot from 0 among the bound names)."""
        self.temps += 1
        return -self.temps

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node: ast.Expr, it: int) -> None:
        """Code leaving the value of `node` on the stack; `it` is the slot of the current element."""
        value = self.info.const(node) if self.info is not None else NOT_CONSTANT
        if value is not NOT_CONSTANT:
            self.constant(value)
            return
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            raise NotCompiled(f"the construct {type(node).__name__}", self.rule)
        handler(self, node, it)

    def constant(self, value: Any) -> None:
        if isinstance(value, tuple):
            self.emit(ops.OP_CONST_LIST, self.lowering.const_list([self.lowering.value(v, self.rule) for v in value]),
                      pushes=1)
        else:
            self.emit(ops.OP_CONST, self.lowering.value(value, self.rule), pushes=1)

    def _list(self, node: ast.ListOf, it: int) -> None:
        for item in node.items:
            self.expr(item, it)
        self.emit(ops.OP_LIST, len(node.items), pushes=1 - len(node.items))

    def _unary(self, node: ast.Unary, it: int) -> None:
        self.expr(node.operand, it)
        self.emit(ops.OP_NOT if node.op == "not" else ops.OP_NEG)

    def _binary(self, node: ast.Binary, it: int) -> None:
        if node.op in ("and", "or"):
            self.expr(node.left, it)
            jump = self.emit(ops.OP_JUMP_IF_NOT if node.op == "and" else ops.OP_JUMP_IF, pushes=-1)
            self.expr(node.right, it)
            self.emit(ops.OP_BOOL)
            done = self.emit(ops.OP_JUMP, pushes=-1)
            self.patch(jump, self.here())
            self.emit(ops.OP_CONST, 0 if node.op == "and" else 1, pushes=1)
            self.patch(done, self.here())
            return
        self.expr(node.left, it)
        self.expr(node.right, it)
        self.emit(_BINARY[node.op], pushes=-1)

    def _when(self, node: ast.When, it: int) -> None:
        self.expr(node.cond, it)
        jump = self.emit(ops.OP_JUMP_IF_NOT, pushes=-1)
        self.expr(node.value, it)
        done = self.emit(ops.OP_JUMP, pushes=-1)
        self.patch(jump, self.here())
        if node.otherwise is None:
            self.emit(ops.OP_CONST, 0, pushes=1)
        else:
            self.expr(node.otherwise, it)
        self.patch(done, self.here())

    def loop_start(self, element: int) -> tuple[int, int]:
        """Begin a loop over the list on the stack, each element stored in slot `element`: (the
        loop's FOR instruction, to jump back to and patch with the loop's end; its list's slot).
        The list, the index and the arena's mark are three temporaries in a row (vm.run's FOR
        reads them so), and each pass gives the arena back: what a pass builds is gone by the next."""
        items, index, mark = self.temp(), self.temp(), self.temp()
        self.emit(ops.OP_STORE, items, pushes=-1)
        self.emit(ops.OP_CONST, 0, pushes=1)
        self.emit(ops.OP_STORE, index, pushes=-1)
        self.emit(ops.OP_MARK, mark)
        return self.emit(ops.OP_FOR, items, element), items

    def loop_end(self, top: int) -> None:
        self.emit(ops.OP_JUMP, top)
        self.patch(top, self.here(), field=3)

    def _where(self, node: ast.Where, it: int) -> None:
        self.expr(node.base, it)
        self.emit(ops.OP_RESERVE, pushes=1)          # the result's room, before the loop's mark
        out, element = self.temp(), self.temp()
        self.emit(ops.OP_STORE, out, pushes=-1)
        top, _ = self.loop_start(element)
        self.expr(node.cond, element)
        self.emit(ops.OP_JUMP_IF_NOT, top, pushes=-1)
        self.emit(ops.OP_LOAD, element, pushes=1)
        self.emit(ops.OP_APPEND, out, pushes=-1)
        self.loop_end(top)
        self.emit(ops.OP_LOAD, out, pushes=1)

    def _call(self, node: ast.Call, it: int) -> None:
        form, fn = self.checked.calls[id(node)]
        name = node.func.name
        if form == "scalar":
            if name == "abs":
                self.expr(node.args[0], it)
                self.emit(ops.OP_ABS)
                return
            op = {"min": ops.OP_MIN, "max": ops.OP_MAX}.get(name)
            if op is None:
                raise NotCompiled(f"the function {name}()", self.rule)
            self.expr(node.args[0], it)
            for arg in node.args[1:]:
                self.expr(arg, it)
                self.emit(op, pushes=-1)
            return
        if name == "count":
            self.expr(node.args[0], it)
            self.emit(ops.OP_LEN)
            return
        acc_op, start = {"sum": (ops.OP_ACC_ADD, 0), "min": (ops.OP_ACC_MIN, 0), "max": (ops.OP_ACC_MAX, 0),
                         "all": (ops.OP_ACC_ALL, 1), "any": (ops.OP_ACC_ANY, 0)}.get(name, (None, 0))
        if acc_op is None or len(node.args) < 2:
            raise NotCompiled(f"the function {name}()", self.rule)
        acc, seen, element = self.temp(), self.temp(), self.temp()
        for slot, value in ((acc, start), (seen, 0)):
            self.emit(ops.OP_CONST, value, pushes=1)
            self.emit(ops.OP_STORE, slot, pushes=-1)
        self.expr(node.args[0], it)
        top, _ = self.loop_start(element)
        self.expr(node.args[1], element)
        self.emit(acc_op, acc, seen, pushes=-1)
        self.loop_end(top)
        self.emit(ops.OP_LOAD, acc, pushes=1)

    # ---- names -----------------------------------------------------------------------------------
    def _name(self, node: ast.Name, it: int) -> None:
        steps = self.checked.names[id(node)]
        self.first(steps[0], it)
        for before, step in zip(steps, steps[1:]):
            self.link(step, nullable=getattr(before.target, "kind", None) == "owner")

    def first(self, step: Step, it: int) -> None:
        kind, name, target = step.kind, step.name, step.target
        if kind == "bound":
            self.emit(ops.OP_LOAD, it if name == "it" else self.lowering.slot(name), pushes=1)
        elif kind == "value":
            op = _VALUES.get(name)
            if op is None:
                raise NotCompiled(f"the value '{name}'", self.rule)
            self.emit(op, pushes=1)
        elif kind == "member":
            self.emit(ops.OP_MEMBER, *self.lowering.member(name, self.rule), pushes=1)
        elif kind == "option":
            self.emit(ops.OP_OPTION, self.lowering.option(name), pushes=1)
        elif kind == "modifier":
            if target.scope == "seat":
                self.emit(ops.OP_SEAT, pushes=1)
            else:
                self.emit(ops.OP_CONST, 0, pushes=1)
            self.emit(ops.OP_MOD, self.lowering.modifier(target.name, self.rule))
        elif kind == "element":
            self.read(it, target)
        elif kind == "places":
            self.emit(ops.OP_ALL_PLACES, pushes=1)
        else:
            raise NotCompiled(f"a name of kind {kind}", self.rule)

    def link(self, step: Step, nullable: bool) -> None:
        """One more `.name` after the value on the stack."""
        if step.kind == "column":
            table, column = self.lowering.row_column(step.target, step.name, self.rule)
            self.emit(ops.OP_ROW_COLUMN, table, column)
            return
        if step.kind == "seat" and nullable:
            self.emit(ops.OP_SOME)
        self.attr(step.target)

    def read(self, slot: int, attr: Any) -> None:
        """Push an attribute of the place or seat in a slot: one instruction for a printed
        property or a token count (the commonest reads), else the slot then the attribute."""
        if attr.kind == "column":
            self.emit(ops.OP_SLOT_COLUMN, slot, self.lowering.column(attr, self.rule), pushes=1)
        elif attr.kind == "token":
            self.emit(ops.OP_SLOT_TOKEN, slot, self.lowering.token(attr.key), pushes=1)
        else:
            self.emit(ops.OP_LOAD, slot, pushes=1)
            self.attr(attr)

    def attr(self, attr: Any) -> None:
        """Read an attribute of the place or seat on top of the stack (replacing it)."""
        kind = attr.kind
        lowering = self.lowering
        if kind == "column":
            self.emit(ops.OP_COLUMN, lowering.column(attr, self.rule))
        elif kind == "token":
            self.emit(ops.OP_TOKEN, lowering.token(attr.key))
        elif kind == "modifier":
            self.emit(ops.OP_MOD, lowering.modifier(attr.key.name, self.rule))
        elif kind == "derived":
            self.derived(attr.key)
        elif kind == "owned":
            self.emit(ops.OP_OWNED)
        elif kind == "owner":
            self.emit(ops.OP_OWNER)
        elif kind == "resource":
            self.emit(ops.OP_RESOURCE, lowering.resource(attr.key))
        elif kind == "cards":
            self.emit(ops.OP_HAND_SIZE)
        elif kind == "places":
            self.emit(ops.OP_OWNED_PLACES)
        else:
            raise NotCompiled(f"an attribute read by a function of its own ({kind})", self.rule)

    def derived(self, expression: Any) -> None:
        """A derived value of the place on the stack, its code inlined with `it` bound to it."""
        slot = self.temp()
        self.emit(ops.OP_STORE, slot, pushes=-1)
        if expression.constant is not NOT_CONSTANT:
            self.constant(expression.constant)
            return
        if expression.tree is None or expression.checked is None:
            raise NotCompiled("a derived value that did not compile", self.rule)
        outer, self.info = self.info, expression.checked
        try:
            self.expr(expression.tree, slot)
        finally:
            self.info = outer

    # ---- statements ------------------------------------------------------------------------------
    def stmt(self, node: ast.Stmt) -> None:
        handler = _STATEMENTS.get(type(node))
        if handler is None:
            raise NotCompiled(f"the statement {type(node).__name__}", self.rule)
        handler(self, node)

    def seat(self, node: ast.Expr | None) -> None:
        """Whose it is: the seat written after `for` (someone), else the acting seat."""
        if node is None:
            self.emit(ops.OP_SEAT, pushes=1)
        else:
            self.expr(node, ops_it())
            self.emit(ops.OP_SOME)

    def _gain(self, node: ast.Gain) -> None:
        self.seat(node.seat)
        self.expr(node.amount, ops_it())
        if node.sign == "-":
            self.emit(ops.OP_NEG)
        if node.per is not None and node.per_in is not None:
            attr = self.checked.per_attrs[id(node)]
            self.expr(node.per_in, ops_it())
            if self.checked.type(node.per_in).kind == "place":
                self.attr(attr)
            else:
                self.sum_of(attr)
            self.emit(ops.OP_MUL, pushes=-1)
        self.emit(ops.OP_GAIN, self.lowering.resource(node.resource.name), pushes=-2)

    def sum_of(self, attr: Any) -> None:
        """The sum of an attribute over the list on the stack."""
        acc, seen, element = self.temp(), self.temp(), self.temp()
        self.emit(ops.OP_CONST, 0, pushes=1)
        self.emit(ops.OP_STORE, acc, pushes=-1)
        top, _ = self.loop_start(element)
        self.read(element, attr)
        self.emit(ops.OP_ACC_ADD, acc, seen, pushes=-1)
        self.loop_end(top)
        self.emit(ops.OP_LOAD, acc, pushes=1)

    def _take(self, node: ast.Take) -> None:
        self.seat(node.seat)
        self.emit(ops.OP_SEAT, pushes=1)
        self.expr(node.amount, ops_it())
        self.emit(ops.OP_TRANSFER, self.lowering.resource(node.resource.name), pushes=-3)

    def _give(self, node: ast.Give) -> None:
        self.emit(ops.OP_SEAT, pushes=1)
        self.seat(node.seat)
        self.expr(node.amount, ops_it())
        self.emit(ops.OP_TRANSFER, self.lowering.resource(node.resource.name), pushes=-3)

    def _draw(self, node: ast.Draw) -> None:
        self.seat(node.seat)
        self.expr(node.count, ops_it())
        self.emit(ops.OP_DRAW, self.lowering.deck(node.deck.name), pushes=-2)

    def _place(self, node: ast.PlaceTokens) -> None:
        self.expr(node.place, ops_it())
        self.expr(node.count, ops_it())
        self.emit(ops.OP_PLACE_TOKENS, self.lowering.token(node.token.name), pushes=-2)

    def _remove(self, node: ast.RemoveTokens) -> None:
        self.expr(node.place, ops_it())
        self.expr(node.count, ops_it())
        self.emit(ops.OP_REMOVE_TOKENS, self.lowering.token(node.token.name), pushes=-2)

    def _move(self, node: ast.MoveTokens) -> None:
        self.expr(node.source, ops_it())
        self.expr(node.target, ops_it())
        self.expr(node.count, ops_it())
        self.emit(ops.OP_MOVE_TOKENS, self.lowering.token(node.token.name), pushes=-3)

    def _convert(self, node: ast.Convert) -> None:
        self.expr(node.place, ops_it())
        self.expr(node.count, ops_it())
        self.emit(ops.OP_CONVERT, self.lowering.token(node.source.name), self.lowering.token(node.target.name),
                  pushes=-2)

    def _claim(self, node: ast.Claim) -> None:
        self.expr(node.place, ops_it())
        self.seat(node.seat)
        self.emit(ops.OP_SET_OWNER, pushes=-2)

    def _release(self, node: ast.Release) -> None:
        self.expr(node.place, ops_it())
        self.emit(ops.OP_CONST, -1, pushes=1)
        self.emit(ops.OP_SET_OWNER, pushes=-2)

    def _set(self, node: ast.SetValue | ast.AddValue) -> None:
        target = self.checked.targets.get(id(node.target))
        if target is None:
            return
        if target.kind == "value":            # a game value: the start player
            self.seat(node.value)
            self.emit(ops.OP_SET_START, pushes=-1)
            return
        mod = target.target
        if mod.scope == "game":
            self.emit(ops.OP_CONST, 0, pushes=1)
        elif node.target.of is None:
            self.emit(ops.OP_SEAT, pushes=1)
        elif mod.scope == "seat":
            self.seat(node.target.of)
        else:
            self.expr(node.target.of, ops_it())
        self.expr(node.value, ops_it())
        op = ops.OP_ADD_MOD if isinstance(node, ast.AddValue) else ops.OP_SET_MOD
        self.emit(op, self.lowering.modifier(mod.name, self.rule), pushes=-2)

    def _if(self, node: ast.If) -> None:
        self.expr(node.cond, ops_it())
        jump = self.emit(ops.OP_JUMP_IF_NOT, pushes=-1)
        self.stmt(node.then)
        if node.otherwise is None:
            self.patch(jump, self.here())
            return
        done = self.emit(ops.OP_JUMP)
        self.patch(jump, self.here())
        self.stmt(node.otherwise)
        self.patch(done, self.here())

    def _each(self, node: ast.Each) -> None:
        self.expr(node.options, ops_it())
        top, _ = self.loop_start(self.lowering.slot(node.name.name))
        self.stmt(node.body)
        self.loop_end(top)

    def _block(self, node: ast.Block) -> None:
        for stmt in node.body:
            self.stmt(stmt)


def ops_it() -> int:
    """The slot of `it` where no aggregate binds one: the element the rule is read for."""
    return 0


_BINARY = {"+": ops.OP_ADD, "-": ops.OP_SUB, "*": ops.OP_MUL, "//": ops.OP_DIV, "/": ops.OP_DIV,
           "==": ops.OP_EQ, "!=": ops.OP_NE, "<": ops.OP_LT, "<=": ops.OP_LE, ">": ops.OP_GT, ">=": ops.OP_GE}

_VALUES = {"me": ops.OP_SEAT, "my": ops.OP_SEAT, "players": ops.OP_PLAYERS, "seats": ops.OP_SEATS,
           "others": ops.OP_OTHERS, "start_player": ops.OP_START_PLAYER, "next_player": ops.OP_NEXT_PLAYER,
           "age": ops.OP_AGE, "round": ops.OP_ROUND}

_EXPRESSIONS: dict[type, Any] = {
    ast.ListOf: ProgramWriter._list, ast.Name: ProgramWriter._name, ast.Where: ProgramWriter._where,
    ast.Call: ProgramWriter._call, ast.Unary: ProgramWriter._unary, ast.Binary: ProgramWriter._binary,
    ast.When: ProgramWriter._when,
}

_STATEMENTS: dict[type, Any] = {
    ast.Gain: ProgramWriter._gain, ast.Take: ProgramWriter._take, ast.Give: ProgramWriter._give,
    ast.Draw: ProgramWriter._draw, ast.PlaceTokens: ProgramWriter._place, ast.RemoveTokens: ProgramWriter._remove,
    ast.MoveTokens: ProgramWriter._move, ast.Convert: ProgramWriter._convert, ast.Claim: ProgramWriter._claim,
    ast.Release: ProgramWriter._release, ast.SetValue: ProgramWriter._set, ast.AddValue: ProgramWriter._set,
    ast.If: ProgramWriter._if, ast.Each: ProgramWriter._each, ast.Block: ProgramWriter._block,
}
