"""Secret simultaneous contribution (interpreter/mechanics/secret_offer.py), in machine code.

Working data after the turn head: the stage (offer, resolve, reward), the total, the queue's
length; then per seat the kind of its offer (none, an amount, the steal card, a steal), its
amount, how many cards it attached; the cards attached (in order, per seat); the queue of
(seat, card) to resolve or (seat, rewards left). It keeps the row its total picked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import cards, material, ops, pack
from .cards import add_id
from .core import release, scratch
from .held_cards import sums_bits
from .jit import allocating, jit, jit_inline
from .lower_mechanics import row, turn_head
from .market import place_targets
from .mechanics import answer
from .turns import begin_turns, count_pick, index_at, own, params, running, work

if TYPE_CHECKING:
    from ..mechanics.secret_offer import SecretOffer


@jit_inline
def kinds_at(M):
    return own(M) + 3


@jit_inline
def amounts_at(M):
    return own(M) + 3 + M[ops.TH_SEATS]


@jit_inline
def counts_at(M):
    return own(M) + 3 + 2 * M[ops.TH_SEATS]


@jit_inline
def attached_at(M, p, seat):
    return own(M) + 3 + 3 * M[ops.TH_SEATS] + seat * M[p + ops.SO_ATTACH_CAP]


@jit_inline
def queue_at(M, p):
    return own(M) + 3 + 3 * M[ops.TH_SEATS] + M[ops.TH_SEATS] * M[p + ops.SO_ATTACH_CAP]


@jit
def queue_pop(S, M, p):
    """Take the queue's head off; its (seat, value)."""
    q = queue_at(M, p)
    n = S[own(M) + ops.WSO_QN]
    seat, value = S[q], S[q + 1]
    for i in range(2, 2 * n):
        S[q + i - 2] = S[q + i]
    S[q + 2 * n - 2] = 0
    S[q + 2 * n - 1] = 0
    S[own(M) + ops.WSO_QN] = n - 1
    return seat, value


@jit_inline
def queue_push(S, M, p, seat, value):
    q = queue_at(M, p)
    n = S[own(M) + ops.WSO_QN]
    S[q + 2 * n] = seat
    S[q + 2 * n + 1] = value
    S[own(M) + ops.WSO_QN] = n + 1


@jit_inline
def begin(S, M, phase):
    begin_turns(S, M, phase)
    at = own(M)
    S[at + ops.WSO_STAGE] = ops.STAGE_OFFER
    S[at + ops.WSO_TOTAL] = 0
    S[at + ops.WSO_QN] = 0
    for seat in range(M[ops.TH_SEATS]):
        S[kinds_at(M) + seat] = ops.OFFER_NONE
        S[amounts_at(M) + seat] = 0
        S[counts_at(M) + seat] = 0


@jit_inline
def auto(S, M, phase):
    stage = S[own(M) + ops.WSO_STAGE]
    if stage == ops.STAGE_OFFER and S[index_at(M)] == S[work(M) + ops.W_N]:
        reveal(S, M, phase)
        return True
    if stage == ops.STAGE_RESOLVE and S[own(M) + ops.WSO_QN] == 0:
        settle(S, M, phase)
        return True
    return False


@jit_inline
def to_move(S, M, phase):
    if S[own(M) + ops.WSO_STAGE] == ops.STAGE_OFFER:
        return S[work(M) + ops.W_ORDER + S[index_at(M)]]
    if S[own(M) + ops.WSO_QN] > 0:
        return S[queue_at(M, params(M, phase))]
    return -1


@jit_inline
def attached_holds(S, M, p, seat, card):
    at = attached_at(M, p, seat)
    for i in range(S[counts_at(M) + seat]):
        if S[at + i] == card:
            return True
    return False


@allocating
def made_offers(S, M, held, seat, least, purse, base, out, n):
    """The offers of the amounts from `least` to the purse that some of the seat's cards add up to."""
    if purse < least:
        return n
    reach = np.zeros(purse + 1, np.bool_)
    sums_bits(material.held_values(M, held), material.held_counts(S, M, held, seat), reach)
    for amount in range(least, purse + 1):
        if reach[amount]:
            n = add_id(S, M, out, n, base + amount)
    return n


