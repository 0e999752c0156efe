"""The names a rules file gives: its place table, and the vocabulary of its DSL.

The first two steps of building rules (interpreter/load/build_rules.py): the places with their printed
properties (each a typed column), then every name the DSL may use: resources and hand size
as seat attributes, options and their words, tokens and modifiers as place attributes, each
phase's names, each deck's (`DECK.left`, the cards left to draw: the deck is read as a phase's
members are), and last the derived values, which may use all of these. A name that takes a
word the DSL reserves is refused where it is declared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..base.errors import did_you_mean
from ..dsl.builtins import RESERVED
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Attr, Member, ModifierDef, modifier_type
from ..dsl.types import BOOL, NUM, PLACE, PLACES, SEAT, TEXT, enum
from ..mechanics import MECHANICS
from ..model import OptionDef
from ..play import material, modifiers

if TYPE_CHECKING:
    from .build_context import Build

_PROP_TYPES = {"boolean": BOOL, "integer": NUM, "text": TEXT}
_ARTICLE = {"boolean": "true or false", "integer": "an integer", "text": "a text"}


# ---- places ---------------------------------------------------------------------------------

def places(build: Build, spec: dict[str, Any]) -> SimpleNamespace:
    """The place table: ids, printed properties (each a typed column of the DSL), provenance."""
    vocab = build.vocab
    vocab.noun = spec.get("noun", "place")
    vocab.plural = vocab.noun + "s"
    vocab.ownership = spec.get("ownership") == "single"
    items = spec["items"]
    ids = tuple(item["id"] for item in items)
    vocab.place_ids = ids
    for i, pid in enumerate(ids):
        if ids.index(pid) != i:
            build.problem(("places", "items", i, "id"), f"duplicate {vocab.noun} id '{pid}'")
    props = spec.get("properties", {})
    rows = [{k: v for k, v in item.items() if k not in ("id", "reconstructed", "owner")} for item in items]
    for name, prop in props.items():
        _property(build, ids, rows, name, prop)
    _undeclared_properties(build, items, rows, props)
    vocab.place_attrs["id"] = Attr(TEXT, lambda ctx, p: ids[p], ids, "column")
    if vocab.ownership:
        vocab.place_attrs["owned"] = Attr(BOOL, lambda ctx, p: ctx.state.owner[p] >= 0, kind="owned")
        vocab.place_attrs["owner"] = Attr(SEAT, lambda ctx, p: _owner(ctx.state.owner[p]), kind="owner")
    reconstructed = {item["id"]: list(item.get("reconstructed", [])) for item in items}
    owners = tuple(item.get("owner", -1) for item in items)
    if not vocab.ownership:
        for i, item in enumerate(items):
            if "owner" in item:
                build.problem(("places", "items", i, "owner"), f"{vocab.plural} have no owners in these rules "
                              "(see places.ownership)", key=True)
    return SimpleNamespace(ids=ids, props=rows, reconstructed=reconstructed, owners=owners)


def _property(build: Build, ids: tuple[str, ...], rows: list[dict[str, Any]], name: str,
              prop: dict[str, Any]) -> None:
    """One printed property: a typed column of the DSL (its values bare words when it lists
    them), checked in every row."""
    vocab = build.vocab
    values = prop.get("values")
    kind = prop.get("type", "integer")
    if values:
        vocab.enums[name] = tuple(str(v) for v in values)
        for value in values:
            vocab.words[str(value)] = vocab.words.get(str(value), frozenset()) | {name}
    column = tuple(row.get(name, 0) for row in rows)
    vocab.place_attrs[name] = Attr(enum(name) if values else _PROP_TYPES.get(kind, NUM),
                                   _column_reader(column), column, "column")
    for i, row in enumerate(rows):
        if name not in row:
            build.problem(("places", "items", i), f"{vocab.noun} '{ids[i]}' lacks '{name}'")
        elif values and row[name] not in values:
            build.problem(("places", "items", i, name), f"'{row[name]}' is not one of {values}")
        elif not values and not _has_type(row[name], kind):
            build.problem(("places", "items", i, name), f"'{name}' of {vocab.noun} '{ids[i]}' must be "
                          f"{_ARTICLE[kind]}, got '{row[name]}'")


def _undeclared_properties(build: Build, items: list[dict[str, Any]], rows: list[dict[str, Any]],
                           props: dict[str, Any]) -> None:
    """A row or a `reconstructed` list naming a property the table does not declare."""
    for i, item in enumerate(items):
        for j, name in enumerate(item.get("reconstructed", [])):
            if name not in props:
                build.problem(("places", "items", i, "reconstructed", j), f"undeclared property '{name}'",
                              did_you_mean(str(name), props))
    for i, row in enumerate(rows):
        for name in row:
            if name not in props:
                build.problem(("places", "items", i, name), f"undeclared property '{name}'",
                              did_you_mean(name, props), key=True)


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat


def _has_type(value: Any, kind: str) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


# ---- the DSL's names ------------------------------------------------------------------------

def vocabulary(build: Build, data: dict[str, Any]) -> None:
    """Resources, options, tokens, modifiers and each phase's DSL names; then derived values,
    which may use all of them."""
    vocab = build.vocab
    resources = data.get("resources", {})
    vocab.resources = tuple(resources)
    for name in resources:
        vocab.seat_attrs[name] = Attr(NUM, _resource_reader(name), kind="resource", key=name)
    vocab.seat_attrs["cards"] = Attr(NUM, lambda ctx, s: len(ctx.state.hands[s]), kind="cards")
    if vocab.ownership:
        vocab.seat_attrs[vocab.plural] = Attr(PLACES, lambda ctx, s: material.owned_places(ctx.game, s),
                                              kind="places")
    options = {}
    for name, spec in data.get("options", {}).items():
        opt = OptionDef(tuple(spec["values"]), spec.get("default", spec["values"][0]), spec.get("doc", ""))
        options[name] = opt
        if opt.default not in opt.values:
            build.problem(("options", name, "default"), f"default '{opt.default}' is not one of {list(opt.values)}",
                          did_you_mean(str(opt.default), [str(v) for v in opt.values]))
        vocab.options[name] = opt.values
        for value in opt.values:
            vocab.words[str(value)] = vocab.words.get(str(value), frozenset()) | {f"option.{name}"}
    build.known["options"] = options
    tokens = data.get("tokens", {})
    vocab.tokens = tuple(tokens)
    for token in tokens:
        vocab.place_attrs[token] = Attr(NUM, _token_reader(token), kind="token", key=token)
    for name, spec in data.get("modifiers", {}).items():
        mod = _modifier(build, name, spec)
        vocab.modifiers[name] = mod
        if mod.scope == "place":
            vocab.place_attrs[name] = Attr(modifier_type(mod), _modifier_reader(mod), kind="modifier", key=mod)
    vocab.decks = tuple(data.get("decks", {}))
    _phase_names(build, data.get("phases", {}))
    _deck_names(build, data.get("phases", {}))
    for name in data.get("derived", {}):
        fn = build.expression(("derived", name), Scope(seat=False).over(PLACE))
        vocab.place_attrs[name] = Attr(fn.type, fn.at, kind="derived", key=fn)
    for name, spec in data.get("options", {}).items():
        if "allowed_if" in spec:
            options[name] = replace(options[name], allowed_if=build.expression(
                ("options", name, "allowed_if"), Scope(seat=False), BOOL))
    _reserved_names(build, data)
    build.known.update(resource=vocab.resources, deck=vocab.decks, token=vocab.tokens, modifier=vocab.modifiers)


def _phase_names(build: Build, phases: dict[str, Any]) -> None:
    """What each phase's mechanic adds to the DSL: its words, its members (PHASE.NAME), its tables."""
    vocab = build.vocab
    for pid, spec in phases.items():
        cls = MECHANICS.get(spec.get("mechanic"))
        if cls is None:
            continue
        for name, values in cls.words(pid, spec).items():
            vocab.enums[name] = values
            for value in values:
                vocab.words[value] = vocab.words.get(value, frozenset()) | {name}
        vocab.phases[pid] = cls.members(pid, spec)
        vocab.tables.update(cls.tables(pid, spec))


