"""The mutable state of one game: plain data only, so it serialises, clones and compares.

Everything a game needs to go on lives here, including the random generator's state, so
`from_json(to_json())` continues the very same game. Places and seats are indexed by position
(the rules file's order of places; seat 0..players-1); cards and tokens by their rules-file ids.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass
class GameState:
    players: int
    seed: int
    rng: int
    options: dict[str, Any]
    resources: list[dict[str, int]]          # per seat: gold, vp, ...
    vp_sources: list[dict[str, int]]         # per seat: where each resource gain came from
    hands: list[list[str]]                   # per seat: card ids held
    decks: dict[str, list[str]]              # draw piles, top card first
    discards: dict[str, list[str]]           # discard piles, newest last
    boxed: dict[str, list[str]]              # cards set aside for the whole game
    owner: list[int]                         # per place: owning seat, -1 when unowned
    tokens: list[dict[str, int]]             # per place: token counts
    supply: dict[str, int]                   # per token supply kind: pieces not on the board
    start_player: int
    step: int = 0                            # index into the rules' flattened schedule
    phase: dict[str, Any] = field(default_factory=dict)   # the running mechanic's working data
    lots: list[int] = field(default_factory=list)         # places revealed for this round
    tile: str | None = None                  # id of the current tile (offering result)
    mods: dict[str, dict[str, Any]] = field(default_factory=dict)  # modifier -> scope key -> value
    played: list[list[str]] = field(default_factory=list)  # per seat: card ids played this phase
    to_move: int | None = None
    over: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)  # every action applied, in order
    log: list[dict[str, Any]] = field(default_factory=list)      # readable events, in order

    def to_json(self) -> dict[str, Any]:
        """A JSON-able copy (nothing shared with the live state)."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(**copy.deepcopy(data))

    def clone(self) -> GameState:
        """A fast deep copy for lookahead: only containers that the engine mutates are copied."""
        new = copy.copy(self)
        new.resources = [dict(r) for r in self.resources]
        new.vp_sources = [dict(r) for r in self.vp_sources]
        new.hands = [list(h) for h in self.hands]
        new.decks = {k: list(v) for k, v in self.decks.items()}
        new.discards = {k: list(v) for k, v in self.discards.items()}
        new.boxed = {k: list(v) for k, v in self.boxed.items()}
        new.owner = list(self.owner)
        new.tokens = [dict(t) for t in self.tokens]
        new.supply = dict(self.supply)
        new.phase = copy.deepcopy(self.phase)
        new.lots = list(self.lots)
        new.mods = {k: dict(v) for k, v in self.mods.items()}
        new.played = [list(p) for p in self.played]
        new.history = list(self.history)
        new.log = list(self.log)
        return new