@jit
def offers(S, M, p, seat, out):
    n = np.int64(0)
    attach = M[p + ops.SO_ATTACH_BASE]
    if attach >= 0:
        cards_ = M[p + ops.SO_ATTACHABLE]
        for i in range(M[p + ops.SO_N_ATTACHABLE]):
            card = M[cards_ + i]
            if S[material.hand_at(M, seat, card)] > 0 and not attached_holds(S, M, p, seat, card):
                n = add_id(S, M, out, n, attach + i)
    start = n
    base = M[p + ops.SO_OFFER_BASE]
    pay = M[p + ops.SO_PAY]
    purse = S[material.resource_at(M, seat, pay)]
    held = material.held_of(S, M, pay) if S[ops.S_HELD] != 0 else -1
    if held >= 0:                               # held as cards: only what some of them make
        n = made_offers(S, M, held, seat, M[p + ops.SO_MINIMUM], purse, base, out, n)
    else:
        for amount in range(M[p + ops.SO_MINIMUM], purse + 1):
            n = add_id(S, M, out, n, base + amount)
    steal, steal_card = M[p + ops.SO_STEAL_BASE], M[p + ops.SO_STEAL_CARD]
    if steal >= 0 and (steal_card < 0 or S[material.hand_at(M, seat, steal_card)] > 0):
        n = add_id(S, M, out, n, steal)
    if n == start:
        n = add_id(S, M, out, n, base)
    return n


@jit
def rewards(S, M, p, seat, out):
    n = np.int64(0)
    goods = M[p + ops.SO_GOODS]
    for i in range(M[p + ops.SO_N_GOODS]):
        row = M[ops.TH_GOOD] + M[goods + 2 * i] * ops.GOOD_FIELDS
        base = M[goods + 2 * i + 1]
        deck = M[row + ops.GOOD_DECK]
        if deck >= 0:
            if material.cards_available(S, M, deck) > 0:
                n = add_id(S, M, out, n, base)
        else:
            token = M[row + ops.GOOD_TOKEN]
            if material.supply_of(S, M, token) > 0:
                n = place_targets(S, M, seat, token, base, out, n)
    return n


@jit_inline
def legal(S, M, phase, seat, out):
    p = params(M, phase)
    stage = S[own(M) + ops.WSO_STAGE]
    if stage == ops.STAGE_OFFER:
        return offers(S, M, p, seat, out)
    q = queue_at(M, p)
    if stage == ops.STAGE_RESOLVE:
        card = S[q + 1]
        block_base = M[M[p + ops.SO_RESOLVE] + 2 * card]
        if block_base < 0:
            return 0
        effect = M[M[p + ops.SO_RESOLVE] + 2 * card + 1]
        block = M[M[ops.TH_BLOCK_OF] + block_base]
        cause = M[cards.card_row(M, card) + ops.CARD_CAUSE]
        return cards.allowed_ids(S, M, seat, effect, block, np.int64(0), block_base, cause, out, np.int64(0))
    if S[q + 1] > 0:
        return rewards(S, M, p, seat, out)
    return 0


@jit_inline
def pass_turn(S, M, phase, seat):
    p = params(M, phase)
    _, value = queue_pop(S, M, p)
    if S[own(M) + ops.WSO_STAGE] == ops.STAGE_RESOLVE:
        material.to_discards(S, M, value)


