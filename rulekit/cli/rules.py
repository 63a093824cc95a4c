"""The commands about rule files themselves: list, check, describe, diff, schema."""

from __future__ import annotations

import io
import json
import sys
import textwrap

import click
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from rulekit.cli.common import (
    bold,
    command,
    complete_rules,
    json_option,
    load,
    rules_argument,
    stdout,
)
from rulekit.errors import RuleErrors, RulekitError


@command("list")
@json_option()
def list_cmd(as_json: bool) -> None:
    """List the bundled variants: the name to give a command, title, table sizes, source.

    A game's short name (hachihachi, koikoi, sakura) means its default file, marked `=`.

    \b
    Examples:
      rulekit list
      rulekit list --json
    """
    from rulekit.variants import bundled_variants

    variants = bundled_variants()
    if as_json:
        click.echo(json.dumps({"variants": variants}))
        return
    table = RichTable(header_style="bold")
    table.add_column("name", no_wrap=True)  # to copy onto a command line whole
    table.add_column("title", no_wrap=True)
    table.add_column("players", no_wrap=True)
    table.add_column("source", no_wrap=True)
    for v in variants:
        name = v["name"] + "".join(f"\n= {d}" for d in v["default_for"])
        table.add_row(name, v["title"], v["table_sizes"], v["source"] or "-")
    console = stdout()
    if _natural_width(table) <= console.width:
        console.print(table)
        return
    for v in variants:  # too narrow for the table: a block each, wrapped by words
        default = "".join(f"  (= {d})" for d in v["default_for"])
        console.print(Text(v["name"], style="bold") + Text(default), soft_wrap=True)
        details = f"{v['title']} · {v['table_sizes']} · {v['source'] or 'no source'}"
        indent = " " * 4
        wrapped = textwrap.fill(
            details, console.width, initial_indent=indent, subsequent_indent=indent
        )
        console.print(wrapped, soft_wrap=True)


def _natural_width(table: RichTable) -> int:
    """The columns a table takes when nothing in it is wrapped or cut."""
    wide = Console(width=10_000, file=io.StringIO(), color_system=None)
    with wide.capture() as drawn:
        wide.print(table)
    return max(len(line) for line in drawn.get().splitlines())


@command()
@rules_argument(nargs=-1)
def check(rules: tuple[str, ...]) -> None:
    """Parse rule files and run the static checks; report every error.

    Each error names FILE:LINE:COL, shows the line with a caret, and suggests a close name.
    Warnings (a count that can stop being zero-sum) are shown the same way.
    Exit status 1 if any file has an error; warnings alone do not fail it.

    \b
    RULES are rule files' paths or bundled names.
    Example:
      rulekit check hachihachi hachihachi/kirisame my-house-rules.rk
    """
    from rulekit.lang.checks import rule_warnings

    failed = False
    for ref in rules:
        try:
            rs = load(ref)
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
        for warning in rule_warnings(rs):  # reported, but the file passes
            click.echo(warning.render() + "\n", err=True)
    if failed:
        sys.exit(1)


@command()
@rules_argument()
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

    sections = rulebook(load(rules))
    if fmt == "markdown":
        click.echo(to_markdown(sections), nl=False)
        return
    console = stdout()
    for i, section in enumerate(sections):
        console.rule(bold(section.title), style="cyan" if i == 0 else "dim")
        for p in section.paragraphs:
            console.print(p)
        for t in section.tables:
            table = RichTable(*t.headers, show_lines=False, header_style="bold")
            for row in t.rows:
                table.add_row(*row)
            console.print(table)
        console.print()


@command("diff")
@click.argument("before", shell_complete=complete_rules)
@click.argument("after", shell_complete=complete_rules)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True
)
def diff_cmd(before: str, after: str, fmt: str) -> None:
    """What differs between two variants, read from their meaning (the IR), not their text:
    values changed, entries added or removed, mechanics switched, multipliers.

    A house-rule file diffed against the file it extends shows exactly its overrides.

    \b
    Examples:
      rulekit diff hachihachi hachihachi/kirisame
      rulekit diff hachihachi my-table.rk --format markdown
    """
    from rulekit.diff import diff, render

    click.echo(render(diff(load(before), load(after)), before, after, fmt == "markdown"), nl=False)


@command()
@click.argument("what", type=click.Choice(["ir", "scenario"]))
def schema(what: str) -> None:
    """Print a JSON Schema: `ir` is the rule IR (a rule file can also be given as JSON IR),
    `scenario` the scenario file format.

    \b
    Examples:
      rulekit schema ir > ir.schema.json
      rulekit schema scenario > scenario.schema.json
    """
    if what == "ir":
        from rulekit.lang import ir_schema

        click.echo(json.dumps(ir_schema(), indent=2))
    else:
        from rulekit.scenario.model import scenario_schema

        click.echo(json.dumps(scenario_schema(), indent=2))
