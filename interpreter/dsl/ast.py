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


@dataclass(frozen=True, kw_only=True)
class Node:
    span: Span = _span()


@dataclass(frozen=True, kw_only=True)
class Ident(Node):
    """A name written in the text (a resource, token, deck, a bound name)."""
    name: str


# ---- expressions ----------------------------------------------------------------------------

class Expr(Node):
    """Anything that has a value."""


@dataclass(frozen=True, kw_only=True)
class Number(Expr):
    value: int


@dataclass(frozen=True, kw_only=True)
class Text(Expr):
    value: str


@dataclass(frozen=True, kw_only=True)
class ListOf(Expr):
    items: tuple[Expr, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Name(Expr):
    """A dotted name: `players`, `my.cards`, `it.owner.cards`, `PHASE.tile.COLUMN`."""
    parts: tuple[Ident, ...]

    @property
    def dotted(self) -> str:
        return ".".join(p.name for p in self.parts)


@dataclass(frozen=True, kw_only=True)
class Where(Expr):
    """A collection filtered by a condition on each element: `PLACES where owned`."""
    base: Expr
    cond: Expr


@dataclass(frozen=True, kw_only=True)
class Call(Expr):
    """A builtin function: `count(c)`, `sum(c, value)`, `min(3, my.cards)`."""
    func: Ident
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Unary(Expr):
    op: str                 # "-" or "not"
    operand: Expr


@dataclass(frozen=True, kw_only=True)
class Binary(Expr):
    op: str                 # + - * // / == != < <= > >= and or
    left: Expr
    right: Expr


@dataclass(frozen=True, kw_only=True)
class When(Expr):
    """`value when cond [else otherwise]`: the value if the condition holds, else `otherwise`
    (0 when none is written)."""
    value: Expr
    cond: Expr
    otherwise: Expr | None = None


# ---- statements -----------------------------------------------------------------------------

class Stmt(Node):
    """Something an effect does."""


@dataclass(frozen=True, kw_only=True)
class Gain(Stmt):
    """`+N RES [per ATTR in PLACES] [for SEAT]`; `-N ...` loses."""
    sign: str = "+"
    amount: Expr
    resource: Ident
    per: Ident | None = None
    per_in: Expr | None = None
    seat: Expr | None = None


@dataclass(frozen=True, kw_only=True)
class Take(Stmt):
    """`take N RES from SEAT`: up to N of the seat's resource go to the acting seat."""
    amount: Expr
    resource: Ident
    seat: Expr


@dataclass(frozen=True, kw_only=True)
class Give(Stmt):
    """`give N RES to SEAT`: up to N of the acting seat's resource go to the seat."""
    amount: Expr
    resource: Ident
    seat: Expr


@dataclass(frozen=True, kw_only=True)
class Draw(Stmt):
    count: Expr
    deck: Ident
    seat: Expr | None = None


@dataclass(frozen=True, kw_only=True)
class PlaceTokens(Stmt):
    """`place N TOKEN in PLACE`, from the supply."""
    count: Expr
    token: Ident
    place: Expr


@dataclass(frozen=True, kw_only=True)
class RemoveTokens(Stmt):
    """`remove N TOKEN from PLACE`, back to the supply."""
    count: Expr
    token: Ident
    place: Expr


@dataclass(frozen=True, kw_only=True)
class MoveTokens(Stmt):
    """`move N TOKEN from PLACE to PLACE`."""
    count: Expr
    token: Ident
    source: Expr
    target: Expr


@dataclass(frozen=True, kw_only=True)
class Convert(Stmt):
    count: Expr
    source: Ident
    target: Ident
    place: Expr


@dataclass(frozen=True, kw_only=True)
class Claim(Stmt):
    """`claim PLACE [for SEAT]`: the seat becomes the place's owner."""
    place: Expr
    seat: Expr | None = None


@dataclass(frozen=True, kw_only=True)
class Release(Stmt):
    """`release PLACE`: the place has no owner any more."""
    place: Expr


@dataclass(frozen=True, kw_only=True)
class Choose(Stmt):
    """`choose NAME from COLLECTION`: the player's pick, part of the action."""
    name: Ident
    options: Expr


@dataclass(frozen=True, kw_only=True)
class Require(Stmt):
    cond: Expr


@dataclass(frozen=True, kw_only=True)
class Target(Node):
    """What `set` and `add` change: a modifier or a game value, maybe `of` a place or seat."""
    name: Name
    of: Expr | None = None


@dataclass(frozen=True, kw_only=True)
class SetValue(Stmt):
    target: Target
    value: Expr


@dataclass(frozen=True, kw_only=True)
class AddValue(Stmt):
    value: Expr
    target: Target


@dataclass(frozen=True, kw_only=True)
class Block(Stmt):
    body: tuple[Stmt, ...] = ()


@dataclass(frozen=True, kw_only=True)
class If(Stmt):
    cond: Expr
    then: Stmt
    otherwise: Stmt | None = None


@dataclass(frozen=True, kw_only=True)
class Each(Stmt):
    """`each NAME in COLLECTION: STMT`: the statement once per element, NAME bound to it."""
    name: Ident
    options: Expr
    body: Stmt


@dataclass(frozen=True, kw_only=True)
class Effect(Node):
    """A whole effect string: its statements in order."""
    body: tuple[Stmt, ...] = ()
