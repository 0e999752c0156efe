"""The auction of one lot a seller puts up (interpreter/mechanics/lot_auction.py), in machine
code: once around, open, sealed or at a fixed price.

Its working data is its own (the bidding order it builds is not the phase's turn order): the
style (its index in LOT_STYLES), the seller, the turn, the best bid, the leader, the passes in
a row, the fixed price, the buyer (-1 for none), done; the bidding order (its length, then
the seats); each seat's sealed bid (-1: none yet); the lot (its length, then its places).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, material, ops
from .cards import add_id
from .core import sort_ids, stop
from .jit import jit, jit_inline
from .lower_mechanics import row
from .mechanics import answer
from .pointers import evaluate
from .turns import params, running, work

if TYPE_CHECKING:
    from ..mechanics.lot_auction import LotAuction

LOT_STYLES = ("once_around", "open", "sealed", "fixed_price")
ONCE_AROUND, OPEN, SEALED, FIXED_PRICE = 0, 1, 2, 3

# the row of parameters
LA_STYLE, LA_STYLE_PROG, LA_WORDS, LA_LOT, LA_SELLER, LA_TO_SELLER, LA_UNSOLD_TO_SELLER = 0, 1, 2, 3, 4, 5, 6
LA_SELLER_TIES, LA_PAY, LA_MOST, LA_ON_WIN, LA_PRICE_KEY, LA_WIN_KEY, LA_BID, LA_DECLINE = 7, 8, 9, 10, 11, 12, 13, 14
LA_PRICE, LA_BUY = 15, 16
# the working data
WL_STYLE, WL_SELLER, WL_TURN, WL_BEST, WL_LEADER, WL_PASSED, WL_PRICE, WL_BUYER, WL_DONE = 0, 1, 2, 3, 4, 5, 6, 7, 8
WL_N, WL_ORDER = 9, 10           # then the sealed bids (a row per seat), the lot's length, the lot


@jit_inline
def sealed_at(M):
    return work(M) + WL_ORDER + M[ops.TH_SEATS]


@jit_inline
def lot_at(M):
    """The lot's length; its places follow."""
    return work(M) + WL_ORDER + 2 * M[ops.TH_SEATS]


@jit_inline
def field(S, M, which):
    return S[work(M) + which]


@jit
def style_of(S, M, p):
    """The style's index: the word the rules give, or the word the style's expression gives
    (a rule failure for any other value)."""
    if M[p + LA_STYLE] >= 0:
        return M[p + LA_STYLE]
    value = evaluate(S, M, M[p + LA_STYLE_PROG], -1, -1)
    words = M[p + LA_WORDS]
    for k in range(4):
        if M[words + k] == value:
            return k
    stop(S, ops.ERR_RULE, M[p + LA_STYLE_PROG])
    return -1


@jit_inline
def begin(S, M, phase):
    p = params(M, phase)
    w = work(M)
    style = style_of(S, M, p)
    players = S[ops.S_PLAYERS]
    seller = S[ops.S_START]
    if M[p + LA_SELLER] >= 0:
        seller = evaluate(S, M, M[p + LA_SELLER], -1, -1)
        if seller < 0 or seller >= players:
            stop(S, ops.ERR_RULE, M[p + LA_SELLER])
    order = w + WL_ORDER
    for i in range(1, players):
        S[order + i - 1] = (seller + i) % players
    count = players - 1
    if style != FIXED_PRICE:
        S[order + count] = seller                   # the seller bids last
        count += 1
    S[w + WL_N] = count
    lot = lot_at(M)
    size = 0
    if M[p + LA_LOT] >= 0:
        mark = M[ops.X_ARENA_TOP]
        items = evaluate(S, M, M[p + LA_LOT], -1, -1)
        size = M[items]
        if size > M[ops.TH_PLACES]:
            stop(S, ops.ERR_ROOM, size)
        for i in range(size):
            S[lot + 1 + i] = M[items + 1 + i]
        M[ops.X_ARENA_TOP] = mark
    S[lot] = size
    S[w + WL_STYLE] = style
    S[w + WL_SELLER] = seller
    S[w + WL_TURN] = 0
    S[w + WL_BEST] = 0
    S[w + WL_LEADER] = -1
    S[w + WL_PASSED] = 0
    S[w + WL_PRICE] = -1
    S[w + WL_BUYER] = -1
    S[w + WL_DONE] = 1 if size == 0 else 0
    sealed = sealed_at(M)
    for seat in range(players):
        S[sealed + seat] = -1


@jit
def closed(S, M):
    """Whether the bidding is over (every seat has had its say, as its style wants)."""
    style = field(S, M, WL_STYLE)
    count = field(S, M, WL_N)
    if style == OPEN:
        return field(S, M, WL_PASSED) >= (count - 1 if field(S, M, WL_LEADER) >= 0 else count)
    if style == FIXED_PRICE:
        return field(S, M, WL_PRICE) >= 0 and (field(S, M, WL_BUYER) >= 0 or field(S, M, WL_TURN) >= count)
    return field(S, M, WL_TURN) >= count


