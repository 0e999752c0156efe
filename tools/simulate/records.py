"""One row per game, for a CSV file (`--csv`): written as the games come in, in game order, so
a long run keeps no list of its games and the file is the same however the run was split.

`WithRows` wraps any total: a worker keeps the rows of its range beside the totals; in the
process that writes, its `RowSink` takes them instead. The sink writes only in the process that
opened it (a forked worker inherits the file, but must not write to it), and its writer does
not travel to spawned workers or Ray (it is dropped when pickled).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable
from typing import Any, TextIO

from .playing import GameRecord


class RowSink:
    """Writes rows in game order: rows that arrive early wait (bounded by the ranges running)."""

    def __init__(self, handle: TextIO | None, columns: list[str]) -> None:
        self.writer = csv.writer(handle) if handle is not None else None
        self.owner = os.getpid()
        self.columns = columns
        self.waiting: dict[int, list[list[Any]]] = {}
        self.next = 0
        if self.writer is not None:
            self.writer.writerow(columns)

    def __getstate__(self) -> dict[str, Any]:
        return {"columns": self.columns}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(None, state["columns"])  # type: ignore[misc]

    @property
    def active(self) -> bool:
        return self.writer is not None and os.getpid() == self.owner

    def take(self, rows: list[tuple[int, list[list[Any]]]]) -> None:
        for index, game_rows in rows:
            self.waiting[index] = game_rows
        while self.next in self.waiting:
            self._write(self.waiting.pop(self.next))
            self.next += 1

    def close(self) -> None:
        """Write what is still waiting (after an interrupted run, games past a gap)."""
        for index in sorted(self.waiting):
            self._write(self.waiting.pop(index))

    def _write(self, rows: list[list[Any]]) -> None:
        assert self.writer is not None
        self.writer.writerows(rows)


class WithRows:
    def __init__(self, make_inner: Callable[[], Any], sink: RowSink, labels: tuple[str, ...],
                 reported: tuple[str, ...]) -> None:
        self.inner = make_inner()
        self.sink, self.labels, self.reported = sink, labels, reported
        self.rows: list[tuple[int, list[list[Any]]]] = []

    def add_game(self, records: tuple[GameRecord, ...]) -> None:
        self.inner.add_game(records)
        self._keep([(records[0].index, [self._row(label, r) for label, r in zip(self.labels, records)])])

    def merge(self, other: WithRows) -> WithRows:
        self.inner.merge(other.inner)
        self._keep(other.rows)
        return self

    def _keep(self, rows: list[tuple[int, list[list[Any]]]]) -> None:
        if self.sink.active:
            self.sink.take(rows)
        else:
            self.rows.extend(rows)

    def _row(self, label: str, record: GameRecord) -> list[Any]:
        row: list[Any] = [record.index, record.seed, label]
        if record.error is not None:
            return row + [""] * (len(self.sink.columns) - 4) + [record.error]
        row += [record.start_seat, record.length, " ".join(map(str, record.winners))]
        row += list(record.agents) + list(record.scores)
        for name in self.reported:
            row += list(record.reported.get(name, ()))
        return row + [""]


def columns(players: int, score: str, reported: tuple[str, ...]) -> list[str]:
    """The CSV header: game, seed, rules, start_seat, actions, winners, then per seat its agent,
    score and each reported resource, then error."""
    out = ["game", "seed", "rules", "start_seat", "actions", "winners"]
    out += [f"agent_{s}" for s in range(players)] + [f"{score}_{s}" for s in range(players)]
    for name in reported:
        out += [f"{name}_{s}" for s in range(players)]
    return out + ["error"]
