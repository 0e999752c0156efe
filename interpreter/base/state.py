"""The mutable position of one game: plain data only, so it serialises, clones and compares.

Everything a game needs to go on lives here, including the random generator's state, so
`from_json(to_json())` continues the very same game. What happened before (the actions and
the readable events) is the Game's, not the position's: copying or observing a position
never copies its past. Places and seats are indexed by position (the rules file's order of
places; seat 0..players-1); cards and tokens by their rules-file ids.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field, fields
from typing import Any


def plain_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars), much faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    return value


def nested_copy(working: Any, kept: Any) -> tuple[Any, Any]:
    """Copies of the running phase's working data and of what phases keep, for `clone`: the
    agents clone the game for every action they try, and `plain_copy`'s call per container
    and per value was a quarter of a clone (issue 23). `marshal` copies the same plain data in
    one C call, in half the time. Format 2 keeps no references, so two places sharing one list
    get a list each, as `plain_copy` gives them; data marshal cannot hold goes through
    `plain_copy`. What phases keep may be a dict of a kind of its own (a study counts the picks
    as they are kept: tools/simulate/playing.py), which marshal cannot hold: its copy is a
    plain dict, as `plain_copy` makes it, so it is handed over as one (every clone of a study's
    game went the slow way)."""
    try:
        plain = dict(kept) if isinstance(kept, dict) and type(kept) is not dict else kept
        copied: tuple[Any, Any] = marshal.loads(marshal.dumps((working, plain), 2))
    except ValueError:
        return plain_copy(working), plain_copy(kept)
    return copied


@dataclass
class GameState:
    players: int
    seed: int
    rng: int
    options: dict[str, Any]
    resources: list[dict[str, int]]          # per seat: gold, points, ...
    sources: list[dict[str, dict[str, int]]]  # per seat, per resource: what each source gave
    hands: list[list[str]]                   # per seat: card ids held
    decks: dict[str, list[str]]              # draw piles, top card first
    discards: dict[str, list[str]]           # discard piles, newest last
    boxed: dict[str, list[str]]              # cards set aside for the whole game
    owner: list[int]                         # per place: owning seat, -1 when unowned
    tokens: list[dict[str, int]]             # per place: token counts
    supply: dict[str, int]                   # per token supply kind: pieces not on the board
    start_player: int
    step: int = 0                            # how many phases of the flow are done (skipped ones too)
    at: int = 0                              # the cursor in the flow: the leaf (phase) now running...
    passes: list[int] = field(default_factory=list)   # ...and the pass of each repeat (play/cursor.py)
    # The running mechanic's working data: a dict of plain data whose shape is that mechanic's own (so
    # typed Any here); None while no phase has begun.
    working: Any = None
    kept: dict[str, dict[str, Any]] = field(default_factory=dict)   # what phases keep after they end
    mods: dict[str, list[Any]] = field(default_factory=dict)        # modifier -> value per seat/place
    played: dict[str, list[list[str]]] = field(default_factory=dict)  # lifetime -> per seat: kinds played
    held: dict[str, list[list[int]]] = field(default_factory=dict)    # resource -> per seat: its cards (as cards)
    to_move: int | None = None
    over: bool = False
    shown: dict[str, list[str]] = field(default_factory=dict)        # face-up cards beside a deck

    def to_json(self) -> dict[str, Any]:
        """A JSON-able copy (nothing shared with the live state). Fields added after the save
        format was fixed are left out while empty, so a save of a game without them is unchanged."""
        return {f.name: plain_copy(getattr(self, f.name)) for f in fields(self)
                if f.name not in LATER_FIELDS or getattr(self, f.name)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(**plain_copy(data))

    def clone(self) -> GameState:
        """A fast deep copy for lookahead: only containers that the engine mutates are copied."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.resources = [dict(r) for r in self.resources]
        new.sources = [{k: dict(v) for k, v in s.items()} for s in self.sources]
        new.hands = [list(h) for h in self.hands]
        new.decks = {k: list(v) for k, v in self.decks.items()}
        new.discards = {k: list(v) for k, v in self.discards.items()}
        new.boxed = {k: list(v) for k, v in self.boxed.items()}
        new.owner = list(self.owner)
        new.tokens = [dict(t) for t in self.tokens]
        new.supply = dict(self.supply)
        new.working, new.kept = nested_copy(self.working, self.kept)
        new.passes = list(self.passes)
        new.mods = {k: list(v) for k, v in self.mods.items()}
        new.played = {k: [list(p) for p in v] for k, v in self.played.items()}
        new.shown = {k: list(v) for k, v in self.shown.items()}
        if self.held:
            new.held = {k: [list(h) for h in v] for k, v in self.held.items()}
        return new


LATER_FIELDS = ("shown", "held")
