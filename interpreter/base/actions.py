"""The integer action space of a rules file: every action any seat could ever take, numbered.

Each mechanic (and the card layer) declares its kinds of action as blocks: an action type,
fields with one fixed value (`card: X`) and fields that range over a finite domain
(`space` over the bid spaces, `at` over the places). A block is a range of consecutive ids,
one per combination of its fields, so an id encodes an action the way OpenSpiel's games do,
and `num_distinct_actions()` is fixed by the rules file alone.

Blocks are numbered by rank (a seat's decisions, then card plays, then the action that
closes a turn, then the standing actions such as selling), then in the order they are declared; within a block the first
field varies slowest. Mechanics enumerate their legal actions in that same order, so the
sorted legal ids and the legal action dicts list the actions alike.

Most ids mean the same action everywhere. A mechanic may use a slot domain (`lot` is "the
k-th lot revealed", as a card game's "the card in hand slot k"): such an id is read against
the position it is taken in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .state import GameState

DECIDE, PLAY, CLOSE, STANDING = range(4)    # block ranks (standing actions: selling cards, say)


class _Places(Protocol):
    @property
    def place_ids(self) -> tuple[str, ...]: ...

    @property
    def place_index(self) -> dict[str, int]: ...


class Position(Protocol):
    """What the action space reads of a game to name an action: its places and its position."""

    @property
    def rules(self) -> _Places: ...

    @property
    def state(self) -> GameState: ...


class Domain:
    """The values one field of an action can take, and their order."""
    fixed_meaning = True       # an index means the same value in every position

    @property
    def size(self) -> int:
        raise NotImplementedError

    def index(self, value: Any, game: Position) -> int | None:
        raise NotImplementedError

    def value(self, index: int, game: Position | None) -> Any:
        """The value of an index in this position (any position, for a domain of fixed meaning: None)."""
        raise NotImplementedError

    def key(self) -> tuple:
        """What makes two domains the same (blocks with equal fields are one block)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Values(Domain):
    """Fixed values, in order: numbers, card ids, choice values."""
    values: tuple[Any, ...]
    lookup: dict[Any, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.lookup.update({value_key(v): i for i, v in enumerate(self.values)})

    @property
    def size(self) -> int:
        return len(self.values)

    def index(self, value: Any, game: Position) -> int | None:
        return self.lookup.get(value_key(value))

    def value(self, index: int, game: Position | None) -> Any:
        return self.values[index]

    def key(self) -> tuple:
        return ("values", self.values)


@dataclass(frozen=True)
class Count(Domain):
    """The whole numbers 0..most."""
    most: int

    @property
    def size(self) -> int:
        return self.most + 1

    def index(self, value: Any, game: Position) -> int | None:
        ok = type(value) is int and 0 <= value <= self.most
        return value if ok else None

    def value(self, index: int, game: Position | None) -> Any:
        return index

    def key(self) -> tuple:
        return ("count", self.most)


@dataclass(frozen=True)
class Places(Domain):
    """A place, written by its id."""
    ids: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ids)

    def index(self, value: Any, game: Position) -> int | None:
        return game.rules.place_index.get(value) if isinstance(value, str) else None

    def value(self, index: int, game: Position | None) -> Any:
        return self.ids[index]

    def key(self) -> tuple:
        return ("places", len(self.ids))


@dataclass(frozen=True)
class Seats(Domain):
    """A seat, by its number."""
    most: int

    @property
    def size(self) -> int:
        return self.most

    def index(self, value: Any, game: Position) -> int | None:
        ok = type(value) is int and 0 <= value < game.state.players
        return value if ok else None

    def value(self, index: int, game: Position | None) -> Any:
        return index

    def key(self) -> tuple:
        return ("seats", self.most)


@dataclass(frozen=True)
class Slots(Domain):
    """The k-th element of a list the running phase keeps (e.g. its lots), written as that
    element's place id."""
    most: int
    read: Callable[[Position], list[int]] = field(compare=False)
    name: str = ""
    fixed_meaning = False

    @property
    def size(self) -> int:
        return self.most

    def index(self, value: Any, game: Position) -> int | None:
        if not isinstance(value, str) or value not in game.rules.place_index:
            return None
        place = game.rules.place_index[value]
        slots = self.read(game)
        return slots.index(place) if place in slots else None

    def value(self, index: int, game: Position | None) -> Any:
        if game is None:
            raise ValueError("a slot's value depends on the position it is read in")
        slots = self.read(game)
        return game.rules.place_ids[slots[index]] if index < len(slots) else None

    def values_now(self, game: Position) -> list[Any]:
        """Every slot's value in the current position."""
        ids = game.rules.place_ids
        return [ids[p] for p in self.read(game)]

    def key(self) -> tuple:
        return ("slots", self.name, self.most)


def value_key(value: Any) -> Any:
    return (type(value).__name__, value) if isinstance(value, (bool, int, str)) else repr(value)


