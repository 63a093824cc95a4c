"""Running a simulation's or comparison's work: in this process, over local processes (this
one among them), or on a Dask distributed cluster (the optional extra `rulekit[dask]`) for
work that outgrows one machine. Results come back in order, so the totals are those of a
one-process run with the same seed.

The run's plan (its rules, seats, bots, seed...) reaches each process once: as the local
processes start (a pool initializer; forked from this one, they also inherit what it built for
the plan: compiled rules, the batch engine's kernel and plans, the bots' calibration), or
scattered to every Dask worker once. Each task then names only its span of rounds.

The work streams: spans are made as they are handed out and only a few per process are in
flight at a time, so memory does not grow with the number of rounds. Their size suits the
engine: one chunk each on the scalar engine (small tasks keep the processes evenly busy), a
few large ones per process on a fast engine (the batch engine's, where a task's own cost would
show), the last ones shorter, so that the processes end together.
"""

from __future__ import annotations

import gc
import math
import os
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import Any, Generic, TypeVar, cast

from rulekit.errors import UsageError

BACKENDS = ("local", "dask")
AHEAD = 4  # tasks in flight per process (or Dask worker slot): enough to keep them busy
FAST_TASKS = 8  # tasks per process on a fast engine: few, yet the last ones end close together
FAST_CHUNKS = 200  # the most chunks in one task on a fast engine (its arrays stay small)

