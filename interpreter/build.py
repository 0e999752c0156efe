"""Building `Rules` from a schema-valid document: every reference checked, every DSL string
compiled, every problem kept with its place in the file and raised together.

The steps run in the order names become known: places and their values, the DSL vocabulary
(resources, options, modifiers, each phase's names), material (tokens, decks, goods), the
phases' mechanics, the cards, the action space, then set-up, schedule and winner.
"""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace
from typing import Any

from . import material
from .actions import PLAY, SELL, ActionSpace, Values
from .choices import choice_fields
from .context import Ctx
from .dsl import Dsl, Expression, Rule
from .dsl.builtins import RESERVED
from .dsl.check import Scope
from .dsl.names import Attr, Vocabulary
from .dsl.types import BOOL, NUM, PLACE, PLACES, SEAT, TEXT, Type, enum, is_a
from .errors import Problem, RulesError, did_you_mean
from .document import Document
from .mechanics import MECHANICS
from .mechanics.base import PHASE_PARAMS
from .model import CardDef, DeckDef, GoodDef, OptionDef, Rules, Step, WinnerDef
from .modifiers import LIFETIMES, ModifierDef
from .params import compile_params

_PROP_TYPES = {"boolean": BOOL, "integer": NUM, "text": TEXT}
_ARTICLE = {"boolean": "true or false", "integer": "an integer", "text": "a text"}


class Build:
    """Compile helpers for one document; every problem is kept with its place in the file."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.vocab = Vocabulary()
        self.problems: list[Problem] = []
        self.known: dict[str, Any] = {}      # what a `ref` may name, by kind: resource, deck, ...

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

    def rule(self, path: tuple) -> Rule:
        return Rule(".".join(str(p) for p in path), self.doc.span(path))

    def _dsl(self, path: tuple) -> Dsl:
        text = self.get(path)

        def report(message: str, offset: int, hint: str | None) -> None:
            span = self.doc.scalar_span(path, offset) if isinstance(text, str) else self.doc.span(path)
            self.problems.append(Problem(message, span, hint))
        return Dsl(self.vocab, report)

    def constant(self, value: Any, path: tuple) -> Expression:
        typ = BOOL if isinstance(value, bool) else NUM
        return Expression(lambda ctx, *it: value, typ, None, self.rule(path), value, True)

    def expression(self, path: tuple, scope: Scope = Scope(), wanted: Type = NUM) -> Expression:
        text = self.get(path)
        if isinstance(text, (bool, int)):
            found = self.constant(text, path)
        else:
            found = self._dsl(path).expression(str(text), scope, self.rule(path))
        if not is_a(found.type, wanted):
            self.problem(path, f"this must be {wanted}, not {found.type}")
        return found

    def collection(self, path: tuple, scope: Scope = Scope()) -> Expression:
        return self._dsl(path).collection(str(self.get(path)), scope, self.rule(path))

    def effect(self, path: tuple, scope: Scope = Scope(), automatic: bool = False) -> Any:
        return self._dsl(path).effect(str(self.get(path)), scope, self.rule(path), automatic)

    def ref(self, path: tuple, what: str) -> str:
        """An id that must name a declared `what`; a problem with a suggestion when it does not."""
        name = self.get(path)
        known = self.known.get(what)
        if known is not None and name not in known:
            self.problem(path, f"unknown {what} '{name}'", did_you_mean(str(name), list(known)))
        return name


class PhaseBuild:
    """The Build as one phase's mechanic sees it: paths relative to the phase's mapping."""

    def __init__(self, build: Build, phase_id: str, params: tuple) -> None:
        self.build = build
        self.base = ("phases", phase_id)
        self.vocab = build.vocab
        self.material = build.known
        self.params = compile_params(PHASE_PARAMS + params, build, self.base)

    def get(self, *path: Any, default: Any = None) -> Any:
        return self.build.get(self.base + path, default)

    def problem(self, *path: Any, message: str) -> None:
        self.build.problem(self.base + path, message)

    def top(self, *path: Any) -> Any:
        """A value of the rules file outside this phase (by its path from the top)."""
        return self.build.get(path)


def build_rules(doc: Document) -> Rules:
    """Compile a schema-valid document into Rules; RulesError lists every problem found."""
    build = Build(doc)
    data = doc.data
    places = _places(build, data["places"])
    _vocabulary(build, data)
    material = _material(build, data)
    phases = _phases(build, data.get("phases", {}))
    cards = _cards(build, data.get("cards", {}), phases)
    space, play_blocks, sell_block = _action_space(build, phases, cards, material)
    setup = data.get("setup", {})
    for i, _ in enumerate(setup.get("hand", [])):
        build.ref(("setup", "hand", i), "card")
    deck_counts = {}
    for name in setup.get("decks", {}):
        if name not in material.decks:
            build.problem(("setup", "decks", name), f"unknown deck '{name}'", did_you_mean(name, material.decks), key=True)
        deck_counts[name] = build.expression(("setup", "decks", name, "count"), Scope(seat=False))
    schedule = _schedule(build, data.get("structure", {}), phases)
    winner = _winner(build, data.get("winner", {}))
    if build.problems:
        raise RulesError(sorted(build.problems, key=_problem_order))
    mods = build.vocab.all_modifiers()
    return Rules(
        path=doc.path, id=data.get("id", ""), title=data.get("title", ""),
        min_players=data["players"]["min"], max_players=data["players"]["max"],
        options=build.known["options"],
        resources={k: v.get("start", 0) for k, v in data.get("resources", {}).items()},
        resource_max={k: v["max"] for k, v in data.get("resources", {}).items() if "max" in v},
        place_ids=places.ids, place_index={pid: i for i, pid in enumerate(places.ids)},
        place_props=places.props, reconstructed=places.reconstructed, ownership=build.vocab.ownership,
        token_supply=material.token_supply, supply=material.supply, token_capacity=material.capacity,
        conversions=material.conversions, converted=frozenset(s for s, _, _ in material.conversions),
        goods=material.goods, decks=material.decks, cards=cards,
        vocab=build.vocab, setup_hand=tuple(setup.get("hand", [])), setup_deck_counts=deck_counts,
        schedule=schedule, phases=phases, step_mechanics=tuple(phases[s.phase] for s in schedule), winner=winner, actions=space, play_blocks=play_blocks,
        window_cards={w: frozenset(c for c in play_blocks if cards[c].window == w)
                      for w in {card.window for card in cards.values() if card.window}},
        sell_ids={} if sell_block is None else {c: sell_block.base + i for i, c in
                                                enumerate(sell_block.fields[0][1].values)},
        expiring={life: tuple(n for n, m in mods.items() if m.lasts == life) for life in LIFETIMES},
        digest=rules_digest(data))


def rules_digest(data: Any) -> str:
    """A hash of the merged rules data: a saved game must meet the same rules, parents included."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ---- places ---------------------------------------------------------------------------------

