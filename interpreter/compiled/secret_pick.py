"""A secret pick (interpreter/mechanics/secret_pick.py), in machine code: in turn order each
seat holding a card of the deck picks one from its hand, face down; once every seat has, the
picks go on top of the deck in turn order.

Working data after the turn head: whether the picks are revealed, then per seat its pick (a
card index, -1 for none yet). It keeps nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import material, ops, pack
from .cards import add_id
from .core import stop
from .jit import jit_inline
from .lower_mechanics import row, turn_head
from .mechanics import answer
from .turns import begin_turns, index_at, own, params, running, turn_seat, work

if TYPE_CHECKING:
    from ..mechanics.secret_pick import SecretPick

SP_DECK, SP_BASE, SP_N_CARDS, SP_CARDS = 0, 1, 2, 3     # SP_CARDS: the deck's cards by id (the pick's values)
WSP_REVEALED, WSP_PICKS = 0, 1


@jit_inline
def begin(S, M, phase):
    begin_turns(S, M, phase)
    at = own(M)
    S[at + WSP_REVEALED] = 0
    for seat in range(S[ops.S_PLAYERS]):
        S[at + WSP_PICKS + seat] = -1


@jit_inline
def auto(S, M, phase):
    """Every seat has picked: the picks go on top of the deck, in turn order."""
    at = own(M)
    n = S[work(M) + ops.W_N]
    if S[at + WSP_REVEALED] != 0 or S[index_at(M)] < n:
        return False
    deck = M[params(M, phase) + SP_DECK]
    draw = material.pile(M, deck, ops.DECK_S_DRAW)
    order = work(M) + ops.W_ORDER
    picked = 0
    for i in range(n):
        if S[at + WSP_PICKS + S[order + i]] >= 0:
            picked += 1
    length = S[draw]
    if length + picked > M[material.deck_row(M, deck) + ops.DECK_CAP]:
        stop(S, ops.ERR_ROOM, deck)
    for i in range(length - 1, -1, -1):          # the deck's cards move down under the picks
        S[draw + 1 + picked + i] = S[draw + 1 + i]
    k = 0
    for i in range(n):
        card = S[at + WSP_PICKS + S[order + i]]
        if card >= 0:
            S[draw + 1 + k] = card
            k += 1
    S[draw] = length + picked
    S[at + WSP_REVEALED] = 1
    return True


@jit_inline
def legal(S, M, phase, seat, out):
    """The cards of the deck the seat holds, one id each, in the order of their ids."""
    p = params(M, phase)
    base, cards_ = M[p + SP_BASE], M[p + SP_CARDS]
    n = 0
    for i in range(M[p + SP_N_CARDS]):
        if S[material.hand_at(M, seat, M[cards_ + i])] > 0:
            n = add_id(S, M, out, n, base + i)
    return n


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    i = action - M[p + SP_BASE]
    if i < 0 or i >= M[p + SP_N_CARDS]:
        stop(S, ops.ERR_RULE, phase)
    card = M[M[p + SP_CARDS] + i]
    material.from_hand(S, M, seat, card)
    S[own(M) + WSP_PICKS + seat] = card
    S[index_at(M)] += 1


@jit_inline
def tensor(S, M, phase, seat, at):
    """Its piece while it runs: per seat, whether it picked, then its card (one-hot over the
    deck's cards; another seat's only once the picks are revealed)."""
    if not running(S, M, phase):
        return
    p = params(M, phase)
    count, cards = M[p + SP_N_CARDS], M[p + SP_CARDS]
    revealed = S[own(M) + WSP_REVEALED] != 0
    for other in range(S[ops.S_PLAYERS]):
        card = S[own(M) + WSP_PICKS + other]
        if card < 0:
            continue
        M[at + other * (1 + count)] = 1
        if other == seat or revealed:
            for i in range(count):
                if M[cards + i] == card:
                    M[at + other * (1 + count) + 1 + i] = 1


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    if call == ops.CALL_TO_MOVE:
        return turn_seat(S, M)
    if call == ops.CALL_LEGAL:
        return legal(S, M, phase, seat, arg)
    if call == ops.CALL_APPLY:
        apply(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_PASS:
        S[index_at(M)] += 1                     # no card of the deck: nothing to pick
        return 0
    if call == ops.CALL_TENSOR:
        tensor(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: SecretPick) -> tuple[int, int, int]:
    cards = [lowering.card_index[c] for c in mech.pick.values_field().values]
    params_ = row({SP_DECK: lowering.deck(mech.deck), SP_BASE: mech.pick.base, SP_N_CARDS: len(cards),
                   SP_CARDS: lowering.put(cards)})
    return lowering.put(params_), turn_head(lowering) + WSP_PICKS + lowering.rules.max_players, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    seats = lowering.rules.max_players
    picks = [-1 if card is None else lowering.card_index[card] for card in data["picks"]]
    return (pack.turn_data(seats, data["order"], data["idx"]) + [int(data["revealed"])] + picks
            + [0] * (seats - len(picks)))
