"""The market (interpreter/mechanics/market.py), in machine code.

Working data after the turn head: the good now on sale (its stage), and the token bought and
not yet placed with how many are left (-1, 0 for none). It keeps the items bought in its
latest run (`PHASE.bought`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import material, ops, pack
from .cards import add_id
from .core import stop
from .jit import jit, jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .pointers import evaluate
from .turns import begin_turns, index_at, own, params, running, turn_seat

if TYPE_CHECKING:
    from ..mechanics.market import Market


@jit_inline
def kept_at(M, phase):
    return M[M[ops.TH_KEPT] + phase]


@jit_inline
def begin(S, M, phase):
    begin_turns(S, M, phase)
    at = own(M)
    S[at + ops.WMK_STAGE] = 0
    S[at + ops.WMK_TOKEN] = -1
    S[at + ops.WMK_COUNT] = 0
    kept = kept_at(M, phase)
    S[kept] = 1
    S[kept + 1] = 0


@jit_inline
def good_at(M, p, stage):
    """Where the stage's good's numbers are (ops.MKG_*)."""
    return M[p + ops.MK_GOODS] + ops.MKG_FIELDS * stage


@jit
def cost(S, M, p, good, seat, n):
    """The price of n items of a good (at `good`: good_at), tabled when its curve depends on n alone."""
    prices = M[good + ops.MKG_PRICES]
    if prices >= 0 and n < M[prices]:
        return M[prices + 1 + n]
    if n == 0:
        return 0
    M[M[ops.TH_X_ENV] + M[p + ops.MK_N_SLOT]] = n
    price = evaluate(S, M, M[good + ops.MKG_PRICE], seat, -1)
    if price < 0:
        stop(S, ops.ERR_RULE, M[good + ops.MKG_PRICE])
    return price


@jit
def available(S, M, seat, good):
    """How many of a good the seat could receive now (goods.available)."""
    row = M[ops.TH_GOOD] + good * ops.GOOD_FIELDS
    deck = M[row + ops.GOOD_DECK]
    if deck >= 0:
        return material.cards_available(S, M, deck)
    token = M[row + ops.GOOD_TOKEN]
    supply = material.supply_of(S, M, token)
    owners = M[ops.TH_S_OWNER]
    owned = False
    bounded = M[M[ops.TH_TOKEN_CAPACITY] + 2 * token] != ops.CAP_NONE
    room = 0
    for place in range(M[ops.TH_PLACES]):
        if S[owners + place] == seat:
            owned = True
            if bounded:
                free = material.capacity(S, M, place, token) - S[material.token_at(M, place, token)]
                if free > 0:
                    room += free
    if not owned:
        return 0
    if not bounded:
        return supply
    return room if room < supply else supply


@jit
def most(S, M, p, seat, stage):
    """The most of the stage's good the seat may buy: what its purse pays for, what is
    available, and its limit."""
    goods = good_at(M, p, stage)
    purse = S[material.resource_at(M, seat, M[p + ops.MK_PAY])]
    peaks = M[goods + ops.MKG_PEAKS]
    afford = -1
    if peaks >= 0:
        i = 1                                   # bisect_right(peaks, purse, 1) - 1
        while i < M[peaks] and M[peaks + 1 + i] <= purse:
            i += 1
        afford = i - 1
        if afford == 0:
            return 0
    found = available(S, M, seat, M[goods + ops.MKG_GOOD])
    limit = M[goods + ops.MKG_LIMIT]
    if found != 0 and limit >= 0:
        limited = evaluate(S, M, limit, seat, -1)
        if limited < found:
            found = limited
    if afford >= 0 and found < M[peaks]:
        return found if found < afford else afford
    for n in range(1, found + 1):
        if cost(S, M, p, goods, seat, n) > purse:
            return n - 1
    return found


@jit
def place_targets(S, M, seat, token, base, out, n):
    """The seat's places with room for one more of the token, as ids base + place."""
    owners = M[ops.TH_S_OWNER]
    bounded = M[M[ops.TH_TOKEN_CAPACITY] + 2 * token] != ops.CAP_NONE
    for place in range(M[ops.TH_PLACES]):
        if S[owners + place] == seat and (
                not bounded or material.capacity(S, M, place, token) > S[material.token_at(M, place, token)]):
            n = add_id(S, M, out, n, base + place)
    return n


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    at = own(M)
    token = S[at + ops.WMK_TOKEN]
    if token >= 0:
        return place_targets(S, M, seat, token, M[M[p + ops.MK_PLACE_BASE] + token], out, np.int64(0))
    stage = S[at + ops.WMK_STAGE]
    if stage < M[p + ops.MK_N_GOODS]:
        top = most(S, M, p, seat, stage)
        if top <= 0:
            return 0
        base = M[good_at(M, p, stage) + ops.MKG_BASE]
        n = 0
        for count in range(top + 1):
            n = add_id(S, M, out, n, base + count)
        return n
    return add_id(S, M, out, 0, M[p + ops.MK_CLOSING])


