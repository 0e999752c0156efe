"""The search bot's whole decision in machine code (tools/agents/ismcts.py): at every
iteration a guess of the position (compiled/guess.py), the tree walked by UCB from the root,
one node added, a random playout, and one reward per seat backed up; then the root's most
visited action. The bot's generator is Python's own (compiled/mt19937.py, handed over as its
state and handed back), drawing what random.Random draws in the same order (tools/sampling.py:
`sample` for the deal, `below` for the replies), and every number is the interpreter's float
for float, so it is the same tree and the same choice as the search in Python
(tools/agents/machine_search.py prepares it and says when it may run).

A guess that the machine cannot draw as Python does (guess.py: RAN_ON, SHORT) ends the call,
having changed nothing the caller keeps, and the caller searches in Python from the
generator's state before the call.

Tables, made by the caller:
- `D`, the deal (guess.py);
- `P`: the seat, the iterations of this call, the horizon (0: to the end), the tree's nodes so
  far (0: a new tree; the call leaves its count there, so that a search on a time budget goes
  on with the same tree in the next call); `FP`: UCB's constant, the spread;
- `tree`: a node a row (NODE_FIELDS), `totals` its rewards; `X` and `FX` room;
- `rows`: two rows, the guess played on and its row before its decision was worked out again.
"""

from __future__ import annotations

import math

import numpy as np

from . import ops
from .core import stop
from .entry import APPLY, result_keys
from .guess import DONE, guess
from .jit import jit
from .lookahead import worth
from .mt19937 import mt_randbelow
from .playout import won
from .pointers import machine

MOVER, VISITS, AVAIL, ACTION, CHILD, NEXT = 0, 1, 2, 3, 4, 5
NODE_FIELDS = 6
P_SEAT, P_ITERATIONS, P_HORIZON, P_NODES = 0, 1, 2, 3
FP_C, FP_SPREAD = 0, 1


@jit
def child_of(tree, node, action):
    c = tree[node, CHILD]
    while c >= 0:
        if tree[c, ACTION] == action:
            return c
        c = tree[c, NEXT]
    return -1


@jit
def rewards(row, M, R, W, F, FX, spread):
    """Each seat's reward into FX[players:2 * players] (ismcts.py `_playout`'s end)."""
    players = row[ops.S_PLAYERS]
    out = players
    if row[ops.S_OVER] != 0:
        width = result_keys(row, M, R)
        winners = 0
        for s in range(players):
            FX[out + s] = 1.0 if won(R, width, players, s) else 0.0
            if FX[out + s] != 0.0:
                winners += 1
        for s in range(players):
            FX[out + s] = 1.0 / winners if FX[out + s] != 0.0 else 0.0
        return
    top = -np.inf
    for s in range(players):
        FX[s] = worth(row, M, s, W, F, F[:0]) / spread     # nothing kept: playouts end too far apart
        if FX[s] > top:
            top = FX[s]
    total = 0.0
    for s in range(players):
        FX[s] = math.exp(FX[s] - top)
        total += FX[s]
    for s in range(players):
        FX[out + s] = FX[s] / total


@jit
def add_child(row, M, R, tree, totals, count, node, action, X, kids):
    """The node of an untried action, made under `node` (its statistics' avail counted as
    ismcts.py counts it: every child of the legal ids once more, the new one too); the action
    taken. The nodes the tree has after it."""
    if count >= tree.shape[0]:
        stop(row, ops.ERR_ROOM, np.int64(0))
    legal, kid = M[ops.TH_S_LEGAL], count
    tree[kid, MOVER] = row[ops.S_TO_MOVE]
    tree[kid, VISITS] = 0
    tree[kid, AVAIL] = 1
    tree[kid, ACTION] = action
    tree[kid, CHILD] = -1
    tree[kid, NEXT] = tree[node, CHILD]
    tree[node, CHILD] = kid
    totals[kid] = 0.0
    for i in range(row[ops.S_NLEGAL]):
        if row[legal + i] == action:
            X[kids + i] = kid
        if X[kids + i] >= 0:
            tree[X[kids + i], AVAIL] += 1
    machine(row, M, R, APPLY, action)
    return count + 1


