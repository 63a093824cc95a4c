"""The `rulekit` command: one subcommand per job. Thin: parse arguments, call the library, render.

Exit status: 0 ok, 1 a user error or a failed expectation, 2 a usage error (Click's).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table as RichTable

from rulekit import __version__, ir
from rulekit.errors import RuleErrors, RulekitError

F = TypeVar("F", bound=Callable[..., Any])

RULES_HELP = "RULES is a rule file's path or a bundled name: hachihachi, hachihachi/kirisame, ..."


def _stdout() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _load(ref: str) -> ir.Ruleset:
    from rulekit.lang import load_rules

    return load_rules(ref)


class _Group(click.Group):
    """Renders every RulekitError as a located message and exits 1, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RulekitError as err:
            click.echo(err.render(), err=True)
            ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulekit")
def cli() -> None:
    """rulekit: write, check, play, test and compare hanafuda fishing-game variants.

    \b
    Examples:
      rulekit check hachihachi hachihachi/kirisame
      rulekit describe hachihachi --format markdown
      rulekit eval hachihachi --hand 10 11 12 30 31 32 80
    """


# ---------------------------------------------------------------- check
@cli.command()
@click.argument("rules", nargs=-1, required=True)
def check(rules: tuple[str, ...]) -> None:
    """Parse rule files and run the static checks; report every error.

    Each error names FILE:LINE:COL, shows the line with a caret, and suggests a close name.
    Exit status 1 if any file has an error.

    \b
    RULES are rule files' paths or bundled names.
    Example:
      rulekit check hachihachi hachihachi/kirisame my-house-rules.rk
    """
    failed = False
    for ref in rules:
        try:
            rs = _load(ref)
        except RulekitError as err:
            failed = True
            errors = err.errors if isinstance(err, RuleErrors) else [err]
            click.echo(err.render(), err=True)
            click.echo(f"{ref}: {len(errors)} error{'s' if len(errors) != 1 else ''}\n", err=True)
            continue
        teyaku = len(rs.teyaku.entries) if rs.teyaku else 0
        yaku = len(rs.yaku.entries) if rs.yaku else 0
        click.echo(
            f"ok  {ref}: {rs.title}: {len(rs.deck.cards)} cards, {teyaku} teyaku, {yaku} yaku"
        )
    if failed:
        sys.exit(1)


# ---------------------------------------------------------------- describe
@cli.command()
@click.argument("rules")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="text: tables for the terminal; markdown: a document to keep or publish.",
)
def describe(rules: str, fmt: str) -> None:
    """Print a variant's rulebook: cards, multipliers, teyaku and yaku with their values.

    \b
    Example:
      rulekit describe hachihachi/kirisame --format markdown > kirisame.md
    """
    from rulekit.describe import rulebook, to_markdown

    sections = rulebook(_load(rules))
    if fmt == "markdown":
        click.echo(to_markdown(sections), nl=False)
        return
    console = _stdout()
    for i, section in enumerate(sections):
        console.rule(f"[bold]{section.title}", style="cyan" if i == 0 else "dim")
        for p in section.paragraphs:
            console.print(p)
        for t in section.tables:
            table = RichTable(*t.headers, show_lines=False, header_style="bold")
            for row in t.rows:
                table.add_row(*row)
            console.print(table)
        console.print()


# ---------------------------------------------------------------- eval
@cli.command("eval")
@click.argument("rules")
@click.argument("cards", nargs=-1)
@click.option(
    "--hand", "mode", flag_value="hand", help="CARDS are a dealt hand: which teyaku count."
)
@click.option(
    "--captured", "mode", flag_value="captured", help="CARDS are a captured pile: its yaku."
)
@click.option("--field", "mode", flag_value="field", help="CARDS are the field: the multiplier.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def eval_cmd(rules: str, cards: tuple[str, ...], mode: str | None, as_json: bool) -> None:
    """Evaluate cards under a variant: a dealt hand, a captured pile or a field.

    CARDS are ids or names, space separated (10 crane 113 lightning ...).

    \b
    Examples:
      rulekit eval hachihachi --hand 10 11 12 30 31 32 80
      rulekit eval hachihachi/kirisame --hand 10 11 12 30 31 32 80 --json
      rulekit eval hachihachi --captured 11 21 31 61 91 101
      rulekit eval hachihachi --field rainman crane 12 22 42 52
    """
    from rulekit.engine.tables import CompiledRules
    from rulekit.errors import UsageError
    from rulekit.evaluate import eval_captured, eval_field, eval_hand

    if mode is None:
        raise click.UsageError("say what the cards are: --hand, --captured or --field")
    compiled = CompiledRules(_load(rules))
    if not cards and mode != "field":
        raise UsageError(f"no cards given for --{mode}")
    ids = compiled.index.parse_many(cards, f"--{mode}")
    result = {"hand": eval_hand, "captured": eval_captured, "field": eval_field}[mode](
        compiled, ids
    )
    if as_json:
        click.echo(json.dumps(result))
        return
    console = _stdout()
    shown = ", ".join(compiled.index.short(i) for i in ids)
    console.print(f"{compiled.rules.title}: {mode} {shown}")
    if mode == "field":
        carry = result["next_round_at_least"]
        console.print(f"multiplier x{result['multiplier']}; next round at least x{carry}")
        return
    key, listed = ("teyaku", "teyaku") if mode == "hand" else ("yaku", "matched")
    counted = {e["name"] for e in result.get("counted", result[key])}
    if not result[listed]:
        console.print(f"no {key}")
    else:
        table = RichTable(key, "name", "value", "counts", header_style="bold")
        for e in result[listed]:
            table.add_row(
                e["label"], e["name"], str(e["value"]), "yes" if e["name"] in counted else "no"
            )
        console.print(table)
    console.print(
        f"value: {result['value']}"
        + (f"   card points: {result['points']}" if "points" in result else "")
    )


# ---------------------------------------------------------------- schema
@cli.command()
@click.argument("what", type=click.Choice(["ir"]))
def schema(what: str) -> None:
    """Print a JSON Schema: `ir` is the rule IR (a rule file can also be given as JSON IR).

    \b
    Example:
      rulekit schema ir > ir.schema.json
    """
    from rulekit.lang import ir_schema

    click.echo(json.dumps(ir_schema(), indent=2))


def main() -> None:
    try:
        cli(prog_name="rulekit")
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: say so in one line, keep the traceback for developers
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        click.echo(
            f"rulekit: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in rulekit; run with RULEKIT_DEBUG=1 for the traceback.",
            err=True,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