Plan = TypeVar("Plan")
Part = TypeVar("Part")
Worker = Callable[[Plan, int, int], Part]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, which containers and `taskset` narrow),
    at least 1: the most `--jobs` that can run at once."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def tapered(count: int, size: int, chunk: int, processes: int) -> Iterator[tuple[int, int]]:
    """[start, stop) spans covering range(count), made one at a time: of `size` rounds, but
    for the last ones, which the processes share out at the end: spans of a quarter of `size`
    there (whole chunks), so that the last process to end ends at most a quarter of a span
    after the others."""
    small = max(chunk, size // 4 // chunk * chunk)
    start = 0
    while start < count:
        step = size if count - start > size * processes else small
        yield start, min(count, start + step)
        start += step


def task_size(count: int, chunk: int, processes: int, fast: bool) -> int:
    """The rounds of one task: a whole number of chunks (a chunk is what a part adds up, so
    the spans do not change the totals): one chunk on the scalar engine; on a fast engine
    about FAST_TASKS tasks per process, at most FAST_CHUNKS chunks each."""
    if not fast:
        return chunk
    chunks_each = math.ceil(count / (chunk * FAST_TASKS * processes))
    return chunk * max(1, min(FAST_CHUNKS, chunks_each))


def run_chunks(
    worker: Worker[Plan, Part],
    plan: Plan,
    count: int,
    *,
    chunk: int,
    fast: bool = False,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Part]:
    """worker(plan, start, stop) for spans [start, stop) covering range(count), yielded in
    order; progress(done, count) after each. Each span is a whole number of `chunk`s (the
    last may end short, at `count`); `fast`: the plan is played by a fast engine (task_size).
    `worker` must be a module-level function (it is sent to other processes). A worker's
    exception, or an interrupt, cancels the work not yet started and shuts the processes
    down before it propagates."""
    if backend not in BACKENDS:
        raise UsageError(f"no backend named '{backend}'", hint=f"backends: {', '.join(BACKENDS)}")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    done = 0

    def spans(processes: int) -> Iterator[tuple[int, int]]:
        return tapered(count, task_size(count, chunk, processes, fast), chunk, processes)

    if backend == "dask":
        parts: Iterator[tuple[tuple[int, int], Part]] = dask_map(worker, plan, spans, scheduler)
    elif min(jobs, usable_cpus()) == 1:
        parts = ((s, worker(plan, *s)) for s in spans(1))
    else:
        processes = min(jobs, usable_cpus())
        parts = _pool_map(worker, plan, spans(processes), processes)
    for (start, stop), part in parts:
        yield part
        done += stop - start
        if progress:
            progress(done, count)


# the plan of the run this process works for (a pool's initializer sets it as the process starts)
_PLAN: Any = None


def _receive(plan: Any) -> None:
    global _PLAN
    _PLAN = plan


def _call(worker: Worker[Any, Part], start: int, stop: int) -> Part:
    return worker(_PLAN, start, stop)


def _pool_map(
    worker: Worker[Plan, Part], plan: Plan, spans: Iterator[tuple[int, int]], processes: int
) -> Iterator[tuple[tuple[int, int], Part]]:
    """(span, worker(plan, *span)) in order over `processes` processes, which receive the
    plan once as they start, with at most AHEAD tasks per process submitted and not yet
    yielded (Executor.map would submit them all at once)."""
    # what this process made before the fork (the rules, the kernel, the plans) is left out of
    # the processes' own garbage collections: a collection writes to every object it visits,
    # which would copy each page of it into every process
    gc.freeze()
    try:
        yield from _pooled(worker, plan, spans, processes)
    finally:
        gc.unfreeze()


def _pooled(
    worker: Worker[Plan, Part], plan: Plan, spans: Iterator[tuple[int, int]], processes: int
) -> Iterator[tuple[tuple[int, int], Part]]:
    """The spans over this process and processes-1 others: every processes-th span is this
    one's own, the others' are submitted ahead, at most AHEAD each. This process plays its
    next span whenever the one to yield is not back yet, and waits only when it has none in
    hand: it is one of the `processes`, not a supervisor beside them (which would cost a
    process's start, and a core's share of its idle waiting, for nothing)."""
    with ProcessPoolExecutor(processes - 1, initializer=_receive, initargs=(plan,)) as pool:
        window: deque[_Span[Part]] = deque()
        numbered = enumerate(spans)

        def take(n: int) -> None:
            for i, s in islice(numbered, n):
                mine = i % processes == 0  # (a run of one span forks nothing)
                sent = None if mine else pool.submit(_call, worker, s[0], s[1])
                window.append(_Span(s, sent))

        try:
            take(AHEAD * processes)
            while window:
                head = window[0]
                if head.future is not None and not head.future.done():
                    own = next((w for w in window if w.future is None and not w.played), None)
                    if own is not None:
                        own.play(worker, plan)
                        continue
                window.popleft()
                part = head.future.result() if head.future is not None else head.play(worker, plan)
                take(1)
                yield head.span, part
        except BaseException:
            for w in window:
                if w.future is not None:
                    w.future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


class _Span(Generic[Part]):
    """A span handed out: to another process (its future), or this one's own to play."""

    def __init__(self, span: tuple[int, int], future: Future[Part] | None) -> None:
        self.span = span
        self.future = future
        self.played = False
        self._part: Part | None = None

    def play(self, worker: Worker[Plan, Part], plan: Plan) -> Part:
        """This process's own span, played once (the first call plays it)."""
        if not self.played:
            self._part = worker(plan, *self.span)
            self.played = True
        return cast(Part, self._part)


def dask_map(
    worker: Worker[Plan, Part],
    plan: Plan,
    spans: Callable[[int], Iterator[tuple[int, int]]],
    scheduler: str | None,
) -> Iterator[tuple[tuple[int, int], Part]]:
    """(span, worker(plan, *span)) in order on the Dask cluster at `scheduler`: the plan is
    scattered to every worker once, and a bounded window of spans (`spans(slots)`, sized for
    the cluster's worker threads) is in flight at a time per thread."""
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
        shared = client.scatter(plan, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
        source = spans(slots)
        pending: deque[tuple[tuple[int, int], Any]] = deque()
        for s in islice(source, AHEAD * slots):
            pending.append((s, client.submit(worker, shared, *s, pure=False)))
        while pending:
            s, future = pending.popleft()
            part = future.result()
            for nxt in islice(source, 1):
                pending.append((nxt, client.submit(worker, shared, *nxt, pure=False)))
            yield s, part
    finally:
        client.close()  # type: ignore[no-untyped-call]
