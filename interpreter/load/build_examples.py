"""The `examples:` section: worked examples, checked and compiled with the rest of the file.

An example names its seats; in its expectations each name is a seat and each place id a place,
so `anna.cards == 3` and `PLACE.owner == anna` are plain DSL conditions, compiled once
here like every other string of the file (errors at FILE:LINE:COL, inside the string). Moves
are kept as written: whether one is legal depends on the position, so tools/examples.py finds
it out as it plays. Seat names stand for seat numbers everywhere else an example names a seat.
"""

from __future__ import annotations

import re
from typing import Any

from ..dsl.ast import Binary, Expr
from ..dsl.builtins import RESERVED
from ..dsl.checked import NO_SEAT
from ..dsl.types import BOOL, PLACE, SEAT
from ..model import Example, ExampleCheck, ExampleStep
from .build_context import Build

NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
STEP_KEYS = ("move", "play", "until", "expect", "times")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def build_examples(build: Build, specs: list[dict[str, Any]], place_ids: tuple[str, ...]) -> tuple[Example, ...]:
    """Every example of the file, its names checked and its conditions compiled."""
    examples = []
    seen: set[str] = set()
    for i, spec in enumerate(specs):
        path = ("examples", i)
        if spec["id"] in seen:
            build.problem(path + ("id",), f"there is already an example '{spec['id']}' in this file")
        seen.add(spec["id"])
        examples.append(_example(build, path, spec, place_ids))
    return tuple(examples)


def _example(build: Build, path: tuple, spec: dict[str, Any], place_ids: tuple[str, ...]) -> Example:
    setup_spec = spec["setup"]
    players = setup_spec["players"]
    fewest, most = build.get(("players", "min")), build.get(("players", "max"))
    if not fewest <= players <= most:
        build.problem(path + ("setup", "players"), f"these rules are for {fewest} to {most} players, not {players}")
    seats = tuple(setup_spec.get("seats", [f"seat{n}" for n in range(players)]))
    if len(seats) != players:
        build.problem(path + ("setup", "seats"), f"name each of the {players} seats: {len(seats)} names given")
    names = Names(build, seats, players)
    setup = _setup(build, path + ("setup",), setup_spec, names, place_ids)
    steps = tuple(_step(build, path + ("steps", j), step, names, place_ids)
                  for j, step in enumerate(spec["steps"]))
    return Example(spec["id"], spec["section"], spec.get("about", ""), players, setup_spec.get("seed", 0),
                   seats, setup, steps, build.doc.span(path))


