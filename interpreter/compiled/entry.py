"""The compiled engine's one entry point from Python, `machine`: start a game, apply an id,
read the result, by a command number.

One entry point, because numba compiles into each entry point the code of everything it
calls: several would each hold (and compile) the whole engine again. Each command resets the
scratch room first, so a call from Python never sees what an earlier one left there. The
set-up follows interpreter/game.py `new_game` in its order: the supplies that never run out,
the options' conditions, the resources held as cards, the decks, the start player, the
cursor, the first decisions. Options, players, the seed, the starting resources and the
cards of the resources that may be held as cards are written into the state by the caller
(compiled/game.py), as new_game writes them into a GameState.
"""

from __future__ import annotations

import numpy as np

from . import decks, flow, material, ops, pointers, tensor
from .core import random_below, reset_scratch, stop, zero
from .jit import jit, jit_inline
from .pointers import evaluate


@jit_inline
def start_game(S, M, start_player):
    """A new game at its first decision (S holds players, seed, options and resources)."""
    reset_scratch(M)
    players = S[ops.S_PLAYERS]
    for place in range(M[ops.TH_PLACES]):
        owner = M[M[ops.TH_START_OWNER] + place]
        material.set_owner(S, M, place, owner if owner < players else -1)
    for kind in range(M[ops.TH_SUPPLIES]):
        S[M[ops.TH_S_SUPPLY] + kind] = M[M[ops.TH_SUPPLY_START] + kind]
        prog = M[M[ops.TH_UNLIMITED_IF] + kind]
        S[M[ops.TH_S_UNLIMITED] + kind] = 1 if prog >= 0 and evaluate(S, M, prog, -1, -1) != 0 else 0
    for option in range(M[ops.TH_OPTIONS]):
        allowed = M[M[M[ops.TH_OPTION] + option] + 1]
        if allowed >= 0 and evaluate(S, M, allowed, -1, -1) == 0:
            stop(S, ops.ERR_SETUP, option)
    held_cards(S, M)
    decks.build(S, M)
    S[ops.S_START] = start_player if start_player >= 0 else random_below(S, players)
    flow.start(S, M)
    pointers.advance(S, M)


@jit
def held_cards(S, M):
    """Which resources are held as cards in this game (play/setup.py deal_held_cards): those
    whose `when` holds now, as the bits of S[S_HELD]; the cards the set-up dealt (compiled/game.py)
    are taken back from the others."""
    bits = 0
    for held in range(M[ops.TH_HELD]):
        row = material.held_row(M, held)
        when = M[row + ops.HELD_WHEN]
        if when < 0 or evaluate(S, M, when, -1, -1) != 0:
            bits |= 1 << held
        else:
            at, size = M[row + ops.HELD_S], M[ops.TH_SEATS] * M[row + ops.HELD_N_VALUES]
            S[at:at + size] = 0
    S[ops.S_HELD] = bits


@jit_inline
def apply_id(S, M, action):
    """Carry out a legal id; False if it is not legal now (nothing changed)."""
    reset_scratch(M)
    return flow.apply(S, M, action)


@jit_inline
def result_keys(S, M, R):
    """Each seat's score, then its ranking keys (`winner.by` or the score, then each
    tie-break), into R: per seat 2 + tie-breaks numbers; their count per seat."""
    reset_scratch(M)
    winner = M[ops.TH_WINNER]
    score, by = M[winner + ops.WINNER_SCORE], M[winner + ops.WINNER_BY]
    ties, tiebreaks = M[winner + ops.WINNER_N_TIEBREAKS], M[winner + ops.WINNER_TIEBREAKS]
    width = 2 + ties
    for seat in range(S[ops.S_PLAYERS]):
        at = seat * width
        R[at] = S[material.resource_at(M, seat, score)]
        R[at + 1] = evaluate(S, M, by, seat, -1) if by >= 0 else R[at]
        for k in range(ties):
            R[at + 2 + k] = evaluate(S, M, M[tiebreaks + k], seat, -1)
    return width


def observe(S, M, R, seat):
    """The observation tensor of `seat` (-1: the public view) into R; its size. A part of its
    own (compiled/hubs.py), compiled only once a caller asks for tensors (an adapter, a test):
    studies, bots and `run` never do, and need not wait for it."""
    reset_scratch(M)
    size = M[M[ops.TH_TENSOR] + ops.TN_SIZE]
    zero(R, 0, size)
    tensor.fill(S, M, seat, R, np.int64(0), S, np.int64(0))
    return size


START, APPLY, RESULT, TENSOR, DECIDE = 0, 1, 2, 3, 4
def machine(S, M, R, command, arg):
    """The one part Python calls (compiled/hubs.py compiles it on its own): run one command
    on the state S (R: the command's numbers out): START a game (arg: the
    start player, -1 for a random one), APPLY an id (1 if it was legal), read the RESULT, fill
    the observation TENSOR of a seat (arg; -1 for the public view), DECIDE again from where the
    state stands (Game.decide_again: a search's guess, tools/agents/machine_search.py). -1 for
    an unknown command or an R too small for what it would write (nothing written), -2 for a
    TENSOR before its part is compiled (CompiledRules.observing)."""
    room = R.shape[0]
    if command == START:
        start_game(S, M, arg)
        return 1
    if command == DECIDE:
        reset_scratch(M)
        pointers.advance(S, M)
        return 1
    if command == APPLY:
        return 1 if apply_id(S, M, arg) else 0
    if command == TENSOR:
        return pointers.observed(S, M, R, arg) if room >= M[M[ops.TH_TENSOR] + ops.TN_SIZE] else -1
    if command == RESULT:
        width = 2 + M[M[ops.TH_WINNER] + ops.WINNER_N_TIEBREAKS]
        return result_keys(S, M, R) if room >= S[ops.S_PLAYERS] * width else -1
    return -1
