"""The automatic step and the cursor in the flow, in machine code: interpreter/play/flow.py
and cursor.py over the state array, step for step.

`advance` runs until a seat must decide or the game is over: it begins the phase at the
cursor (or skips it), ends it, lets its mechanic work, asks who decides and works out that
seat's legal ids once (the mechanic's, the card plays of its window, the standing actions),
into the state's legal region. `apply` carries out one legal id. The cursor walks the flow's
tree as the interpreter's does: sequences, repeats with their passes, branches, lifetimes
ending, and the game's own end.
"""

from __future__ import annotations

import numpy as np

from . import cards, material, mechanics, ops, pointers
from .core import release, scratch, sort_ids, stop, zero
from .jit import jit, jit_inline
from .pointers import evaluate

STEP_LIMIT = 1_000_000
MAX_DECISIONS_PER_STEP = 100_000
MAX_AMOUNT = 10 ** 15


@jit_inline
def phase_row(M, phase):
    return M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS


@jit_inline
def phase_at(S, M):
    return M[M[ops.TH_LEAF_PHASE] + S[ops.S_AT]]


@jit_inline
def holds(S, M, prog):
    """A condition (no seat acting): whether it holds."""
    return prog >= 0 and evaluate(S, M, prog, -1, -1) != 0


@jit_inline
def owns_sellable(S, M, seat):
    sellable = M[ops.TH_SELLABLE]
    for i in range(M[sellable]):
        if S[material.hand_at(M, seat, M[sellable + 1 + i])] > 0:
            return True
    return False


@jit
def enables(S, M, phase, seat, can):
    """Whether the seat, which can do `can` things in the phase, could do more had it sold every
    card it may sell to afford (play/standing.py Selling.enables)."""
    nres = M[ops.TH_RES]
    gains = scratch(S, M, 2 * nres)
    any_gain = False
    for r in range(nres):
        M[gains + r] = 0
    sellable = M[ops.TH_SELLABLE]
    for i in range(M[sellable]):
        card = M[sellable + 1 + i]
        row = cards.standing_row(M, card)
        count = S[material.hand_at(M, seat, card)]
        if count > 0 and M[row + 3] != 0:
            M[gains + M[row + 1]] += count * M[row + 2]
            any_gain = True
    if not any_gain:
        release(M, gains)
        return False
    for r in range(nres):
        at = material.resource_at(M, seat, r)
        M[gains + nres + r] = S[at]
        if M[gains + r] != 0:
            most = M[M[ops.TH_RES_MAX] + r]
            top = most if most >= 0 else MAX_AMOUNT
            value = S[at] + M[gains + r]
            S[at] = value if value < top else top
    out = scratch(S, M, M[ops.TH_LEGAL_CAP])
    more = mechanics.legal(S, M, phase, seat, out) > can
    for r in range(nres):
        S[material.resource_at(M, seat, r)] = M[gains + nres + r]
    release(M, gains)
    return more


@jit
def apply(S, M, action):
    """Carry out a legal id of the seat to move, then the automatic steps after it. False (and
    nothing done) if the id is not legal now."""
    n = S[ops.S_NLEGAL]
    legal = M[ops.TH_S_LEGAL]
    found = False
    for i in range(n):
        if S[legal + i] == action:
            found = True
            break
    if not found or S[ops.S_TO_MOVE] < 0:
        return False
    seat = S[ops.S_TO_MOVE]
    S[ops.S_TO_MOVE] = -1
    zero(S, legal, n)                   # the legal ids are the decision's: none are left once it is made
    S[ops.S_NLEGAL] = 0
    S[ops.S_DECISIONS] += 1
    if S[ops.S_DECISIONS] > MAX_DECISIONS_PER_STEP:
        stop(S, ops.ERR_RULE, np.int64(0))
    block = M[M[ops.TH_BLOCK_OF] + action]
    rank = M[cards.block_row(M, block) + ops.BLOCK_RANK]
    decline = M[M[ops.TH_STANDING] + ops.STANDING_DECLINE]
    phase = phase_at(S, M)
    if rank == 0 or (rank == 2 and (M[M[ops.TH_STANDING]] < 0 or action != decline)):
        mechanics.apply(S, M, phase, seat, action)
    elif rank == 1:
        cards.play(S, M, seat, block, action)
    elif rank == 3:
        cards.sell(S, M, seat, action)
    else:
        mechanics.pass_turn(S, M, phase, seat)
    pointers.advance(S, M)
    return True