def _places(build: Build, spec: dict[str, Any]) -> SimpleNamespace:
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
    rows = [{k: v for k, v in item.items() if k not in ("id", "reconstructed")} for item in items]
    for name, prop in props.items():
        values = prop.get("values")
        kind = prop.get("type", "integer")
        if values:
            vocab.enums[name] = tuple(str(v) for v in values)
            for value in values:
                vocab.words[str(value)] = vocab.words.get(str(value), frozenset()) | {name}
        column = tuple(row.get(name, 0) for row in rows)
        vocab.place_attrs[name] = Attr(enum(name) if values else _PROP_TYPES.get(kind, NUM),
                                       lambda ctx, p, column=column: column[p], column, "column")
        for i, row in enumerate(rows):
            if name not in row:
                build.problem(("places", "items", i), f"{vocab.noun} '{ids[i]}' lacks '{name}'")
            elif values and row[name] not in values:
                build.problem(("places", "items", i, name), f"'{row[name]}' is not one of {values}")
            elif not values and not _has_type(row[name], kind):
                build.problem(("places", "items", i, name), f"'{name}' of {vocab.noun} '{ids[i]}' must be "
                              f"{_ARTICLE[kind]}, got '{row[name]}'")
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
    vocab.place_attrs["id"] = Attr(TEXT, lambda ctx, p: ids[p], ids, "column")
    if vocab.ownership:
        vocab.place_attrs["owned"] = Attr(BOOL, lambda ctx, p: ctx.state.owner[p] >= 0, kind="owned")
        vocab.place_attrs["owner"] = Attr(SEAT, lambda ctx, p: _owner(ctx.state.owner[p]), kind="owner")
    reconstructed = {item["id"]: list(item.get("reconstructed", [])) for item in items}
    return SimpleNamespace(ids=ids, props=rows, reconstructed=reconstructed)


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat


def _has_type(value: Any, kind: str) -> bool:
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


# ---- the DSL's names ------------------------------------------------------------------------