@jit
def next_at(S, M):
    """Where in the bidding order the next bid is: in turn from `turn`, round and round when
    open, never the best bidder itself."""
    count = field(S, M, WL_N)
    at = field(S, M, WL_TURN)
    order = work(M) + WL_ORDER
    if field(S, M, WL_STYLE) == OPEN:
        at %= count
        if S[order + at] == field(S, M, WL_LEADER):
            at = (at + 1) % count
    if at < 0 or at >= count:
        stop(S, ops.ERR_RULE, at)               # the interpreter's index out of range
    return at


@jit_inline
def to_move(S, M):
    if field(S, M, WL_DONE) != 0 or closed(S, M):
        return -1
    if field(S, M, WL_STYLE) == FIXED_PRICE and field(S, M, WL_PRICE) < 0:
        return field(S, M, WL_SELLER)
    return S[work(M) + WL_ORDER + next_at(S, M)]


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    money = S[material.resource_at(M, seat, M[p + LA_PAY])]
    most = M[p + LA_MOST]
    top = money if money < most else most
    n = 0
    style = field(S, M, WL_STYLE)
    if style == FIXED_PRICE:
        price = field(S, M, WL_PRICE)
        if price < 0:                           # the seller sets it: at most what it has
            for amount in range(1 if top >= 1 else 0, top + 1):
                n = add_id(S, M, out, n, M[p + LA_PRICE] + amount)
            return n
        if money >= price:
            n = add_id(S, M, out, n, M[p + LA_BUY])
        n = add_id(S, M, out, n, M[p + LA_DECLINE])
        sort_ids(M, out, n)
        return n
    least = 1 if style == SEALED else field(S, M, WL_BEST) + 1
    base = M[p + LA_BID]
    for amount in range(least, top + 1):
        n = add_id(S, M, out, n, base + amount)
    n = add_id(S, M, out, n, M[p + LA_DECLINE])
    sort_ids(M, out, n)
    return n


@jit_inline
def declined(S, M, seat):
    S[work(M) + WL_PASSED] += 1
    if field(S, M, WL_STYLE) == SEALED:
        S[sealed_at(M) + seat] = 0


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    w = work(M)
    style = S[w + WL_STYLE]
    if style == FIXED_PRICE and S[w + WL_PRICE] < 0:
        S[w + WL_PRICE] = action - M[p + LA_PRICE]
        return
    S[w + WL_TURN] = next_at(S, M) + 1
    if action == M[p + LA_DECLINE]:
        declined(S, M, seat)
    elif action == M[p + LA_BUY]:
        S[w + WL_BUYER] = seat
    elif style == SEALED:
        S[sealed_at(M) + seat] = action - M[p + LA_BID]      # shown with every other as the bids close
    else:
        S[w + WL_BEST] = action - M[p + LA_BID]
        S[w + WL_LEADER] = seat
        S[w + WL_PASSED] = 0


@jit_inline
def pass_turn(S, M, phase, seat):
    S[work(M) + WL_TURN] = next_at(S, M) + 1
    declined(S, M, seat)


@jit
def secret_choices(S, M, phase, seat, out):
    """The bids the seat could have made (a decline among them), while the sealed bids are
    being made and it has made one (tools/determinize.py `_sealed_bids`); -1 otherwise."""
    if field(S, M, WL_STYLE) != SEALED or S[sealed_at(M) + seat] < 0:
        return -1
    for other in range(S[ops.S_PLAYERS]):
        if S[sealed_at(M) + other] < 0:
            return legal(S, M, phase, seat, out)
    return -1


@jit
def bid_again(S, M, phase, seat, action):
    """The seat's sealed bid is the one this id makes (a decline: 0), and the declines counted
    again as the game counts them."""
    p = params(M, phase)
    sealed = sealed_at(M)
    S[sealed + seat] = 0 if action == M[p + LA_DECLINE] else action - M[p + LA_BID]
    declines = 0
    for other in range(S[ops.S_PLAYERS]):
        if S[sealed + other] == 0:
            declines += 1
    S[work(M) + WL_PASSED] = declines


@jit
def sealed_winner(S, M, p):
    """The sealed bids shown together: (winner, price), the highest, a tie to the earlier in
    order (or to the seller first, with `ties: seller`); (-1, 0) when nobody bid."""
    order = work(M) + WL_ORDER
    count = field(S, M, WL_N)
    sealed = sealed_at(M)
    best = 0
    for i in range(count):
        bid = S[sealed + S[order + i]]
        if bid > best:
            best = bid
    if best <= 0:
        return -1, 0
    seller = field(S, M, WL_SELLER)
    if M[p + LA_SELLER_TIES] != 0:
        if S[sealed + seller] == best:
            return seller, best
        for i in range(count - 1):
            if S[sealed + S[order + i]] == best:
                return S[order + i], best
        return -1, 0
    for i in range(count):
        if S[sealed + S[order + i]] == best:
            return S[order + i], best
    return -1, 0


