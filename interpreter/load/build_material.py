"""Building the material of a rules file: token supplies and capacities, conversions, decks
(the places a deck of places holds, its display, how it is set up) and goods.

One step of interpreter/load/build_rules.py, after the vocabulary: every name it checks is known by then.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.causes import Cause
from ..base.errors import AmunreError, did_you_mean
from ..base.limits import MAX_HELD_AMOUNT
from ..dsl import Expression
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Attr
from ..dsl.types import BOOL, NUM, PLACE
from ..model import DeckDef, DeckSetup, Denominations, GoodDef
from ..play.denominations import payout
from .build_context import Build


def material(build: Build, data: dict[str, Any]) -> SimpleNamespace:
    """Tokens and their supplies, conversions, decks and goods: what phases and cards move."""
    tokens = data.get("tokens", {})
    token_supply, supply, capacity, unlimited = _tokens(build, tokens)
    conversions = _conversions(build, data, tokens)
    decks = _decks(build, data)
    goods = _goods(build, data)
    card_counts: dict[str, int] = {}
    for spec in data.get("cards", {}).values():
        card_counts[spec.get("deck")] = card_counts.get(spec.get("deck"), 0) + spec.get("count", 1)
    deck_sizes = {name: len(deck.places) if deck.of_places else card_counts.get(name, 0)
                  for name, deck in decks.items()}
    material = SimpleNamespace(token_supply=token_supply, supply=supply, capacity=capacity, unlimited=unlimited,
                               conversions=conversions, decks=decks, goods=goods, tokens=tokens,
                               deck_sizes=deck_sizes, places=build.vocab.place_ids,
                               players=data["players"]["max"],
                               resource_max={k: v["max"] for k, v in data.get("resources", {}).items() if "max" in v})
    build.known.update(good=goods, material=material)
    return material


def _tokens(build: Build, tokens: dict[str, Any]) -> tuple[dict[str, str], dict[str, int], dict[str, Any],
                                                            dict[str, Expression]]:
    """Each token's supply (its own, or another token's), the supplies' sizes, capacities read
    from a place attribute, and the supplies that may never run out."""
    token_supply: dict[str, str] = {}
    supply: dict[str, int] = {}
    capacity: dict[str, Any] = {}
    unlimited: dict[str, Expression] = {}
    for name, spec in tokens.items():
        token_supply[name] = spec.get("supply_of", name)
        if "supply" in spec:
            supply[name] = spec["supply"]
        if "unlimited_if" in spec:
            unlimited[name] = build.expression(("tokens", name, "unlimited_if"), Scope(seat=False), BOOL)
            if "supply" not in spec:
                build.problem(("tokens", name, "unlimited_if"), "only a token with its own `supply` may have an "
                              "unlimited one (set it on the token it shares)", key=True)
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
    return token_supply, supply, capacity, unlimited


def _conversions(build: Build, data: dict[str, Any], tokens: dict[str, Any]) -> tuple[tuple[str, int, str, Cause], ...]:
    """(count of a token -> one of another) rules, each with its cause."""
    conversions = []
    for i, conv in enumerate(data.get("conversions", [])):
        (source, count), = conv["from"].items()
        build.ref(("conversions", i, "to"), "token")
        if source not in tokens:
            build.problem(("conversions", i, "from"), f"unknown token '{source}'", did_you_mean(source, tokens))
        conversions.append((source, int(count), conv["to"],
                            build.cause("conversion", f"{source}_to_{conv['to']}", ("conversions", i))))
    return tuple(conversions)


def _decks(build: Build, data: dict[str, Any]) -> dict[str, DeckDef]:
    decks = {}
    for name, spec in data.get("decks", {}).items():
        if spec.get("sell") and "sell_resource" not in spec:
            build.problem(("decks", name, "sell"), "a deck whose cards sell says for which resource: add sell_resource")
        elif "sell_resource" in spec:
            build.ref(("decks", name, "sell_resource"), "resource")
        of_places = spec.get("of") == "places"
        display = build.expression(("decks", name, "display"), Scope(seat=False)) if "display" in spec else None
        decks[name] = DeckDef(name, of_places, spec.get("sell", 0), spec.get("sell_resource"),
                              spec.get("sell_to_afford", True), spec.get("reshuffle", False), spec.get("hidden", False),
                              spec.get("one_per_kind"), _deck_places(build, name, spec) if of_places else (), display)
    return decks


def _goods(build: Build, data: dict[str, Any]) -> dict[str, GoodDef]:
    goods = {}
    for name, spec in data.get("goods", {}).items():
        if "draw" in spec:
            build.ref(("goods", name, "draw"), "deck")
        if "token" in spec:
            build.ref(("goods", name, "token"), "token")
        goods[name] = GoodDef(name, spec.get("draw"), spec.get("token"))
    return goods


def _deck_places(build: Build, name: str, spec: dict[str, Any]) -> tuple[str, ...]:
    """The places a deck `of: places` holds: all, or those its `where` admits. The condition
    is read once, here, so it may use the places' printed properties only."""
    ids = build.vocab.place_ids
    if "where" not in spec:
        return ids
    path = ("decks", name, "where")
    where = build.expression(path, Scope(seat=False).over(PLACE), BOOL)
    try:
        return tuple(pid for p, pid in enumerate(ids) if where.fn(Ctx(None), p))
    except (AmunreError, AttributeError):           # it read the state, which does not exist yet
        build.problem(path, "a deck's `where` is read as the rules load: it may use the places' printed "
                      "properties only (no tokens, owners, modifiers or options)")
        return ids


