"""Many whole games of random agents on the compiled engine, for studies: the loop runs in
machine code (playout.py) and gives its results back as arrays, a row a game.

`play_random` is what `amunre simulate` with random agents calls for a range of games: the
seeds in, the rows out. Which actions name a card (simulate counts card plays and sales) is
the caller's to say, as a column per action id (`names`), so that what counts as a card's
action is decided in one place (tools/simulate/playing.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model import Rules
from ..play.setup import check_setup
from . import hubs, ops
from .game import compiled
from .mt19937 import MT_WORDS
from .playout import G_HEAD


@dataclass
class Rows:
    """What the games gave, a row each (playout.py says what each column of G holds)."""
    players: int
    width: int                     # ranking numbers per seat: the score, `by`, each tie-break
    reported: tuple[str, ...]      # the resources the rules report, in the order of their columns
    games: np.ndarray              # G: status, start seat, length, first age?, leader, since, per seat...
    sources: np.ndarray            # per game: per seat, per resource, per source key: the amount
    cards: np.ndarray              # per game: per column of `names`: how many actions named it
    picks: np.ndarray              # per game: how often each pick was kept (`pick_names`)
    keys: list[str]                # the source keys, in the order of their columns
    pick_names: list[tuple[str, str, Any]]   # (phase, key, value) of each column of `picks`

    def seat_at(self, seat: int) -> int:
        """The first column of a seat's numbers in G: score, ranking keys, won, reported."""
        return G_HEAD + seat * (self.width + 2 + len(self.reported))

    def first_age_at(self) -> int:
        return G_HEAD + self.players * (self.width + 2 + len(self.reported))


def play_random(rules: Rules, players: int, seeds: list[int], setup: dict[str, Any] | None = None,
                names: np.ndarray | None = None, columns: int = 0) -> Rows:
    """The games of these seeds, every seat the random agent seeded as tools/simulate seeds it
    (NotCompiled if the rules do not compile). `setup` as new_game takes it; `names` gives each
    action id's column of `cards` (-1: none), none by default."""
    machine = compiled(rules)
    hubs.prepare(["playout"])
    setup = check_setup(rules, players, setup or {})
    if names is None:
        names = np.full(rules.actions.size, -1, dtype=np.int64)
    S0 = machine.state(players, 0, setup)
    width = 2 + len(rules.winner.tiebreaks)
    reported = rules.winner.report
    count = len(seeds)
    G = np.zeros((count, G_HEAD + players * (width + 2 + len(reported)) + players), dtype=np.int64)
    nkeys = int(machine.T[ops.TH_KEYS])
    SRC = np.zeros((count, rules.max_players * len(machine.lowering.resources) * nkeys), dtype=np.int64)
    CARDS = np.zeros((count, max(columns, 1)), dtype=np.int64)
    PICKS = np.zeros((count, max(int(machine.T[ops.TH_PICKS_SIZE]), 1)), dtype=np.int64)
    R = np.zeros(max(players * width, 1), dtype=np.int64)
    MT = np.zeros((players, MT_WORDS), dtype=np.uint32)
    loop = hubs.playouts()
    now = np.zeros(players, dtype=np.int64)
    loop(S0.copy(), S0, machine.M, R, now, np.asarray(seeds, dtype=np.int64), G, SRC, names.astype(np.int64), CARDS,
         PICKS, MT)
    lowering = machine.lowering
    pick_names = [(pid, key, value) for pid in lowering.phases for key, value in lowering.picks.get(pid, [])]
    return Rows(players, width, tuple(reported), G, SRC, CARDS[:, :columns], PICKS[:, :len(pick_names)],
                list(lowering.keys), pick_names)
