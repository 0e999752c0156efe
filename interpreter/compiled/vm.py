"""The machine that runs the DSL's bytecode (compiled/lower_dsl.py writes it; compiled/ops.py
lists its instructions): one loop over four-number instructions, a stack of int64 values, the
bound names (`it`, `n`, a choice's name...) in X's env region, each run's temporaries on X's
call stack, and lists in X's arena.

It is compiled once, for every rules file: a file's rules are data (its programs in `T`), so
changing a rule changes no machine code. Each instruction does what the interpreter's
generated Python does for the same construct (interpreter/dsl/compile.py), failing where it
fails: an index that is not a place or a seat of this game, a seat of nobody, a division by
zero. A number that would leave the machine's range stops it too (core.checked).
"""

from __future__ import annotations

import numpy as np

from . import material, ops
from .core import checked, new_list, stop, times
from .jit import jit, jit_inline
from .shapes import (
    SH_ARG,
    SH_CONSTANT,
    SH_HEAD,
    SH_KIND,
    SH_TERMS,
    SHAPE_CONSTANT,
    SHAPE_OWNED_WHERE,
    SHAPE_SEAT_RESOURCE,
)


@jit_inline
def place_ok(S, M, place):
    if place < 0 or place >= M[ops.TH_PLACES]:
        stop(S, ops.ERR_RULE, place)


@jit_inline
def seat_ok(S, place):
    if place < 0 or place >= S[ops.S_PLAYERS]:
        stop(S, ops.ERR_RULE, place)


@jit_inline
def age_round(S, M, which):
    """The pass of the repeat named `age` (which=0) or `round` (1); 1 where the flow has none."""
    counter = M[M[ops.TH_FLOW] + (ops.FLOW_AGE if which == 0 else ops.FLOW_ROUND)]
    return S[M[ops.TH_S_PASSES] + counter] if counter >= 0 else 1


@jit_inline
def outbid(S, M, seat):
    """placement's `outbid`: the seat has a bid and some other bid on its lot is on the same
    space or above it (read from the phase running, when it is an auction on a bid track)."""
    if S[ops.S_WORKING] == 0 or seat < 0:
        return 0
    phase = M[M[ops.TH_LEAF_PHASE] + S[ops.S_AT]]
    if M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_MECH] != ops.M_PLACEMENT:
        return 0
    bids = M[ops.TH_S_WORK] + 2 + M[ops.TH_SEATS] + ops.WPL_LOTS + M[ops.TH_PLACES]
    lot, space = S[bids + 2 * seat], S[bids + 2 * seat + 1]
    if lot < 0:
        return 0
    for other in range(S[ops.S_PLAYERS]):
        if other != seat and S[bids + 2 * other] == lot and S[bids + 2 * other + 1] >= space:
            return 1
    return 0


@jit_inline
def member(S, M, kind, phase, arg, seat):
    """A `PHASE.NAME` the rules read (compiled/lower_mechanics.py says which kind each is)."""
    if kind == ops.MEMBER_DECK_LEFT:
        return S[material.pile(M, arg, ops.DECK_S_DRAW)]
    if kind == ops.MEMBER_OUTBID:
        return outbid(S, M, seat)
    kept = M[M[ops.TH_KEPT] + phase]
    present = kept >= 0 and S[kept] != 0
    if kind == ops.MEMBER_KEPT_OR_ZERO:
        return S[kept + 1 + arg] if present else 0
    if kind == ops.MEMBER_TILE:
        if not present or S[kept + 1] < 0:
            return -1
        params = M[M[ops.TH_PHASE] + phase * ops.PHASE_FIELDS + ops.PHASE_PARAMS]
        return M[M[params + ops.SO_TILE_RANGES] + 4 * S[kept + 1] + 2]
    return S[kept + 1 + arg] if present else -1


