"""Running work on a Dask distributed cluster (the optional extra `rulekit[dask]`), for a
comparison that outgrows one machine. Results come back in order, so the totals are those of
a local run with the same seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rulekit.errors import UsageError


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