def deck_setup(build: Build, name: str, decks: dict[str, DeckDef]) -> DeckSetup:
    """`setup.decks.NAME`: the count used, the places used, the stacks the deck is made of."""
    path = ("setup", "decks", name)
    deck = decks.get(name)
    if deck is None:
        build.problem(path, f"unknown deck '{name}'", did_you_mean(name, decks), key=True)
    spec = build.get(path)

    def expression(key: str, typ: Any = NUM, per_place: bool = False) -> Any:
        if key not in spec:
            return None
        if per_place and deck is not None and not deck.of_places:
            build.problem(path + (key,), f"'{key}' is about places: the deck '{name}' is not `of: places`", key=True)
        scope = Scope(seat=False).over(PLACE) if per_place else Scope(seat=False)
        return build.expression(path + (key,), scope, typ)
    return DeckSetup(expression("count"), expression("where", BOOL, True), expression("stacks"),
                     expression("top", BOOL, True))


def _capacity(attr: Attr) -> Any:
    """A printed property: its column of values; anything else: a function of (game, place)."""
    if attr.column is not None:
        return attr.column
    read = attr.read
    return lambda game, place: read(Ctx(game), place)


def denominations(build: Build, data: dict[str, Any]) -> dict[str, Denominations]:
    """The `denominations` of every resource that declares them, checked."""
    found = {}
    for name, spec in data.get("resources", {}).items():
        held = spec.get("denominations")
        if held is None:
            continue
        path = ("resources", name, "denominations")
        values = tuple(sorted(set(held["values"]), reverse=True))
        if 1 not in values:
            build.problem(path + ("values",), "cards of a resource need a value 1, so that the bank can pay "
                          "and give change of every amount")
        most = spec.get("max")
        if most is None or most > MAX_HELD_AMOUNT:
            build.problem(path, f"a resource held as cards needs a `max` of at most {MAX_HELD_AMOUNT:,}", key=True)
        start = spec.get("start", 0)
        cards = tuple(sorted(held["start"], reverse=True) if "start" in held else payout(values, start))
        for i, value in enumerate(held.get("start", [])):
            if value not in values:
                build.problem(path + ("start", i), f"{value} is not one of the values {list(values)}")
        if sum(cards) != start:
            build.problem(path + ("start",), f"these cards add up to {sum(cards)}, and {name} starts at {start}")
        when = build.expression(path + ("when",), Scope(seat=False), BOOL) if "when" in held else None
        found[name] = Denominations(name, values, cards, when)
    return found