class Names:
    """An example's seat names: a name or a number, checked, as a seat number."""

    def __init__(self, build: Build, seats: tuple[str, ...], players: int) -> None:
        self.build, self.seats, self.players = build, seats, players

    def seat(self, path: tuple, value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            if value >= self.players:
                self.build.problem(path, f"there are {self.players} seats, numbered from 0: no seat {value}")
            return value
        if value in self.seats:
            return self.seats.index(value)
        self.build.problem(path, f"'{value}' names no seat of this example", f"the seats are: {', '.join(self.seats)}")
        return 0

    def plain(self, value: Any) -> Any:
        """A mapping or list as written, with every seat name as its number."""
        if isinstance(value, dict):
            return {k: self.plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.plain(v) for v in value]
        return self.seats.index(value) if isinstance(value, str) and value in self.seats else value


def _setup(build: Build, path: tuple, spec: dict[str, Any], names: Names, place_ids: tuple[str, ...]) -> dict[str, Any]:
    """The set-up as new_game takes it (interpreter/play/setup.py checks the rest as the game starts)."""
    setup: dict[str, Any] = {}
    if "start_player" in spec:
        setup["start_player"] = names.seat(path + ("start_player",), spec["start_player"])
    for key in ("options", "decks"):
        if key in spec:
            setup[key] = dict(spec[key])
    if "hands" in spec:
        hands: list[list[str]] = [[] for _ in range(names.players)]
        for who, cards in spec["hands"].items():
            hands[names.seat(path + ("hands", who), _number(who))] = list(cards)
        setup["hands"] = hands
    if "resources" in spec:
        resources = {}
        for name, amounts in spec["resources"].items():
            if name not in build.get(("resources",), {}):
                build.problem(path + ("resources", name), f"unknown resource '{name}'", key=True)
            given = {names.seat(path + ("resources", name, who), _number(who)): n for who, n in amounts.items()}
            start = build.get(("resources", name, "start"), 0)
            resources[name] = [given.get(seat, start) for seat in range(max(given, default=-1) + 1)]
        setup["resources"] = resources
    if "owners" in spec:
        owners = {}
        for place, who in spec["owners"].items():
            if place not in place_ids:
                build.problem(path + ("owners", place), f"unknown place '{place}'", key=True)
            owners[place] = names.seat(path + ("owners", place), who)
        setup["owners"] = owners
    return setup


def _number(key: Any) -> Any:
    """A mapping key that is a seat's number (YAML keys `0:` come as numbers, JSON ones as text)."""
    return int(key) if isinstance(key, str) and key.isdigit() else key


def _step(build: Build, path: tuple, spec: dict[str, Any], names: Names, place_ids: tuple[str, ...]) -> ExampleStep:
    span = build.doc.span(path)
    keys = set(spec)
    if "expect" in keys:
        if keys != {"expect"}:
            build.problem(path, "an `expect` step holds nothing else")
        checks = tuple(_check(build, path + ("expect", k), item, names, place_ids)
                       for k, item in enumerate(spec["expect"]))
        return ExampleStep("expect", span, checks=checks)
    if "play" in keys or "until" in keys:
        if keys != {"play", "until"}:
            build.problem(path, "bots play with `play: AGENT` and stop at `until: ...`: give both, and nothing else")
        until = spec.get("until", "end")
        if isinstance(until, dict) and "phase" in until:
            build.ref(path + ("until", "phase"), "phase")
        return ExampleStep("play", span, action=spec.get("play", "random"), until=until)
    times = spec.get("times", 1)
    keys.discard("times")
    if keys == {"move"}:
        return ExampleStep("move", span, action=names.plain(spec["move"]), times=times)
    seats = [k for k in keys if k not in STEP_KEYS]
    if len(keys) != 1 or not seats:
        build.problem(path, "a step is `SEAT: MOVE` or `move: MOVE` (with `times: N` to repeat it), "
                            "`play: AGENT` with `until`, or `expect: [...]`")
        return ExampleStep("move", span)
    who = seats[0]
    return ExampleStep("move", span, seat=names.seat(path + (who,), _number(who)), action=names.plain(spec[who]),
                       times=times)


def _check(build: Build, path: tuple, item: Any, names: Names, place_ids: tuple[str, ...]) -> ExampleCheck:
    span = build.doc.span(path)
    if isinstance(item, str):
        return _condition(build, path, item, names, place_ids)
    if len(item) != 1:
        build.problem(path, "one check per item: write each on its own line (`- phase: market`, `- round: 2`)")
    kind, value = next(iter(item.items()))
    if kind == "phase":
        build.ref(path + ("phase",), "phase")
    if kind == "to_move" and value is not None:
        value = names.seat(path + ("to_move",), value)
    if kind == "winners":
        value = sorted(names.seat(path + ("winners", n), v) for n, v in enumerate(value))
    if kind in ("legal", "illegal", "events", "no_events"):
        value = names.plain(value)
    if kind in ("hidden", "shown"):
        value = [_sight(build, path + (kind, n), sight, names) for n, sight in enumerate(value)]
    return ExampleCheck(kind, value, f"{kind}: {value}", span)


def _sight(build: Build, path: tuple, sight: dict[str, Any], names: Names) -> tuple[int, int, str]:
    """(the seat looking, the seat looked at, the resource)."""
    if sight["resource"] not in build.get(("resources",), {}):
        build.problem(path + ("resource",), f"unknown resource '{sight['resource']}'")
    return names.seat(path + ("from",), sight["from"]), names.seat(path + ("of",), sight["of"]), sight["resource"]


def _condition(build: Build, path: tuple, text: str, names: Names, place_ids: tuple[str, ...]) -> ExampleCheck:
    """A DSL condition over the position, with its comparisons (the whole, or its `and`-ed
    parts) kept as parsed, so that a failure can say which part and what each number is."""
    taken = _meaning_taken(build)
    bound = {name: PLACE for name in place_ids if NAME.match(name) and name not in names.seats and name not in taken}
    bound.update({name: SEAT for name in names.seats})
    scope = NO_SEAT
    for name, typ in bound.items():
        scope = scope.bind(name, typ)
    condition = build.expression(path, scope, wanted=BOOL)
    comparisons = tuple(part for part in _parts(condition.tree) if isinstance(part, Binary) and part.op in COMPARISONS)
    return ExampleCheck("condition", condition, text, build.doc.span(path), comparisons, scope)


def _parts(tree: Expr | None) -> list[Expr]:
    """The conditions `and` joins at the top of a condition (the condition itself if none)."""
    if isinstance(tree, Binary) and tree.op == "and":
        return _parts(tree.left) + _parts(tree.right)
    return [] if tree is None else [tree]


def _meaning_taken(build: Build) -> set[str]:
    """The names that already mean something in the DSL: a place id spelt like one (a resource,
    a token, a DSL word...) keeps that meaning in an example, and the place is reached otherwise
    (`count(PLACES where id == 'NAME')`). A value word is the exception: where places are
    named after the values of a property (a column per value), the place is what an example
    means, and `PLACE.PROPERTY` gives the word."""
    vocab = build.vocab
    return (set(RESERVED) | set(vocab.resources) | set(vocab.decks) | set(vocab.tokens)
            | set(vocab.modifiers) | set(vocab.phases) | set(vocab.place_attrs) | set(vocab.seat_attrs)
            | {vocab.noun, vocab.plural})

