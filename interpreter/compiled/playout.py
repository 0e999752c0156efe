"""Whole games in machine code: the playout loop a simulation runs, with the seeded random
agent (tools/agents/uniform.py: `random.Random(agent_seed).choice(ids)`, ported bit for bit in
compiled/mt19937.py) at every seat, and what a simulation records of each game written into
arrays, one row a game, never one Python object a game.

Per game it writes what tools/simulate/playing.py records: the first start player, the
actions played, the rounds played, each seat's score, its ranking keys and whether it won, the resources the
rules report, the scores as the second age begins (`first_age`), who led alone after the last
phase that changed the lead and since which action (`decided_at`), every source's amounts
(the state's sources), the actions that name a card, by kind. A game the machine stops in
(compiled/core.py MachineStop) is marked so (status 1), for the caller to play it in the
interpreter: its record is then the interpreter's own.
"""

from __future__ import annotations

import numpy as np

from . import ops
from .jit import jit, jit_inline
from .mt19937 import mt_choice_index, mt_seed_rows
from .pointers import machine

# The columns of a game's row of G: then per seat its score, keys, win and reported
# resources, and its score as the second age began.
G_STATUS, G_START, G_LENGTH, G_FIRST_AGE, G_LEADER, G_SINCE, G_ROUNDS = 0, 1, 2, 3, 4, 5, 6
G_HEAD = 7
START, APPLY, RESULT = 0, 1, 2                 # entry.py's commands


@jit_inline
def scores_now(S, M, score, out, players):
    for seat in range(players):
        out[seat] = S[M[ops.TH_S_RES] + seat * M[ops.TH_RES] + score]


@jit_inline
def keys_above(R, a, b, width):
    """Whether the ranking keys at R[a+1:a+width] come after those at R[b+1:b+width]."""
    for k in range(1, width):
        if R[a + k] != R[b + k]:
            return R[a + k] > R[b + k]
    return False


@jit_inline
def won(R, width, players, seat):
    """Whether no seat's ranking keys (RESULT's numbers in R, `width` a seat) come after the seat's."""
    for other in range(players):
        if keys_above(R, other * width, seat * width, width):
            return False
    return True


@jit_inline
def round_at(S, M, age, rnd):
    """Which round the game is in, as one number: the passes of the repeats named age and round."""
    passes = M[ops.TH_S_PASSES]
    return (S[passes + age] if age >= 0 else 0) * (1 << 31) + (S[passes + rnd] if rnd >= 0 else 0)


@jit
def one_game(S, S0, M, R, seed, row, sources, NAMES, cards, picks, MT, now):  # noqa: C901 (a game, its watch, its row)
    """One game of random agents from the template S0: its row of G, its sources and card counts."""
    players = S0[ops.S_PLAYERS]
    width = M[M[ops.TH_WINNER] + ops.WINNER_N_TIEBREAKS] + 2
    reported = M[M[ops.TH_WINNER] + ops.WINNER_N_REPORT]
    report_at = M[M[ops.TH_WINNER] + ops.WINNER_REPORT]
    score = M[M[ops.TH_WINNER] + ops.WINNER_SCORE]
    age = M[M[ops.TH_FLOW] + ops.FLOW_AGE]
    rnd = M[M[ops.TH_FLOW] + ops.FLOW_ROUND]
    legal = M[ops.TH_S_LEGAL]
    for i in range(S0.shape[0]):
        S[i] = S0[i]
    S[ops.S_RNG] = seed
    mt_seed_rows(MT, np.uint64(seed * 1009 + 1), players)     # seat s: seed * 1009 + s + 1
    machine(S, M, R, START, -1)
    row[G_START] = S[ops.S_START]
    step = S[ops.S_STEP]
    leader, since, length = -1, 0, 0
    rounds, at = 1, round_at(S, M, age, rnd)
    row[G_FIRST_AGE] = 0
    while S[ops.S_OVER] == 0:
        seat = S[ops.S_TO_MOVE]
        action = S[legal + mt_choice_index(MT[seat], S[ops.S_NLEGAL])]
        machine(S, M, R, APPLY, action)
        length += 1
        name = NAMES[action]
        if name >= 0:
            cards[name] += 1
        if S[ops.S_STEP] != step:                     # a phase ended: who leads, the first age's scores
            step = S[ops.S_STEP]
            scores_now(S, M, score, now, players)
            lead = sole_leader(now, players)
            if lead != leader:
                leader, since = lead, length
            now_at = round_at(S, M, age, rnd)
            if now_at != at:
                rounds, at = rounds + 1, now_at
            if row[G_FIRST_AGE] == 0 and age >= 0 and S[M[ops.TH_S_PASSES] + age] > 1:
                row[G_FIRST_AGE] = 1
                for s in range(players):
                    row[G_HEAD + players * (width + 2 + reported) + s] = now[s]
    machine(S, M, R, RESULT, 0)
    row[G_LENGTH] = length
    row[G_ROUNDS] = rounds
    row[G_LEADER] = leader
    row[G_SINCE] = since
    for seat in range(players):
        at = G_HEAD + seat * (width + 2 + reported)
        row[at] = S[M[ops.TH_S_RES] + seat * M[ops.TH_RES] + score]
        for k in range(width):
            row[at + 1 + k] = R[seat * width + k]
        row[at + 1 + width] = 1 if won(R, width, players, seat) else 0
        for r in range(reported):
            row[at + 2 + width + r] = S[M[ops.TH_S_RES] + seat * M[ops.TH_RES] + M[report_at + r]]
    at = M[ops.TH_S_SOURCES]
    for i in range(sources.shape[0]):
        sources[i] = S[at + i]
    at = M[ops.TH_S_PICKS]
    for i in range(M[ops.TH_PICKS_SIZE]):
        picks[i] = S[at + i]


@jit_inline
def sole_leader(now, players):
    """The seat with the top score alone, or -1 when it is shared."""
    top, first, count = now[0], 0, 0
    for s in range(players):
        if now[s] > top:
            top, first = now[s], s
    for s in range(players):
        if now[s] == top:
            count += 1
    return first if count == 1 else -1


def play(S, S0, M, R, now, seeds, G, SRC, NAMES, CARDS, PICKS, MT):
    """Play the games of `seeds` from the template state S0 (players, options, resources) in
    the state S, every seat the random agent; one row of G, SRC, CARDS and PICKS a game (`now`:
    room for a score a seat). A part compiled on its own (compiled/hubs.py), calling the
    machine through its address."""
    for g in range(seeds.shape[0]):
        G[g, G_STATUS] = 0
        try:
            one_game(S, S0, M, R, seeds[g], G[g], SRC[g], NAMES, CARDS[g], PICKS[g], MT, now)
        except Exception:                              # the machine stopped: the interpreter plays it
            G[g, G_STATUS] = 1
    return seeds.shape[0]