@jit_inline
def places_list(S, M, seat):
    """The places a seat owns, in order (seat -1: every place)."""
    count = M[ops.TH_PLACES]
    h = new_list(S, M, count)
    n = 0
    owners = M[ops.TH_S_OWNER]
    for p in range(count):
        if seat < 0 or S[owners + p] == seat:
            M[h + 1 + n] = p
            n += 1
    M[h] = n
    return h


@jit_inline
def _arithmetic(S, M, op, sp):  # noqa: C901 (a case per operator)
    """The operators on the stack's top one or two values; the new stack top."""
    if op == ops.OP_NEG or op == ops.OP_NOT or op == ops.OP_BOOL or op == ops.OP_ABS:
        v = M[sp - 1]
        if op == ops.OP_NEG:
            M[sp - 1] = -v
        elif op == ops.OP_NOT:
            M[sp - 1] = 1 if v == 0 else 0
        elif op == ops.OP_BOOL:
            M[sp - 1] = 1 if v != 0 else 0
        else:
            M[sp - 1] = -v if v < 0 else v
        return sp
    sp -= 1
    right = M[sp]
    left = M[sp - 1]
    if op == ops.OP_ADD:
        value = checked(S, left + right)
    elif op == ops.OP_SUB:
        value = checked(S, left - right)
    elif op == ops.OP_MUL:
        value = times(S, left, right)
    elif op == ops.OP_DIV:
        if right == 0:
            stop(S, ops.ERR_RULE, np.int64(0))
        value = left // right
    elif op == ops.OP_EQ:
        value = 1 if left == right else 0
    elif op == ops.OP_NE:
        value = 1 if left != right else 0
    elif op == ops.OP_LT:
        value = 1 if left < right else 0
    elif op == ops.OP_LE:
        value = 1 if left <= right else 0
    elif op == ops.OP_GT:
        value = 1 if left > right else 0
    elif op == ops.OP_GE:
        value = 1 if left >= right else 0
    elif op == ops.OP_MIN:
        value = left if left <= right else right
    else:
        value = left if left >= right else right
    M[sp - 1] = value
    return sp


@jit_inline
def _lists_and_statements(S, M, op, a, at, sp, base, env, seat, cause):  # noqa: C901 (a case per instruction)
    """The instructions that build lists, fold them, and change the material; the new stack top."""
    players = S[ops.S_PLAYERS]
    if op >= ops.OP_ACC_MIN and op <= ops.OP_ACC_ANY:
        sp -= 1
        v = M[sp]
        acc = env + a if a >= 0 else base - 1 - a
        if op == ops.OP_ACC_ADD:
            M[acc] = checked(S, M[acc] + v)
        elif op == ops.OP_ACC_ALL:
            M[acc] = 1 if (M[acc] != 0 and v != 0) else 0
        elif op == ops.OP_ACC_ANY:
            M[acc] = 1 if (M[acc] != 0 or v != 0) else 0
        else:
            b = M[at + 2]
            seen = env + b if b >= 0 else base - 1 - b
            if M[seen] == 0 or (op == ops.OP_ACC_MIN and v < M[acc]) or (op == ops.OP_ACC_MAX and v > M[acc]):
                M[acc] = v
            M[seen] = 1
        return sp
    if op == ops.OP_MARK:
        M[env + a if a >= 0 else base - 1 - a] = M[ops.X_ARENA_TOP]
    elif op == ops.OP_APPEND:
        sp -= 1
        items = M[env + a if a >= 0 else base - 1 - a]
        M[items + 1 + M[items]] = M[sp]
        M[items] += 1
    elif op == ops.OP_RESERVE:
        M[sp] = new_list(S, M, M[M[sp - 1]])
        sp += 1
    elif op == ops.OP_LEN:
        M[sp - 1] = M[M[sp - 1]]
    elif op == ops.OP_ALL_PLACES:
        M[sp] = places_list(S, M, -1)
        sp += 1
    elif op == ops.OP_OWNED_PLACES:
        who = M[sp - 1]
        seat_ok(S, who)
        M[sp - 1] = places_list(S, M, who)
    elif op == ops.OP_SEATS or op == ops.OP_OTHERS:
        if op == ops.OP_OTHERS:
            seat_ok(S, seat)
        h = new_list(S, M, players)
        n = 0
        for i in range(players):
            if op == ops.OP_SEATS:
                M[h + 1 + n] = i
                n += 1
            elif i >= 1:
                M[h + 1 + n] = (seat + i) % players
                n += 1
        M[h] = n
        M[sp] = h
        sp += 1
    elif op == ops.OP_LIST:
        h = new_list(S, M, a)
        for i in range(a):
            M[h + 1 + i] = M[sp - a + i]
        M[h] = a
        sp -= a
        M[sp] = h
        sp += 1
    elif op == ops.OP_CONST_LIST:
        n = M[a]
        h = new_list(S, M, n)
        for i in range(n):
            M[h + 1 + i] = M[a + 1 + i]
        M[h] = n
        M[sp] = h
        sp += 1
    else:
        sp = _statement(S, M, op, a, at, sp, seat, cause)
    return sp