# ---- ending a phase, and the cursor ---------------------------------------------------------------------------
@jit
def end_step(S, M):
    """The running phase ends: its working data goes, with what lasts a phase; then the cursor
    moves on (or the game is over)."""
    if S[ops.S_WORKING] != 0:
        mechanics.end(S, M, phase_at(S, M))
    S[ops.S_WORKING] = 0
    zero(S, M[ops.TH_S_WORK], M[ops.TH_S_WORK_SIZE])
    S[ops.S_DECISIONS] = 0
    lifetime_ends(S, M, ops.LIFE_PHASE)
    S[ops.S_STEP] += 1
    walk(S, M, M[M[ops.TH_LEAF_NODE] + S[ops.S_AT]], np.int64(0))


@jit
def lifetime_ends(S, M, lifetime):
    if lifetime < 0:
        return
    row = M[ops.TH_LIFETIME] + lifetime * ops.LIFE_FIELDS
    mods = M[row + ops.LIFE_MODS]
    for i in range(M[row + ops.LIFE_N_MODS]):
        material.mod_expire(S, M, M[mods + i])
    played = M[row + ops.LIFE_PLAYED]
    if played >= 0:
        zero(S, played, M[ops.TH_SEATS] * M[ops.TH_CARDS])


@jit_inline
def node_row(M, node):
    return M[ops.TH_NODE] + node * ops.NODE_FIELDS


@jit_inline
def start(S, M):
    """The cursor at the first phase of the flow (the game is over at once if it runs none)."""
    passes = M[ops.TH_S_PASSES]
    for i in range(M[ops.TH_COUNTERS]):
        S[passes + i] = 1
    walk(S, M, np.int64(0), np.int64(1))


@jit
def walk(S, M, node, entering):
    """From a node being entered (or one that is done) to the next phase to run."""
    for _ in range(STEP_LIMIT):
        row = node_row(M, node)
        kind = M[row + ops.NODE_KIND]
        if entering != 0:
            if kind == ops.KIND_PHASE:
                S[ops.S_AT] = M[row + ops.NODE_LEAF]
                return
            inner = enter(S, M, node)
            if inner < 0:
                entering = 0
            else:
                node = inner
            continue
        if kind != ops.KIND_REPEAT:
            lifetime_ends(S, M, M[row + ops.NODE_LIFETIME])
            jump = end_check(S, M, node)
            if jump != -2:
                if jump < 0:
                    game_over(S, M)
                    return
                node = jump
                entering = 1
                continue
        parent = M[row + ops.NODE_PARENT]
        if parent < 0:
            game_over(S, M)
            return
        node, entering = after(S, M, node, parent)
        if node < 0:
            game_over(S, M)
            return
    stop(S, ops.ERR_STUCK, node)


@jit
def enter(S, M, node):
    """The child to go into on entering a node; -1 if it runs nothing now."""
    row = node_row(M, node)
    kind = M[row + ops.NODE_KIND]
    children = M[row + ops.NODE_CHILDREN]
    if kind == ops.KIND_SEQUENCE:
        return M[children]
    if kind == ops.KIND_REPEAT:
        new_pass(S, M, node, 1)
        return M[children] if another_pass(S, M, node, True) else -1
    on = M[row + ops.NODE_ON]
    value = evaluate(S, M, on, -1, -1) if on >= 0 else ops.NONE
    cases = M[row + ops.NODE_CASES]
    for i in range(M[row + ops.NODE_N_CASES]):
        if M[cases + 2 * i] == value:
            return M[cases + 2 * i + 1]
    return M[row + ops.NODE_OTHERWISE]


