"""A range of games played on the compiled engine, counted into a `Tally` from their rows at
once (interpreter/compiled/study.py `Rows`), to the same totals as counting the record of
each game: what a million-game study needs, where a Python object per game costs more than
the game. Counts are numpy sums; anything that could overflow 64 bits (squares of large
scores) is summed as Python integers instead, so the totals stay exact.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from .tally import Tally

SMALL = 1 << 20          # |value| below this: its square summed over a range of games fits in int64


def add_rows(tally: Tally, rows: Any, ok: np.ndarray, columns: list[tuple[str, str]], agents: tuple[str, ...],
             resources: list[str], score: str) -> None:
    """Count the games of `rows` marked `ok` (the machine finished them) into the tally."""
    from ...interpreter.compiled.playout import G_FIRST_AGE, G_LEADER, G_LENGTH, G_SINCE, G_START
    games = rows.games[ok]
    count = len(games)
    if not count:
        return
    n, width = tally.players, rows.width
    seats = [rows.seat_at(seat) for seat in range(n)]
    scores = games[:, seats]
    won = games[:, [at + 1 + width for at in seats]].astype(bool)
    tally.games += count
    for seat, spec in enumerate(agents):
        tally.seat_agents[seat][spec] += count
    for seat in range(n):
        tally.score_sum[seat] += int(scores[:, seat].sum())
        tally.score_squares[seat] += _squares(scores[:, seat])
        tally.scores[seat].update(_counts(scores[:, seat]))
        tally.wins[seat] += int(won[:, seat].sum())
    start = games[:, G_START]
    for seat in range(n):
        positions = (seat - start[won[:, seat]]) % n
        for position, times in _counts(positions).items():
            tally.position_wins[position] += times
    top = scores.max(axis=1)
    tally.top_shared += int(((scores == top[:, None]).sum(axis=1) > 1).sum())
    winners = won.sum(axis=1)
    tally.shared_wins += int((winners > 1).sum())
    lengths = games[:, G_LENGTH]
    tally.lengths.update(_counts(lengths))
    others = np.where(won, np.iinfo(np.int64).min, scores).max(axis=1)
    tally.margins.update(_counts(np.where(winners == n, 0, top - others)))
    for r, name in enumerate(rows.reported):
        values = games[:, [at + 2 + width + r for at in seats]]
        sums = tally.reported.setdefault(name, [[0, 0] for _ in range(n)])
        for seat in range(n):
            sums[seat][0] += int(values[:, seat].sum())
            sums[seat][1] += _squares(values[:, seat])
    _sources(tally, rows.sources[ok], rows.keys, resources, score, n)
    _columns(tally.cards, tally.card_games, rows.cards[ok], columns)
    _columns(tally.picks, None, rows.picks[ok], rows.pick_names)
    _outcomes(tally, games, won, rows.first_age_at(), G_FIRST_AGE, n)
    single = winners == 1
    leader_won = np.zeros(count, dtype=bool)
    leader = games[:, G_LEADER]
    leader_won[single] = won[single, np.clip(leader[single], 0, n - 1)] & (leader[single] >= 0)
    decided_at = np.where(leader_won, games[:, G_SINCE], lengths)
    tally.decided += int((lengths - decided_at).sum())


def _counts(values: np.ndarray) -> dict[int, int]:
    found, times = np.unique(values, return_counts=True)
    return {int(value): int(n) for value, n in zip(found, times)}


def _squares(values: np.ndarray) -> int:
    if not len(values) or int(np.abs(values).max()) < SMALL:
        return int((values * values).sum())
    return sum(int(v) * int(v) for v in values)


def _sources(tally: Tally, sources: np.ndarray, keys: list[str], resources: list[str], score: str, n: int) -> None:
    """Points by source per seat, and each resource's gains, losses and the games that moved it."""
    amounts = sources.reshape(len(sources), -1, len(resources), max(len(keys), 1))[:, :n]
    r_score = resources.index(score)
    for seat in range(n):
        column = amounts[:, seat, r_score]
        for k in np.flatnonzero((column != 0).any(axis=0)):
            tally.points[seat][keys[k]] += int(column[:, k].sum())
    gains = np.where(amounts > 0, amounts, 0).sum(axis=1)
    losses = np.where(amounts < 0, -amounts, 0).sum(axis=1)
    moved = (amounts != 0).any(axis=1)
    for r, k in zip(*np.nonzero(moved.any(axis=0))):
        key = (resources[r], keys[k])
        gained, lost = int(gains[:, r, k].sum()), int(losses[:, r, k].sum())
        if gained:
            tally.gained[key] += gained
        if lost:
            tally.lost[key] += lost
        tally.moved_games[key] += int(moved[:, r, k].sum())


def _columns(total: Counter, games: Counter | None, counts: np.ndarray, names: list[Any]) -> None:
    for c in np.flatnonzero((counts != 0).any(axis=0)):
        total[names[c]] += int(counts[:, c].sum())
        if games is not None:
            games[names[c]] += int((counts[:, c] != 0).sum())


def _outcomes(tally: Tally, games: np.ndarray, won: np.ndarray, first_at: int, first_flag: int, n: int) -> None:
    """The games by (winners, drama): drama is whether the seat leading alone as the first age
    ended failed to win (none: no sole leader, or no second age)."""
    mask = (won * (1 << np.arange(n))).sum(axis=1)
    first = games[:, first_at:first_at + n]
    top = first.max(axis=1)
    sole = (first == top[:, None]).sum(axis=1) == 1
    leader = first.argmax(axis=1)
    lost = ~won[np.arange(len(games)), leader]
    drama = np.where((games[:, first_flag] != 0) & sole, lost.astype(np.int64), -1)
    tally.drama_games += int((drama >= 0).sum())
    tally.drama_lost += int((drama == 1).sum())
    keys, times = np.unique(np.stack([mask, drama], axis=1), axis=0, return_counts=True)
    for (bits, drama_code), count in zip(keys.tolist(), times.tolist()):
        winners = tuple(seat for seat in range(n) if bits >> seat & 1)
        tally.outcomes[winners, None if drama_code < 0 else bool(drama_code)] += count
