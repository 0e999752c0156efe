"""The static types of DSL values, and the rules for combining them.

Types are checked once, when a rules file is loaded, so that comparing a property with a value
of another property's enum, or `players + WORD` (a word is not a number), is a located error instead of a
condition that is silently always false or a crash in the middle of a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    kind: str                                  # number, boolean, text, place, seat, row, list, any
    enum: str | None = None                    # text: the property or option whose values it takes
    words: frozenset[str] = frozenset()        # a bare word: the enums it is a value of
    item: Type | None = None                   # list: the type of its elements
    table: str | None = None                   # row: the table it is a row of

    def __str__(self) -> str:
        if self.kind == "list":
            return f"a list of {self.item.kind}s" if self.item else "a list"
        if self.enum:
            return f"a {self.enum.split('.')[-1]} value"
        if self.words:
            return _words(self)
        if self.kind == "row":
            return f"a row of {self.table}"
        return {"number": "a number", "boolean": "true or false", "text": "a text", "place": "a place",
                "seat": "a seat", "any": "a value"}[self.kind]


NUM = Type("number")
BOOL = Type("boolean")
TEXT = Type("text")
PLACE = Type("place")
SEAT = Type("seat")
ANY = Type("any")            # the type of something already reported as wrong: accepted anywhere


def list_of(item: Type) -> Type:
    return Type("list", item=item)


PLACES = list_of(PLACE)
SEATS = list_of(SEAT)


def enum(name: str) -> Type:
    return Type("text", enum=name)


def word(enums: frozenset[str]) -> Type:
    return Type("text", words=enums)


def row(table: str) -> Type:
    return Type("row", table=table)


def is_a(actual: Type, wanted: Type) -> bool:
    """Whether a value of `actual` may stand where `wanted` is expected."""
    if ANY in (actual, wanted):
        return True
    if wanted.kind == "list" and actual.kind == "list":
        return wanted.item is None or actual.item is None or is_a(actual.item, wanted.item)
    return actual.kind == wanted.kind


def is_collection(t: Type) -> bool:
    return t.kind in ("list", "any")


def element(t: Type) -> Type:
    """The type of the elements of a collection type."""
    return t.item if t.kind == "list" and t.item is not None else ANY


def equality_problem(left: Type, right: Type) -> str | None:
    """Why `left == right` can never hold, or None when the comparison makes sense."""
    if ANY in (left, right):
        return None
    if left.kind != right.kind:
        return f"cannot compare {left} with {right}"
    if left.kind != "text":
        return None
    for a, b in ((left, right), (right, left)):
        if a.enum and b.enum and a.enum != b.enum:
            return f"cannot compare {a} with {b}: their values never meet"
        if a.enum and b.words and a.enum not in b.words:
            return f"{_words(b)} is not {a}"
    if left.words and right.words and not left.words & right.words:
        return "these two words are values of different things and are never equal"
    return None


def _words(t: Type) -> str:
    owners = sorted(e.split(".")[-1] for e in t.words)
    return f"a {' or '.join(owners)} value"