@jit
def after(S, M, child, parent):
    """Where play goes on once `child` is done: (node, entering it); the parent itself, done,
    when it has nothing more to run."""
    row = node_row(M, parent)
    kind = M[row + ops.NODE_KIND]
    children = M[row + ops.NODE_CHILDREN]
    count = M[row + ops.NODE_N_CHILDREN]
    if kind == ops.KIND_SEQUENCE:
        for i in range(count):
            if M[children + i] == child:
                if i + 1 < count:
                    return M[children + i + 1], 1
                break
        return parent, 0
    if kind == ops.KIND_BRANCH:
        return parent, 0
    body = M[children]
    counter = M[row + ops.NODE_COUNTER]
    passes = M[ops.TH_S_PASSES]
    if child == body and another_pass(S, M, parent, False):
        if count > 1:
            return M[children + 1], 1
        jump = pass_done(S, M, parent)
        if jump != -2:
            return jump, 1
        new_pass(S, M, parent, S[passes + counter] + 1)
        return body, 1
    jump = pass_done(S, M, parent)
    if jump != -2:
        return jump, 1
    if child != body:
        new_pass(S, M, parent, S[passes + counter] + 1)
        return body, 1
    return parent, 0


@jit
def another_pass(S, M, node, first):
    """Whether the repeat runs a pass now (first: its first; else one more after the last)."""
    row = node_row(M, node)
    times = M[row + ops.NODE_TIMES]
    if times >= 0:
        done = 0 if first else S[M[ops.TH_S_PASSES] + M[row + ops.NODE_COUNTER]]
        if done >= evaluate(S, M, times, -1, -1):
            return False
    until = M[row + ops.NODE_UNTIL]
    if until >= 0 and (not first or M[row + ops.NODE_CHECK_BEFORE] != 0):
        return evaluate(S, M, until, -1, -1) == 0
    return True


@jit_inline
def new_pass(S, M, node, number):
    """The repeat begins a pass: the repeats inside it read 1 again."""
    row = node_row(M, node)
    passes = M[ops.TH_S_PASSES]
    S[passes + M[row + ops.NODE_COUNTER]] = number
    inner = M[row + ops.NODE_INNER_REPEATS]
    for i in range(M[row + ops.NODE_N_INNER]):
        S[passes + M[inner + i]] = 1


@jit_inline
def pass_done(S, M, node):
    """A pass of the repeat is over: its lifetime ends; where to jump if the game's end holds
    here (-1: the game is over; -2: play goes on)."""
    lifetime_ends(S, M, M[node_row(M, node) + ops.NODE_LIFETIME])
    return end_check(S, M, node)


@jit
def end_check(S, M, node):
    """If the game's `end_if` is checked at this node and holds: every lifetime around the node
    ends and play goes on at the `then` node (-1: the game is over). -2: play goes on."""
    flow = M[ops.TH_FLOW]
    end_if = M[flow + ops.FLOW_END_IF]
    if end_if < 0 or not checked_here(M, node) or not before_then(M, node):
        return -2
    if evaluate(S, M, end_if, -1, -1) == 0:
        return -2
    parent = M[node_row(M, node) + ops.NODE_PARENT]
    while parent >= 0:
        lifetime_ends(S, M, M[node_row(M, parent) + ops.NODE_LIFETIME])
        parent = M[node_row(M, parent) + ops.NODE_PARENT]
    then = M[flow + ops.FLOW_END_THEN]
    return then if then >= 0 else -1


@jit_inline
def checked_here(M, node):
    after_node = M[M[ops.TH_FLOW] + ops.FLOW_END_AFTER]
    if after_node >= 0:
        return node == after_node
    return M[node_row(M, node) + ops.NODE_KIND] == ops.KIND_PHASE


