"""Every builtin of the DSL in one registry: the game values (`players`, `others`, `my`...) and
the functions (`count`, `sum`, `min`...), each with its type and a line of documentation.

Adding a builtin is one entry here: the checker resolves names and picks a function's form
by the types of its arguments from these tables, and the reference docs list them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .types import BOOL, NUM, SEAT, SEATS, Type


@dataclass(frozen=True)
class Value:
    """A name every rules file has: its type, whether a seat must be acting, how to read it."""
    type: Type
    doc: str
    read: Callable[[Any], Any]                 # ctx -> value
    needs_seat: bool = False
    settable: bool = False                     # `set NAME = ...` changes it


def _others(ctx: Any) -> list[int]:
    n = ctx.state.players
    return [(ctx.seat + i) % n for i in range(1, n)]


VALUES: dict[str, Value] = {
    "players": Value(NUM, "the number of players", lambda ctx: ctx.state.players),
    "seats": Value(SEATS, "every seat, from the first", lambda ctx: list(range(ctx.state.players))),
    "others": Value(SEATS, "every seat but the acting one, from the next in clockwise order",
                    _others, needs_seat=True),
    "me": Value(SEAT, "the acting seat", lambda ctx: ctx.seat, needs_seat=True),
    "my": Value(SEAT, "the acting seat, as in `my.cards`", lambda ctx: ctx.seat, needs_seat=True),
    "start_player": Value(SEAT, "the start player (`set start_player = SEAT` changes it)",
                          lambda ctx: ctx.state.start_player, settable=True),
    "next_player": Value(SEAT, "the seat clockwise after the start player (`set start_player = next_player` "
                         "passes the start on)", lambda ctx: (ctx.state.start_player + 1) % ctx.state.players),
    "age": Value(NUM, "the age (1, 2, ...) of the step now running", lambda ctx: ctx.game.step.age),
    "round": Value(NUM, "the round (1, 2, ...) of the step now running", lambda ctx: ctx.game.step.round),
}


@dataclass(frozen=True)
class Aggregate:
    """`f(collection[, value])`: `value` is evaluated for each element (as `it`)."""
    value: Type | None                         # the per-element value's type; None: no value
    result: Type
    fold: Callable[[list], Any]                # the per-element values (or the elements) -> result


@dataclass(frozen=True)
class Scalar:
    """`f(a, b, ...)`: plain arguments, each of `arg` type; at least `least` of them."""
    arg: Type
    result: Type
    apply: Callable[..., Any]
    least: int = 1


@dataclass(frozen=True)
class Function:
    doc: str
    aggregate: Aggregate | None = None
    scalar: Scalar | None = None

    @property
    def usage(self) -> str:
        forms = []
        if self.aggregate is not None:
            forms.append("(collection)" if self.aggregate.value is None else "(collection, value)")
        if self.scalar is not None:
            forms.append("(number, number, ...)" if self.scalar.least > 1 else "(number)")
        return " or ".join(forms)


FUNCTIONS: dict[str, Function] = {
    "count": Function("how many elements", aggregate=Aggregate(None, NUM, len)),
    "sum": Function("the sum of the value over the elements", aggregate=Aggregate(NUM, NUM, sum)),
    "min": Function("the least value over the elements (0 if there are none), or the least number",
                    aggregate=Aggregate(NUM, NUM, lambda xs: min(xs, default=0)),
                    scalar=Scalar(NUM, NUM, min, least=2)),
    "max": Function("the greatest value over the elements (0 if there are none), or the greatest number",
                    aggregate=Aggregate(NUM, NUM, lambda xs: max(xs, default=0)),
                    scalar=Scalar(NUM, NUM, max, least=2)),
    "all": Function("whether the condition holds for every element (true if there are none)",
                    aggregate=Aggregate(BOOL, BOOL, all)),
    "any": Function("whether the condition holds for some element", aggregate=Aggregate(BOOL, BOOL, any)),
    "abs": Function("the number without its sign", scalar=Scalar(NUM, NUM, abs)),
}

# Words of the grammar: no rules-file id or bound name may take one of these.
KEYWORDS = frozenset({
    "per", "in", "for", "take", "from", "give", "to", "draw", "place", "remove", "move", "convert",
    "claim", "release", "choose", "require", "set", "add", "of", "if", "then", "else", "each",
    "when", "or", "and", "not", "where",
})

RESERVED = KEYWORDS | frozenset(VALUES) | frozenset(FUNCTIONS) | {"it", "option"}
