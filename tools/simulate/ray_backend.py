"""The Ray backend: the same ranges of games as Ray tasks, on a local Ray this starts (and
stops) or on a running cluster at `address`. Results are folded exactly as on a pool, so a
seed gives the same report.

Every Ray worker process builds the rules once (from the batch, which carries the merged rules
document: nodes need amunre installed, not the rules files) and keeps them for every range it
is given. See docs/simulate.md for running on a cluster.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...interpreter.base.errors import AmunreError
from ...interpreter.base.limits import RAY_CONNECT_SECONDS
from .batch import Batch, Fold, Worker
from .gather import Gather, Progress


def _play_range(batch: Batch, make_fold: Callable[[], Fold], start: int, stop: int) -> tuple[Any, int, float]:
    return Worker(batch, make_fold).timed_range(start, stop)


def run_on_ray(batch: Batch, make_fold: Callable[[], Fold], jobs: int | None, address: str | None,
               report: Progress, guard: Any) -> tuple[Any, int, bool, int]:
    try:
        import ray
    except ImportError:
        raise AmunreError("the Ray backend needs Ray: pip install 'amunre[ray]'") from None
    started_here = _start(ray, jobs, address)
    pending: dict[Any, None] = {}
    gather = None
    try:
        workers = max(1, int(ray.available_resources().get("CPU", 1)) if jobs is None else jobs)
        gather = Gather(batch, make_fold, workers, report, guard)
        _keep_busy(ray, batch, make_fold, gather, workers, pending)
    except KeyboardInterrupt:
        if gather is None:
            raise
        gather.interrupted = True
        for ref in pending:
            ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()
    return gather.fold, gather.done, gather.interrupted, workers


def _start(ray: ModuleType, jobs: int | None, address: str | None) -> bool:
    """Start a local Ray, or join the cluster at `address`, unless this process runs Ray
    already (its caller's, left running); whether it was started here, to be stopped here."""
    if ray.is_initialized():
        return False
    if address is None:
        ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
    else:
        connect(lambda: ray.init(address=address, log_to_driver=False, configure_logging=False), address)
    return True


def connect(init: Callable[[], Any], address: str, seconds: float | None = None) -> None:
    """Run `init` (Ray joining a cluster) in a thread of its own while this one waits, so that
    Ctrl-C stops the wait at once (Ray retries an address that answers nothing for minutes
    inside its own code, where Python's Ctrl-C is not heard) and a cluster that does not answer
    in `seconds` is an AmunreError; a failure of `init` is one too, naming the address."""
    seconds = RAY_CONNECT_SECONDS if seconds is None else seconds
    done = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            init()
        except BaseException as error:      # handed to the waiting thread, which reports it
            failure.append(error)
        finally:
            done.set()

    ray_log = logging.getLogger("ray._private.worker")     # Ray warns that a thread not the main one
    ray_log.addFilter(_no_sigterm_warning)                 # cannot set its SIGTERM handler: amunre's is kept
    try:
        threading.Thread(target=run, name="amunre-ray-connect", daemon=True).start()
        _wait(done, seconds, address)
    finally:
        ray_log.removeFilter(_no_sigterm_warning)
    if failure:
        said = str(failure[0]) or type(failure[0]).__name__
        raise AmunreError(f"cannot join the Ray cluster at {address}: {said[:300]}") from None


def _no_sigterm_warning(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith("SIGTERM handler is not set")


def _wait(done: threading.Event, seconds: float, address: str) -> None:
    """Wait for `done` in short waits, so that a Ctrl-C is raised between them, at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not done.wait(0.1):
        if time.monotonic() > deadline:
            raise AmunreError(f"no Ray cluster answered at {address} within {seconds:g} s; is it running "
                              "(ray status), and is the address HOST:PORT, ray://HOST:10001 or auto?")


def _keep_busy(ray: ModuleType, batch: Batch, make_fold: Callable[[], Fold], gather: Gather, workers: int,
               pending: dict[Any, None]) -> None:
    """Hand out ranges two per worker, so that none waits between ranges, and fold each as it
    comes back, until every game is played. `pending` holds the ranges out, for Ctrl-C to cancel."""
    remote = ray.remote(num_cpus=1)(_play_range)
    batch_ref = ray.put(batch)
    while True:
        while len(pending) < 2 * workers:
            taken = gather.ranges.take()
            if taken is None:
                break
            pending[remote.remote(batch_ref, make_fold, *taken)] = None
        if not pending:
            break
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.2)
        for ref in ready:
            del pending[ref]
            gather.received(*ray.get(ref))
