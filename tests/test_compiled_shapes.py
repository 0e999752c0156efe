"""Programs that are one read (compiled/shapes.py) are answered by the bytecode machine without
running their code: which programs have a shape, and what a shape says. That the answers are
the code's own is held by the compiled engine's tests of the same games on every shipped file
(tests/test_compiled_same_games.py), where these programs run at every valuation."""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import amunre
from amunre.interpreter.compiled import ops
from amunre.interpreter.compiled.lower import lower
from amunre.interpreter.compiled.shapes import (
    OWNED_WHERE,
    SHAPE_CONSTANT,
    SHAPE_OWNED_WHERE,
    SHAPE_PLACE_TOKENS,
    SHAPE_SEAT_RESOURCE,
    shape_of,
)


def code(*instructions: tuple[int, ...]) -> list[list[int]]:
    return [list(i) + [0] * (4 - len(i)) for i in instructions] + [[ops.OP_HALT, 0, 0, 0]]


def test_the_shapes() -> None:
    assert shape_of(code((ops.OP_CONST, 7))) == [SHAPE_CONSTANT, 0, 7, 0]
    assert shape_of(code((ops.OP_SEAT,), (ops.OP_RESOURCE, 2))) == [SHAPE_SEAT_RESOURCE, 2, 0, 0]
    # it.stones + 2 * it.pyramids - 1, `it` in env slot 0 stored in local -1
    linear = code((ops.OP_LOAD, 0), (ops.OP_STORE, -1), (ops.OP_SLOT_TOKEN, -1, 3), (ops.OP_CONST, 2),
                  (ops.OP_SLOT_TOKEN, -1, 4), (ops.OP_MUL,), (ops.OP_ADD,), (ops.OP_CONST, 1), (ops.OP_SUB,))
    assert shape_of(linear) == [SHAPE_PLACE_TOKENS, 0, -1, 2, 3, 1, 4, 2]


@pytest.mark.parametrize("program", [
    code((ops.OP_CONST, 1), (ops.OP_CONST, 2), (ops.OP_ADD,)),            # arithmetic of constants: checked as code
    code((ops.OP_LOAD, 0), (ops.OP_STORE, -1), (ops.OP_SLOT_TOKEN, -1, 3), (ops.OP_SLOT_TOKEN, -1, 4),
         (ops.OP_MUL,)),                                                   # a product of two reads
    code((ops.OP_LOAD, 0), (ops.OP_STORE, -1), (ops.OP_SLOT_TOKEN, -2, 3)),   # another slot than the one stored
    code((ops.OP_LOAD, -1), (ops.OP_STORE, -2), (ops.OP_SLOT_TOKEN, -2, 3)),  # loaded from a local, not a name
    code((ops.OP_LOAD, 0), (ops.OP_STORE, -1), (ops.OP_CONST, 3)),             # no read: a constant, as code
    code((ops.OP_LOAD, 0), (ops.OP_STORE, -1), (ops.OP_SLOT_TOKEN, -1, 3), (ops.OP_CONST, 1 << 40),
         (ops.OP_MUL,)),                                                   # a factor past the bound
    code((ops.OP_SEAT,), (ops.OP_HAND_SIZE,)),
])
def test_no_shape(program: list[list[int]]) -> None:
    assert shape_of(program) is None


def owned_where(column: int, value: int) -> list[list[int]]:
    """The code of `[p for p in places if owned(p) and p.COLUMN == value]`."""
    filled = [list(i) for i in OWNED_WHERE]
    filled[11][2], filled[12][1] = column, value
    return filled                                   # type: ignore[return-value]


def test_the_list_shape() -> None:
    assert shape_of(owned_where(3, 26), result_list=True) == [SHAPE_OWNED_WHERE, 3, 26, 0]
    assert shape_of(owned_where(3, 26)) is None                 # as a number it is no shape


@pytest.mark.parametrize("change", [
    (9, 0, ops.OP_NOT),                 # not owned
    (13, 0, ops.OP_NE),                 # the column differs from the value
    (7, 3, 20),                         # another end of the loop
    (19, 1, -2),                        # another list appended to
])
def test_no_list_shape(change: tuple[int, int, int]) -> None:
    program = owned_where(3, 26)
    at, field, value = change
    program[at][field] = value
    assert shape_of(program, result_list=True) is None


def test_the_2016_valuations_reads_have_shapes() -> None:
    """The award keys a bot's valuation reads per place, the final ranking's `my.gold`, and the
    places an award ranks (`provinces where owned and side == west`): the programs the
    lookahead runs most."""
    lowering, _ = lower(amunre.load_rules("knizia2016"))
    shapes = [shape_of(p.code, p.result_list) for p in lowering.programs]
    kinds = [s[0] for s in shapes if s is not None]
    assert kinds.count(SHAPE_PLACE_TOKENS) >= 4 and SHAPE_SEAT_RESOURCE in kinds and SHAPE_CONSTANT in kinds
    assert kinds.count(SHAPE_OWNED_WHERE) >= 4
