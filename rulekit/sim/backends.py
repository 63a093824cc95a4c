"""Running a simulation's or comparison's chunks of work: in this process, over local
processes, or on a Dask distributed cluster (the optional extra `rulekit[dask]`) for work that
outgrows one machine. Results come back in order, so the totals are those of a one-process run
with the same seed.

The work streams: chunks are made as they are handed out and only a few per process are in
flight at a time, so memory does not grow with the number of rounds.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, TypeVar

from rulekit.errors import UsageError

BACKENDS = ("local", "dask")
AHEAD = 4  # chunks in flight per process (or Dask worker slot): enough to keep them busy

Work = TypeVar("Work", bound=tuple[Any, int, int])
Part = TypeVar("Part")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, which containers and `taskset` narrow),
    at least 1: the most `--jobs` that can run at once."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunks(count: int, size: int) -> Iterator[tuple[int, int]]:
    """[start, stop) spans of at most `size` covering range(count), made one at a time."""
    start = 0
    while start < count:
        yield start, min(count, start + size)
        start += size


def run_chunks(
    worker: Callable[[Work], Part],
    work: Iterable[Work],
    *,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    total: int | None = None,
) -> Iterator[Part]:
    """worker(w) for each w = (plan, start, stop) of `work`, yielded in order; progress(done,
    total) after each, counting stop - start (`total` is required when `work` is not a
    sequence: it is never listed). `worker` must be a module-level function (it is sent to
    other processes). A worker's exception, or an interrupt, cancels the work not yet started
    and shuts the processes down before it propagates."""
    if backend not in BACKENDS:
        raise UsageError(f"no backend named '{backend}'", hint=f"backends: {', '.join(BACKENDS)}")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if total is None:
        work = list(work) if not isinstance(work, Sequence) else work
        total = sum(w[2] - w[1] for w in work)
    done = 0

    def step(w: Work) -> None:
        nonlocal done
        done += w[2] - w[1]
        if progress:
            progress(done, total)

    if backend == "dask":
        parts: Iterator[tuple[Work, Part]] = dask_map(worker, work, scheduler)
    elif jobs == 1:
        parts = ((w, worker(w)) for w in work)
    else:
        parts = _pool_map(worker, work, jobs)
    for w, part in parts:
        yield part
        step(w)


def _pool_map(
    worker: Callable[[Work], Part], work: Iterable[Work], jobs: int
) -> Iterator[tuple[Work, Part]]:
    """(w, worker(w)) in order over `jobs` processes, with at most AHEAD * jobs chunks
    submitted and not yet yielded (Executor.map would submit them all at once)."""
    source = iter(work)
    with ProcessPoolExecutor(max_workers=min(jobs, usable_cpus())) as pool:
        pending: deque[tuple[Work, Future[Part]]] = deque()
        try:
            for w in islice(source, AHEAD * jobs):
                pending.append((w, pool.submit(worker, w)))
            while pending:
                w, future = pending.popleft()
                part = future.result()
                for nxt in islice(source, 1):
                    pending.append((nxt, pool.submit(worker, nxt)))
                yield w, part
        except BaseException:
            for _, f in pending:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def dask_map(
    fn: Callable[[Work], Part], work: Iterable[Work], scheduler: str | None
) -> Iterator[tuple[Work, Part]]:
    """(w, fn(w)) in order on the Dask cluster at `scheduler`, a bounded window of chunks at a
    time per worker thread."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError(
            "the dask backend needs the dask extra", hint="pip install 'rulekit[dask]'"
        ) from None
    if not scheduler:
        raise UsageError("--backend dask needs --scheduler ADDRESS (tcp://host:8786)")
    try:
        client = Client(scheduler, timeout=20)  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        slots = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        source = iter(work)
        pending: deque[tuple[Work, Any]] = deque()
        for w in islice(source, AHEAD * slots):
            pending.append((w, client.submit(fn, w, pure=False)))
        while pending:
            w, future = pending.popleft()
            part = future.result()
            for nxt in islice(source, 1):
                pending.append((nxt, client.submit(fn, nxt, pure=False)))
            yield w, part
    finally:
        client.close()  # type: ignore[no-untyped-call]