@jit
def before_then(M, node):
    """Whether the node comes before the part the game's end leads to."""
    then = M[M[ops.TH_FLOW] + ops.FLOW_END_THEN]
    if then < 0:
        return True
    top = node
    while M[node_row(M, top) + ops.NODE_PARENT] > 0:
        top = M[node_row(M, top) + ops.NODE_PARENT]
    if top == 0:
        return True
    row = node_row(M, 0)
    children = M[row + ops.NODE_CHILDREN]
    top_at, then_at = -1, -1
    for i in range(M[row + ops.NODE_N_CHILDREN]):
        if M[children + i] == top and top_at < 0:
            top_at = i
        if M[children + i] == then and then_at < 0:
            then_at = i
    return top_at < then_at


@jit_inline
def game_over(S, M):
    lifetime_ends(S, M, ops.LIFE_GAME)
    S[ops.S_OVER] = 1
    S[ops.S_TO_MOVE] = -1


def advance(S, M):  # noqa: C901 (the loop between two decisions, kept whole as the interpreter's)
    """Run automatic steps until a seat must decide or the game is over. A part compiled on its
    own (compiled/hubs.py), called through its address (pointers.advance)."""
    sell_base = M[M[ops.TH_STANDING] + ops.STANDING_SELL]
    decline = M[M[ops.TH_STANDING] + ops.STANDING_DECLINE]
    for _ in range(STEP_LIMIT):
        if S[ops.S_OVER] != 0:
            return
        M[ops.X_ARENA_TOP] = M[ops.TH_X_ARENA]
        phase = phase_at(S, M)
        row = phase_row(M, phase)
        if S[ops.S_WORKING] == 0:
            if holds(S, M, M[row + ops.PHASE_SKIP_IF]):
                end_step(S, M)
                continue
            S[ops.S_WORKING] = 1
            mechanics.begin(S, M, phase)
        if holds(S, M, M[row + ops.PHASE_END_IF]):
            end_step(S, M)
            continue
        if M[row + ops.PHASE_AUTOMATIC] != 0 and mechanics.auto(S, M, phase):
            continue
        seat = mechanics.to_move(S, M, phase)
        if seat < 0:
            end_step(S, M)
            continue
        out = scratch(S, M, M[ops.TH_LEGAL_CAP])
        n = mechanics.legal(S, M, phase, seat, out)
        if n == 0:
            if sell_base < 0 or not enables(S, M, phase, seat, np.int64(0)):
                release(M, out)
                mechanics.pass_turn(S, M, phase, seat)
                continue
            M[out] = decline
            n = 1
        window = M[row + ops.PHASE_WINDOW]
        closing = M[row + ops.PHASE_CLOSING]
        plays = n
        if cards.holds_window_card(S, M, seat, window):
            plays = cards.playable(S, M, seat, window, out, n)
        if plays > n:
            if M[out + n - 1] >= M[out + n]:
                sort_ids(M, out, plays)
            n = plays
        elif (n == 1 and M[out] == closing and (
                sell_base < 0 or not (M[row + ops.PHASE_ASKS_STANDING] != 0 and owns_sellable(S, M, seat))
                and (M[row + ops.PHASE_CLOSING_IGNORES_PURSE] != 0 or not enables(S, M, phase, seat, np.int64(1))))):
            release(M, out)
            mechanics.apply(S, M, phase, seat, closing)
            continue
        if sell_base >= 0:
            n = cards.sale_ids(S, M, seat, out, n)
        legal = M[ops.TH_S_LEGAL]
        for i in range(n):
            S[legal + i] = M[out + i]
        S[ops.S_NLEGAL] = n
        S[ops.S_TO_MOVE] = seat
        release(M, out)
        return
    stop(S, ops.ERR_STUCK, phase_at(S, M))