@jit
def resolve(S, M, phase):
    p = params(M, phase)
    w = work(M)
    seller, price = S[w + WL_SELLER], S[w + WL_BEST]
    style = S[w + WL_STYLE]
    if style == SEALED:
        winner, price = sealed_winner(S, M, p)
    elif style == FIXED_PRICE:
        winner, price = S[w + WL_BUYER], S[w + WL_PRICE]
    else:
        winner = S[w + WL_LEADER]
    if winner < 0:
        if M[p + LA_UNSOLD_TO_SELLER] == 0:
            S[w + WL_DONE] = 1
            return
        winner = seller
        price = S[w + WL_PRICE] if style == FIXED_PRICE else 0
    pay, key = M[p + LA_PAY], M[p + LA_PRICE_KEY]
    if M[p + LA_TO_SELLER] != 0 and winner != seller:
        material.transfer(S, M, winner, seller, pay, price, key)
    elif price != 0:
        material.gain(S, M, winner, pay, -price, key)
    effect = M[p + LA_ON_WIN]
    if effect >= 0:
        lot = lot_at(M)
        env = M[ops.TH_X_ENV]
        for i in range(S[lot]):
            M[env] = S[lot + 1 + i]
            cards.run_effect(S, M, effect, winner, M[p + LA_WIN_KEY])
    S[w + WL_DONE] = 1


@jit_inline
def auto(S, M, phase):
    if field(S, M, WL_DONE) != 0 or not closed(S, M):
        return False
    resolve(S, M, phase)
    return True


@jit_inline
def tensor(S, M, phase, seat, at):
    """Its piece while it runs: the style, the seller and the best bidder (one-hot), the best
    bid, the fixed price, the observing seat's own sealed bid."""
    if not running(S, M, phase):
        return
    seats, w = M[ops.TH_SEATS], work(M)
    M[at + S[w + WL_STYLE]] = 1
    if 0 <= S[w + WL_SELLER] < seats:
        M[at + 4 + S[w + WL_SELLER]] = 1
    if 0 <= S[w + WL_LEADER] < seats:
        M[at + 4 + seats + S[w + WL_LEADER]] = 1
    tail = at + 4 + 2 * seats
    M[tail] = S[w + WL_BEST]
    M[tail + 1] = S[w + WL_PRICE] if S[w + WL_PRICE] > 0 else 0
    if seat >= 0 and S[sealed_at(M) + seat] > 0:
        M[tail + 2] = S[sealed_at(M) + seat]


def hub(S, M, call, phase, seat, arg):
    """The part compiled for the phases of this mechanic (compiled/hubs.py): one call of the
    mechanic contract (ops.CALL_*), as mechanics.py sends it."""
    if call == ops.CALL_BEGIN:
        begin(S, M, phase)
        return 0
    if call == ops.CALL_AUTO:
        return 1 if auto(S, M, phase) else 0
    if call == ops.CALL_TO_MOVE:
        return to_move(S, M)
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
    if call == ops.CALL_SECRET_CHOICES:
        return secret_choices(S, M, phase, seat, arg)
    if call == ops.CALL_CHOOSE_AGAIN:
        bid_again(S, M, phase, seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: LotAuction) -> tuple[int, int, int]:
    constant = isinstance(mech.style, str)
    params_ = row({
        LA_STYLE: LOT_STYLES.index(mech.style) if constant else -1,
        LA_STYLE_PROG: -1 if constant else lowering.program(mech.style),
        LA_WORDS: lowering.put([lowering.value(word) for word in LOT_STYLES]),
        LA_LOT: lowering.program(mech.lot), LA_SELLER: lowering.program(mech.seller),
        LA_TO_SELLER: int(mech.to_seller), LA_UNSOLD_TO_SELLER: int(mech.unsold_to_seller),
        LA_SELLER_TIES: int(mech.seller_wins_ties), LA_PAY: lowering.resource(mech.pay), LA_MOST: mech.most,
        LA_ON_WIN: lowering.effect(mech.on_win), LA_PRICE_KEY: lowering.key(mech.price_cause),
        LA_WIN_KEY: lowering.key(mech.win_cause), LA_BID: mech.bid.base, LA_DECLINE: mech.decline.base,
        LA_PRICE: -1 if mech.price is None else mech.price.base, LA_BUY: -1 if mech.buy is None else mech.buy.base})
    seats = lowering.rules.max_players
    return lowering.put(params_), WL_ORDER + 2 * seats + 1 + lowering.place_count, 0


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    seats = lowering.rules.max_players
    order, lot = data["order"], data["lot"]

    def some(value: int | None) -> int:
        return -1 if value is None else value
    head = [LOT_STYLES.index(data["style"]), data["seller"], data["turn"], data["best"], some(data["leader"]),
            data["passed"], some(data["price"]), some(data["buyer"]), int(data["done"]), len(order)]
    sealed = [some(bid) for bid in data["sealed"]]
    return (head + order + [0] * (seats - len(order)) + sealed + [0] * (seats - len(sealed)) + [len(lot)] + lot
            + [0] * (lowering.place_count - len(lot)))
