"""What a game's events say each seat got and from what: the change events of a log, summed.

Every change of a resource, of the tokens on a place or of a place's owner is a change event
with its cause (docs/log-format.md), and amounts start from nothing (the set-up's own events
give the starting amounts), so summing a log's change events rebuilds every seat's resources,
the board's tokens and the owners, with no rules file and no replay. `amunre explain` prints
a ledger; the tests check that it equals the final state of real games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Line:
    """What one cause gave one seat of one resource, in all: the sum and how many changes."""
    kind: str
    id: str
    at: str | None
    amount: int = 0
    times: int = 0


@dataclass
class Ledger:
    resources: dict[int, dict[str, int]] = field(default_factory=dict)     # seat -> resource -> amount
    lines: dict[int, dict[str, dict[tuple, Line]]] = field(default_factory=dict)   # seat -> resource -> cause
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)        # place -> token -> count
    owner: dict[str, int | None] = field(default_factory=dict)             # place -> seat (None: nobody)
    drawn: dict[int, dict[str, int]] = field(default_factory=dict)         # seat -> deck -> cards drawn

    def amount(self, seat: int, resource: str) -> int:
        return self.resources.get(seat, {}).get(resource, 0)

    def sources(self, seat: int, resource: str) -> list[Line]:
        """What gave the seat the resource, cause by cause: gains first, the largest first."""
        found = self.lines.get(seat, {}).get(resource, {}).values()
        return sorted(found, key=lambda line: (-line.amount, line.kind, line.id, line.at or ""))

    def by_source_id(self, seat: int, resource: str) -> dict[str, int]:
        """The amounts by cause id, as the state's `sources` keeps them (the set-up aside)."""
        out: dict[str, int] = {}
        for line in self.lines.get(seat, {}).get(resource, {}).values():
            if line.kind != "start":
                out[line.id] = out.get(line.id, 0) + line.amount
        return {k: v for k, v in out.items() if v}


def ledger(events: Iterable[dict[str, Any]]) -> Ledger:
    """Sum the change events; every other event is passed over."""
    book = Ledger()
    for event in events:
        kind = event.get("event")
        if kind == "gain":
            _gain(book, event)
        elif kind == "tokens":
            _tokens(book, event["place"], event["token"], event["amount"])
        elif kind == "convert":
            _tokens(book, event["place"], event["from"], -event["count"])
            _tokens(book, event["place"], event["to"], 1)
        elif kind == "owner":
            book.owner[event["place"]] = event["seat"]
        elif kind == "draw":
            decks = book.drawn.setdefault(event["seat"], {})
            decks[event["deck"]] = decks.get(event["deck"], 0) + event["count"]
    return book


def _gain(book: Ledger, event: dict[str, Any]) -> None:
    seat, resource, amount, cause = event["seat"], event["resource"], event["amount"], event["cause"]
    purse = book.resources.setdefault(seat, {})
    purse[resource] = purse.get(resource, 0) + amount
    key = (cause["kind"], cause["id"], cause.get("at"))
    lines = book.lines.setdefault(seat, {}).setdefault(resource, {})
    line = lines.get(key)
    if line is None:
        line = lines[key] = Line(*key)
    line.amount += amount
    line.times += 1


def _tokens(book: Ledger, place: str, token: str, amount: int) -> None:
    held = book.tokens.setdefault(place, {})
    held[token] = held.get(token, 0) + amount