@jit
def _statement(S, M, op, a, at, sp, seat, cause):  # noqa: C901 (a case per statement)
    """The statements that change the material, modifiers and owners; the new stack top.
    Called, not inlined into `run` like the other instructions: they run seldom next to
    the expressions, and inlined they made `run` a second slower to compile."""
    if op == ops.OP_GAIN:
        amount, who = M[sp - 1], M[sp - 2]
        seat_ok(S, who)
        material.gain(S, M, who, a, amount, cause)
        return sp - 2
    if op == ops.OP_TRANSFER:
        amount, taker, giver = M[sp - 1], M[sp - 2], M[sp - 3]
        if giver != taker and amount > 0:
            seat_ok(S, giver)
            seat_ok(S, taker)
            material.transfer(S, M, giver, taker, a, amount, cause)
        return sp - 3
    if op == ops.OP_DRAW:
        count, who = M[sp - 1], M[sp - 2]
        seat_ok(S, who)
        material.draw(S, M, who, a, count, cause)
        return sp - 2
    if op == ops.OP_PLACE_TOKENS or op == ops.OP_REMOVE_TOKENS:
        count, place = M[sp - 1], M[sp - 2]
        place_ok(S, M, place)
        if op == ops.OP_PLACE_TOKENS:
            material.place_tokens(S, M, place, a, count)
        else:
            material.remove_tokens(S, M, place, a, count)
        return sp - 2
    if op == ops.OP_MOVE_TOKENS:
        count, target, source = M[sp - 1], M[sp - 2], M[sp - 3]
        place_ok(S, M, source)
        place_ok(S, M, target)
        material.move_tokens(S, M, source, target, a, count)
        return sp - 3
    if op == ops.OP_CONVERT:
        count, place = M[sp - 1], M[sp - 2]
        place_ok(S, M, place)
        material.convert(S, M, place, count, a, M[at + 2])
        return sp - 2
    if op == ops.OP_SET_OWNER:
        who, place = M[sp - 1], M[sp - 2]
        place_ok(S, M, place)
        material.set_owner(S, M, place, who)
        return sp - 2
    if op == ops.OP_SET_MOD or op == ops.OP_ADD_MOD:
        value, index = M[sp - 1], M[sp - 2]
        if op == ops.OP_ADD_MOD:
            value = checked(S, material.mod_read(S, M, a, index) + value)
        material.mod_write(S, M, a, index, value)
        return sp - 2
    if op == ops.OP_SET_START:
        S[ops.S_START] = M[sp - 1]
        return sp - 1
    stop(S, ops.ERR_RULE, op)
    return sp


@jit_inline
def owned_where(S, M, column, value):
    """The owned places whose `column` holds `value`, as a list where the code of the shape
    leaves it: at the arena's top, which then stands after it; the machine stops where the
    code would find no room for its list of every place and one as long for the result."""
    count = M[ops.TH_PLACES]
    h = M[ops.X_ARENA_TOP]
    if h + 2 + 2 * count > M[ops.TH_X_SCRATCH]:
        stop(S, ops.ERR_ROOM, count)
    values = M[ops.TH_COLUMNS] + column * count
    n = 0
    for place in range(count):
        if material.owner_of(S, M, place) >= 0 and M[values + place] == value:
            M[h + 1 + n] = place
            n += 1
    M[h] = n
    M[ops.X_ARENA_TOP] = h + 1 + n
    return h