@jit_inline
def apply(S, M, phase, seat, action):
    p = params(M, phase)
    attach = M[p + ops.SO_ATTACH_BASE]
    if attach >= 0 and attach <= action < attach + M[p + ops.SO_N_ATTACHABLE]:
        card = M[M[p + ops.SO_ATTACHABLE] + action - attach]
        material.from_hand(S, M, seat, card)
        S[attached_at(M, p, seat) + S[counts_at(M) + seat]] = card
        S[counts_at(M) + seat] += 1
        return
    base = M[p + ops.SO_OFFER_BASE]
    if base <= action <= base + M[p + ops.SO_MOST] or action == M[p + ops.SO_STEAL_BASE]:
        offered(S, M, p, seat, action)
        S[index_at(M)] += 1
        return
    resolve = M[p + ops.SO_RESOLVE]
    block_base = M[cards.block_row(M, M[M[ops.TH_BLOCK_OF] + action]) + ops.BLOCK_BASE]
    for card in range(M[ops.TH_CARDS]):
        if M[resolve + 2 * card] == block_base:
            _, card_ = queue_pop(S, M, p)
            material.to_discards(S, M, card_)
            effect = M[resolve + 2 * card_ + 1]
            block = M[M[ops.TH_BLOCK_OF] + action]
            cards.bind(S, M, effect, block, np.int64(0), action)
            cards.run_effect(S, M, effect, seat, M[cards.card_row(M, card_) + ops.CARD_CAUSE])
            return
    goods = M[p + ops.SO_GOODS]
    for i in range(M[p + ops.SO_N_GOODS]):
        row = M[ops.TH_GOOD] + M[goods + 2 * i] * ops.GOOD_FIELDS
        take = M[goods + 2 * i + 1]
        deck = M[row + ops.GOOD_DECK]
        if deck >= 0 and action == take:
            material.draw(S, M, seat, deck, np.int64(1), M[p + ops.SO_REWARD_KEY])
        elif deck < 0 and take <= action < take + M[ops.TH_PLACES]:
            material.place_tokens(S, M, action - take, M[row + ops.GOOD_TOKEN], np.int64(1))
        else:
            continue
        q = queue_at(M, p)
        S[q + 1] -= 1
        if S[q + 1] == 0:
            queue_pop(S, M, p)
        return


@jit_inline
def offered(S, M, p, seat, action):
    """The seat's offer is the one this id makes: an amount, the steal card, or a steal."""
    if action == M[p + ops.SO_STEAL_BASE]:
        S[kinds_at(M) + seat] = ops.OFFER_CARD if M[p + ops.SO_STEAL_CARD] >= 0 else ops.OFFER_STEAL
        S[amounts_at(M) + seat] = 0
    else:
        S[kinds_at(M) + seat] = ops.OFFER_AMOUNT
        S[amounts_at(M) + seat] = action - M[p + ops.SO_OFFER_BASE]


@jit
def secret_choices(S, M, phase, seat, out):
    """The offers the seat could have made, its cards to attach left out, while the offers are
    being made and it has made one (tools/determinize.py `_offers`); -1 otherwise."""
    if S[own(M) + ops.WSO_STAGE] != ops.STAGE_OFFER or S[kinds_at(M) + seat] == ops.OFFER_NONE:
        return -1
    p = params(M, phase)
    n = offers(S, M, p, seat, out)
    attach, first = M[p + ops.SO_ATTACH_BASE], 0
    if attach >= 0:                             # the cards to attach come first
        while first < n and attach <= M[out + first] < attach + M[p + ops.SO_N_ATTACHABLE]:
            first += 1
    for i in range(first, n):
        M[out + i - first] = M[out + i]
    return n - first


@jit_inline
def position(S, M, seat):
    """A seat's place in the phase's order."""
    order = work(M) + ops.W_ORDER
    for i in range(S[work(M) + ops.W_N]):
        if S[order + i] == seat:
            return i
    return -1


@jit
def reveal(S, M, phase):
    p = params(M, phase)
    total = 0
    worth, window = M[p + ops.SO_CARD_WORTH], M[p + ops.SO_ATTACH_WINDOW]
    for seat in range(S[ops.S_PLAYERS]):
        kind = S[kinds_at(M) + seat]
        if kind != ops.OFFER_AMOUNT:
            total += M[p + ops.SO_STEAL_COUNTS]
        at = attached_at(M, p, seat)
        for i in range(S[counts_at(M) + seat]):
            card = S[at + i]
            if M[cards.card_row(M, card) + ops.CARD_WINDOW] == window:
                queue_push(S, M, p, seat, card)
            elif kind == ops.OFFER_AMOUNT:
                material.to_discards(S, M, card)
                S[amounts_at(M) + seat] += worth
            else:
                material.to_hand(S, M, seat, card)
        if kind == ops.OFFER_AMOUNT:
            total += S[amounts_at(M) + seat]
    q = queue_at(M, p)                          # stable sort of the queue by the seats' turn order
    n = S[own(M) + ops.WSO_QN]
    for i in range(1, n):
        seat, card = S[q + 2 * i], S[q + 2 * i + 1]
        key = position(S, M, seat)
        j = i
        while j > 0 and position(S, M, S[q + 2 * (j - 1)]) > key:
            S[q + 2 * j] = S[q + 2 * (j - 1)]
            S[q + 2 * j + 1] = S[q + 2 * (j - 1) + 1]
            j -= 1
        S[q + 2 * j] = seat
        S[q + 2 * j + 1] = card
    S[own(M) + ops.WSO_TOTAL] = total
    S[own(M) + ops.WSO_STAGE] = ops.STAGE_RESOLVE
    for seat in range(S[ops.S_PLAYERS]):
        if S[kinds_at(M) + seat] == ops.OFFER_AMOUNT:
            paid = S[amounts_at(M) + seat] - worth * attached_worth(S, M, p, seat, window)
            material.gain(S, M, seat, M[p + ops.SO_PAY], -paid, M[p + ops.SO_OFFER_KEY])


