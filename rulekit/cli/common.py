"""What the commands share: the RULES argument, the options several take, loading a variant
and printing to a pipe that may close."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem
from rich.console import Console
from rich.text import Text

from rulekit import ir
from rulekit.cli.exits import Command

F = TypeVar("F", bound=Callable[..., Any])


def command(name: str | None = None) -> Callable[[Callable[..., Any]], click.Command]:
    """A subcommand, its --help ending with the exit statuses."""
    return click.command(name, cls=Command)


def complete_rules(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of RULES: the bundled names that start with what is typed, and files."""
    from rulekit.lang.files import bundled_names

    names = [CompletionItem(n) for n in bundled_names() if n.startswith(incomplete)]
    return [*names, CompletionItem(incomplete, type="file")]


def rules_argument(nargs: int = 1, required: bool = True) -> Callable[[F], F]:
    return click.argument("rules", nargs=nargs, required=required, shell_complete=complete_rules)


class PipeConsole(Console):
    """A console whose closed pipe ends the command quietly with 0 (rich's own exits 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def stdout() -> Console:
    """The console commands print to. Markup is off: a label from a rule file is printed as
    written (`[b]` or `a [/] b` is text, not a style); styles are given as styles."""
    return PipeConsole(highlight=False, soft_wrap=False, markup=False)


def bold(head: str, rest: str = "", style: str = "bold") -> Text:
    """`head` in bold (or `style`), then `rest`: text as written, never read as markup."""
    return Text.assemble((head, style), rest)


def load(ref: str) -> ir.Ruleset:
    from rulekit.lang import load_rules

    return load_rules(ref)


def seats_option(default: str) -> Callable[[F], F]:
    return click.option(
        "--seats", type=click.IntRange(min=1), help=f"Players at the table (default: {default})."
    )


def _bot_list(ctx: click.Context, param: click.Parameter, value: str) -> list[str]:
    """`greedy, random` -> ["greedy", "random"]; the bots' names are checked by the library."""
    names = [b.strip() for b in value.split(",") if b.strip()]
    if not names:
        raise click.BadParameter("name a bot or more: greedy, random, search")
    return names


def bots_option(default: str, help: str) -> Callable[[F], F]:
    return click.option("--bots", default=default, show_default=True, callback=_bot_list, help=help)


def seed_option(help: str) -> Callable[[F], F]:
    return click.option("--seed", type=int, default=0, show_default=True, help=help)


def json_option() -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def given(ctx: click.Context, *names: str) -> list[str]:
    """Which of these parameters the command line set, as the user wrote them."""
    out = []
    for name in names:
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT):
            out.append(name.upper() if name == "rules" else "--" + name.replace("_", "-"))
    return out