def _deck_names(build: Build, phases: dict[str, Any]) -> None:
    """`DECK.left` for each deck: how many cards it has left to draw (not its discard pile, nor
    a display laid out from it), public as the deck's size is. Read like a phase's member, so a
    deck may not share a phase's name."""
    vocab = build.vocab
    for deck in vocab.decks:
        if deck in phases:
            build.problem(("decks", deck), f"'{deck}' names a phase too: `{deck}.NAME` could not say which",
                          key=True)
            continue
        vocab.phases[deck] = {"left": Member(NUM, _deck_reader(deck), doc="the cards left in the deck to draw")}


def _modifier(build: Build, name: str, spec: dict[str, Any]) -> ModifierDef:
    """A declared modifier: a number, or (`values_of`) one of a place property's words."""
    words = spec.get("values_of")
    if words is not None and words not in build.vocab.enums:
        build.problem(("modifiers", name, "values_of"), f"'{words}' is not a place property with `values`",
                      did_you_mean(str(words), build.vocab.enums))
        words = None
    default = spec.get("default", build.vocab.enums[words][0] if words else 0)
    if words is not None and default not in build.vocab.enums[words]:
        build.problem(("modifiers", name, "default"),
                      f"default '{default}' is not one of {list(build.vocab.enums[words])}")
    elif words is None and not isinstance(default, int):
        build.problem(("modifiers", name, "default"), "a modifier's default is a number (or give it `values_of`)")
    return ModifierDef(name, spec.get("scope", "seat"), default, spec.get("lasts", "phase"), spec.get("doc", ""), words)


def _reserved_names(build: Build, data: dict[str, Any]) -> None:
    """A rules-file name may not take a word the DSL reserves (it could never be read)."""
    for section in ("resources", "tokens", "derived", "modifiers", "options", "decks", "phases"):
        for name in data.get(section, {}):
            if name in RESERVED:
                build.problem((section, name), f"'{name}' is a reserved word of the DSL: choose another name",
                              key=True)
    for name in data["places"].get("properties", {}):
        if name in RESERVED:
            build.problem(("places", "properties", name), f"'{name}' is a reserved word of the DSL: "
                          "choose another name", key=True)


# ---- how a name is read while a game runs (what generated code does not inline) ---------------

def _column_reader(column: tuple[Any, ...]) -> Callable[[Ctx, int], Any]:
    return lambda ctx, place: column[place]


def _resource_reader(name: str) -> Callable[[Ctx, int], Any]:
    return lambda ctx, seat: ctx.state.resources[seat][name]


def _token_reader(token: str) -> Callable[[Ctx, int], Any]:
    return lambda ctx, place: ctx.state.tokens[place].get(token, 0)


def _deck_reader(deck: str) -> Callable[[Ctx], Any]:
    return lambda ctx: len(ctx.state.decks[deck])


def _modifier_reader(mod: ModifierDef) -> Callable[[Ctx, int], Any]:
    return lambda ctx, place: modifiers.read(ctx.state, mod, place)