@jit_inline
def attached_worth(S, M, p, seat, window):
    """How many of the seat's attached cards counted as part of its amount."""
    at = attached_at(M, p, seat)
    count = 0
    for i in range(S[counts_at(M) + seat]):
        if M[cards.card_row(M, S[at + i]) + ops.CARD_WINDOW] != window:
            count += 1
    return count


@jit
def tile_for(S, M, p, total):
    """The row the total picks (-1: none)."""
    tiles = M[p + ops.SO_N_TILES]
    ranges = M[p + ops.SO_TILE_RANGES]
    for i in range(tiles):
        least, most = M[ranges + 4 * i], M[ranges + 4 * i + 1]
        if (least == ops.NONE or total >= least) and (most == ops.NONE or total <= most):
            return i
    if tiles == 0:
        return -1
    first = M[ranges]
    return 0 if total < (0 if first == ops.NONE else first) else tiles - 1


@jit
def settle(S, M, phase):
    """Every offer in: the total picks its row (kept), the givers are ranked by amount and
    queued for their rewards, and each stealer takes its gain."""
    p = params(M, phase)
    total = S[own(M) + ops.WSO_TOTAL] + material.mod_read(S, M, M[p + ops.SO_ADJUST_MOD], np.int64(0))
    kept = M[M[ops.TH_KEPT] + phase]
    S[kept] = 1
    tile = tile_for(S, M, p, total)
    S[kept + 1] = tile
    if tile >= 0:
        count_pick(S, M, phase, M[M[p + ops.SO_TILE_RANGES] + 4 * tile + 3])
    order = work(M) + ops.W_ORDER
    n = S[work(M) + ops.W_N]
    ranking = scratch(S, M, n)
    count = rank_givers(S, M, order, n, ranking)
    if M[p + ops.SO_NEW_START] != 0 and count > 0:
        S[ops.S_START] = M[ranking]
    queue_rewards(S, M, p, order, n, ranking, count)
    release(M, ranking)
    S[own(M) + ops.WSO_STAGE] = ops.STAGE_REWARD
    for i in range(n):
        seat = S[order + i]
        if S[kinds_at(M) + seat] != ops.OFFER_AMOUNT:
            material.gain(S, M, seat, M[p + ops.SO_PAY], M[p + ops.SO_STEAL_GAIN], M[p + ops.SO_STEAL_KEY])


@jit_inline
def rank_givers(S, M, order, n, ranking):
    """The seats that gave an amount into M[ranking...], in turn order, then stably by amount
    (highest first); their count."""
    count = 0
    for i in range(n):
        seat = S[order + i]
        if S[kinds_at(M) + seat] != ops.OFFER_AMOUNT:
            continue
        amount = S[amounts_at(M) + seat]
        j = count
        while j > 0 and S[amounts_at(M) + M[ranking + j - 1]] < amount:
            M[ranking + j] = M[ranking + j - 1]
            j -= 1
        M[ranking + j] = seat
        count += 1
    return count


@jit_inline
def queue_rewards(S, M, p, order, n, ranking, count):
    """The ranked givers' rewards by rank, then the others' (in turn order, or by rank)."""
    ranks = M[p + ops.SO_N_RANKS]
    ranked = ranks if ranks < count else count
    for i in range(ranked):
        queue_push(S, M, p, M[ranking + i], M[M[p + ops.SO_RANKS] + i])
    others = M[p + ops.SO_OTHERS]
    if M[p + ops.SO_OTHERS_BY_TURN] != 0:
        for i in range(n):
            seat = S[order + i]
            for j in range(ranked, count):
                if M[ranking + j] == seat:
                    queue_push(S, M, p, seat, others)
    else:
        for j in range(ranked, count):
            queue_push(S, M, p, M[ranking + j], others)


