"""The scoring table a page pauses on: each seat's score by source, for the latest scoring of
the game (an age's end, say) and, once the game is over, for the whole game.

A scoring is a run of a phase whose mechanic scores (`score`), and it covers every change of
the score resource since the scoring before it ended: the cards played for points just before
it count in it, as they do at the table. The numbers are the game's own change events summed
by cause (tools/ledger.py), the same that `amunre explain` prints, and those events are the
public play-by-play's, so a table tells a seat nothing its page does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...interpreter.mechanics.score import Score
from ...interpreter.model import Rules
from ...tools.ledger import ledger

PHASE_EVENTS = ("phase", "skip")


@dataclass(frozen=True)
class Scoring:
    """Where one scoring's changes lie in the events, and when it ran."""
    phase: str
    age: int
    round: int
    start: int           # the first event it covers (the end of the scoring before)
    end: int             # one past its last event


def scorings(rules: Rules, events: list[dict[str, Any]]) -> list[Scoring]:
    """Every scoring told so far, in order."""
    found: list[Scoring] = []
    running: dict[str, Any] | None = None
    for at, event in enumerate(events):
        if event.get("event") not in PHASE_EVENTS:
            continue
        if running is not None:
            found.append(Scoring(running["phase"], running["age"], running["round"],
                                 found[-1].end if found else 0, at))
            running = None
        if event["event"] == "phase" and isinstance(rules.phases.get(event["phase"]), Score):
            running = event
    if running is not None:          # the last phase of a game that is over
        found.append(Scoring(running["phase"], running["age"], running["round"],
                             found[-1].end if found else 0, len(events)))
    return found


START = "at the start"          # the set-up's amount, a row of the whole game's table


def _source(cause: dict[str, Any]) -> str:
    return START if cause["kind"] == "start" else cause["id"]


def table(rules: Rules, events: list[dict[str, Any]], players: int, title: str, key: str) -> dict[str, Any] | None:
    """Each seat's score by source over these events (None when none scored): a row per
    source, in the order they first scored, and each seat's total."""
    score = rules.winner.score
    rows: dict[str, list[int]] = {}
    for event in events:
        if event.get("event") == "gain" and event["resource"] == score:
            rows.setdefault(_source(event["cause"]), [0] * players)
    book = ledger(events)
    for seat in range(players):
        for line in book.sources(seat, score):
            rows[_source({"kind": line.kind, "id": line.id})][seat] += line.amount
    rows = {source: points for source, points in rows.items() if any(points)}
    if not rows:
        return None
    return {"key": key, "title": title, "resource": score,
            "rows": [{"source": source, "points": points} for source, points in rows.items()],
            "totals": [sum(points[seat] for points in rows.values()) for seat in range(players)]}


def latest(rules: Rules, events: list[dict[str, Any]], players: int, over: bool) -> dict[str, Any] | None:
    """The table a page shows: the whole game's once it is over, else the latest scoring's."""
    if over:
        return table(rules, events, players, f"The game's {rules.winner.score} by source", "game")
    found = scorings(rules, events)
    if not found:
        return None
    last = found[-1]
    return table(rules, events[last.start:last.end], players,
                 f"Scoring ({last.phase.replace('_', ' ')}), age {last.age}, round {last.round}",
                 f"{last.phase}-{last.age}-{last.round}-{last.end}")