@dataclass
class Block:
    """One kind of action: a type, fixed fields, and ranging fields; a run of ids."""
    type: str
    fixed: tuple[tuple[str, Any], ...]
    fields: tuple[tuple[str, Domain], ...]
    rank: int
    doc: str = ""
    follow_up: bool = False          # a consequence of the seat's last action (placing what it got)
    base: int = -1
    strides: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        size = 1
        for _, domain in self.fields:
            size *= domain.size
        return size

    def key(self) -> tuple:
        return (self.type, self.fixed, tuple((n, d.key()) for n, d in self.fields), self.rank)

    def values_field(self, k: int = 0) -> Values:
        """The domain of the k-th field, for a field that ranges over fixed values (the cards of
        a play, sell or pick, say)."""
        domain = self.fields[k][1]
        if not isinstance(domain, Values):
            raise TypeError(f"field '{self.fields[k][0]}' of '{self.type}' ranges over {type(domain).__name__}")
        return domain

    def id(self, *indices: int) -> int:
        """The id of the action with these field indices."""
        total = self.base
        for index, stride in zip(indices, self.strides):
            total += index * stride
        return total

    def indices(self, action_id: int) -> tuple[int, ...]:
        offset = action_id - self.base
        out = []
        for stride in self.strides:
            out.append(offset // stride)
            offset %= stride
        return tuple(out)

    def to_dict(self, action_id: int, game: Position) -> dict[str, Any]:
        action: dict[str, Any] = {"type": self.type}
        action.update(self.fixed)
        offset = action_id - self.base
        for (name, domain), stride in zip(self.fields, self.strides):
            index, offset = divmod(offset, stride)
            action[name] = domain.value(index, game)
        return action

    def encode(self, action: dict[str, Any], game: Position) -> int | None:
        """The id of a dict action of this block, or None if it is not one."""
        if len(action) != 1 + len(self.fixed) + len(self.fields):
            return None
        for name, value in self.fixed:
            if name not in action or action[name] != value or type(action[name]) is not type(value):
                return None
        total = self.base
        for (name, domain), stride in zip(self.fields, self.strides):
            if name not in action:
                return None
            index = domain.index(action[name], game)
            if index is None:
                return None
            total += index * stride
        return total


class ActionSpace:
    """Every block of one rules file, numbered once the rules are built."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._by_key: dict[tuple, Block] = {}
        self._by_type: dict[str, list[Block]] = {}
        self._templates: list[dict[str, Any]] = []           # per id: its dict (slot fields left out)
        self._slots: list[tuple | None] = []                 # per id: (field, slot, domain) to fill in
        self.block_at: list[Block] = []                      # per id: its block
        self.indices_at: list[tuple[int, ...]] = []          # per id: its field indices
        self._ids: dict[frozenset, int] = {}                 # a fixed dict's items -> its id
        self._with_bools: list[bool] = []                    # per id: a value of its dict is a bool
        self.ids: list[int] = []         # every id, in order: a run of ids is a slice of it (cheaper than a range)
        self.size = 0

    def declare(self, type: str, fixed: dict[str, Any] | None = None,
                fields: tuple[tuple[str, Domain], ...] = (), rank: int = DECIDE, doc: str = "",
                follow_up: bool = False) -> Block:
        """A block (the same object again for an identical declaration by another phase)."""
        block = Block(type, tuple((fixed or {}).items()), fields, rank, doc, follow_up)
        existing = self._by_key.get(block.key())
        if existing is not None:
            return existing
        self._by_key[block.key()] = block
        self.blocks.append(block)
        return block

    def total(self) -> int:
        """How many ids the blocks declared so far would take."""
        return sum(block.size for block in self.blocks)

    def number(self) -> None:
        """Give every block its ids: by rank, then in the order declared."""
        self.blocks.sort(key=lambda b: b.rank)       # stable: declaration order within a rank
        base = 0
        for block in self.blocks:
            strides, stride = [], 1
            for _, domain in reversed(block.fields):
                strides.append(stride)
                stride *= domain.size
            block.base, block.strides = base, tuple(reversed(strides))
            base += block.size
            self._by_type.setdefault(block.type, []).append(block)
        self.size = base
        self.ids = list(range(base))
        self._templates, self._slots, self.block_at, self.indices_at, self._with_bools = [], [], [], [], []
        for block in self.blocks:
            fixed = all(domain.fixed_meaning for _, domain in block.fields)
            for action_id in range(block.base, block.base + block.size):
                action: dict[str, Any] = {"type": block.type}
                action.update(block.fixed)
                slot = None
                indices = block.indices(action_id)
                self.block_at.append(block)
                self.indices_at.append(indices)
                for (name, domain), index in zip(block.fields, indices):
                    if domain.fixed_meaning:
                        action[name] = domain.value(index, None)
                    else:
                        action[name], slot = None, (name, index, domain)
                self._templates.append(action)
                self._slots.append(slot)
                self._with_bools.append(bool in map(type, action.values()))
                if fixed:
                    self._ids[frozenset(action.items())] = action_id

    def block_of(self, action_id: int) -> Block:
        return self.block_at[action_id]

    def dicts(self, ids: list[int], game: Position) -> list[dict[str, Any]]:
        """The dicts of many ids at once (the legal actions of a position)."""
        templates, slots = self._templates, self._slots
        out: list[dict[str, Any]] = []
        now: dict[int, list[Any]] | None = None
        for action_id in ids:
            action = templates[action_id].copy()
            slot = slots[action_id]
            if slot is not None:
                name, index, domain = slot
                if now is None:
                    now = {}
                values = now.get(id(domain))
                if values is None:
                    values = now[id(domain)] = domain.values_now(game)
                action[name] = values[index] if index < len(values) else None
            out.append(action)
        return out

    def to_dict(self, action_id: int, game: Position) -> dict[str, Any]:
        action = dict(self._templates[action_id])
        slot = self._slots[action_id]
        if slot is not None:
            name, index, domain = slot
            action[name] = domain.value(index, game)
        return action

    def encode(self, action: Any, game: Position) -> int | None:
        """The id of a dict action, or None if no block has such an action."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return None
        try:
            found = self._ids.get(frozenset(action.items()))
        except TypeError:            # an unhashable value: no action has one
            return None
        if found is not None:        # 1 == True: a bool must stand only where the action has one
            if bool not in map(type, action.values()):
                return found if not self._with_bools[found] else None
            template = self._templates[found]
            return found if all(type(v) is type(template[k]) for k, v in action.items()) else None
        for block in self._by_type.get(action["type"], ()):
            found = block.encode(action, game)
            if found is not None:
                return found
        return None
