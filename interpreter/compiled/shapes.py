"""Programs of the rules that are one read, recognised once at lowering, so that the bytecode
machine (vm.py `run`) answers them without running their code.

Most programs a position's valuation runs are tiny: an award's key read per place (a token
count, or one token plus twice another), a seat's resource (`my.NAME`), a constant. Run
through the machine each costs a frame, a stack and a dispatch per instruction, more than the
read itself (a secret phase's lookahead runs some 150 programs an action, half of them this
small). A shape is written to T as a row (`shape_of`):

    kind, arg, constant, terms, (token, coefficient) * terms

- SHAPE_CONSTANT: the constant (`CONST k`);
- SHAPE_SEAT_RESOURCE: the acting seat's resource `arg` (`SEAT`, `RESOURCE arg`);
- SHAPE_PLACE_TOKENS: constant + the sum of coefficient x tokens on the place bound to the
  name in env slot `arg` (`LOAD arg`, `STORE local`, then `SLOT_TOKEN`s of that local, `CONST`s,
  `ADD`, `SUB`, and `MUL` by a constant). The machine adds the terms in the program's order with
  the same checks (core.checked, core.times) and checks the place as SLOT_TOKEN does.
- SHAPE_OWNED_WHERE, a list: the owned places whose column `arg` holds `constant`, in order
  (`[p for p in places if owned(p) and p.COLUMN == VALUE]`, the code OWNED_WHERE below with
  its two holes), as an award's `among` says which places it ranks. The machine leaves the list
  where the code leaves it (at the arena's top as the program began) and stops where the code
  would run out of arena (its list of every place, then room for as many).

Anything else is no shape (None) and runs as code.
"""

from __future__ import annotations

from . import ops

SHAPE_CONSTANT, SHAPE_SEAT_RESOURCE, SHAPE_PLACE_TOKENS, SHAPE_OWNED_WHERE = 1, 2, 3, 4
SH_KIND, SH_ARG, SH_CONSTANT, SH_TERMS = 0, 1, 2, 3
SH_HEAD = 4
BOUND = 1 << 31          # constants and coefficients of a shape stay within this, or it is no shape


HOLE = None
# The code of `[p for p in places if owned(p) and p.COLUMN == VALUE]`, its column and value holes.
OWNED_WHERE: list[list[int | None]] = [
    [ops.OP_ALL_PLACES, 0, 0, 0], [ops.OP_RESERVE, 0, 0, 0], [ops.OP_STORE, -1, 0, 0], [ops.OP_STORE, -3, 0, 0],
    [ops.OP_CONST, 0, 0, 0], [ops.OP_STORE, -4, 0, 0], [ops.OP_MARK, -5, 0, 0], [ops.OP_FOR, -3, -2, 21],
    [ops.OP_LOAD, -2, 0, 0], [ops.OP_OWNED, 0, 0, 0], [ops.OP_JUMP_IF_NOT, 16, 0, 0],
    [ops.OP_SLOT_COLUMN, -2, HOLE, 0], [ops.OP_CONST, HOLE, 0, 0], [ops.OP_EQ, 0, 0, 0], [ops.OP_BOOL, 0, 0, 0],
    [ops.OP_JUMP, 17, 0, 0], [ops.OP_CONST, 0, 0, 0], [ops.OP_JUMP_IF_NOT, 7, 0, 0], [ops.OP_LOAD, -2, 0, 0],
    [ops.OP_APPEND, -1, 0, 0], [ops.OP_JUMP, 7, 0, 0], [ops.OP_LOAD, -1, 0, 0], [ops.OP_HALT, 0, 0, 0]]


def shape_of(code: list[list[int]], result_list: bool = False) -> list[int] | None:
    """The shape row of a program's code (its instructions, HALT last; `result_list`: it
    returns a list), or None."""
    if result_list:
        return _owned_where(code)
    ops_only = [instruction[0] for instruction in code]
    if ops_only == [ops.OP_CONST, ops.OP_HALT]:
        return [SHAPE_CONSTANT, 0, code[0][1], 0]
    if ops_only == [ops.OP_SEAT, ops.OP_RESOURCE, ops.OP_HALT]:
        return [SHAPE_SEAT_RESOURCE, code[1][1], 0, 0]
    if len(code) < 4 or ops_only[:2] != [ops.OP_LOAD, ops.OP_STORE] or code[0][1] < 0 or code[1][1] >= 0:
        return None
    terms = _linear(code[2:], code[1][1])
    if terms is None or not terms[1]:
        return None
    constant, coefficients = terms
    row = [SHAPE_PLACE_TOKENS, code[0][1], constant, len(coefficients)]
    for token, coefficient in coefficients:
        row += [token, coefficient]
    return row


def _owned_where(code: list[list[int]]) -> list[int] | None:
    if len(code) != len(OWNED_WHERE) or any(
            want is not HOLE and have != want
            for instruction, template in zip(code, OWNED_WHERE) for have, want in zip(instruction, template)):
        return None
    column, value = code[11][2], code[12][1]
    return [SHAPE_OWNED_WHERE, column, value, 0] if abs(value) < BOUND else None


Form = tuple[int, list[tuple[int, int]]]       # a constant, and (token, coefficient) terms in order


def _linear(code: list[list[int]], local: int) -> Form | None:
    """The program's value as a constant plus token terms of the place in `local`, evaluated
    on symbols; None where it is not that (any other instruction, a product of two reads, a
    number past BOUND)."""
    stack: list[Form] = []
    for op, a, b, _ in code:
        if op == ops.OP_CONST:
            stack.append((a, []))
        elif op == ops.OP_SLOT_TOKEN and a == local:
            stack.append((0, [(b, 1)]))
        elif op in (ops.OP_ADD, ops.OP_SUB, ops.OP_MUL) and len(stack) >= 2:
            right, left = stack.pop(), stack.pop()
            found = _combined(op, left, right)
            if found is None:
                return None
            stack.append(found)
        elif op == ops.OP_HALT and len(stack) == 1:
            return stack[0]
        else:
            return None
    return None


def _combined(op: int, left: Form, right: Form) -> Form | None:
    if op == ops.OP_MUL:
        if left[1] and right[1]:
            return None
        factor, form = (left[0], right) if not left[1] else (right[0], left)
        result: Form = (factor * form[0], [(token, factor * c) for token, c in form[1]])
    else:
        sign = 1 if op == ops.OP_ADD else -1
        result = (left[0] + sign * right[0], left[1] + [(token, sign * c) for token, c in right[1]])
    numbers = [result[0]] + [c for _, c in result[1]]
    return result if all(abs(n) < BOUND for n in numbers) else None
