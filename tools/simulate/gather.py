"""What every backend of a run shares: the ranges of games handed out to workers (sized as the
run goes), the total gathered as they come back, and Ctrl-C held while a total is updated."""

from __future__ import annotations

import math
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .batch import Batch, Fold

TARGET_SECONDS = 0.5          # the work in one range, once the pace is known
MAX_RANGE = 1000

Progress = Callable[[int, int], None]     # (games done, games in all)


class Ranges:
    """Hands out ranges of game indices, each sized to about TARGET_SECONDS at the pace seen so
    far, and never more than a fair share of what is left (so the last ones end together)."""

    def __init__(self, games: int, workers: int) -> None:
        self.games, self.workers = games, workers
        self.next = 0
        self.pace = 0.0                           # games per second per worker, once measured

    def take(self) -> tuple[int, int] | None:
        left = self.games - self.next
        if left <= 0:
            return None
        size = 1 if self.pace == 0 else int(self.pace * TARGET_SECONDS)
        size = max(1, min(size, MAX_RANGE, math.ceil(left / (2 * self.workers))))
        start = self.next
        self.next += size
        return start, self.next

    def measured(self, games: int, seconds: float) -> None:
        if seconds > 0:
            pace = games / seconds
            self.pace = pace if self.pace == 0 else 0.7 * self.pace + 0.3 * pace


class Gather:
    """The total of a run as its ranges come back from workers, and what to hand out next."""

    def __init__(self, batch: Batch, make_fold: Callable[[], Fold], workers: int, report: Progress,
                 guard: Interrupts) -> None:
        self.fold, self.done, self.interrupted = make_fold(), 0, False
        self.ranges = Ranges(batch.games, workers)
        self.total, self.report, self.guard = batch.games, report, guard

    def received(self, part: Any, games: int, seconds: float) -> None:
        self.ranges.measured(games, seconds)
        with self.guard.held():
            self.fold.merge(part)
            self.done += games
        self.report(self.done, self.total)


# ---- Ctrl-C between games, never inside a merge ------------------------------------------------------

class Interrupts:
    """While a run lasts, Ctrl-C raises KeyboardInterrupt as usual, except inside `held()` (a
    total being updated), where it waits for the update to finish: an interrupted run's totals
    are always whole games."""

    def __init__(self) -> None:
        self.holding = False
        self.pending = False
        self.previous: Any = None

    def __enter__(self) -> Interrupts:
        try:
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler:
                self.previous = signal.signal(signal.SIGINT, self._handler)
        except ValueError:                        # not the main thread: leave signals alone
            self.previous = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handler(self, signum: int, frame: Any) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt
