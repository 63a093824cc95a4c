"""How a command ends: a rule, scenario or data error a located message and status 1; a usage
error 2, Click's and rulekit's own alike (a value out of range, a bot, card or table size that
does not exist); Ctrl-C 130; a closed pipe (`rulekit check ... | head -1`) 0 and quiet; a bug
one line, never a traceback."""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

import click

from rulekit.errors import RulekitError, UsageError

OK, ERROR, USAGE, INTERRUPTED = 0, 1, 2, 130

EXIT_STATUS = """\b
Exit status:
  0    ok (also when the reader of the output goes away: `rulekit ... | head -1`)
  1    a rule, scenario or data error, or a failed expectation
  2    a usage error: an unknown option, a value out of range
  130  interrupted (Ctrl-C)"""


def quiet_stdout() -> None:
    """Point stdout at /dev/null: its reader is gone, and the interpreter's last flush of what
    is still buffered must not fail (and print a traceback) on the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass
    finally:
        os.close(devnull)


class Command(click.Command):
    """A subcommand whose --help ends with the exit statuses."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("epilog", EXIT_STATUS)
        super().__init__(*args, **kwargs)


class Group(click.Group):
    """Renders every RulekitError as a located message, never a traceback, and exits 2 for a
    usage error (as Click does for its own), 1 for the others; Ctrl-C exits 130 and a closed
    pipe exits 0 quietly (what was written was read)."""

    command_class = Command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RulekitError as err:
            click.echo(err.render(), err=True)
            ctx.exit(USAGE if isinstance(err, UsageError) else ERROR)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(INTERRUPTED)
        except BrokenPipeError:
            quiet_stdout()
            ctx.exit(OK)


def run(group: click.Group) -> None:
    """Run the command line and exit with its status, whatever happens."""
    code: int | str | None = OK
    gc.freeze()  # what the imports made lives as long as the process: no collection walks it
    try:
        group(prog_name="rulekit")
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        code = INTERRUPTED
    except BrokenPipeError:
        quiet_stdout()
    except Exception as exc:  # a bug: say so in one line, keep the traceback for developers
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        click.echo(
            f"rulekit: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in rulekit; run with RULEKIT_DEBUG=1 for the traceback.",
            err=True,
        )
        code = ERROR
    try:
        sys.stdout.flush()  # here, not at the interpreter's exit, to catch a closed pipe
    except BrokenPipeError:
        quiet_stdout()
    # The interpreter's exit would walk every object left (a run's compiled rules, the batch
    # engine's kernel: a third of a second) for cycles to free as the process ends anyway.
    gc.freeze()
    sys.exit(code)
