"""The options of the commands that play many rounds (simulate, compare, tune): the search
bots' budget, processes and backends, the engine, timings, and a progress bar."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console

from rulekit.cli.common import F, given


def budget_options(f: F) -> F:
    """The search bots' budget (`search`, `strong`): rollouts per decision, and a time cap."""
    f = click.option(
        "--think-ms",
        type=click.FloatRange(min=0, min_open=True),
        help="Search bots: also stop a decision after this many ms (not reproducible).",
    )(f)
    return click.option(
        "--rollouts",
        type=click.IntRange(min=1),
        help="Search bots: rollouts per decision (default 240; the same seed replays exactly).",
    )(f)


def bot_options(rollouts: int | None, think_ms: float | None) -> Any:
    from rulekit.agents import BotOptions

    return BotOptions(rollouts, think_ms)


def _check_jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """--jobs from 1 to the CPUs this process may use: more would only fork and wait."""
    from rulekit.sim.backends import usable_cpus

    limit = usable_cpus()
    if not 1 <= value <= limit:
        cpus = f"{limit} usable CPU{'s' if limit != 1 else ''}"
        raise click.BadParameter(f"{value} is not from 1 to {limit} (this machine has {cpus})")
    return value


def jobs_option() -> Callable[[F], F]:
    return click.option(
        "--jobs",
        type=int,
        default=1,
        show_default=True,
        callback=_check_jobs,
        help="Processes, at most the usable CPUs; the same result as one job.",
    )


def backend_options(f: F) -> F:
    """--backend and --scheduler: where the chunks of a simulation run."""
    f = click.option(
        "--scheduler",
        help="The Dask scheduler's address, with --backend dask (needs rulekit[dask]).",
    )(f)
    return click.option(
        "--backend",
        type=click.Choice(["local", "dask"]),
        default="local",
        show_default=True,
        help="local: this machine's processes (--jobs); dask: a Dask cluster (--scheduler).",
    )(f)


def check_backend(ctx: click.Context, backend: str, scheduler: str | None) -> None:
    if backend == "local" and scheduler is not None:
        raise click.UsageError("--scheduler is the Dask scheduler's address: add --backend dask")
    if backend == "dask" and given(ctx, "jobs"):
        raise click.UsageError("--jobs counts local processes; the Dask workers do the work")


TIMINGS = ("seconds", "rounds_per_second")  # the only figures of a run that a seed cannot fix


def timings_option() -> Callable[[F], F]:
    return click.option(
        "--timings/--no-timings",
        default=True,
        show_default=True,
        help="Report how long the run took; --no-timings leaves it out of --json, so that two"
        " runs with the same seed print identical JSON.",
    )


def result_json(result: dict[str, Any], timings: bool) -> str:
    return json.dumps(result if timings else {k: v for k, v in result.items() if k not in TIMINGS})


def engine_option() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--engine",
        type=click.Choice(["auto", "scalar", "batch"]),
        default="auto",
        show_default=True,
        help="Who plays the rounds: the batch engine (a compiled kernel, many times faster) "
        "plays the rulewise, greedy and random bots' rounds and games of nearly every rule "
        "file; auto uses it where it applies and says so. Both play exactly the same rounds.",
    )


def notice(line: str) -> None:
    """Tell the user of a wait that is not the run's own (the batch engine's kernel compiling),
    on stderr: above the progress bar on a terminal, out of the way of --json."""
    click.echo(line, err=True)


@contextmanager
def progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on a terminal (stderr) while the block runs, nothing otherwise; yields
    the function that moves it: update(done, total)."""
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True, markup=False)
    if not console.is_terminal:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn(escape(label)),  # a path as written, not markup
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(label, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)
