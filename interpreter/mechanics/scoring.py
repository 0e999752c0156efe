"""Scoring: a list of named awards, each giving victory points to seats.

Kinds of award, each with an `id` (its name in the score breakdown) and an optional `when`:
- `vp: EXPR`: every seat scores EXPR (with `my` = that seat);
- `award: {vp, among, by, ties}`: the best place of `among` (or, without `among`, the best
  seat) by the keys `by` in order scores vp for its owner; the first key must be positive;
  every tied one scores (`ties: all`, the only reading so far);
- `rank: {by, vp: [first, second, ...]}`: seats ranked by EXPR; tied seats all score their
  place's points and push the next seats down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import board
from ..context import Ctx
from ..dsl_compile import Scope
from .base import Mechanic

Fn = Callable[[Ctx], Any]


@dataclass(frozen=True)
class Award:
    id: str
    kind: str                 # "vp", "award" or "rank"
    when: Fn | None
    value: Fn | None = None   # vp: the points expression
    points: tuple[int, ...] = ()
    among: Fn | None = None
    keys: tuple[Fn, ...] = ()


class Score(Mechanic):
    name = "score"

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.awards = [self._award(build, i, spec) for i, spec in enumerate(build.get("rules", default=[]))]

    @staticmethod
    def _award(build: Any, i: int, spec: dict[str, Any]) -> Award:
        when = build.expression("rules", i, "when", scope=Scope(seat=False)) if "when" in spec else None
        if "vp" in spec:
            return Award(spec["id"], "vp", when, value=build.expression("rules", i, "vp"))
        if "award" in spec:
            a = spec["award"]
            places = "among" in a
            keys = tuple(build.expression("rules", i, "award", "by", k, scope=Scope(element=places, seat=not places))
                         for k in range(len(a.get("by", []))))
            among = build.collection("rules", i, "award", "among", scope=Scope(seat=False)) if places else None
            return Award(spec["id"], "award", when, points=(a["vp"],), among=among, keys=keys)
        r = spec.get("rank", {})
        return Award(spec["id"], "rank", when, points=tuple(r.get("vp", [])),
                     keys=(build.expression("rules", i, "rank", "by"),))

    def describe(self) -> str:
        return "Score: " + ", ".join(a.id for a in self.awards) + "."

    def next_seat(self, game: Any) -> int | None:
        for award in self.awards:
            if award.when is None or award.when(Ctx(game)):
                for seat, vp in self.points(game, award).items():
                    if vp:
                        board.gain(game, seat, "vp", vp, award.id)
                        game.event({"event": "score", "seat": seat, "source": award.id, "vp": vp})
        return None

    def points(self, game: Any, award: Award) -> dict[int, int]:
        """Points per seat for one award in the current state."""
        seats = range(game.state.players)
        if award.kind == "vp":
            return {s: award.value(Ctx(game, s)) for s in seats}
        if award.kind == "rank":
            values = {s: award.keys[0](Ctx(game, s)) for s in seats}
            out = {}
            for s in seats:
                place = sum(1 for o in seats if values[o] > values[s])
                out[s] = award.points[place] if place < len(award.points) else 0
            return out
        if award.among is not None:
            ctx = Ctx(game)
            scored = {p: tuple(_at(ctx, p, k) for k in award.keys) for p in award.among(ctx)}
            owners = {p: game.state.owner[p] for p in scored}
        else:
            scored = {s: tuple(k(Ctx(game, s)) for k in award.keys) for s in seats}
            owners = {s: s for s in scored}
        best = max(scored.values(), default=None)
        if not best or best[0] <= 0:
            return {}
        winners = {owners[x] for x, key in scored.items() if key == best and owners[x] >= 0}
        return {s: award.points[0] for s in winners}


def _at(ctx: Ctx, place: int, fn: Fn) -> Any:
    ctx.it = place
    return fn(ctx)
