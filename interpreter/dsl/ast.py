"""The typed intermediate form of the DSL: one small frozen class per construct, each with the
span of source text it came from.

The parse tree says how the text was written; these nodes say what it means, so every later
pass (name resolution and type checks, compilation to closures, canonical printing for
`fmt` and the semantic diff of editions) walks one small, documented set of classes. Spans
are character offsets into the DSL string and take no part in equality: two nodes are equal
when they say the same thing, wherever they were written.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """Offsets [start, end) of a node's text inside its DSL string."""
    start: int
    end: int


NOWHERE = Span(0, 0)


def _span() -> Span:
    return field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Node:
    span: Span = _span()


@dataclass(frozen=True)
class Ident(Node):
    """A name written in the text (a resource, token, deck, a bound name)."""
    name: str = ""


# ---- expressions ----------------------------------------------------------------------------

class Expr(Node):
    """Anything that has a value."""


@dataclass(frozen=True)
class Number(Expr):
    value: int = 0


@dataclass(frozen=True)
class Text(Expr):
    value: str = ""


@dataclass(frozen=True)
class ListOf(Expr):
    items: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Name(Expr):
    """A dotted name: `players`, `my.cards`, `it.owner.cards`, `PHASE.tile.COLUMN`."""
    parts: tuple[Ident, ...] = ()

    @property
    def dotted(self) -> str:
        return ".".join(p.name for p in self.parts)


@dataclass(frozen=True)
class Where(Expr):
    """A collection filtered by a condition on each element: `PLACES where owned`."""
    base: Expr = None  # type: ignore[assignment]
    cond: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Call(Expr):
    """A builtin function: `count(c)`, `sum(c, value)`, `min(3, my.cards)`."""
    func: Ident = None  # type: ignore[assignment]
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Unary(Expr):
    op: str = ""            # "-" or "not"
    operand: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Binary(Expr):
    op: str = ""            # + - * // / == != < <= > >= and or
    left: Expr = None  # type: ignore[assignment]
    right: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class When(Expr):
    """`value when cond`: the value if the condition holds, else 0."""
    value: Expr = None  # type: ignore[assignment]
    cond: Expr = None  # type: ignore[assignment]


# ---- statements -----------------------------------------------------------------------------

class Stmt(Node):
    """Something an effect does."""


@dataclass(frozen=True)
class Gain(Stmt):
    """`+N RES [per ATTR in PLACES] [for SEAT]`; `-N ...` loses."""
    sign: str = "+"
    amount: Expr = None  # type: ignore[assignment]
    resource: Ident = None  # type: ignore[assignment]
    per: Ident | None = None
    per_in: Expr | None = None
    seat: Expr | None = None


@dataclass(frozen=True)
class Take(Stmt):
    """`take N RES from SEAT`: up to N of the seat's resource go to the acting seat."""
    amount: Expr = None  # type: ignore[assignment]
    resource: Ident = None  # type: ignore[assignment]
    seat: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Give(Stmt):
    """`give N RES to SEAT`: up to N of the acting seat's resource go to the seat."""
    amount: Expr = None  # type: ignore[assignment]
    resource: Ident = None  # type: ignore[assignment]
    seat: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Draw(Stmt):
    count: Expr = None  # type: ignore[assignment]
    deck: Ident = None  # type: ignore[assignment]
    seat: Expr | None = None


@dataclass(frozen=True)
class PlaceTokens(Stmt):
    """`place N TOKEN in PLACE`, from the supply."""
    count: Expr = None  # type: ignore[assignment]
    token: Ident = None  # type: ignore[assignment]
    place: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class RemoveTokens(Stmt):
    """`remove N TOKEN from PLACE`, back to the supply."""
    count: Expr = None  # type: ignore[assignment]
    token: Ident = None  # type: ignore[assignment]
    place: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class MoveTokens(Stmt):
    """`move N TOKEN from PLACE to PLACE`."""
    count: Expr = None  # type: ignore[assignment]
    token: Ident = None  # type: ignore[assignment]
    source: Expr = None  # type: ignore[assignment]
    target: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Convert(Stmt):
    count: Expr = None  # type: ignore[assignment]
    source: Ident = None  # type: ignore[assignment]
    target: Ident = None  # type: ignore[assignment]
    place: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Claim(Stmt):
    """`claim PLACE [for SEAT]`: the seat becomes the place's owner."""
    place: Expr = None  # type: ignore[assignment]
    seat: Expr | None = None


@dataclass(frozen=True)
class Release(Stmt):
    """`release PLACE`: the place has no owner any more."""
    place: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Choose(Stmt):
    """`choose NAME from COLLECTION`: the player's pick, part of the action."""
    name: Ident = None  # type: ignore[assignment]
    options: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Require(Stmt):
    cond: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Target(Node):
    """What `set` and `add` change: a modifier or a game value, maybe `of` a place or seat."""
    name: Name = None  # type: ignore[assignment]
    of: Expr | None = None


@dataclass(frozen=True)
class SetValue(Stmt):
    target: Target = None  # type: ignore[assignment]
    value: Expr = None  # type: ignore[assignment]


@dataclass(frozen=True)
class AddValue(Stmt):
    value: Expr = None  # type: ignore[assignment]
    target: Target = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Block(Stmt):
    body: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class If(Stmt):
    cond: Expr = None  # type: ignore[assignment]
    then: Stmt = None  # type: ignore[assignment]
    otherwise: Stmt | None = None


@dataclass(frozen=True)
class Each(Stmt):
    """`each NAME in COLLECTION: STMT`: the statement once per element, NAME bound to it."""
    name: Ident = None  # type: ignore[assignment]
    options: Expr = None  # type: ignore[assignment]
    body: Stmt = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Effect(Node):
    """A whole effect string: its statements in order."""
    body: tuple[Stmt, ...] = ()
