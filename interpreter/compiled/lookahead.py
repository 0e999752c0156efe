"""A one-step bot's lookahead in machine code: each action it weighs tried on a copy of a
guessed position, its follow-ups or the secret phase it starts played through, and the
position reached valued by weights (tools/agents/heuristic.py, tools/agents/value.py, the same
steps in the same order, so that the same numbers come out to the bit).

Python chooses (the bot's own generator stays there); this part does what costs: tens of
engine steps, copies and valuations an action, and, where it can draw them as Python does, the
guesses too (compiled/guess.py). Its tables come from tools/agents/machine_lookahead.py:

- `F`, what values a position: the weights (points, money, income, cards, tokens, places,
  start) as float64, in `W`; and in `F`, the phases that forecast (scoring, income), each as
  its phase number, mechanic kind and whether it pays the score;
- `B`, per action id: its block's number, whether a follow-up may be it (not a card play or
  standing action), and whether it is a follow-up;
- `rows`: three positions' room (the position played on, the best candidate, a candidate);
- `MT`: the generators' room: row 0, the one a secret phase draws from, copied for every
  action from the bot's generator as seeded for that action's guess (seeding one costs as much
  as a dozen engine steps): row 1 for one guess; while the machine draws the guesses, row OWN
  holds the bot's own generator and the rows after it each guess's seeded one;
- `Q`, the forecasts kept (tools/agents/machine_memo.py lays it out): forecasts are three fifths
  of a greedy game's machine time, and a scoring phase's points change far less often than the
  positions do. Q[f] for each forecasting phase f of F: where its memo's description lies, or -1
  for a phase worked out every time; a description is its capacity (2 ** k rows), the key's
  length, its runs of S and the table's offset, then the runs (start, length): the parts of
  the state its points read (tools/agents/score_memo.py `award_reads`). A table row is the seat
  + 1 (0: empty), the points, and the key's numbers, compared whole: a kept forecast is the
  forecast worked out afresh, to the bit. An empty Q keeps nothing.
"""

from __future__ import annotations

import numpy as np

from . import ops
from .core import reset_scratch, stop
from .entry import APPLY
from .guess import DONE, guess
from .jit import jit, jit_inline
from .mt19937 import mt_choice_index, mt_genrand32, mt_refill, mt_seed_each, mt_seed_rows
from .pointers import machine, mechanic

FOLLOW_UPS = 12             # tools/agents/heuristic.py FOLLOW_UPS
REVEAL_LIMIT = 200          # tools/agents/heuristic.py REVEAL_LIMIT
EPSILON = 1e-9              # a candidate beats the best only by more than this
B_BLOCK, B_CANDIDATE, B_FOLLOW_UP = 0, 1, 2
B_FIELDS = 3
F_PHASE, F_KIND, F_SCORE = 0, 1, 2
F_FIELDS = 3
EVERY_SEAT = -1             # `lookahead` values the position for every seat
OWN = 2                     # MT's row with the bot's own generator, while the machine draws its guesses
Q_CAPACITY, Q_KEY, Q_RUNS, Q_TABLE, Q_HEAD = 0, 1, 2, 3, 4      # a memo's description (then its runs)
PROBES = 4                  # rows of a table tried for a key before the first of them is written over
HASH_START, HASH_PRIME = 0xCBF29CE484222325, 0x100000001B3     # FNV-1a (key_hash)


