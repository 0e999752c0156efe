"""Score forecasts kept by what their awards read: the agents value tens of thousands of
positions a game, and a scoring phase's points change far less often than the positions do.

Measured on greedy (issue 23): in one four-player game it valued 35,718 positions, only
3,013 of them distinct once the resources were left out, and the score forecasts were the
largest part of its time. The whole position as a key cost more than it saved (it differs
in everything an offer or a bid changes). So each award of a scoring phase is asked what
it reads (interpreter/dsl/reads.py, from the checker's record of its names): the awards that
read only known parts of the state (the owners, the tokens, some options, resources or
modifiers, what a phase keeps read through a member that declares it, such as the row a
secret offer picked...) are worked out once per distinct value of those parts and kept; the
others (a query or a value read by a function the checker cannot see into) are worked out
every time, as before. The sums are of whole numbers, so the kept and the fresh forecasts are
the same to the bit, and so are the agents' choices.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any

from ...interpreter.dsl.context import Ctx
from ...interpreter.dsl.reads import Part, state_reads
from ...interpreter.game import Game
from ...interpreter.mechanics.score import Award, Score

LIMIT = 8192                # kept forecasts per phase at most: past it, the memo starts afresh
_MISSING = ...               # a name absent from the state (the fresh forecast fails on it); no value read is `...`


def award_reads(award: Award) -> frozenset[Part] | None:
    """What the award's points depend on, or None when that is not known."""
    parts: set[Part] = {("players",)}               # every seat is scored
    if award.among is not None:
        parts.add(("owner",))                       # a best place scores its owner
    for expression in (award.when, award.value, award.among, *award.keys):
        if expression is not None:
            found = state_reads(expression)
            if found is None:
                return None
            parts |= found
    return frozenset(parts)


def state_key(parts: frozenset[Part]) -> Callable[[Any], bytes]:
    """A function of the state giving a key (bytes) equal for two states only when they agree
    on every one of the parts (read as the generated code reads them). The parts are written
    with `marshal` (format 2: no references, so the bytes depend on the values alone), which
    builds and hashes faster than nested tuples of the same values (issue 23). It tells apart
    some values that compare equal (1 and True, two equal dicts filled in another order): two
    keys for one forecast, never one key for two."""
    owner, tokens, hands = ("owner",) in parts, ("tokens",) in parts, ("hands",) in parts
    start = ("start_player",) in parts
    options = tuple(sorted(p[1] for p in parts if p[0] == "options"))
    resources = tuple(sorted(p[1] for p in parts if p[0] == "resources"))
    mods = tuple(sorted(p[1] for p in parts if p[0] == "mods"))
    kept = tuple(sorted(p[1] for p in parts if p[0] == "kept"))

    def key(state: Any) -> bytes:
        out: list[Any] = [state.players]
        if owner:
            out.append(state.owner)
        if tokens:
            out.append(state.tokens)
        if hands:
            out.append([len(h) for h in state.hands])
        if start:
            out.append(state.start_player)
        for name in options:
            out.append(state.options.get(name, _MISSING))
        for name in resources:
            out.append([r.get(name, _MISSING) for r in state.resources])
        for name in mods:
            out.append(state.mods.get(name))
        for phase in kept:                          # a member reads the phase's kept data alone
            out.append(state.kept.get(phase))
        return marshal.dumps(out, 2)
    return key


class ScoreMemo:
    """The forecasts of one scoring phase for one seat: its awards with known reads, kept by a
    key of those reads and the seat, and the rest, worked out each time. `one` replaces the
    plain forecast of tools/agents/forecast.py for this phase and gives the same numbers.

    The forecast of every seat at once (FORECASTS_ALL, which the search agent asks at the end
    of each playout) is not kept: its random playouts end on positions too varied (four in
    five missed the memo) for the key to pay for itself."""

    def __init__(self, mech: Score) -> None:
        kept: list[Award] = []
        direct: list[Award] = []
        parts: set[Part] = set()
        for award in mech.awards:
            reads = award_reads(award)
            if reads is None:
                direct.append(award)
            else:
                kept.append(award)
                parts |= reads
        self.kept, self.direct = tuple(kept), tuple(direct)
        self.key = state_key(frozenset(parts))
        self.ones: dict[Any, int] = {}

    def one(self, mech: Score, game: Game, seat: int) -> dict[str, int]:
        total = 0
        if self.kept:
            try:
                key = (self.key(game.state), seat)
                total = self.ones[key]
            except KeyError:
                total = self._store(self.ones, key, _one(mech, game, seat, self.kept))
            except ValueError:                      # a value read that marshal cannot write
                total = _one(mech, game, seat, self.kept)
        if self.direct:
            total += _one(mech, game, seat, self.direct)
        return {mech.resource: total}

    @staticmethod
    def _store(memo: dict[Any, Any], key: Any, value: Any) -> Any:
        if len(memo) >= LIMIT:
            memo.clear()
        memo[key] = value
        return value


def _one(mech: Score, game: Game, seat: int, awards: tuple[Award, ...]) -> int:
    """The points these awards would give the seat now (as tools/agents/forecast.py works
    them out: a points award for this seat only)."""
    total = 0
    ctx = Ctx(game)
    for award in awards:
        if award.when is None or award.when.fn(ctx):
            if award.kind == "points":
                assert award.value is not None
                total += award.value.fn(Ctx(game, seat))
            else:
                total += mech.points(game, award).get(seat, 0)
    return total
