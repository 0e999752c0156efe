"""Scoring: a list of named awards, each giving points to seats. No decisions.

Kinds of award, each with an `id` (its name in the score breakdown) and an optional `when`:
- `points: EXPR`: every seat scores EXPR (with `my` = that seat);
- `award: {points, among, by, ties}`: the best place of `among` (or, without `among`, the
  best seat) by the keys `by` in order scores `points` for its owner; the first key must be
  positive; every tied one scores (`ties: all`, the only reading so far);
- `rank: {by, points: [first, second, ...], ties}`: seats ranked by EXPR; tied seats push
  the next seats down, and score either the points of the best place they share (`ties:
  best`, the default) or those of all the places they share, averaged and rounded down
  (`ties: average`).
Points go to the `resource` parameter, by default the winner's score; an award's `tally`
names a resource that gets the same points as well (to compare seats by one award later,
as a tie-break across several scorings does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base.causes import Cause
from ..dsl import Expression
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.types import BOOL, PLACE
from ..model import Game
from ..play import material
from .base import Doc, Mechanic
from .params import Builder, Param, PhaseBuilder, Ref


@dataclass(frozen=True)
class Award:
    id: str
    kind: str                 # "points", "award" or "rank"
    when: Expression | None
    value: Expression | None = None  # points: the expression
    points: tuple[int, ...] = ()
    among: Expression | None = None
    keys: tuple[Expression, ...] = ()
    average: bool = False     # rank: tied seats share the points of their places, rounded down
    tally: str | None = None  # a resource that gets the same points as well
    cause: Cause | None = None    # in the seat's sources (by `id`) and the log


class Awards(Param):
    kind = "list of awards"

    def value_schema(self) -> dict[str, Any]:
        expr, cond = {"$ref": "#/$defs/expression"}, {"$ref": "#/$defs/condition"}
        best = {"type": "object", "additionalProperties": False, "required": ["points", "by"], "properties": {
            "points": {"description": "Points for the best.", "type": "integer"},
            "among": {"description": "Places compared (no seat); without it, seats are compared.",
                      "$ref": "#/$defs/collection"},
            "by": {"description": "Keys compared in order (place scope with `among`, else per seat).",
                   "type": "array", "minItems": 1, "items": expr},
            "ties": {"description": "Every tied best scores.", "enum": ["all"]}}}
        ranked = {"type": "object", "additionalProperties": False, "required": ["by", "points"], "properties": {
            "by": {"description": "Expression per seat ranking the seats.", **expr},
            "points": {"description": "Points for the 1st, 2nd, ... place.", "type": "array",
                       "items": {"type": "integer"}},
            "ties": {"description": "Tied seats score the points of the best place they share (`best`, the "
                     "default), or those of all the places they share, averaged and rounded down (`average`).",
                     "enum": ["best", "average"]}}}
        item = {"type": "object", "additionalProperties": False, "required": ["id"],
                "oneOf": [{"required": ["points"]}, {"required": ["award"]}, {"required": ["rank"]}],
                "properties": {
                    "id": {"description": "The award's name in the score breakdown.", "$ref": "#/$defs/name"},
                    "same_as": {"description": "The id this award has in another edition (for amunre diff).",
                                "$ref": "#/$defs/name"},
                    "when": {"description": "Condition (no seat): the award counts only when it holds.", **cond},
                    "points": {"description": "Expression per seat: the points every seat scores.", **expr},
                    "award": {"description": "Points for the best place of `among` (its owner), or for the best seat.",
                              **best},
                    "rank": {"description": "Points by rank among the seats.", **ranked},
                    "tally": {"description": "A resource that gets the award's points as well.",
                              "$ref": "#/$defs/name"}}}
        return {"type": "array", "items": item}

    def compile(self, build: Builder, path: tuple) -> Any:
        return [_award(build, path + (i,), spec) for i, spec in enumerate(build.get(path))]

    def absent(self, build: Builder, path: tuple) -> Any:
        return []


def _award(build: Builder, path: tuple, spec: dict[str, Any]) -> Award:
    when = build.expression(path + ("when",), Scope(seat=False), BOOL) if "when" in spec else None
    tally = build.ref(path + ("tally",), "resource") if "tally" in spec else None
    cause = build.cause("score", spec["id"], path)
    if "points" in spec:
        return Award(spec["id"], "points", when, value=build.expression(path + ("points",)), tally=tally, cause=cause)
    if "award" in spec:
        best = spec["award"]
        places = "among" in best
        scope = Scope(seat=False).over(PLACE) if places else Scope()
        keys = tuple(build.expression(path + ("award", "by", k), scope) for k in range(len(best.get("by", []))))
        among = build.collection(path + ("award", "among"), Scope(seat=False)) if places else None
        if among is not None and among.type.kind == "list" and among.type.item != PLACE:
            build.problem(path + ("award", "among"), f"'among' names places to compare, not {among.type}")
        return Award(spec["id"], "award", when, points=(best["points"],), among=among, keys=keys, tally=tally,
                     cause=cause)
    ranked = spec["rank"]
    return Award(spec["id"], "rank", when, points=tuple(ranked.get("points", [])),
                 keys=(build.expression(path + ("rank", "by")),), average=ranked.get("ties") == "average",
                 tally=tally, cause=cause)


class Score(Mechanic):
    automatic = True
    name = "score"
    doc = "Each award of `rules` gives points to seats, in order. No decisions."
    params = (
        Awards("rules", "The awards, each with an `id`, an optional `when`, and one of `points`, `award`, `rank`.",
               required=True),
        Ref("resource", "The resource the points are added to (default: the winner's `score`).", "resource"),
    )
    events = (Doc("score", '{"event": "score", "seat": 0, "source": "AWARD", "points": 6}',
                  "points an award gave a seat"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.awards = self.p.rules
        self.resource = self.p.resource or build.top("winner", "score")

    def describe(self) -> str:
        ids = dict.fromkeys(a.id for a in self.awards)      # an award written in variants (by `when`): once
        return "Score: " + ", ".join(ids) + "."

    def begin(self, game: Game) -> None:
        game.state.working = {"done": False}

    def auto(self, game: Game) -> bool:
        if game.state.working["done"]:
            return False
        ctx = Ctx(game)            # one context (no seat) for every award's condition: it keeps nothing
        for award in self.awards:
            if award.when is None or award.when.fn(ctx):        # after the awards before it have scored
                for seat, points in self.points(game, award).items():
                    if points:
                        if game.log is not None:
                            game.event({"event": "score", "seat": seat, "source": award.id, "points": points})
                        material.gain(game, seat, self.resource, points, award.cause)
                        if award.tally is not None:
                            material.gain(game, seat, award.tally, points, award.cause)
        game.state.working["done"] = True
        return True

    def points(self, game: Game, award: Award) -> dict[int, int]:
        """Points per seat for one award in the current state."""
        ctx = Ctx(game)
        if award.kind == "points":
            assert award.value is not None                  # a points award has its expression
            return _per_seat(ctx, award.value.fn)
        if award.kind == "rank":
            return _ranked(award, _per_seat(ctx, award.keys[0].fn))
        if award.among is not None:
            ats = [key.at for key in award.keys]
            scored = {p: tuple([at(ctx, p) for at in ats]) for p in award.among.fn(ctx)}
        else:
            fns = [key.fn for key in award.keys]
            scored = _per_seat(ctx, lambda seat_ctx: tuple([fn(seat_ctx) for fn in fns]))
        best = max(scored.values(), default=None)
        if not best or best[0] <= 0:
            return {}
        winners = [x for x, key in scored.items() if key == best]
        if award.among is not None:                 # places: their owners score
            owner = game.state.owner
            winners = [owner[p] for p in winners if owner[p] >= 0]
        return {s: award.points[0] for s in set(winners)}


def _per_seat(ctx: Ctx, fn: Any) -> dict[int, Any]:
    """fn for every seat, in one context (`ctx`, without a seat) moved from seat to seat."""
    values = {}
    for seat in range(ctx.state.players):
        ctx.seat = seat
        values[seat] = fn(ctx)
    ctx.seat = None
    return values


def _ranked(award: Award, values: dict[int, int]) -> dict[int, int]:
    """Points by rank: a seat's place is the number of seats with more; tied seats score their
    best place's points, or (average) the mean of the places they share, rounded down."""
    def at(place: int) -> int:
        return award.points[place] if place < len(award.points) else 0
    out = {}
    for seat, value in values.items():
        place = sum(1 for other in values.values() if other > value)
        if award.average:
            tied = sum(1 for other in values.values() if other == value)
            out[seat] = sum(at(place + i) for i in range(tied)) // tied
        else:
            out[seat] = at(place)
    return out