@jit_inline
def tensor(S, M, phase, seat, at):
    """Its pieces: while it runs, the stage (one-hot), each seat's offer (made, amount, stolen,
    cards attached; others' amounts hidden until every offer is in) and the total; always, the
    row its total picked when it last ran (one-hot); while it runs, the cards attached."""
    p = params(M, phase)
    seats = M[ops.TH_SEATS]
    offers_size = 3 + seats * 4 + 1
    kept = M[M[ops.TH_KEPT] + phase]
    if S[kept] != 0 and S[kept + 1] >= 0:
        M[at + offers_size + M[M[p + ops.SO_TILE_RANGES] + 4 * S[kept + 1] + 3]] = 1
    if not running(S, M, phase):
        return
    stage = S[own(M) + ops.WSO_STAGE]
    M[at + stage] = 1
    secret = stage == ops.STAGE_OFFER
    for other in range(S[ops.S_PLAYERS]):
        row = at + 3 + other * 4
        kind = S[kinds_at(M) + other]
        if kind != ops.OFFER_NONE:
            M[row] = 1
            if not secret or other == seat:
                M[row + 1] = S[amounts_at(M) + other] if kind == ops.OFFER_AMOUNT else 0
                M[row + 2] = 0 if kind == ops.OFFER_AMOUNT else 1
        M[row + 3] = S[counts_at(M) + other]
    M[at + 3 + seats * 4] = S[own(M) + ops.WSO_TOTAL]
    if M[p + ops.SO_ATTACH_BASE] < 0:
        return
    attached_piece = at + offers_size + M[p + ops.SO_N_TILES]
    kinds, n_kinds = M[p + ops.SO_ATTACHABLE], M[p + ops.SO_N_ATTACHABLE]
    for other in range(S[ops.S_PLAYERS]):
        if other == seat or stage != ops.STAGE_OFFER:
            held = attached_at(M, p, other)
            for i in range(S[counts_at(M) + other]):
                for k in range(n_kinds):
                    if M[kinds + k] == S[held + i]:
                        M[attached_piece + other * n_kinds + k] += 1


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
    if call == ops.CALL_PASS:
        pass_turn(S, M, phase, seat)
        return 0
    if call == ops.CALL_TENSOR:
        tensor(S, M, phase, seat, arg)
        return 0
    if call == ops.CALL_SECRET_CHOICES:
        return secret_choices(S, M, phase, seat, arg)
    if call == ops.CALL_CHOOSE_AGAIN:
        offered(S, M, params(M, phase), seat, arg)
        return 0
    return answer(S, call, phase)


# ---- lowering: the parameters of a phase of this mechanic, as the row its hub reads ----------------


