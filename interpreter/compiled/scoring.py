"""The mechanics that run by themselves once: scoring (interpreter/mechanics/score.py) and the
reset between ages (reset.py), in machine code. Their working data is one flag: done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import decks, material, ops
from .core import checked, release, scratch
from .jit import jit, jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .pointers import evaluate
from .turns import params, work

if TYPE_CHECKING:
    from ..mechanics.reset import Reset
    from ..mechanics.score import Score


@jit_inline
def begin_once(S, M, phase):
    S[work(M) + ops.W_DONE] = 0


@jit_inline
def score(S, M, phase):
    """Every award of the phase, in order, each after the ones before it have scored."""
    if S[work(M) + ops.W_DONE] != 0:
        return False
    p = params(M, phase)
    seats = M[ops.TH_SEATS]
    points = scratch(S, M, seats)
    for a in range(M[p + ops.SC_N_AWARDS]):
        award = M[p + ops.SC_AWARDS] + a * ops.AW_FIELDS
        when = M[award + ops.AW_WHEN]
        if when >= 0 and evaluate(S, M, when, -1, -1) == 0:
            continue
        award_points(S, M, award, points)
        for seat in range(S[ops.S_PLAYERS]):
            if M[points + seat] != 0:
                material.gain(S, M, seat, M[p + ops.SC_RES], M[points + seat], M[award + ops.AW_KEY])
                tally = M[award + ops.AW_TALLY]
                if tally >= 0:
                    material.gain(S, M, seat, tally, M[points + seat], M[award + ops.AW_KEY])
    release(M, points)
    S[work(M) + ops.W_DONE] = 1
    return True


@jit
def forecast(S, M, phase, seat):
    """The points every award of the phase whose condition holds would give the seat now,
    none of them applied (tools/agents/forecast.py `_score`: a points award worked out for
    this seat alone)."""
    p = params(M, phase)
    total = 0
    points = scratch(S, M, M[ops.TH_SEATS])
    for a in range(M[p + ops.SC_N_AWARDS]):
        award = M[p + ops.SC_AWARDS] + a * ops.AW_FIELDS
        when = M[award + ops.AW_WHEN]
        if when >= 0 and evaluate(S, M, when, -1, -1) == 0:
            continue
        if M[award + ops.AW_KIND] == ops.AWARD_POINTS:
            total = checked(S, total + evaluate(S, M, M[award + ops.AW_VALUE], seat, -1))
        else:
            award_points(S, M, award, points)
            total = checked(S, total + M[points + seat])
    release(M, points)
    return total


@jit_inline
def points_at(M, award, place):
    """The points of the place-th best (0 past the list)."""
    if place < M[award + ops.AW_N_POINTS]:
        return M[M[award + ops.AW_POINTS] + place]
    return 0


@jit
def award_points(S, M, award, points):  # noqa: C901 (the three kinds of award)
    """Points per seat for one award in the current state, into M[points:]."""
    n = S[ops.S_PLAYERS]
    for seat in range(n):
        M[points + seat] = 0
    kind = M[award + ops.AW_KIND]
    if kind == ops.AWARD_POINTS:
        for seat in range(n):
            M[points + seat] = evaluate(S, M, M[award + ops.AW_VALUE], seat, -1)
        return
    keys, nkeys = M[award + ops.AW_KEYS], M[award + ops.AW_N_KEYS]
    if kind == ops.AWARD_RANK:
        values = scratch(S, M, n)
        for seat in range(n):
            M[values + seat] = evaluate(S, M, M[keys], seat, -1)
        for seat in range(n):
            place, tied = 0, 0
            for other in range(n):
                if M[values + other] > M[values + seat]:
                    place += 1
                elif M[values + other] == M[values + seat]:
                    tied += 1
            if M[award + ops.AW_AVERAGE] != 0:
                total = 0
                for i in range(tied):
                    total += points_at(M, award, place + i)
                M[points + seat] = total // tied
            else:
                M[points + seat] = points_at(M, award, place)
        release(M, values)
        return
    among = M[award + ops.AW_AMONG]
    mark = M[ops.X_ARENA_TOP]
    if among >= 0:
        items = evaluate(S, M, among, -1, -1)
        count = M[items]
    else:
        items = -1
        count = n
    scored = scratch(S, M, count * (nkeys + 1))
    env = M[ops.TH_X_ENV]
    for i in range(count):
        element = M[items + 1 + i] if among >= 0 else i
        M[scored + i * (nkeys + 1)] = element
        for k in range(nkeys):
            if among >= 0:
                M[env] = element
                M[scored + i * (nkeys + 1) + 1 + k] = evaluate(S, M, M[keys + k], -1, -1)
            else:
                M[scored + i * (nkeys + 1) + 1 + k] = evaluate(S, M, M[keys + k], element, -1)
    best = -1
    for i in range(count):
        if best < 0 or compare(M, scored + i * (nkeys + 1) + 1, scored + best * (nkeys + 1) + 1, nkeys) > 0:
            best = i
    if best >= 0 and M[scored + best * (nkeys + 1) + 1] > 0:
        for i in range(count):
            if compare(M, scored + i * (nkeys + 1) + 1, scored + best * (nkeys + 1) + 1, nkeys) == 0:
                element = M[scored + i * (nkeys + 1)]
                winner = material.owner_of(S, M, element) if among >= 0 else element
                if winner >= 0:
                    M[points + winner] = M[M[award + ops.AW_POINTS]]
    release(M, scored)
    M[ops.X_ARENA_TOP] = mark


@jit_inline
def compare(M, a, b, n):
    """Compare two tuples of n numbers: -1, 0 or 1."""
    for i in range(n):
        if M[a + i] != M[b + i]:
            return 1 if M[a + i] > M[b + i] else -1
    return 0


@jit_inline
def reset(S, M, phase):
    """Tokens of some kinds back to the supply, places released, a deck rebuilt."""
    if S[work(M) + ops.W_DONE] != 0:
        return False
    p = params(M, phase)
    remove, release_places = M[p + ops.RS_REMOVE], M[p + ops.RS_RELEASE] != 0
    for place in range(M[ops.TH_PLACES]):
        for i in range(M[p + ops.RS_N_REMOVE]):
            token = M[remove + i]
            have = S[material.token_at(M, place, token)]
            if have != 0:
                material.remove_tokens(S, M, place, token, have)
        if release_places:
            material.set_owner(S, M, place, -1)
    deck = M[p + ops.RS_DECK]
    if deck >= 0:
        discards = evaluate(S, M, M[p + ops.RS_FROM_DISCARDS], -1, -1) != 0
        set_aside = evaluate(S, M, M[p + ops.RS_FROM_SET_ASIDE], -1, -1) != 0
        decks.rebuild(S, M, deck, discards, set_aside)
    S[work(M) + ops.W_DONE] = 1
    return True


def score_hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin_once(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if score(S, M, phase) else 0
    if call == ops.CALL_FORECAST:
        return forecast(S, M, phase, seat)
    return answer(S, call, phase)


def reset_hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin_once(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if reset(S, M, phase) else 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower_score(lowering: Any, pid: str, mech: Score) -> tuple[int, int, int]:
    awards = []
    for award in mech.awards:
        kind = {"points": ops.AWARD_POINTS, "award": ops.AWARD_BEST, "rank": ops.AWARD_RANK}[award.kind]
        keys = [lowering.program(k) for k in award.keys]
        awards += [lowering.key(award.cause), kind, lowering.program(award.when), lowering.program(award.value),
                   len(award.points), lowering.put(list(award.points)), lowering.program(award.among), len(keys),
                   lowering.put(keys), int(award.average), lowering.resource(award.tally) if award.tally else -1]
    params = row({ops.SC_RES: lowering.resource(mech.resource), ops.SC_N_AWARDS: len(mech.awards),
                  ops.SC_AWARDS: lowering.put(awards)})
    return lowering.put(params), 1, 0


def lower_reset(lowering: Any, pid: str, mech: Reset) -> tuple[int, int, int]:
    remove = [lowering.token(t) for t in mech.remove or ()]
    params = row({ops.RS_N_REMOVE: len(remove), ops.RS_REMOVE: lowering.put(remove),
                  ops.RS_RELEASE: int(bool(mech.release)),
                  ops.RS_DECK: lowering.deck(mech.deck) if mech.deck else -1,
                  ops.RS_FROM_DISCARDS: lowering.program(mech.p.rebuild_from_discards),
                  ops.RS_FROM_SET_ASIDE: lowering.program(mech.p.rebuild_from_set_aside),
                  ops.RS_KEY: lowering.key(mech.cause)})
    return lowering.put(params), 1, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py): done."""
    return [int(data["done"])]
