"""The play-by-play's account of change events: what a card, an effect, a sale or a steal gave.

A story event (a card played, a lot won) opens a line; the change events that follow it, each
with its cause (docs/log-format.md), are told at the end of that line, grouped by cause:
`Seat 2 wins PLACE for 0 COIN: owns PLACE, draws 2 CARD, +12 COIN (on_win: auction)`.
Changes whose amounts the story line already states (the price of a lot won, the income
collected, the points scored) are not told twice; changes no story line owns (a steal's gain,
a conversion, the set-up, a deal) get a line of their own. Nothing here knows a game: words
come from the events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape

CHANGES = frozenset({"gain", "draw", "tokens", "convert", "owner", "modifier", "start_player"})

# Changes a story line states itself, by (change event, cause kind): how many (None: all).
TOLD: dict[str, dict[tuple[str, str], int | None]] = {
    "won": {("gain", "price"): 1},
    "buy": {("gain", "price"): 1, ("draw", "purchase"): 1},
    "place": {("tokens", "purchase"): 1},
    "reward": {("draw", "reward"): 1, ("tokens", "reward"): 1},
    "income": {("gain", "income"): 1},
    "score": {("gain", "score"): 1},
    "reveal": {("gain", "offer"): None},
    "reset": {("tokens", "reset"): None, ("owner", "reset"): None},
}
# Story lines whose own cause needs no naming after their changes: a card's play, its sale.
OWN_CAUSE = {"play": ("card", "card"), "adjust": ("card", "card"), "sell": ("sale", "card"), "move": ("move", "move")}


def esc(value: Any) -> str:
    return escape(str(value))


def cause_label(cause: Any) -> str:
    if not isinstance(cause, dict):
        return ""
    return f"{esc(cause.get('kind', '?'))}: {esc(cause.get('id', '?'))}"


def change_text(e: dict[str, Any], seat_markup: Callable[[Any], str], owner: int | None = None) -> str:
    """A change in a few words (markup); the seat it concerns is named unless it is `owner`,
    the seat of the line it is told on."""
    kind = e.get("event")
    seat = e.get("seat")
    who = "" if seat == owner or not isinstance(seat, int) else seat_markup(seat) + " "
    if kind == "gain":
        amount = e.get("amount", 0)
        other = (f" from {seat_markup(e['from'])}" if isinstance(e.get("from"), int) else
                 f" to {seat_markup(e['to'])}" if isinstance(e.get("to"), int) else "")
        sign = f"+{amount}" if isinstance(amount, int) and amount > 0 else str(amount)
        return f"{who}{esc(sign)} {esc(e.get('resource'))}{other}"
    if kind == "draw":
        return f"{who}draws {_drawn(e)}"
    if kind == "tokens":
        amount = e.get("amount", 0)
        if isinstance(amount, int) and amount < 0:
            return f"-{-amount} {esc(e.get('token'))} from {esc(e.get('place'))}"
        return f"+{esc(amount)} {esc(e.get('token'))} on {esc(e.get('place'))}"
    if kind == "convert":
        return (f"[yellow]{esc(e.get('count'))} {esc(e.get('from'))} on {esc(e.get('place'))} "
                f"become a {esc(e.get('to'))}[/]")
    if kind == "owner":
        if not isinstance(seat, int):
            return f"{esc(e.get('place'))} has no owner"
        return f"{who}owns {esc(e.get('place'))}"
    if kind == "modifier":
        of = e.get("place") if "place" in e else seat_markup(seat) if isinstance(seat, int) else None
        target = "" if of is None else " of " + (of if "place" not in e else esc(of))
        return f"{esc(e.get('modifier'))}{target} = {esc(e.get('value'))}"
    if kind == "start_player":
        return f"start player: {seat_markup(seat)}"
    return esc(kind)


def start_text(e: dict[str, Any]) -> str:
    """What the set-up gave a seat, as it reads after `Seat N starts with`."""
    kind = e.get("event")
    if kind == "gain":
        return f"{esc(e.get('amount'))} {esc(e.get('resource'))}"
    if kind == "draw":
        return _drawn(e)
    if kind == "owner":
        return f"{esc(e.get('place'))}"
    return esc(kind)


def _drawn(e: dict[str, Any]) -> str:
    """A draw event's cards by name where the reader may see them, else only how many of which deck."""
    cards = e.get("cards")
    if isinstance(cards, list):
        return ", ".join(esc(c) for c in cards)
    return f"{esc(e.get('count'))} {esc(e.get('deck'))}"


@dataclass
class Story:
    """A line being written: a story event's text, then the changes it caused, by cause."""
    kind: str                       # the story event's type (or "start", "deal": a seat's set-up, a deal)
    seat: int | None
    text: str
    card: Any = None                # the card a play, an adjustment or a sale is of
    told: dict[tuple[str, str], int | None] = field(default_factory=dict)
    groups: list[tuple[str, list[str]]] = field(default_factory=list)

    def hides(self, e: dict[str, Any], cause_kind: str) -> bool:
        """Whether the story line already states this change (and counts it as stated)."""
        key = (str(e.get("event")), cause_kind)
        if key not in self.told:
            return False
        left = self.told[key]
        if left is not None:
            if left <= 0:
                return False
            self.told[key] = left - 1
        return True

    def add(self, label: str, text: str) -> None:
        if self.groups and self.groups[-1][0] == label:
            self.groups[-1][1].append(text)
        else:
            self.groups.append((label, [text]))

    def accepts(self, cause: Any) -> bool:
        """Whether a change is told on this line: a card's line tells what the card did (and
        the conversions that follow); a line of a phase's, whatever follows it."""
        if self.kind not in OWN_CAUSE:
            return True
        return self.own_label(cause) or (isinstance(cause, dict) and cause.get("kind") == "conversion")

    def own_label(self, cause: Any) -> bool:
        """Whether the cause is the story's own (a card's effect after its play), unnamed."""
        expected = OWN_CAUSE.get(self.kind)
        if expected is None or not isinstance(cause, dict) or cause.get("kind") != expected[0]:
            return False
        return cause.get("id") in (self.card, f"sold {self.card}")

    def markup(self) -> str:
        if not self.groups:
            return self.text
        parts = [", ".join(texts) + (f" [dim]({label})[/]" if label else "") for label, texts in self.groups]
        joiner = " " if self.kind in ("start", "deal") else ": "
        return self.text + joiner + "; ".join(parts)
