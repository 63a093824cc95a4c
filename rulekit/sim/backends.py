"""Running a simulation's or comparison's chunks of work: in this process, over local
processes, or on a Dask distributed cluster (the optional extra `rulekit[dask]`) for work that
outgrows one machine. Results come back in order, so the totals are those of a one-process run
with the same seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from rulekit.errors import UsageError

BACKENDS = ("local", "dask")

Work = TypeVar("Work", bound=tuple[Any, int, int])
Part = TypeVar("Part")


def chunks(count: int, size: int) -> Iterator[tuple[int, int]]:
    """[start, stop) spans of at most `size` covering range(count)."""
    for start in range(0, count, size):
        yield start, min(count, start + size)


def run_chunks(
    worker: Callable[[Work], Part],
    work: Sequence[Work],
    *,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Part]:
    """worker(w) for each w = (plan, start, stop) of `work`, yielded in order; progress(done,
    total) after each, counting stop - start. `worker` must be a module-level function (it is
    sent to other processes). A worker's exception, or an interrupt, cancels the work not yet
    started and shuts the processes down before it propagates."""
    if backend not in BACKENDS:
        raise UsageError(f"no backend named '{backend}'", hint=f"backends: {', '.join(BACKENDS)}")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    total = sum(w[2] - w[1] for w in work)
    done = 0

    def step(w: Work) -> None:
        nonlocal done
        done += w[2] - w[1]
        if progress:
            progress(done, total)

    if backend == "dask":
        for w, part in zip(work, dask_map(worker, list(work), scheduler), strict=True):
            yield part
            step(w)
    elif jobs == 1:
        for w in work:
            part = worker(w)
            yield part
            step(w)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            try:
                for w, part in zip(work, pool.map(worker, work), strict=True):
                    yield part
                    step(w)
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise


def dask_map(fn: Callable[[Any], Any], work: list[Any], scheduler: str | None) -> Iterator[Any]:
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
        futures = client.map(fn, work, pure=False)
        yield from client.gather(futures)  # type: ignore[no-untyped-call]
    finally:
        client.close()  # type: ignore[no-untyped-call]
