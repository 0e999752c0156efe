"""The search bot (tools/agents/ismcts.py) on the compiled engine, in two ways, each making the
choices the search makes in the interpreter.

- `MachineSearch`: where the machine draws a guess of the position as Python does
  (tools/agents/machine_guesses.py: cards, a generator, a phase's secret choices; most
  decisions), the whole decision in machine code (interpreter/compiled/search.py), the bot's
  generator handed over as its Mersenne Twister state and handed back.
- Elsewhere, the tree stays in Python and each iteration's guess is a `MachinePosition`
  (machine_guesses.py), stepped there by one call a step (0.6 us against 7), its winners read
  and its seats valued there (the heuristic's own numbers to the bit,
  tools/agents/machine_lookahead.py).

A guess the machine cannot take (a region it cannot pack) raises `Unplayable`, a rule the
machine stops at raises `MachineStop`: the bot then searches the decision again in the
interpreter from the generator's state before it.
"""

from __future__ import annotations

import math
import random
import time
from weakref import WeakKeyDictionary

import numpy as np

from ...interpreter.compiled import hubs, search
from ...interpreter.compiled.core import MachineStop
from ...interpreter.compiled.guess import DONE
from ...interpreter.compiled.lookahead import OWN
from ...interpreter.model import Rules
from .machine_generator import MachineGenerator
from .machine_guesses import MachineGuesses
from .machine_lookahead import Lookahead
from .value import Weights

CHUNK = 16              # iterations a call on a time budget (about 0.25 ms): the clock is read between calls


class MachineSearch:
    """A rules file's room for whole decisions of the search in machine code
    (interpreter/compiled/search.py), one per process."""

    def __init__(self, look: Lookahead) -> None:
        self.look, self.part = look, hubs.searches()
        machine = look.machine
        width = 2 + len(machine.rules.winner.tiebreaks)
        self.R = np.zeros(max(machine.rules.max_players * width, 1), dtype=np.int64)
        self.rows = np.zeros((2, machine.size), dtype=np.int64)
        self.out = np.zeros(1, dtype=np.int64)

    def decide(self, drawing: MachineGuesses, ids: list[int], rng: random.Random, iterations: int, c: float,
               horizon: int, spread: float, weights: Weights, deadline: float = math.inf,
               chunk: int = CHUNK) -> tuple[int, int] | None:
        """The action a search of `iterations` (0: no limit) on guesses from `drawing` chooses
        before `deadline` (time.perf_counter), and the iterations it ran, the generator moved on
        as the search in Python moves it; None (the generator untouched) where the machine
        cannot search this decision whole: a guess it does not draw (MachineGuesses.whole), or
        whose decision ran on, or a rule the machine stops at. Then the caller searches in Python. On a time
        budget the machine runs `chunk` iterations a call, and the clock is read between calls."""
        if not drawing.whole() or (iterations <= 0 and deadline == math.inf):
            return None
        look, guesses, machine = self.look, drawing.guesses, self.look.machine
        D = drawing.deal_table
        step = iterations if deadline == math.inf else (min(chunk, iterations) if iterations else chunk)
        tree, totals = np.zeros((step + 1, search.NODE_FIELDS), dtype=np.int64), np.zeros(step + 1)
        scratch = 5 * int(D[0]) + 2 * (machine.size - machine.legal_at) + 1       # search.py's X, the path last
        X = np.zeros(scratch + tree.shape[0] + 1, dtype=np.int64)
        P = np.array([guesses.seat, 0, horizon, 0], dtype=np.int64)
        W, FP, FX, allowed = look.weight_row(weights), np.array([c, spread]), np.zeros(2 * drawing.players), \
            np.array(ids, dtype=np.int64)
        generator = MachineGenerator(rng)             # the rng itself only moves on at the end
        MT = generator.machine()[OWN]
        done = 0
        while (not iterations or done < iterations) and (done == 0 or time.perf_counter() < deadline):
            P[search.P_ITERATIONS] = min(step, iterations - done) if iterations else step
            if P[search.P_NODES] + P[search.P_ITERATIONS] + 1 > tree.shape[0]:
                rows = 2 * tree.shape[0]
                tree, totals, X = _grown(tree, rows), _grown(totals, rows), np.zeros(scratch + rows + 1, dtype=np.int64)
            try:
                status = self.part(drawing.base, machine.M, self.R, self.rows, D, tree, totals, W, look.F, MT, P, FP,
                                   X, FX, allowed, self.out)
            except MachineStop:
                return None
            if status != DONE:
                return None
            done += int(P[search.P_ITERATIONS])
        generator.python()
        return int(self.out[0]), done


def _grown(values: np.ndarray, rows: int) -> np.ndarray:
    """A bigger copy of a tree's array: its rows kept, the new ones zeros."""
    grown = np.zeros((rows, *values.shape[1:]), dtype=values.dtype)
    grown[:values.shape[0]] = values
    return grown


_SEARCHES: WeakKeyDictionary[Rules, MachineSearch] = WeakKeyDictionary()


def machine_search(look: Lookahead, compile: bool = False) -> MachineSearch | None:
    """The machine's whole decisions for these rules, where its part is kept or `compile` asks
    for it (else None: the search steps its guesses on the machine from Python)."""
    found = _SEARCHES.get(look.machine.rules)
    if found is None or found.look is not look:
        if compile:
            hubs.prepare(["search"])
        elif hubs.missing(["search"]):
            return None
        found = _SEARCHES[look.machine.rules] = MachineSearch(look)
    return found
