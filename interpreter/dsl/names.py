"""The compile-time symbol table: every name a rules file gives the DSL, with its type.

Built once per rules file (interpreter/load/build_vocabulary.py) from its places, tokens, resources, options,
modifiers, decks and from each phase's mechanic; the checker resolves every name against it, so a
game step never looks a name up by string. Runtime storage of modifier values is elsewhere
(interpreter/play/modifiers.py): this table only says what exists and how to read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base.limits import MAX_PLAYERS
from .types import NUM, Type, enum

LIFETIMES = ("phase", "round", "age", "game")
SCOPES = ("seat", "place", "game")


@dataclass(frozen=True)
class ModifierDef:
    """A named number that effects set and mechanics or formulas read (its values live in
    `state.mods`, read and written by interpreter/play/modifiers.py)."""
    name: str                 # as the DSL and the state name it: `harvest_bonus`, `auction.rebid_same_target`
    scope: str                # "seat", "place" or "game"
    default: int
    lasts: str = "phase"      # cleared when this ends: phase, round, age or game
    doc: str = ""
    enum: str | None = None   # a place property whose values (words) it holds, instead of a number

    def renamed(self, name: str) -> ModifierDef:
        return ModifierDef(name, self.scope, self.default, self.lasts, self.doc, self.enum)


@dataclass(frozen=True)
class Attr:
    """A value every place (or every seat) has: a printed property, a token count, a derived
    value, a modifier, a resource. `kind` and `key` say how it is read, so that generated code
    can read it directly; `read` reads it in any case."""
    type: Type
    read: Callable[[Any, int], Any]            # (ctx, place or seat index) -> value
    column: tuple[Any, ...] | None = None      # a printed property: its value for each place
    kind: str = "read"                         # column, token, modifier, derived, resource, cards, owned, owner
    key: Any = None                            # the token or resource name, the ModifierDef, the derived Expression


def modifier_type(mod: ModifierDef) -> Type:
    """What a modifier holds: a number, or (`values_of`) a word of a place property's enum."""
    return NUM if mod.enum is None else enum(mod.enum)


@dataclass(frozen=True)
class Member:
    """A name a phase adds to the DSL as `PHASE.NAME`: a query, a kept value or a modifier."""
    type: Type
    read: Callable[[Any], Any] | None = None   # ctx -> value (queries and kept values)
    modifier: ModifierDef | None = None
    needs_seat: bool = False                   # it is about the acting seat
    doc: str = ""
    # What `read` depends on besides constants, as parts of the state (dsl/reads.py), when the
    # phase declares it; None: unknown, so nothing reading this member may be kept by its reads.
    reads: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class Verbs:
    """The functions compiled rules call to read modifiers and owners and to change the
    material. The DSL knows only what each does and how it is called; the engine's play layer
    provides them (interpreter/play/verbs.py) and the rules build hands them over with the
    vocabulary, so that the language sits below the code that runs a game."""
    gain: Callable[..., Any]             # (game, seat, resource, amount, cause)
    transfer: Callable[..., Any]         # (game, from seat, to seat, resource, amount, cause)
    draw: Callable[..., Any]             # (game, seat, deck, count, cause)
    place_tokens: Callable[..., Any]     # (game, place, token, count, cause)
    remove_tokens: Callable[..., Any]    # (game, place, token, count, cause)
    move_tokens: Callable[..., Any]      # (game, from place, to place, token, count, cause)
    convert: Callable[..., Any]          # (game, place, count, from token, to token, cause) -> converted
    set_owner: Callable[..., Any]        # (game, place, seat or None, cause)
    owned_places: Callable[..., Any]      # (game, seat) -> the places it owns
    read_modifier: Callable[..., Any]     # (state, modifier, index) -> its value
    set_modifier: Callable[..., Any]     # (game, modifier, index, value, places, cause)


@dataclass
class Vocabulary:
    noun: str = "place"                                       # one place, as the rules call it
    plural: str = "places"                                    # all places: `provinces`
    place_ids: tuple[str, ...] = ()
    ownership: bool = False                                   # places have owners (`claim`, `owner`)
    place_attrs: dict[str, Attr] = field(default_factory=dict)
    seat_attrs: dict[str, Attr] = field(default_factory=dict)
    words: dict[str, frozenset[str]] = field(default_factory=dict)   # bare word -> enums it belongs to
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)  # enum -> its values
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    resources: tuple[str, ...] = ()
    decks: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    modifiers: dict[str, ModifierDef] = field(default_factory=dict)  # declared in the rules file
    # `NAME.MEMBER` names: each phase's (PHASE.NAME, its mechanic's members) and each deck's
    # (DECK.left, the cards left to draw; a deck may not share a phase's name).
    phases: dict[str, dict[str, Member]] = field(default_factory=dict)
    tables: dict[str, dict[str, Type]] = field(default_factory=dict)  # row table -> column types
    verbs: Verbs | None = None                                # what compiled rules call (see Verbs)
    max_players: int = MAX_PLAYERS                            # the most seats: the size of `seats` (dsl/cost.py)

    def member(self, phase: str, name: str) -> Member | None:
        return self.phases.get(phase, {}).get(name)

    def all_modifiers(self) -> dict[str, ModifierDef]:
        """Rules-file modifiers and every phase's, by their DSL name."""
        found = dict(self.modifiers)
        for phase, members in self.phases.items():
            for name, member in members.items():
                if member.modifier is not None:
                    found[f"{phase}.{name}"] = member.modifier
        return found
