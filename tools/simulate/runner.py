"""Running a batch of games: in this process, on a pool of worker processes, or on Ray, with the
same result for the same seed whichever is used.

The games are handed out as ranges of game indices, sized as the run goes so that each takes
about half a second (a steady progress bar, little traffic), and each range comes back folded
into a total that merges exactly: how the games were split changes nothing. A worker builds the
rules once (or inherits them, when the pool forks) and plays range after range. Ctrl-C stops the
run: what finished is kept and returned, marked as interrupted (on a pool, ranges still running
are dropped).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .backends import BACKENDS
from .batch import Batch, Fold, Worker, built_rules
from .gather import Gather, Interrupts, Progress

INLINE_CHUNK = 256         # games the compiled engine plays at a time in this process (the interpreter: one)

@dataclass
class Outcome:
    fold: Any                 # the caller's total of every finished game
    done: int                 # games finished and folded in
    interrupted: bool
    seconds: float
    jobs: int
    backend: str


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                        # not on Linux
        return os.cpu_count() or 1


def run(batch: Batch, make_fold: Callable[[], Fold], jobs: int | None = None, backend: str = "local",
        address: str | None = None, progress: Progress | None = None) -> Outcome:
    """Play every game of the batch and fold them; `jobs` processes (default: every core), on
    this machine or (backend "ray") as Ray tasks, on a local Ray or the cluster at `address`."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; choose from {', '.join(BACKENDS)}")
    report = progress or (lambda done, total: None)
    started = time.perf_counter()
    with Interrupts() as guard:
        if backend == "ray":
            from .ray_backend import run_on_ray
            fold, done, interrupted, used = run_on_ray(batch, make_fold, jobs, address, report, guard)
        else:
            used = max(1, min(jobs or available_cores(), batch.games))
            if used == 1:
                fold, done, interrupted = _inline(batch, make_fold, report, guard)
            else:
                fold, done, interrupted = _pool(batch, make_fold, used, report, guard)
    return Outcome(fold, done, interrupted, time.perf_counter() - started, used, backend)


def _inline(batch: Batch, make_fold: Callable[[], Fold], report: Progress, guard: Interrupts) -> tuple[Any, int, bool]:
    worker = Worker(batch, make_fold)
    fold = make_fold()
    done = 0
    size = INLINE_CHUNK if worker.plays_compiled() else 1
    try:
        for start in range(0, batch.games, size):
            stop = min(start + size, batch.games)
            if size == 1:                         # one game: Ctrl-C stops it where it is
                records = worker.play(start)
                with guard.held():
                    fold.add_game(records)
                    done = stop
            else:                                 # a range in machine code: counted whole or not at
                with guard.held():                # all, as its games' rows reach the CSV file when
                    fold.merge(worker.play_range(start, stop))   # folded (Ctrl-C waits for it)
                    done = stop
            report(done, batch.games)
    except KeyboardInterrupt:
        return fold, done, True
    return fold, done, False


# ---- a pool of worker processes -------------------------------------------------------------------

_POOL_WORKER: Worker | None = None


def _start_worker(batch: Batch, make_fold: Callable[[], Fold]) -> None:
    """A pool process: Ctrl-C is the parent's business; the rules are built now, once."""
    global _POOL_WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _POOL_WORKER = Worker(batch, make_fold)


def _play_range(start: int, stop: int) -> tuple[Any, int, float]:
    assert _POOL_WORKER is not None
    return _POOL_WORKER.timed_range(start, stop)


def _pool(batch: Batch, make_fold: Callable[[], Fold], jobs: int, report: Progress,
          guard: Interrupts) -> tuple[Any, int, bool]:
    # Forking is the fast start (the children inherit the imported engine and the built rules),
    # but unsafe in a process that runs other threads: then each child starts afresh.
    fork = sys.platform.startswith("linux") and threading.active_count() == 1
    context = multiprocessing.get_context("fork" if fork else "spawn")
    results: queue.SimpleQueue = queue.SimpleQueue()
    gather = Gather(batch, make_fold, jobs, report, guard)
    pool = None
    try:
        if fork:
            built_rules(batch)                    # the rules built here, once: every child inherits them
        # Ctrl-C while the pool starts waits until it has started, and then stops it: a pool
        # left half made would start workers again behind the exit, which waits for them.
        with guard.held():
            pool = context.Pool(jobs, initializer=_start_worker, initargs=(batch, make_fold))
        running = 0
        while True:
            while running < 2 * jobs:
                taken = gather.ranges.take()
                if taken is None:
                    break
                pool.apply_async(_play_range, taken, callback=results.put, error_callback=results.put)
                running += 1
            if running == 0:
                break
            try:
                item = results.get(timeout=0.2)
            except queue.Empty:
                continue
            running -= 1
            if isinstance(item, BaseException):
                raise item
            gather.received(*item)
    except KeyboardInterrupt:
        gather.interrupted = True
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return gather.fold, gather.done, gather.interrupted
