"""The immutable, compiled `Rules` of one edition, and building them from a loaded document.

Building checks every reference (card, deck, token, good, phase, mechanic) and compiles every
DSL string; all problems are collected and raised together as one RulesError that points
into the YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .context import Ctx
from .dsl_compile import Compiler, Effect, Scope
from .dsl_names import BOOL, NUM, STR, ModifierDef, PlaceAttr, Vocabulary, read_modifier
from .errors import Problem, RulesError, did_you_mean
from .loader import Document

Fn = Callable[[Ctx], Any]


@dataclass(frozen=True)
class DeckDef:
    name: str
    of_places: bool = False       # one card per place (the cards are the places' ids)
    sell: int = 0                 # resource gained for turning a card in; 0: cannot be sold
    sell_resource: str = "gold"
    reshuffle: bool = False       # an empty deck takes its shuffled discard pile
    hidden: bool = False          # cards in hand are private


@dataclass(frozen=True)
class CardDef:
    id: str
    deck: str
    count: int
    window: str | None
    effect: Effect | None
    doc: str = ""


@dataclass(frozen=True)
class GoodDef:
    """Something a purchase or reward gives: a card from a deck, or a token placed at once."""
    id: str
    draw: str | None = None
    token: str | None = None


@dataclass(frozen=True)
class TileDef:
    id: str
    label: str
    low: int | None
    high: int | None
    values: dict[str, Any]


@dataclass(frozen=True)
class OptionDef:
    values: tuple[str, ...]
    default: str
    doc: str = ""


@dataclass(frozen=True)
class Step:
    """One entry of the flattened schedule: which phase runs, in which age and round."""
    phase: str
    age: int
    round: int


@dataclass
class Rules:
    path: str
    id: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, OptionDef]
    resources: dict[str, int]
    place_ids: list[str]
    place_index: dict[str, int]
    place_props: list[dict[str, Any]]
    reconstructed: dict[str, list[str]]
    token_supply: dict[str, str]
    supply: dict[str, int]
    token_capacity: dict[str, Callable[[Ctx, int], int]]
    conversions: list[tuple[str, int, str]]
    tiles: list[TileDef]
    goods: dict[str, GoodDef]
    decks: dict[str, DeckDef]
    cards: dict[str, CardDef]
    vocab: Vocabulary
    setup_hand: list[str]
    setup_deck_counts: dict[str, Fn]
    start_player: str
    schedule: list[Step]
    phases: dict[str, Any]
    winner_by: Fn
    tiebreaks: list[Fn]
    digest: str = ""              # hash of the rules text: a saved game must meet the same rules
    _tile_by_id: dict[str, TileDef] = field(default_factory=dict, repr=False)

    def tile_value(self, tile_id: str | None, name: str) -> Any:
        if tile_id is None:
            return 0
        return self._tile_by_id[tile_id].values.get(name, 0)

    def tile_for(self, total: int) -> TileDef:
        for tile in self.tiles:
            if (tile.low is None or total >= tile.low) and (tile.high is None or total <= tile.high):
                return tile
        return self.tiles[0] if total < (self.tiles[0].low or 0) else self.tiles[-1]

    def mechanic(self, step: int) -> Any:
        return self.phases[self.schedule[step].phase]


class Build:
    """Compile helpers for one document; every problem is kept with its place in the file."""

    def __init__(self, doc: Document, vocab: Vocabulary) -> None:
        self.doc = doc
        self.vocab = vocab
        self.problems: list[Problem] = []

    def get(self, path: tuple, default: Any = None) -> Any:
        node = self.doc.data
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return default
        return node

    def problem(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        self.problems.append(Problem(message, self.doc.span(path, key=key), hint))

    def _compiler(self, path: tuple) -> Compiler:
        text = self.get(path)

        def report(message: str, offset: int, hint: str | None) -> None:
            span = self.doc.scalar_span(path, offset) if isinstance(text, str) else self.doc.span(path)
            self.problems.append(Problem(message, span, hint))
        return Compiler(self.vocab, report)

    def expression(self, path: tuple, scope: Scope = Scope()) -> Fn:
        text = self.get(path)
        if isinstance(text, bool) or isinstance(text, int):
            return lambda ctx: text
        return self._compiler(path).expression(str(text), scope)[0]

    def effect(self, path: tuple, scope: Scope = Scope()) -> Effect:
        return self._compiler(path).effect(str(self.get(path)), scope)

    def collection(self, path: tuple, scope: Scope = Scope()) -> Fn:
        return self._compiler(path).collection(str(self.get(path)), scope)[0]

    def ref(self, path: tuple, known, what: str) -> str:
        """An id that must name one of `known`; a problem with a suggestion when it does not."""
        name = self.get(path)
        if name not in known:
            self.problem(path, f"unknown {what} '{name}'", did_you_mean(str(name), list(known)))
        return name


_PROP_TYPES = {"boolean": BOOL, "integer": NUM, "text": STR}
_ARTICLE = {"boolean": "true or false", "integer": "an integer", "text": "a text"}


def _has_type(value: Any, typ: str) -> bool:
    if typ == "boolean":
        return isinstance(value, bool)
    if typ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def build_rules(doc: Document) -> Rules:
    """Compile a schema-valid document into Rules; RulesError lists every problem found."""
    from .mechanics import MECHANICS

    data = doc.data
    places = data["places"]
    noun = places.get("noun", "place")
    place_ids = [item["id"] for item in places["items"]]
    place_index = {pid: i for i, pid in enumerate(place_ids)}
    vocab = Vocabulary(plural=noun + "s", place_index=place_index)
    build = Build(doc, vocab)
    for i, pid in enumerate(place_ids):
        if place_ids.index(pid) != i:
            build.problem(("places", "items", i, "id"), f"duplicate {noun} id '{pid}'")

    # --- names the DSL may use -----------------------------------------------------------
    props = places.get("properties", {})
    place_props = [{k: v for k, v in item.items() if k not in ("id", "reconstructed")}
                   for item in places["items"]]
    for name, spec in props.items():
        values = spec.get("values")
        if values:
            vocab.constants.update({str(v): str(v) for v in values})
        typ = STR if values else _PROP_TYPES.get(spec.get("type", "integer"), NUM)
        column = [row.get(name, 0) for row in place_props]
        vocab.place_attrs[name] = PlaceAttr(typ, lambda ctx, p, column=column: column[p])
        for i, row in enumerate(place_props):
            if name not in row:
                build.problem(("places", "items", i), f"{noun} '{place_ids[i]}' lacks '{name}'")
            elif values and row[name] not in values:
                build.problem(("places", "items", i, name), f"'{row[name]}' is not one of {values}")
            elif not values and not _has_type(row[name], spec.get("type", "integer")):
                build.problem(("places", "items", i, name), f"'{name}' of {noun} '{place_ids[i]}' must be "
                              f"{_ARTICLE[spec.get('type', 'integer')]}, got '{row[name]}'")
    for i, item in enumerate(places["items"]):
        for j, name in enumerate(item.get("reconstructed", [])):
            if name not in props:
                build.problem(("places", "items", i, "reconstructed", j), f"undeclared property '{name}'",
                              did_you_mean(str(name), props))
    for i, row in enumerate(place_props):
        for name in row:
            if name not in props:
                build.problem(("places", "items", i, name), f"undeclared property '{name}'",
                              did_you_mean(name, props), key=True)
    tokens = data.get("tokens", {})
    vocab.tokens = tuple(tokens)
    for token in tokens:
        vocab.place_attrs[token] = PlaceAttr(NUM, lambda ctx, p, t=token: ctx.state.tokens[p].get(t, 0))
    vocab.place_attrs["owned"] = PlaceAttr(BOOL, lambda ctx, p: ctx.state.owner[p] >= 0)
    vocab.place_attrs["owner"] = PlaceAttr(NUM, lambda ctx, p: ctx.state.owner[p])
    vocab.place_attrs["id"] = PlaceAttr(STR, lambda ctx, p: place_ids[p])
    for name, spec in data.get("modifiers", {}).items():
        mod = ModifierDef(name, spec.get("scope", "seat"), spec.get("default", 0), spec.get("doc", ""))
        vocab.modifiers[name] = mod
        if mod.scope == "place":
            vocab.place_attrs[name] = PlaceAttr(NUM, lambda ctx, p, m=mod: read_modifier(ctx.state, m, None, p))
    vocab.resources = tuple(data.get("resources", {}))
    vocab.decks = tuple(data.get("decks", {}))
    tiles = [_tile(t) for t in data.get("tiles", [])]
    for tile in tiles:
        for key, value in tile.values.items():
            vocab.tile_attrs[key] = BOOL if isinstance(value, bool) else NUM
    options = {name: OptionDef(tuple(spec["values"]), spec.get("default", spec["values"][0]), spec.get("doc", ""))
               for name, spec in data.get("options", {}).items()}
    for name, opt in options.items():
        if opt.default not in opt.values:
            build.problem(("options", name, "default"), f"default '{opt.default}' is not one of {list(opt.values)}",
                          did_you_mean(str(opt.default), [str(v) for v in opt.values]))
    vocab.options = {name: opt.values for name, opt in options.items()}
    for opt in options.values():
        vocab.constants.update({str(v): str(v) for v in opt.values})
    phase_specs = data.get("phases", {})
    for pid, spec in phase_specs.items():
        cls = MECHANICS.get(spec.get("mechanic"))
        for qname, query in (cls.queries.items() if cls else ()):
            vocab.queries[f"{pid}.{qname}"] = query
        for mname, mod in (cls.modifiers.items() if cls else ()):
            vocab.modifiers[f"{pid}.{mname}"] = ModifierDef(f"{pid}.{mname}", mod.scope, mod.default, mod.doc)
    for name in data.get("derived", {}):
        fn = build.expression(("derived", name), Scope(element=True, seat=False))
        vocab.place_attrs[name] = PlaceAttr(NUM, _derived_getter(fn))

    # --- material --------------------------------------------------------------------------
    token_supply, supply, capacity = {}, {}, {}
    for name, spec in tokens.items():
        kind = spec.get("supply_of", name)
        token_supply[name] = kind
        if "supply" in spec:
            supply[name] = spec["supply"]
        cap = spec.get("capacity")
        if cap is not None:
            attr = build.ref(("tokens", name, "capacity"), vocab.place_attrs, "attribute")
            capacity[name] = _attr_capacity(vocab, attr)
    for name, kind in token_supply.items():
        if kind not in supply:
            build.problem(("tokens", name, "supply_of"), f"'{kind}' is not a token with a supply",
                          did_you_mean(kind, supply))
    conversions = []
    for i, conv in enumerate(data.get("conversions", [])):
        (source, count), = conv["from"].items()
        build.ref(("conversions", i, "to"), tokens, "token")
        if source not in tokens:
            build.problem(("conversions", i, "from"), f"unknown token '{source}'", did_you_mean(source, tokens))
        conversions.append((source, int(count), conv["to"]))
    decks = {}
    for name, spec in data.get("decks", {}).items():
        decks[name] = DeckDef(name, spec.get("of") == "places", spec.get("sell", 0),
                              spec.get("sell_resource", "gold"), spec.get("reshuffle", False),
                              spec.get("hidden", False))
    goods = {}
    for name, spec in data.get("goods", {}).items():
        if "draw" in spec:
            build.ref(("goods", name, "draw"), decks, "deck")
        if "token" in spec:
            build.ref(("goods", name, "token"), tokens, "token")
        goods[name] = GoodDef(name, spec.get("draw"), spec.get("token"))

    # --- phases (mechanics compile their own parameters) ------------------------------------
    rules_stub = {"goods": goods, "decks": decks, "tokens": tokens}
    phases = {}
    for pid, spec in phase_specs.items():
        cls = MECHANICS.get(spec.get("mechanic"))
        if cls is None:
            build.ref(("phases", pid, "mechanic"), MECHANICS, "mechanic")
            continue
        phases[pid] = cls(pid, PhaseBuild(build, ("phases", pid), rules_stub))
    windows = {getattr(m, "window", None) for m in phases.values()} - {None}

    cards = {}
    for cid, spec in data.get("cards", {}).items():
        build.ref(("cards", cid, "deck"), decks, "deck")
        window = spec.get("window")
        if window is not None and window not in windows:
            build.problem(("cards", cid, "window"), f"no phase opens the card window '{window}'",
                          did_you_mean(window, windows))
        effect = build.effect(("cards", cid, "effect")) if "effect" in spec else None
        cards[cid] = CardDef(cid, spec["deck"], spec.get("count", 1), window, effect, spec.get("doc", ""))

    setup = data.get("setup", {})
    for i, cid in enumerate(setup.get("hand", [])):
        build.ref(("setup", "hand", i), cards, "card")
    deck_counts = {}
    for name in setup.get("decks", {}):
        if name not in decks:
            build.problem(("setup", "decks", name), f"unknown deck '{name}'", did_you_mean(name, decks), key=True)
        deck_counts[name] = build.expression(("setup", "decks", name, "count"), Scope(seat=False))
    schedule = _schedule(build, data.get("structure", {}), phases)
    winner = data.get("winner", {})
    winner_by = build.expression(("winner", "by")) if "by" in winner else (lambda ctx: 0)
    tiebreaks = [build.expression(("winner", "tiebreak", i)) for i in range(len(winner.get("tiebreak", [])))]
    if build.problems:
        raise RulesError(sorted(build.problems, key=_problem_order))
    rules = Rules(
        path=doc.path, id=data.get("id", ""), title=data.get("title", ""),
        min_players=data["players"]["min"], max_players=data["players"]["max"],
        options=options, resources={k: v.get("start", 0) for k, v in data.get("resources", {}).items()},
        place_ids=place_ids, place_index=place_index, place_props=place_props,
        reconstructed={item["id"]: list(item.get("reconstructed", [])) for item in places["items"]},
        token_supply=token_supply, supply=supply, token_capacity=capacity, conversions=conversions,
        tiles=tiles, goods=goods, decks=decks, cards=cards, vocab=vocab,
        setup_hand=list(setup.get("hand", [])), setup_deck_counts=deck_counts,
        start_player=str(setup.get("start_player", "random")), schedule=schedule, phases=phases,
        winner_by=winner_by, tiebreaks=tiebreaks)
    rules._tile_by_id.update({t.id: t for t in tiles})
    return rules


class PhaseBuild:
    """The Build as one phase's mechanic sees it: paths relative to the phase's mapping."""

    def __init__(self, build: Build, base: tuple, material: dict[str, Any]) -> None:
        self.build = build
        self.base = base
        self.vocab = build.vocab
        self.goods = material["goods"]
        self.decks = material["decks"]
        self.tokens = material["tokens"]

    def get(self, *path: Any, default: Any = None) -> Any:
        return self.build.get(self.base + path, default)

    def has(self, *path: Any) -> bool:
        return self.build.get(self.base + path) is not None

    def expression(self, *path: Any, scope: Scope = Scope()) -> Fn:
        return self.build.expression(self.base + path, scope)

    def effect(self, *path: Any, scope: Scope = Scope()) -> Effect:
        return self.build.effect(self.base + path, scope)

    def collection(self, *path: Any, scope: Scope = Scope()) -> Fn:
        return self.build.collection(self.base + path, scope)

    def ref(self, *path: Any, known, what: str) -> str:
        return self.build.ref(self.base + path, known, what)

    def problem(self, *path: Any, message: str) -> None:
        self.build.problem(self.base + path, message)


def _tile(spec: dict[str, Any]) -> TileDef:
    values = {k: v for k, v in spec.items() if k not in ("id", "label", "min", "max")}
    return TileDef(spec["id"], spec.get("label", spec["id"]), spec.get("min"), spec.get("max"), values)


def _derived_getter(fn: Fn) -> Callable[[Ctx, int], Any]:
    def get(ctx: Ctx, place: int) -> Any:
        saved = ctx.it
        ctx.it = place
        try:
            return fn(ctx)
        finally:
            ctx.it = saved
    return get


def _attr_capacity(vocab: Vocabulary, attr: str) -> Callable[[Ctx, int], int]:
    place_attr = vocab.place_attrs.get(attr)
    if place_attr is None:
        return lambda ctx, p: 0
    return place_attr.get


def _schedule(build: Build, structure: dict[str, Any], phases: dict[str, Any]) -> list[Step]:
    for key in ("round", "age_end", "between_ages", "game_end"):
        for i, pid in enumerate(structure.get(key, [])):
            build.ref(("structure", key, i), phases, "phase")
    steps = []
    ages, rounds = structure.get("ages", 1), structure.get("rounds", 1)
    for age in range(1, ages + 1):
        for rnd in range(1, rounds + 1):
            steps += [Step(p, age, rnd) for p in structure.get("round", [])]
        steps += [Step(p, age, rounds) for p in structure.get("age_end", [])]
        if age < ages:
            steps += [Step(p, age, rounds) for p in structure.get("between_ages", [])]
    steps += [Step(p, ages, rounds) for p in structure.get("game_end", [])]
    return steps


def _problem_order(problem: Problem) -> tuple:
    span = problem.span
    return (span.file, span.line, span.col) if span else ("", 0, 0)