@jit_inline
def shaped(S, M, at, seat):
    """The value of a program that is one read (compiled/shapes.py), from its shape row at
    T offset `at`: what its code computes, with the same checks."""
    kind = M[at + SH_KIND]
    if kind == SHAPE_CONSTANT:
        return M[at + SH_CONSTANT]
    if kind == SHAPE_SEAT_RESOURCE:
        seat_ok(S, seat)
        return S[material.resource_at(M, seat, M[at + SH_ARG])]
    if kind == SHAPE_OWNED_WHERE:
        return owned_where(S, M, M[at + SH_ARG], M[at + SH_CONSTANT])
    place = M[M[ops.TH_X_ENV] + M[at + SH_ARG]]
    place_ok(S, M, place)
    value = M[at + SH_CONSTANT]
    for k in range(M[at + SH_TERMS]):
        term = at + SH_HEAD + 2 * k
        value = checked(S, value + times(S, M[term + 1], S[material.token_at(M, place, M[term])]))
    return value


def run(S, M, prog, seat, cause):  # noqa: C901 (the machine's one loop: a case per instruction)
    """A part compiled on its own (compiled/hubs.py), called through its address
    (pointers.evaluate). Run program `prog` with `seat` acting (-1: none) and changes filed under `cause`
    (a source key); its value (0 for statements). A list it returns stays in the arena (moved
    to where the arena stood as it began) until the caller gives that room back."""
    row = M[ops.TH_PROGRAM] + prog * ops.PROG_FIELDS
    if M[row + ops.PROG_SHAPE] >= 0:
        return shaped(S, M, M[row + ops.PROG_SHAPE], seat)
    code = M[ops.TH_CODE] + 4 * M[row + ops.PROG_PC]
    base = M[ops.X_CALL_TOP]
    sp = base + M[row + ops.PROG_LOCALS]
    if sp + M[row + ops.PROG_STACK] > M[ops.TH_X_ARENA]:
        stop(S, ops.ERR_ROOM, prog)
    M[ops.X_CALL_TOP] = sp + M[row + ops.PROG_STACK]
    env = M[ops.TH_X_ENV]
    mark = M[ops.X_ARENA_TOP]
    players = S[ops.S_PLAYERS]
    pc = 0
    while True:
        at = code + 4 * pc
        op = M[at]
        a = M[at + 1]
        pc += 1
        if op == ops.OP_LOAD:
            M[sp] = M[env + a if a >= 0 else base - 1 - a]
            sp += 1
        elif op == ops.OP_STORE:
            sp -= 1
            M[env + a if a >= 0 else base - 1 - a] = M[sp]
        elif op == ops.OP_CONST:
            M[sp] = a
            sp += 1
        elif op == ops.OP_FOR:
            slot = base - 1 - a                      # a temporary: its index and mark follow it
            M[ops.X_ARENA_TOP] = M[slot + 2]
            items, i = M[slot], M[slot + 1]
            if i >= M[items]:
                pc = M[at + 3]
            else:
                b = M[at + 2]
                M[env + b if b >= 0 else base - 1 - b] = M[items + 1 + i]
                M[slot + 1] = i + 1
        elif op == ops.OP_SLOT_COLUMN or op == ops.OP_SLOT_TOKEN:
            place = M[env + a if a >= 0 else base - 1 - a]
            place_ok(S, M, place)
            b = M[at + 2]
            if op == ops.OP_SLOT_COLUMN:
                M[sp] = M[M[ops.TH_COLUMNS] + b * M[ops.TH_PLACES] + place]
            else:
                M[sp] = S[material.token_at(M, place, b)]
            sp += 1
        elif op == ops.OP_COLUMN:
            place = M[sp - 1]
            place_ok(S, M, place)
            M[sp - 1] = M[M[ops.TH_COLUMNS] + a * M[ops.TH_PLACES] + place]
        elif op == ops.OP_TOKEN:
            place = M[sp - 1]
            place_ok(S, M, place)
            M[sp - 1] = S[material.token_at(M, place, a)]
        elif op == ops.OP_JUMP:
            pc = a
        elif op == ops.OP_JUMP_IF_NOT:
            sp -= 1
            if M[sp] == 0:
                pc = a
        elif op == ops.OP_JUMP_IF:
            sp -= 1
            if M[sp] != 0:
                pc = a
        elif op == ops.OP_HALT:
            break
        elif op >= ops.OP_ADD and op <= ops.OP_ABS:
            sp = _arithmetic(S, M, op, sp)
        elif op == ops.OP_POP:
            sp -= 1
        elif op == ops.OP_SEAT:
            M[sp] = seat
            sp += 1
        elif op == ops.OP_PLAYERS:
            M[sp] = players
            sp += 1
        elif op == ops.OP_START_PLAYER:
            M[sp] = S[ops.S_START]
            sp += 1
        elif op == ops.OP_NEXT_PLAYER:
            M[sp] = (S[ops.S_START] + 1) % players
            sp += 1
        elif op == ops.OP_AGE or op == ops.OP_ROUND:
            M[sp] = age_round(S, M, 0 if op == ops.OP_AGE else 1)
            sp += 1
        elif op == ops.OP_OPTION:
            M[sp] = S[M[ops.TH_S_OPTIONS] + a]
            sp += 1
        elif op == ops.OP_MOD:
            M[sp - 1] = material.mod_read(S, M, a, M[sp - 1])
        elif op == ops.OP_OWNED:
            place = M[sp - 1]
            place_ok(S, M, place)
            M[sp - 1] = 1 if material.owner_of(S, M, place) >= 0 else 0
        elif op == ops.OP_OWNER:
            place = M[sp - 1]
            place_ok(S, M, place)
            M[sp - 1] = material.owner_of(S, M, place)
        elif op == ops.OP_RESOURCE:
            who = M[sp - 1]
            seat_ok(S, who)
            M[sp - 1] = S[material.resource_at(M, who, a)]
        elif op == ops.OP_HAND_SIZE:
            who = M[sp - 1]
            seat_ok(S, who)
            M[sp - 1] = S[M[ops.TH_S_HAND_SIZE] + who]
        elif op == ops.OP_MEMBER:
            M[sp] = member(S, M, a, M[at + 2], M[at + 3], seat)
            sp += 1
        elif op == ops.OP_ROW_COLUMN:
            row_index = M[sp - 1]
            column = M[at + 2]
            if row_index < 0 or column < 0:
                M[sp - 1] = 0
            else:
                table = M[M[ops.TH_ROWS] + a]
                M[sp - 1] = M[table + 2 + row_index * M[table + 1] + column]
        elif op == ops.OP_SOME:
            if M[sp - 1] < 0:
                stop(S, ops.ERR_RULE, prog)
        elif op == ops.OP_PLACE_ID:
            place = M[sp - 1]
            place_ok(S, M, place)
            M[sp - 1] = M[M[ops.TH_WORDS_PLACE] + place]
        else:
            sp = _lists_and_statements(S, M, op, a, at, sp, base, env, seat, cause)
    result = M[sp - 1] if sp > base + M[row + ops.PROG_LOCALS] else 0
    if M[row + ops.PROG_RESULT_LIST] != 0 and result >= mark:
        n = M[result]
        for i in range(n + 1):
            M[mark + i] = M[result + i]
        result = mark
        M[ops.X_ARENA_TOP] = mark + 1 + n
    elif M[row + ops.PROG_RESULT_LIST] == 0:
        M[ops.X_ARENA_TOP] = mark
    M[ops.X_CALL_TOP] = base
    return result