def _vocabulary(build: Build, data: dict[str, Any]) -> None:
    """Resources, options, tokens, modifiers and each phase's DSL names; then derived values,
    which may use all of them."""
    vocab = build.vocab
    resources = data.get("resources", {})
    vocab.resources = tuple(resources)
    for name in resources:
        vocab.seat_attrs[name] = Attr(NUM, lambda ctx, s, r=name: ctx.state.resources[s][r], kind="resource", key=name)
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
        vocab.place_attrs[token] = Attr(NUM, lambda ctx, p, t=token: ctx.state.tokens[p].get(t, 0), kind="token",
                                        key=token)
    for name, spec in data.get("modifiers", {}).items():
        mod = ModifierDef(name, spec.get("scope", "seat"), spec.get("default", 0), spec.get("lasts", "phase"),
                          spec.get("doc", ""))
        vocab.modifiers[name] = mod
        if mod.scope == "place":
            vocab.place_attrs[name] = Attr(NUM, lambda ctx, p, m=mod: _read_mod(ctx.state, m, p), kind="modifier",
                                           key=mod)
    vocab.decks = tuple(data.get("decks", {}))
    for pid, spec in data.get("phases", {}).items():
        cls = MECHANICS.get(spec.get("mechanic"))
        if cls is not None:
            vocab.phases[pid] = cls.members(pid, spec)
            vocab.tables.update(cls.tables(pid, spec))
    for name in data.get("derived", {}):
        fn = build.expression(("derived", name), Scope(seat=False).over(PLACE))
        vocab.place_attrs[name] = Attr(fn.type, fn.at, kind="derived", key=fn.at)
    _reserved_names(build, data)
    build.known.update(resource=vocab.resources, deck=vocab.decks, token=vocab.tokens, modifier=vocab.modifiers)


def _read_mod(state: Any, mod: ModifierDef, index: int) -> Any:
    values = state.mods.get(mod.name)
    if values is None or values[index] is None:
        return mod.default
    return values[index]


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


# ---- material ---------------------------------------------------------------------------------

def _material(build: Build, data: dict[str, Any]) -> SimpleNamespace:
    tokens = data.get("tokens", {})
    token_supply, supply, capacity = {}, {}, {}
    for name, spec in tokens.items():
        token_supply[name] = spec.get("supply_of", name)
        if "supply" in spec:
            supply[name] = spec["supply"]
        if spec.get("capacity") is not None:
            attr_name = build.get(("tokens", name, "capacity"))
            attr = build.vocab.place_attrs.get(attr_name)
            if attr is None or attr.type != NUM:
                build.problem(("tokens", name, "capacity"), f"unknown number attribute '{attr_name}'",
                              did_you_mean(str(attr_name), build.vocab.place_attrs))
            else:
                capacity[name] = _capacity(attr)
    for name, kind in token_supply.items():
        if kind not in supply:
            build.problem(("tokens", name, "supply_of"), f"'{kind}' is not a token with a supply",
                          did_you_mean(kind, supply))
    conversions = []
    for i, conv in enumerate(data.get("conversions", [])):
        (source, count), = conv["from"].items()
        build.ref(("conversions", i, "to"), "token")
        if source not in tokens:
            build.problem(("conversions", i, "from"), f"unknown token '{source}'", did_you_mean(source, tokens))
        conversions.append((source, int(count), conv["to"]))
    decks = {}
    for name, spec in data.get("decks", {}).items():
        if spec.get("sell") and "sell_resource" not in spec:
            build.problem(("decks", name, "sell"), "a deck whose cards sell says for which resource: add sell_resource")
        elif "sell_resource" in spec:
            build.ref(("decks", name, "sell_resource"), "resource")
        decks[name] = DeckDef(name, spec.get("of") == "places", spec.get("sell", 0), spec.get("sell_resource"),
                              spec.get("reshuffle", False), spec.get("hidden", False), spec.get("one_per_kind"))
    goods = {}
    for name, spec in data.get("goods", {}).items():
        if "draw" in spec:
            build.ref(("goods", name, "draw"), "deck")
        if "token" in spec:
            build.ref(("goods", name, "token"), "token")
        goods[name] = GoodDef(name, spec.get("draw"), spec.get("token"))
    card_counts = {}
    for spec in data.get("cards", {}).values():
        card_counts[spec.get("deck")] = card_counts.get(spec.get("deck"), 0) + spec.get("count", 1)
    deck_sizes = {name: len(build.vocab.place_ids) if deck.of_places else card_counts.get(name, 0)
                  for name, deck in decks.items()}
    material = SimpleNamespace(token_supply=token_supply, supply=supply, capacity=capacity,
                               conversions=tuple(conversions), decks=decks, goods=goods, tokens=tokens,
                               deck_sizes=deck_sizes, places=build.vocab.place_ids,
                               players=data["players"]["max"],
                               resource_max={k: v["max"] for k, v in data.get("resources", {}).items() if "max" in v})
    build.known.update(good=goods, material=material)
    return material


