"""The order of play followed without playing: the phases a flow would run, in order, with
their age and round, as it would go if nothing changed from the set-up on.

A repeat runs the number of times its `times` gives at the start (a repeat `until` something:
once), and a branch the case its value picks at the start (none, if it cannot be told then:
a case that depends on what players choose is not followed). The lint's deck check follows
this walk; a game's own flow is play/cursor.py's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..interpreter.base.errors import AmunreError
from ..interpreter.base.limits import MAX_PASSES
from ..interpreter.dsl.context import Ctx
from ..interpreter.model import Flow, Step


def walk(flow: Flow, ctx: Ctx) -> Iterator[Step]:
    """Each phase the flow runs, with the passes of its repeats named age and round.

    The passes are kept in the state of `ctx`'s game (a probe, changed by the walk), so that
    what the walk works out as it goes (a deal's count by `round`, a repeat's `times`, a
    branch's value) reads the pass being walked, not the first."""
    passes = ctx.state.passes
    passes[:] = [1] * flow.counters
    yield from _node(flow, 0, ctx, passes)


def _node(flow: Flow, index: int, ctx: Ctx, passes: list[int]) -> Iterator[Step]:
    node = flow.nodes[index]
    if node.kind == "phase":
        yield Step(node.phase, passes[flow.age] if flow.age >= 0 else 1, passes[flow.round] if flow.round >= 0 else 1)
    elif node.kind == "sequence":
        for child in node.children:
            yield from _node(flow, child, ctx, passes)
    elif node.kind == "branch":
        value = _value(node.on, ctx)
        chosen = next((child for case, child in node.cases if case == value), node.otherwise)
        if chosen >= 0:
            yield from _node(flow, chosen, ctx, passes)
    else:
        times = _value(node.times, ctx) if node.times is not None else 1
        times = min(times, MAX_PASSES) if isinstance(times, int) else 1
        for number in range(1, times + 1):
            passes[node.counter] = number
            _reset_inner(flow, node.children, passes)
            yield from _node(flow, node.children[0], ctx, passes)
            if number < times and len(node.children) > 1:
                yield from _node(flow, node.children[1], ctx, passes)


def _reset_inner(flow: Flow, children: tuple[int, ...], passes: list[int]) -> None:
    stack = list(children)
    while stack:
        inner = flow.nodes[stack.pop()]
        if inner.kind == "repeat":
            passes[inner.counter] = 1
        stack.extend(inner.children)


def _value(expression: Any, ctx: Ctx) -> Any:
    try:
        return expression.fn(ctx)
    except AmunreError:
        return None