def lower(lowering: Any, pid: str, mech: SecretOffer) -> tuple[int, int, int]:
    rules, seats = lowering.rules, lowering.rules.max_players
    tiles = mech.tiles
    table = lowering.row_table(f"{pid}.tile", [t.values for t in tiles])
    ids = [t.id for t in tiles]
    last = {tile_id: i for i, tile_id in enumerate(ids)}          # the members' rows: the last of an id
    ranges = []
    for tile in tiles:
        ranges += [ops.NONE if tile.least is None else tile.least, ops.NONE if tile.most is None else tile.most,
                   last[tile.id], ids.index(tile.id)]
    attachable = [lowering.card_index[c] for c in mech.attached_cards.values]
    resolve = []
    for cid in lowering.cards:
        block = mech.resolves.get(cid)
        resolve += [-1, -1] if block is None else [block.base, lowering.effect(rules.cards[cid].effect)]
    copies = max([rules.cards[c].count for c in mech.attached_cards.values] or [0])
    cap = copies * max(len(attachable), 1)
    goods = []
    for good, block in zip(mech.goods, mech.takes):
        goods += [list(rules.goods).index(good.id), block.base]
    params = row({
        ops.SO_PAY: lowering.resource(mech.pay), ops.SO_MINIMUM: mech.minimum,
        ops.SO_STEAL_CARD: lowering.card_index[mech.steal_card] if mech.steal_card else -1,
        ops.SO_STEAL_GAIN: mech.steal_gain, ops.SO_STEAL_COUNTS: mech.steal_counts,
        ops.SO_ATTACH_WINDOW: lowering.windows.index(mech.attach_window) if mech.attach_window else -1,
        ops.SO_CARD_DECK: lowering.deck(mech.card_deck) if mech.card_deck else -1, ops.SO_CARD_WORTH: mech.card_worth,
        ops.SO_N_RANKS: len(mech.ranks), ops.SO_RANKS: lowering.put(mech.ranks), ops.SO_OTHERS: mech.others,
        ops.SO_OTHERS_BY_TURN: int(mech.others_by_turn), ops.SO_N_GOODS: len(mech.goods),
        ops.SO_GOODS: lowering.put(goods), ops.SO_NEW_START: int(mech.new_start == "highest"), ops.SO_TILES: table,
        ops.SO_N_TILES: len(tiles), ops.SO_TILE_RANGES: lowering.put(ranges),
        ops.SO_ADJUST_MOD: lowering.modifier(mech.adjust.name), ops.SO_OFFER_KEY: lowering.key(mech.offer_cause),
        ops.SO_REWARD_KEY: lowering.key(mech.reward_cause), ops.SO_STEAL_KEY: lowering.key(mech.steal_cause),
        ops.SO_MOST: mech.most, ops.SO_ATTACH_BASE: -1 if mech.attach is None else mech.attach.base,
        ops.SO_N_ATTACHABLE: len(attachable), ops.SO_ATTACHABLE: lowering.put(attachable),
        ops.SO_OFFER_BASE: mech.offer.base, ops.SO_STEAL_BASE: -1 if mech.steal is None else mech.steal.base,
        ops.SO_RESOLVE: lowering.put(resolve), ops.SO_ATTACH_CAP: cap})
    work = turn_head(lowering) + 3 + 3 * seats + seats * cap + 2 * (seats * cap + seats)
    return lowering.put(params), work, 1


def member(lowering: Any, phase: int, mech: SecretOffer, name: str) -> tuple[int, int, int] | None:
    """`PHASE.tile`: the row of its table the total picked when it last ran."""
    return (ops.MEMBER_TILE, phase, 0) if name == "tile" else None


_STAGES = {"offer": ops.STAGE_OFFER, "resolve": ops.STAGE_RESOLVE, "reward": ops.STAGE_REWARD}


def pack_work(lowering: Any, pid: str, data: dict[str, Any], state: Any) -> list[int]:
    """The running phase's data as the hub holds it (compiled/pack.py)."""
    seats = lowering.rules.max_players
    mech = lowering.rules.phases[pid]
    cap = max([lowering.rules.cards[c].count for c in mech.attached_cards.values] or [0]) * max(
        len(mech.attached_cards.values), 1)
    kinds, amounts, counts, attached = [], [], [], []
    for seat in range(seats):
        offer = data["offers"][seat] if seat < len(data["offers"]) else None
        if offer is None:
            kinds.append(ops.OFFER_NONE)
            amounts.append(0)
        elif "amount" in offer:
            kinds.append(ops.OFFER_AMOUNT)
            amounts.append(offer["amount"])
        else:
            kinds.append(ops.OFFER_CARD if "card" in offer else ops.OFFER_STEAL)
            amounts.append(0)
        cards = data["attached"][seat] if seat < len(data["attached"]) else []
        counts.append(len(cards))
        attached += [lowering.card_index[c] for c in cards] + [0] * (cap - len(cards))
    queue = []
    for seat, value in data["queue"]:
        queue += [seat, lowering.card_index[value] if isinstance(value, str) else value]
    queue += [0] * (2 * (seats * cap + seats) - len(queue))
    return (pack.turn_data(seats, data["order"], data["idx"]) + [_STAGES[data["stage"]], data.get("total", 0),
            len(data["queue"])] + kinds + amounts + counts + attached + queue)


def pack_kept(lowering: Any, pid: str, kept: dict[str, Any]) -> list[int]:
    ids = [t.id for t in lowering.rules.phases[pid].tiles]
    return [ids.index(kept["tile"]) if kept["tile"] in ids else -1]


def picks(lowering: Any, pid: str, mech: SecretOffer) -> list[tuple[str, Any]]:
    """Every pick it may keep, as simulate counts them: the rows' ids (each id once)."""
    return [("tile", tile_id) for tile_id in dict.fromkeys(t.id for t in mech.tiles)]