def _capacity(attr: Attr) -> Any:
    """A printed property: its column of values; anything else: a function of (game, place)."""
    if attr.column is not None:
        return attr.column
    read = attr.read
    return lambda game, place: read(Ctx(game), place)


# ---- phases and cards ---------------------------------------------------------------------------

def _phases(build: Build, specs: dict[str, Any]) -> dict[str, Any]:
    phases = {}
    build.known["window"] = None        # any name: cards are checked against the phases' windows
    for pid, spec in specs.items():
        cls = MECHANICS.get(spec.get("mechanic"))
        if cls is None:
            build.known["mechanic"] = MECHANICS
            build.ref(("phases", pid, "mechanic"), "mechanic")
            continue
        phases[pid] = cls(pid, PhaseBuild(build, pid, cls.params))
    return phases


def _cards(build: Build, specs: dict[str, Any], phases: dict[str, Any]) -> dict[str, CardDef]:
    windows = set()
    for mech in phases.values():
        windows |= {w for w in (mech.window, getattr(mech, "attach_window", None)) if w}
    cards = {}
    for cid, spec in specs.items():
        build.ref(("cards", cid, "deck"), "deck")
        window = spec.get("window")
        if window is not None and window not in windows:
            build.problem(("cards", cid, "window"), f"no phase opens the card window '{window}'",
                          did_you_mean(window, windows))
        effect = build.effect(("cards", cid, "effect")) if "effect" in spec else None
        cards[cid] = CardDef(cid, spec["deck"], spec.get("count", 1), window, effect, spec.get("doc", ""))
    build.known["card"] = cards
    return cards


def _action_space(build: Build, phases: dict[str, Any], cards: dict[str, CardDef], material: Any) -> tuple:
    space = ActionSpace()
    material.cards = cards
    for mech in phases.values():
        mech.declare(space, material)
    windows = {mech.window for mech in phases.values() if mech.window}
    play_blocks = {}
    for cid in sorted(cards):
        card = cards[cid]
        if card.effect is not None and card.window in windows:
            play_blocks[cid] = space.declare("play", {"card": cid}, choice_fields(card.effect, material), PLAY)
    sellable = tuple(sorted(c for c, card in cards.items() if material.decks.get(card.deck)
                            and material.decks[card.deck].sell))
    sell_block = space.declare("sell", None, (("card", Values(sellable)),), SELL) if sellable else None
    space.number()
    return space, play_blocks, sell_block


# ---- schedule and winner ------------------------------------------------------------------------

def _schedule(build: Build, structure: dict[str, Any], phases: dict[str, Any]) -> tuple[Step, ...]:
    build.known["phase"] = phases
    for key in ("round", "age_end", "between_ages", "game_end"):
        for i, _ in enumerate(structure.get(key, [])):
            build.ref(("structure", key, i), "phase")
    entries = []
    ages, rounds = structure.get("ages", 1), structure.get("rounds", 1)
    for age in range(1, ages + 1):
        for rnd in range(1, rounds + 1):
            entries += [(p, age, rnd) for p in structure.get("round", [])]
        entries += [(p, age, rounds) for p in structure.get("age_end", [])]
        if age < ages:
            entries += [(p, age, rounds) for p in structure.get("between_ages", [])]
    entries += [(p, ages, rounds) for p in structure.get("game_end", [])]
    steps = []
    for i, (phase, age, rnd) in enumerate(entries):
        after = entries[i + 1] if i + 1 < len(entries) else None
        ends = ["phase"]
        if after is None or after[1:] != (age, rnd):
            ends.append("round")
        if after is None or after[1] != age:
            ends.append("age")
        if after is None:
            ends.append("game")
        steps.append(Step(phase, age, rnd, tuple(ends)))
    return tuple(steps)


def _winner(build: Build, spec: dict[str, Any]) -> WinnerDef:
    score = build.ref(("winner", "score"), "resource")
    by = build.expression(("winner", "by")) if "by" in spec else None
    tiebreaks = tuple(build.expression(("winner", "tiebreak", i)) for i in range(len(spec.get("tiebreak", []))))
    report = tuple(build.ref(("winner", "report", i), "resource") for i in range(len(spec.get("report", []))))
    return WinnerDef(score, by, tiebreaks, report)


def _problem_order(problem: Problem) -> tuple:
    span = problem.span
    return (span.file, span.line, span.col) if span else ("", 0, 0)