@jit_inline
def pass_turn(S, M, phase, seat):
    S[own(M) + ops.WMK_STAGE] += 1


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    at = own(M)
    token = S[at + ops.WMK_TOKEN]
    if token >= 0:
        material.place_tokens(S, M, action - M[M[p + ops.MK_PLACE_BASE] + token], token, np.int64(1))
        S[at + ops.WMK_COUNT] -= 1
        if S[at + ops.WMK_COUNT] == 0:
            S[at + ops.WMK_TOKEN] = -1
        return
    if action == M[p + ops.MK_CLOSING]:
        S[index_at(M)] += 1
        S[at + ops.WMK_STAGE] = 0
        return
    stage = S[at + ops.WMK_STAGE]
    goods = good_at(M, p, stage)
    count = action - M[goods + ops.MKG_BASE]
    S[at + ops.WMK_STAGE] = stage + 1
    if count == 0:
        return
    price = cost(S, M, p, goods, seat, count)
    S[kept_at(M, phase) + 1] += count
    material.gain(S, M, seat, M[p + ops.MK_PAY], -price, M[p + ops.MK_PRICE_KEY])
    row = M[ops.TH_GOOD] + M[goods + ops.MKG_GOOD] * ops.GOOD_FIELDS
    deck = M[row + ops.GOOD_DECK]
    if deck >= 0:
        material.draw(S, M, seat, deck, count, M[p + ops.MK_GOODS_KEY])
    else:
        S[at + ops.WMK_TOKEN] = M[row + ops.GOOD_TOKEN]
        S[at + ops.WMK_COUNT] = count



@jit_inline
def tensor(S, M, phase, seat, at):
    """Its piece while it runs: the good on sale (one-hot; last: done), then tokens bought and
    not yet placed."""
    if not running(S, M, phase):
        return
    p = params(M, phase)
    goods = M[p + ops.MK_N_GOODS]
    stage = S[own(M) + ops.WMK_STAGE]
    if 0 <= stage <= goods:
        M[at + stage] = 1
    token = S[own(M) + ops.WMK_TOKEN]
    if token >= 0:
        sold = M[p + ops.MK_SOLD]
        for i in range(M[p + ops.MK_N_SOLD]):
            if M[sold + i] == token:
                M[at + goods + 1 + i] = S[own(M) + ops.WMK_COUNT]


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_TO_MOVE:
        return turn_seat(S, M)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_PASS:
        pass_turn(S, M, phase, seat)
        return 0
    if call == ops.CALL_TENSOR:
        tensor(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: Market) -> tuple[int, int, int]:
    goods = []
    for (good, limit), block, curve, prices, peaks in zip(mech.goods, mech.buys, mech.curves, mech.price_tables,
                                                         mech.peaks):
        goods += row({ops.MKG_GOOD: list(lowering.rules.goods).index(good.id), ops.MKG_LIMIT: lowering.program(limit),
                      ops.MKG_BASE: block.base, ops.MKG_PRICE: lowering.program(curve),
                      ops.MKG_PRICES: -1 if prices is None else lowering.put([len(prices), *prices]),
                      ops.MKG_PEAKS: -1 if peaks is None else lowering.put([len(peaks), *peaks])})
    place_base = [mech.places[t].base if t in mech.places else -1 for t in lowering.tokens]
    sold = [lowering.token(t) for t in mech._tokens_sold()]
    params = row({ops.MK_PAY: lowering.resource(mech.pay),
                  ops.MK_N_GOODS: len(mech.goods), ops.MK_GOODS: lowering.put(goods),
                  ops.MK_PRICE_KEY: lowering.key(mech.price_cause), ops.MK_GOODS_KEY: lowering.key(mech.goods_cause),
                  ops.MK_PLACE_BASE: lowering.put(place_base), ops.MK_CLOSING: mech.closing.base,
                  ops.MK_N_SOLD: len(sold), ops.MK_SOLD: lowering.put(sold), ops.MK_N_SLOT: lowering.slot("n")})
    return lowering.put(params), turn_head(lowering) + 3, 1


def member(lowering: Any, phase: int, mech: Market, name: str) -> tuple[int, int, int] | None:
    """`PHASE.bought`: the items bought in the phase's latest run (0 before it first runs)."""
    return (ops.MEMBER_KEPT_OR_ZERO, phase, 0) if name == "bought" else None


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    placing = data["placing"]
    token = [-1, 0] if not placing else [lowering.token(placing[0]), placing[1]]
    return pack.turn_data(lowering.rules.max_players, data["order"], data["idx"]) + [data["stage"], *token]


def pack_kept(lowering: Any, pid: str, kept: dict[str, Any]) -> list[int]:
    return [kept["bought"]]
