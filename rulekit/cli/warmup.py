"""The warmup command: compile the batch engine's kernel ahead, so that no run waits for it."""

from __future__ import annotations

import click

from rulekit.cli.common import command


@command()
def warmup() -> None:
    """Compile the batch engine's kernel now, so that no simulation waits for it.

    simulate, compare and tune play the rulewise, greedy and random bots' rounds with the batch
    engine, a compiled kernel that plays exactly the scalar engine's rounds many times faster.
    It is compiled once per rulekit version (about 45 s of one core) and cached; until then
    `--engine auto` plays runs under 300,000 rounds with the scalar engine, and says so.
    Nothing to do when it is compiled already.

    \b
    Examples:
      rulekit warmup
      pip install rulekit && rulekit warmup    # at install time, as in a container's build
    """
    from rulekit.batch.engine import kernel_ready, load_kernel, numba_cache_dir

    if kernel_ready():
        click.echo(f"the batch engine's kernel is compiled already (cached in {numba_cache_dir()})")
        return
    seconds = load_kernel(say=lambda line: click.echo(line, err=True))
    click.echo(
        f"compiled the batch engine's kernel in {seconds:.0f} s (cached in {numba_cache_dir()})"
    )
