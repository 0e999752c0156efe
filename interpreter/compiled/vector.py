"""Many games stepped in one call, for learners (adapters/gymnasium_vector.py): each game's
learner action applied, the other seats played by the seeded random agent until the learner
is to move again or the game is over, and the learner's observation tensor written as float32,
one row a game. A game may instead start afresh (its seed and the opponents' generators set
by the caller), as a vector environment resets a game that ended at its previous step.

Per game it writes a status: RUNNING, OVER, ILLEGAL (the learner's id was not legal: nothing
changed) or STOPPED (the machine stopped where the interpreter would have to take over: the
caller ends that episode). The opponents draw as `random.Random(seed).choice(ids)` does
(compiled/mt19937.py), one generator a seat, so that a game here is the game the
single-environment adapter plays from the same seeds. Between steps, `random_legal` draws a
random legal action for each game's learner, for a caller that plays at random.
"""

from __future__ import annotations

import numpy as np

from . import ops, tensor
from .core import reset_scratch
from .entry import APPLY, START
from .jit import jit
from .mt19937 import mt_choice_index
from .pointers import machine
from .prefetch import state_ahead

RUNNING, OVER, ILLEGAL, STOPPED = 0, 1, 2, 3
AHEAD_PARTS = 5         # the next game's state asked for in five parts, over this game's step (prefetch.py)


@jit
def one_step(S, S0, M, R, MT, action, seat, start, seed, row, players):
    """One game's step (or fresh start) up to the learner's next decision (seat -1: every seat
    is the learner's); its status."""
    if start != 0:
        for k in range(S0.shape[0]):
            S[k] = S0[k]
        S[ops.S_RNG] = seed
        machine(S, M, R, START, -1)
    elif machine(S, M, R, APPLY, action) == 0:
        return ILLEGAL
    legal = M[ops.TH_S_LEGAL]
    while seat >= 0 and S[ops.S_OVER] == 0 and S[ops.S_TO_MOVE] != seat:
        mover = S[ops.S_TO_MOVE]
        pick = mt_choice_index(MT[row * players + mover], S[ops.S_NLEGAL])
        machine(S, M, R, APPLY, S[legal + pick])
    return OVER if S[ops.S_OVER] != 0 else RUNNING


def step_games(S, S0, M, R, MT, actions, seats, starts, seeds, obs, masks, status, observers):
    """Every game of the batch one step on (compiled/hubs.py compiles it on its own): S, obs and
    masks have a row a game (masks: the learner's legal ids as 0/1, all 0 once its game ended),
    MT a generator per game and seat (row game * players + seat). A game whose seat is -1 is
    played by the learner in every seat (self-play): one action a step, observed by the seat
    to move (`observers`), or by the seat whose action ended the game. The tensor is filled
    straight into a game's float32 row (compiled/tensor.py), not copied there from int64.
    Returns how many games did not simply go on (a status other than RUNNING): where none, the
    caller reads nothing more (numpy's calls on a small batch cost more than its step)."""
    players = S0[ops.S_PLAYERS]
    width = obs.shape[1]
    legal = M[ops.TH_S_LEGAL]
    games = S.shape[0]
    changed = 0
    for i in range(games):
        mask, row = masks[i], obs[i]        # rows as views: their loops run unchecked (entry.observe)
        ahead = S[i + 1] if i + 1 < games else S[i]     # the next game's state, asked for while this one steps
        for k in range(mask.shape[0]):
            mask[k] = 0
        mover = S[i, ops.S_TO_MOVE]
        state_ahead(ahead, M, 0, AHEAD_PARTS)
        for k in range(width):
            row[k] = 0.0
        try:
            status[i] = one_step(S[i], S0, M, R, MT, actions[i], seats[i], starts[i], seeds[i], i, players)
            if seats[i] < 0:                            # self-play: the seat to move, or the one that ended it
                observers[i] = S[i, ops.S_TO_MOVE] if status[i] == RUNNING or starts[i] != 0 else mover
            state_ahead(ahead, M, 1, AHEAD_PARTS)
            reset_scratch(M)
            tensor.fill(S[i], M, observers[i] if seats[i] < 0 else seats[i], row, np.int64(0), ahead, AHEAD_PARTS)
        except Exception:                               # the machine stopped (core.MachineStop)
            status[i] = STOPPED
            for k in range(width):
                row[k] = 0.0
            changed += 1
            continue
        state_ahead(ahead, M, 4, AHEAD_PARTS)
        if status[i] == RUNNING:
            for k in range(S[i, ops.S_NLEGAL]):
                mask[S[i, legal + k]] = 1
        else:
            changed += 1
    return changed


def random_legal(S, M, status, draws, actions):
    """A uniformly random legal id for every game's learner into `actions` (0 where its game did
    not go on: the next step ignores that action), `draws` one uniform number in [0, 1) a game:
    the id at that fraction of the legal list the step made the game's mask from, so always a
    legal one. It reads two numbers of a game's state, where a draw over the mask reads its
    hundreds (six times as long, measured) and one in numpy (a number drawn for every id of every
    game) pushes megabytes through the caches between steps (docs/adapters.md, "How fast")."""
    legal = M[ops.TH_S_LEGAL]
    for i in range(S.shape[0]):
        count = S[i, ops.S_NLEGAL]
        actions[i] = S[i, legal + np.int64(draws[i] * count)] if status[i] == RUNNING and count > 0 else 0
