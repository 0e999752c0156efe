"""What a tool asks of a phase beyond the engine's contract, kept by the tool that asks it.

The engine drives a mechanic through its contract (interpreter/mechanics/base.py: the rules
and what a seat may observe). A tool that needs more of a phase keeps a registry of its own,
by mechanic class: one small function per class that has something to say, reading the
mechanic's public attributes. A class with no entry has nothing to say (the tool's default):

- the lint's deck check: `DECK_FLOWS` (tools/lint_decks.py), the cards a phase moves whatever
  the players decide;
- determinization: `HIDDEN_CARDS`, `SEEN_CARDS`, `RESAMPLE` (tools/determinize.py), what a
  phase keeps secret and how a guess draws it anew;
- the agents: `FORECASTS`, `FORECASTS_ALL` (tools/agents/forecast.py), what a phase would
  give a seat if it ran now; `KEEPS_SECRET` (tools/agents/heuristic.py), whether a phase
  that can keep a secret keeps one now;
- simulate: `PICKED_KEYS`, `POSSIBLE_PICKS` (tools/simulate/picks.py), what a phase keeps that
  counts as a pick, and every pick it could keep;
- the bound on a game's length: `MOST_DECISIONS`, `MOST_DRAWN` (tools/game_length.py), the most
  decisions one run of a phase takes and the most sellable cards it puts in hands.

An entry serves its class and the classes derived from it, as a method would, unless one of
those has an entry of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


def entry(registry: Mapping[type, T], mech: object) -> T | None:
    """The registry's entry for the mechanic's class, or for the nearest class it derives from."""
    for cls in type(mech).__mro__:
        found = registry.get(cls)
        if found is not None:
            return found
    return None