@jit
def best_child(row, M, R, tree, totals, X, kids, c):
    """The child of the legal ids with the highest UCB score (the first of equals), its action
    taken; each child's avail counted once more."""
    legal = M[ops.TH_S_LEGAL]
    best, best_score, best_kid = row[legal], -np.inf, -1
    for i in range(row[ops.S_NLEGAL]):
        kid = X[kids + i]
        tree[kid, AVAIL] += 1
        visits = float(tree[kid, VISITS])
        score = totals[kid] / visits + c * math.sqrt(math.log(float(tree[kid, AVAIL])) / visits)
        if score > best_score:
            best, best_score, best_kid = row[legal + i], score, kid
    machine(row, M, R, APPLY, best)
    return best_kid


@jit
def iterate(row, M, R, tree, totals, count, W, F, MT, X, kids, untried, path, FX, c, spread, horizon):
    """One iteration on the guess in `row` (ismcts.py `_iterate`); the nodes the tree has after it."""
    legal = M[ops.TH_S_LEGAL]
    node, depth = 0, 0
    while row[ops.S_OVER] == 0:
        fresh = 0
        for i in range(row[ops.S_NLEGAL]):
            kid = child_of(tree, node, row[legal + i])
            X[kids + i] = kid
            if kid < 0:
                X[untried + fresh] = row[legal + i]
                fresh += 1
        if fresh > 0:
            action = X[untried + mt_randbelow(MT, fresh)] if fresh > 1 else X[untried]
            X[path + depth] = count
            count = add_child(row, M, R, tree, totals, count, node, action, X, kids)
            depth += 1
            break
        node = best_child(row, M, R, tree, totals, X, kids, c)
        X[path + depth] = node
        depth += 1
    left = horizon if horizon > 0 else -1
    while row[ops.S_OVER] == 0 and left != 0:
        machine(row, M, R, APPLY, row[legal + mt_randbelow(MT, row[ops.S_NLEGAL])])
        left -= 1
    rewards(row, M, R, W, F, FX, spread)
    players = row[ops.S_PLAYERS]
    for d in range(depth):
        kid = X[path + d]
        tree[kid, VISITS] += 1
        totals[kid] += FX[players + tree[kid, MOVER]]
    return count


def search(S0, M, R, rows, D, tree, totals, W, F, MT, P, FP, X, FX, ids, out):
    """The decision (compiled/hubs.py compiles it on its own): its status, and out[0] the
    action chosen among `ids` so far (the root's most visited, the lowest id of equals)."""
    seat, iterations, horizon = P[P_SEAT], P[P_ITERATIONS], P[P_HORIZON]
    npool = D[0]
    legal_room = S0.shape[0] - M[ops.TH_S_LEGAL]
    kids, untried, path = 5 * npool, 5 * npool + legal_room, 5 * npool + 2 * legal_room
    if X.shape[0] < path + tree.shape[0] + 1 or FX.shape[0] < 2 * S0[ops.S_PLAYERS] or rows.shape[0] < 2:
        stop(rows[0], ops.ERR_ROOM, np.int64(0))
    count = P[P_NODES]
    if count == 0:
        tree[0, MOVER] = seat
        tree[0, CHILD] = -1
        count = 1
    for _ in range(iterations):
        status = guess(S0, M, R, rows[0], rows[1], D, MT, X, 0, seat)
        if status != DONE:
            return status
        count = iterate(rows[0], M, R, tree, totals, count, W, F, MT, X, kids, untried, path, FX,
                        FP[FP_C], FP[FP_SPREAD], horizon)
        P[P_NODES] = count
    best, best_visits = ids[0], -1
    kid = tree[0, CHILD]
    while kid >= 0:
        action, visits = tree[kid, ACTION], tree[kid, VISITS]
        allowed = False
        for i in range(ids.shape[0]):
            allowed = allowed or ids[i] == action
        if allowed and (visits > best_visits or (visits == best_visits and action < best)):
            best, best_visits = action, visits
        kid = tree[kid, NEXT]
    out[0] = best
    return DONE
