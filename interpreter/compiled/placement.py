"""The auction on a bid track (interpreter/mechanics/placement.py), in machine code.

Working data after the turn head (whose index is the turn counter): resolved, how many lots,
the lots (places), then each seat's bid as (lot, space index), -1 for none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import cards, material, ops, pack
from .cards import add_id
from .core import stop
from .jit import jit, jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .pointers import evaluate
from .turns import begin_turns, index_at, own, params, running, work

if TYPE_CHECKING:
    from ..mechanics.placement import PlacementAuction


@jit_inline
def bids_at(M):
    return own(M) + ops.WPL_LOTS + M[ops.TH_PLACES]


@jit_inline
def begin(S, M, phase):
    p = params(M, phase)
    count = evaluate(S, M, M[p + ops.PL_COUNT], -1, -1)
    deck = M[p + ops.PL_DECK]
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    take = count if count > 0 else 0
    if take > S[draw]:
        take = S[draw]
    lots = own(M) + ops.WPL_LOTS
    for i in range(take):
        card = material.pop_top(S, draw)
        place = M[M[ops.TH_CARD] + card * ops.CARD_FIELDS + ops.CARD_PLACE]
        if place < 0:
            stop(S, ops.ERR_RULE, card)
        S[lots + i] = place
    S[own(M) + ops.WPL_NLOTS] = take
    bids = bids_at(M)
    for seat in range(M[ops.TH_SEATS]):
        S[bids + 2 * seat] = -1
        S[bids + 2 * seat + 1] = -1
    S[own(M) + ops.WPL_RESOLVED] = 0
    begin_turns(S, M, phase)


@jit_inline
def best_of(S, M, lot):
    """The best bid on a lot: (its space index, the seat holding it); (-1, -1) for none."""
    bids = bids_at(M)
    space, holder = np.int64(-1), np.int64(-1)     # not bare numbers: jit.py says why
    for seat in range(S[ops.S_PLAYERS]):
        if S[bids + 2 * seat] == lot and S[bids + 2 * seat + 1] > space:
            space, holder = S[bids + 2 * seat + 1], np.int64(seat)
    return space, holder


@jit_inline
def auto(S, M, phase):
    if S[own(M) + ops.WPL_RESOLVED] != 0:
        return False
    n = S[ops.S_PLAYERS]
    wanted = S[own(M) + ops.WPL_NLOTS]
    if wanted > n:
        wanted = n
    bids = bids_at(M)
    count = 0
    for seat in range(n):
        if S[bids + 2 * seat] >= 0:
            count += 1
    if count < wanted:
        return False
    distinct = 0
    for seat in range(n):
        lot = S[bids + 2 * seat]
        if lot < 0:
            continue
        first = True
        for other in range(seat):
            if S[bids + 2 * other] == lot:
                first = False
        if first:
            distinct += 1
    if distinct < wanted:
        return False
    resolve(S, M, phase)
    return True


@jit_inline
def to_move(S, M, phase):
    if S[own(M) + ops.WPL_RESOLVED] != 0:
        return -1
    n = S[ops.S_PLAYERS]
    order = work(M) + ops.W_ORDER
    turn = S[index_at(M)]
    bids = bids_at(M)
    for _ in range(n + 1):
        seat = S[order + turn % n]
        lot = S[bids + 2 * seat]
        if lot < 0:
            return seat
        space = S[bids + 2 * seat + 1]
        for other in range(n):
            if S[bids + 2 * other] == lot and S[bids + 2 * other + 1] > space:
                return seat
        turn += 1
    stop(S, ops.ERR_STUCK, phase)
    return -1


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    bids = bids_at(M)
    barred = -1
    if S[bids + 2 * seat] >= 0 and material.mod_read(S, M, M[p + ops.PL_REBID_MOD], seat) == 0:
        barred = S[bids + 2 * seat]
    spaces, width = M[p + ops.PL_SPACES], M[p + ops.PL_N_SPACES]
    purse = S[material.resource_at(M, seat, M[p + ops.PL_PAY])]
    affordable = 0
    while affordable < width and M[spaces + affordable] <= purse:
        affordable += 1
    block = M[p + ops.PL_BLOCK_MOD]
    blocking = S[M[material.mod_row(M, block) + ops.MOD_S]] != 0
    skip = 1 + M[material.mod_row(M, block) + ops.MOD_DEFAULT]
    base = M[p + ops.PL_BID_BASE]
    lots = own(M) + ops.WPL_LOTS
    n = 0
    for slot in range(S[own(M) + ops.WPL_NLOTS]):
        lot = S[lots + slot]
        if lot == barred:
            continue
        space, holder = best_of(S, M, lot)
        first = 0
        if space >= 0:
            first = space + (1 + material.mod_read(S, M, block, holder) if blocking else skip)
        for index in range(first if first > 0 else 0, affordable):
            n = add_id(S, M, out, n, base + slot * width + index)
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    width = M[p + ops.PL_N_SPACES]
    offset = action - M[p + ops.PL_BID_BASE]
    slot, index = offset // width, offset % width
    bids = bids_at(M)
    S[bids + 2 * seat] = S[own(M) + ops.WPL_LOTS + slot]
    S[bids + 2 * seat + 1] = index
    material.mod_unset(S, M, M[p + ops.PL_REBID_MOD], seat)
    n = S[ops.S_PLAYERS]
    order = work(M) + ops.W_ORDER
    turn = S[index_at(M)]
    while S[order + turn % n] != seat:
        turn += 1
    S[index_at(M)] = turn + 1


@jit
def resolve(S, M, phase):
    p = params(M, phase)
    deck = M[p + ops.PL_DECK]
    discards = material.pile(M, deck, ops.DECK_S_DISCARD)
    lots = own(M) + ops.WPL_LOTS
    spaces = M[p + ops.PL_SPACES]
    env = M[ops.TH_X_ENV]
    for slot in range(S[own(M) + ops.WPL_NLOTS]):
        lot = S[lots + slot]
        material.push(S, M, discards, deck, M[M[ops.TH_PLACE_CARD] + lot])
        space, seat = best_of(S, M, lot)
        if space < 0:
            continue
        material.gain(S, M, seat, M[p + ops.PL_PAY], -M[spaces + space], M[p + ops.PL_PRICE_KEY])
        effect = M[p + ops.PL_ON_WIN]
        if effect >= 0:
            M[env] = lot
            cards.run_effect(S, M, effect, seat, M[p + ops.PL_WIN_KEY])
    for slot in range(S[own(M) + ops.WPL_NLOTS]):
        S[lots + slot] = 0
    S[own(M) + ops.WPL_NLOTS] = 0
    S[own(M) + ops.WPL_RESOLVED] = 1


@jit_inline
def end(S, M, phase):
    if S[own(M) + ops.WPL_RESOLVED] != 0:
        return
    p = params(M, phase)
    deck = M[p + ops.PL_DECK]
    discards = material.pile(M, deck, ops.DECK_S_DISCARD)
    lots = own(M) + ops.WPL_LOTS
    for slot in range(S[own(M) + ops.WPL_NLOTS]):
        material.push(S, M, discards, deck, M[M[ops.TH_PLACE_CARD] + S[lots + slot]])



@jit_inline
def tensor(S, M, phase, seat, at):
    """Its pieces while it runs: the lots up (one-hot over places), each seat's bid (the lot
    one-hot, then the bid)."""
    if not running(S, M, phase):
        return
    places = M[ops.TH_PLACES]
    lots = own(M) + ops.WPL_LOTS
    for slot in range(S[own(M) + ops.WPL_NLOTS]):
        M[at + S[lots + slot]] = 1
    bids, spaces = bids_at(M), M[params(M, phase) + ops.PL_SPACES]
    for other in range(S[ops.S_PLAYERS]):
        lot = S[bids + 2 * other]
        if lot >= 0:
            M[at + places + other * (places + 1) + lot] = 1
            M[at + places + other * (places + 1) + places] = M[spaces + S[bids + 2 * other + 1]]


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    if call == ops.CALL_TO_MOVE:
        return to_move(S, M, phase)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_END:
        end(S, M, phase)
        return 0
    if call == ops.CALL_TENSOR:
        tensor(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: PlacementAuction) -> tuple[int, int, int]:
    seats = lowering.rules.max_players
    params = row({ops.PL_DECK: lowering.deck(mech.deck), ops.PL_COUNT: lowering.program(mech.count),
                  ops.PL_N_SPACES: len(mech.spaces), ops.PL_SPACES: lowering.put(list(mech.spaces)),
                  ops.PL_PAY: lowering.resource(mech.pay), ops.PL_ON_WIN: lowering.effect(mech.on_win),
                  ops.PL_PRICE_KEY: lowering.key(mech.price_cause), ops.PL_WIN_KEY: lowering.key(mech.win_cause),
                  ops.PL_BLOCK_MOD: lowering.modifier(mech.block.name),
                  ops.PL_REBID_MOD: lowering.modifier(mech.rebid.name),
                  ops.PL_BID_BASE: mech.bid.base})
    work = turn_head(lowering) + ops.WPL_LOTS + lowering.place_count + 2 * seats
    return lowering.put(params), work, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    seats, places = lowering.rules.max_players, lowering.place_count
    lots = data["lots"]
    bids = []
    for seat in range(seats):
        bid = data["bids"][seat] if seat < len(data["bids"]) else None
        bids += [-1, -1] if bid is None else list(bid)
    return (pack.turn_data(seats, data["order"], data["turn"]) + [int(data["resolved"]), len(lots)]
            + lots + [0] * (places - len(lots)) + bids)