@jit
def worth(S, M, seat, W, F, Q):
    """The seat's worth in the position S by the weights W (tools/agents/value.py `_worth`)."""
    reset_scratch(M)
    score = M[M[ops.TH_WINNER] + ops.WINNER_SCORE]
    projected = 0.0
    income = 0.0
    for f in range(F.shape[0] // F_FIELDS):
        at = f * F_FIELDS
        amount = forecast(S, M, F[at + F_KIND], F[at + F_PHASE], seat, Q, Q[f] if Q.shape[0] > f else -1)
        if F[at + F_SCORE] != 0:
            projected += amount
        else:
            income += amount
    base = M[ops.TH_S_RES] + seat * M[ops.TH_RES]
    money = 0
    for r in range(M[ops.TH_RES]):
        if r != score:
            money += S[base + r]
    cards = 0
    hand = M[ops.TH_S_HANDS] + seat * M[ops.TH_CARDS]
    for c in range(M[ops.TH_CARDS]):
        cards += S[hand + c]
    total = W[0] * (S[base + score] + projected) + W[1] * money + W[2] * income + W[3] * cards
    if W[4] != 0.0 or W[5] != 0.0:
        owners, places, tokens = M[ops.TH_S_OWNER], 0, 0
        for place in range(M[ops.TH_PLACES]):
            if S[owners + place] == seat:
                places += 1
                at = M[ops.TH_S_TOKENS] + place * M[ops.TH_TOKENS]
                for t in range(M[ops.TH_TOKENS]):
                    tokens += S[at + t]
        total += W[5] * places
        if W[4] != 0.0:
            total += W[4] * tokens
    if W[6] != 0.0 and S[ops.S_START] == seat:
        total += W[6]
    return total


@jit_inline
def forecast(S, M, kind, phase, seat, Q, memo):
    """What the phase would give the seat now: kept in Q at `memo`, or worked out (memo -1)."""
    if memo >= 0:
        return remembered(S, M, Q, memo, kind, phase, seat)
    return mechanic(S, M, kind, ops.CALL_FORECAST, phase, seat, 0)


@jit
def remembered(S, M, Q, memo, kind, phase, seat):
    """The phase's forecast for the seat, from its table in Q where the same key was kept, else
    worked out and kept (over the first of the rows tried when none is free)."""
    capacity, runs = Q[memo + Q_CAPACITY], Q[memo + Q_RUNS]
    h = key_hash(S, Q, memo, runs, seat)
    width = 2 + Q[memo + Q_KEY]
    table = Q[memo + Q_TABLE]
    first = np.int64(h >> np.uint64(32)) & (capacity - 1)
    free = -1
    for probe in range(PROBES):
        row = table + ((first + probe) & (capacity - 1)) * width
        if Q[row] == 0:
            free = row
            break
        if Q[row] == seat + 1 and same_key(S, Q, memo, runs, row + 2):
            return Q[row + 1]
    amount = mechanic(S, M, kind, ops.CALL_FORECAST, phase, seat, 0)
    row = free if free >= 0 else table + first * width
    Q[row] = seat + 1
    Q[row + 1] = amount
    k = row + 2
    for r in range(runs):
        start, length = Q[memo + Q_HEAD + 2 * r], Q[memo + Q_HEAD + 2 * r + 1]
        kept = Q[k:k + length]
        for i, word in enumerate(S[start:start + length]):
            kept[i] = word
        k += length
    return amount


@jit_inline
def key_hash(S, Q, memo, runs, seat):
    """FNV-1a over the key's numbers as four hashes side by side (every fourth number of a run
    each, then mixed): one hash's multiplications wait on one another, four hashes' overlap,
    and a scoring phase's key is read at every valuation (a 2016 key is up to 96 numbers)."""
    prime = np.uint64(HASH_PRIME)
    h0 = np.uint64(HASH_START) ^ np.uint64(seat)
    h1 = h2 = h3 = np.uint64(HASH_START)
    for r in range(runs):
        start, length = Q[memo + Q_HEAD + 2 * r], Q[memo + Q_HEAD + 2 * r + 1]
        words = S[start:start + length]
        fours = length - length % 4
        for i in range(0, fours, 4):
            h0 = (h0 ^ np.uint64(words[i])) * prime
            h1 = (h1 ^ np.uint64(words[i + 1])) * prime
            h2 = (h2 ^ np.uint64(words[i + 2])) * prime
            h3 = (h3 ^ np.uint64(words[i + 3])) * prime
        for i in range(fours, length):
            h0 = (h0 ^ np.uint64(words[i])) * prime
    return (((h0 * prime) ^ h1) * prime ^ h2) * prime ^ h3


@jit_inline
def same_key(S, Q, memo, runs, k):
    """Whether the key kept from Q[k] on is the position's (every number of every run)."""
    for r in range(runs):
        start, length = Q[memo + Q_HEAD + 2 * r], Q[memo + Q_HEAD + 2 * r + 1]
        kept, now = Q[k:k + length], S[start:start + length]
        for i in range(length):
            if kept[i] != now[i]:
                return False
        k += length
    return True


@jit_inline
def used(M, S):
    """How much of a position's row is used: the legal ids lie last (compiled/lower.py), the
    room for more of them is often a third of the row or more, and the lookahead copies rows
    dozens of times a call (copying them whole was 6% of its time)."""
    return M[ops.TH_S_LEGAL] + S[ops.S_NLEGAL]


@jit_inline
def copy_row(rows, source, target, M):
    copy_used(rows[source], rows[target], M)


@jit_inline
def copy_used(source, target, M):
    """The used part of a row into another, as views: numba checks no index of a view, and the
    loop becomes a copy of memory (indexing the rows two-dimensionally is several times slower)."""
    for i in range(used(M, source)):
        target[i] = source[i]


@jit
def step_on(rows, game, M, R, seat, W, F, B, firsts, Q):
    """The row holding the position after the seat's best action, one step ahead, among the
    legal ids of the row `game` it weighs (`taken`), as tools/agents/heuristic.py `_step_on`
    does; the other two rows are room."""
    legal, n = M[ops.TH_S_LEGAL], rows[game, ops.S_NLEGAL]
    count, only = 0, -1
    for k in range(n):
        if taken(rows, game, legal, k, B, firsts):
            count += 1
            only = rows[game, legal + k]
    if count == 1:
        machine(rows[game], M, R, APPLY, only)
        return game
    best, best_value = -1, -np.inf
    for k in range(n):
        if not taken(rows, game, legal, k, B, firsts):
            continue
        trial = 3 - game - best if best >= 0 else (game + 1) % 3
        copy_row(rows, game, trial, M)
        machine(rows[trial], M, R, APPLY, rows[game, legal + k])
        value = worth(rows[trial], M, seat, W, F, Q)
        if value > best_value + EPSILON:
            best, best_value = trial, value
        elif best < 0:                      # the first action kept while none is worth more
            best = trial
    return best


@jit_inline
def taken(rows, game, legal, k, B, firsts):
    """Whether step_on weighs the k-th legal id: with `firsts`, the first of its kind (the ids
    are sorted and a kind's ids are one run of them); else any that may be a follow-up."""
    action = rows[game, legal + k]
    if firsts:
        return k == 0 or B[action * B_FIELDS + B_BLOCK] != B[rows[game, legal + k - 1] * B_FIELDS + B_BLOCK]
    return B[action * B_FIELDS + B_CANDIDATE] != 0


@jit
def follow_ups(rows, game, M, R, seat, step, W, F, B, Q):
    """The seat's follow-ups made the best way (heuristic.py `_follow_ups`); the row reached."""
    legal = M[ops.TH_S_LEGAL]
    for _ in range(FOLLOW_UPS):
        if rows[game, ops.S_TO_MOVE] != seat or rows[game, ops.S_STEP] != step:
            return game
        some, every = False, True
        for k in range(rows[game, ops.S_NLEGAL]):
            action = rows[game, legal + k]
            if B[action * B_FIELDS + B_CANDIDATE] != 0:
                some = True
                every = every and B[action * B_FIELDS + B_FOLLOW_UP] != 0
        if not some or not every:
            return game
        game = step_on(rows, game, M, R, seat, W, F, B, False, Q)
    return game


@jit
def through_reveal(rows, game, M, R, seat, step, W, F, B, MT, Q):
    """The secret phase played to its end (heuristic.py `_through_reveal`): the other seats at
    random (MT, seeded as the bot seeded its random.Random), this seat one step ahead over
    the first action of each kind; the row reached."""
    legal = M[ops.TH_S_LEGAL]
    for _ in range(REVEAL_LIMIT):
        if rows[game, ops.S_OVER] != 0 or rows[game, ops.S_STEP] != step:
            return game
        if rows[game, ops.S_TO_MOVE] == seat:
            game = step_on(rows, game, M, R, seat, W, F, B, True, Q)
        else:
            pick = mt_choice_index(MT[0], rows[game, ops.S_NLEGAL])
            machine(rows[game], M, R, APPLY, rows[game, legal + pick])
    return game


@jit
def valued(S, M, R, rows, ids, out, at, W, F, B, seat, secret, seeded, MT, Q):
    """What each action of `ids` is worth to the seat in the guessed position S (heuristic.py
    `_worths`), into out[at:]: NaN for an action not legal there. A secret phase is played
    through with the bot's generator seeded afresh for every action, as the bot does: seeded
    once into MT's row `seeded` (and refilled) by the caller, and that row copied into row 0
    for each action."""
    step = S[ops.S_STEP]
    for i in range(ids.shape[0]):
        copy_used(S, rows[0], M)
        if machine(rows[0], M, R, APPLY, ids[i]) == 0:
            out[at + i] = np.nan
            continue
        if secret != 0:
            source, drawing = MT[seeded], MT[0]
            for w in range(source.shape[0]):
                drawing[w] = source[w]
            game = through_reveal(rows, np.int64(0), M, R, seat, step, W, F, B, MT, Q)
        else:
            game = follow_ups(rows, np.int64(0), M, R, seat, step, W, F, B, Q)
        out[at + i] = worth(rows[game], M, seat, W, F, Q)


def lookahead(S, M, R, rows, ids, out, W, F, B, seat, secret, seed, MT, Q, D, X, G):
    """The part Python calls (compiled/hubs.py compiles it on its own); its status (guess.py).

    - With no rows in G: what each action of `ids` is worth to the seat in the guessed
      position S (`valued`), into out.
    - With rows in G, the bot's whole decision but its choice (heuristic.py `best`): S is the
      position itself, and G's rows but the last (room) each take a guess of it, drawn from
      the bot's generator in MT's row OWN (guess.py, deal `D`, room `X`); then a seed drawn per
      guess (getrandbits(32)), as the bot draws them, each seeding a generator in the rows
      after OWN (four at a time); then out[g * len(ids):] holds what each action is worth on
      guess g. A guess the machine cannot draw as Python does ends the call (RAN_ON, SHORT)
      before any worth: the bot then decides in Python from its generator's state before the
      call.
    - With `seat` EVERY_SEAT: every seat's worth of S itself into out, in seat order
      (tools/agents/value.py `values`: a search's unfinished playout), none of its forecasts
      kept in Q: the ends of random playouts are too varied for a key to pay (most missed;
      tools/agents/score_memo.py says the same)."""
    if seat == EVERY_SEAT:
        if out.shape[0] < S[ops.S_PLAYERS]:
            stop(S, ops.ERR_ROOM, np.int64(0))
        for each in range(S[ops.S_PLAYERS]):
            out[each] = worth(S, M, each, W, F, F[:0])     # nothing kept: playouts end too far apart
        return DONE
    if secret != 0 and MT.shape[0] < 2:      # no room for the seeded generator: the caller values it itself
        stop(S, ops.ERR_ROOM, np.int64(0))
    if G.shape[0] == 0:
        if secret != 0:
            mt_seed_rows(MT[1:2], np.uint64(seed), 1)
            mt_refill(MT[1])
        valued(S, M, R, rows, ids, out, np.int64(0), W, F, B, seat, secret, np.int64(1), MT, Q)
        return DONE
    return on_guesses(S, M, R, rows, ids, out, W, F, B, seat, secret, MT, Q, D, X, G)


@jit
def on_guesses(S, M, R, rows, ids, out, W, F, B, seat, secret, MT, Q, D, X, G):
    """`lookahead` with guess rows: the guesses drawn, their seeds and generators, the worths."""
    guesses, n = G.shape[0] - 1, ids.shape[0]
    seeds = 5 * D[0]                         # after the deal's room
    if (MT.shape[0] <= OWN + (guesses if secret != 0 else 0) or out.shape[0] < guesses * n
            or X.shape[0] < seeds + guesses):
        stop(S, ops.ERR_ROOM, np.int64(0))
    for g in range(guesses):
        status = guess(S, M, R, G[g], G[guesses], D, MT[OWN], X, 0, seat)
        if status != DONE:
            return status
    for g in range(guesses):
        X[seeds + g] = mt_genrand32(MT[OWN])
    if secret != 0:                          # each guess's generator, seeded side by side after the bot's own
        mt_seed_each(MT, OWN + 1, X[seeds:seeds + guesses])
        for g in range(guesses):
            mt_refill(MT[OWN + 1 + g])
    for g in range(guesses):
        valued(G[g], M, R, rows, ids, out, g * n, W, F, B, seat, secret, OWN + 1 + g, MT, Q)
    return DONE
