"""Why the material changed: the cause each change carries into the state's sources and the log.

A `Cause` is made once, when the rules are built, for every rule that changes the material: a
card's effect, selling a card, a phase's price, effect, reward, income or award, an automatic
conversion, the set-up. Callers hand it to `material.py`, which records what a change gave
under the cause's `id` in the seat's `sources` and, only while the game keeps its log, writes
a change event with the cause as plain data (`{"kind", "id", "at"}`), so that a log explains
every amount and simulations without a log pay nothing for it. docs/log-format.md lists the
kinds; a new mechanic makes its causes in its `__init__` with `build.cause(kind, *path)`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .errors import Span

# The kinds of cause, each a kind of rule (docs/log-format.md says which rules make each).
KINDS = ("start", "card", "sale", "price", "purchase", "on_win", "offer", "steal", "reward",
         "income", "score", "deal", "reset", "conversion", "move", "turn", "choice", "take", "reveal",
         "transition", "lay")


@dataclass(frozen=True)
class Cause:
    kind: str                 # one of KINDS: what sort of rule
    id: str                   # which one: a card, a phase, an award...; the key of `state.sources`
    at: str | None = None     # where the rules file writes it: FILE:LINE:COL

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "id": self.id}
        if self.at is not None:
            out["at"] = self.at
        return out


def position(span: Span | None) -> str | None:
    """A span as FILE:LINE:COL, the file relative to the working directory when it lies below it
    (a shipped rules file keeps its full path)."""
    if span is None:
        return None
    path = span.file
    if os.path.isabs(path):
        try:
            relative = os.path.relpath(path)
        except ValueError:            # another drive
            relative = path
        if not relative.startswith(".."):
            path = relative
    return f"{path}:{span.line}:{span.col}"
