"""What a phase would give each seat if it ran now, by resource: the agents' own registries
(tools/mechanic_hooks.py), not the mechanics', since only the agents' value of a position
(tools/agents/value.py) asks it.

`FORECASTS` holds, per mechanic that gives seats something by itself (a scoring phase's
points, an income phase's pay), what it would give one seat; `FORECASTS_ALL`, for those of
them that compare seats, what it would give every seat, worked out once. A mechanic not in
`FORECASTS` gives nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from ...interpreter.dsl.context import Ctx
from ...interpreter.game import Game
from ...interpreter.mechanics.base import Mechanic
from ...interpreter.mechanics.income import Income
from ...interpreter.mechanics.score import Score
from ...interpreter.model import Rules
from ..mechanic_hooks import entry
from .score_memo import ScoreMemo

Forecast = dict[str, int]           # resource -> amount
One = Callable[[Any, Game, int], Forecast]
Every = Callable[[Any, Game], list[Forecast]]


def _income(mech: Income, game: Game, seat: int) -> Forecast:
    return {mech.resource: sum(mech.place_incomes(game, seat))}


def _score(mech: Score, game: Game, seat: int) -> Forecast:
    total = 0
    ctx = Ctx(game)
    for award in mech.awards:
        if award.when is None or award.when.fn(ctx):
            if award.kind == "points":          # per seat: the others' need not be worked out
                total += award.value.fn(Ctx(game, seat))
            else:
                total += mech.points(game, award).get(seat, 0)
    return {mech.resource: total}


def _score_all(mech: Score, game: Game) -> list[Forecast]:
    totals = [0] * game.state.players
    ctx = Ctx(game)
    for award in mech.awards:
        if award.when is None or award.when.fn(ctx):
            for seat, points in mech.points(game, award).items():
                totals[seat] += points
    return [{mech.resource: total} for total in totals]


FORECASTS: dict[type[Mechanic], One] = {Income: _income, Score: _score}
FORECASTS_ALL: dict[type[Mechanic], Every] = {Score: _score_all}


def forecast(mech: Mechanic, game: Game, seat: int) -> Forecast:
    """What the seat would get from this phase if it ran now, by resource (nothing, for a
    mechanic not in FORECASTS)."""
    found = entry(FORECASTS, mech)
    return found(mech, game, seat) if found is not None else {}


_FORECASTERS: WeakKeyDictionary[Rules, tuple[tuple[Mechanic, One, Every | None], ...]] = WeakKeyDictionary()


def forecasters(rules: Rules) -> tuple[tuple[Mechanic, One, Every | None], ...]:
    """The rules' phases that forecast anything, in order, each with its entries of FORECASTS
    and FORECASTS_ALL (looked up once per rules: an agent asks at every position it values).
    A scoring phase forecast the plain way for one seat gets its own memo's forecast instead
    (tools/agents/score_memo.py), which gives the same numbers."""
    found = _FORECASTERS.get(rules)
    if found is None:
        listed = []
        for mech in rules.phases.values():
            one = entry(FORECASTS, mech)
            if one is None:
                continue
            every = entry(FORECASTS_ALL, mech)
            if isinstance(mech, Score) and one is _score:
                one = ScoreMemo(mech).one
            listed.append((mech, one, every))
        found = _FORECASTERS[rules] = tuple(listed)
    return found
