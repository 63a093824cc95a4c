"""The `rulekit` command: one subcommand per job. Thin: parse arguments, call the library, render.

Exit status: 0 ok, 1 a rule, scenario or data error (or a failed expectation), 2 a usage error
(Click's), 130 on Ctrl-C; a closed pipe (`rulekit check ... | head -1`) ends quietly with 0.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem
from rich.console import Console
from rich.table import Table as RichTable

from rulekit import __version__, ir
from rulekit.errors import RuleErrors, RulekitError, UsageError

F = TypeVar("F", bound=Callable[..., Any])

RULES_HELP = "RULES is a rule file's path or a bundled name: hachihachi, hachihachi/kirisame, ..."

EXIT_STATUS = """\b
Exit status:
  0    ok (also when the reader of the output goes away: `rulekit ... | head -1`)
  1    a rule, scenario or data error, or a failed expectation
  2    a usage error: an unknown option, a value out of range
  130  interrupted (Ctrl-C)"""


def _complete_rules(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of RULES: the bundled names that start with what is typed, and files."""
    from rulekit.lang.files import bundled_names

    names = [CompletionItem(n) for n in bundled_names() if n.startswith(incomplete)]
    return [*names, CompletionItem(incomplete, type="file")]


def _rules_argument(nargs: int = 1, required: bool = True) -> Callable[[F], F]:
    return click.argument("rules", nargs=nargs, required=required, shell_complete=_complete_rules)


class _PipeConsole(Console):
    """A console whose closed pipe ends the command quietly with 0 (rich's own exits 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def _stdout() -> Console:
    return _PipeConsole(highlight=False, soft_wrap=False)


def _load(ref: str) -> ir.Ruleset:
    from rulekit.lang import load_rules

    return load_rules(ref)


# ---------------------------------------------------------------- options shared by commands
def _seats_option(default: str) -> Callable[[F], F]:
    return click.option(
        "--seats", type=click.IntRange(min=1), help=f"Players at the table (default: {default})."
    )


def _bot_list(ctx: click.Context, param: click.Parameter, value: str) -> list[str]:
    """`greedy, random` -> ["greedy", "random"]; the bots' names are checked by the library."""
    names = [b.strip() for b in value.split(",") if b.strip()]
    if not names:
        raise click.BadParameter("name a bot or more: greedy, random, search")
    return names


def _bots_option(default: str, help: str) -> Callable[[F], F]:
    return click.option("--bots", default=default, show_default=True, callback=_bot_list, help=help)


def _budget_options(f: F) -> F:
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


def _bot_options(rollouts: int | None, think_ms: float | None) -> Any:
    from rulekit.agents import BotOptions

    return BotOptions(rollouts, think_ms)


def _seed_option(help: str) -> Callable[[F], F]:
    return click.option("--seed", type=int, default=0, show_default=True, help=help)


def _check_jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """--jobs from 1 to the CPUs this process may use: more would only fork and wait."""
    from rulekit.sim.backends import usable_cpus

    limit = usable_cpus()
    if not 1 <= value <= limit:
        cpus = f"{limit} usable CPU{'s' if limit != 1 else ''}"
        raise click.BadParameter(f"{value} is not from 1 to {limit} (this machine has {cpus})")
    return value


def _jobs_option() -> Callable[[F], F]:
    return click.option(
        "--jobs",
        type=int,
        default=1,
        show_default=True,
        callback=_check_jobs,
        help="Processes, at most the usable CPUs; the same result as one job.",
    )


def _backend_options(f: F) -> F:
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


def _check_backend(ctx: click.Context, backend: str, scheduler: str | None) -> None:
    if backend == "local" and scheduler is not None:
        raise click.UsageError("--scheduler is the Dask scheduler's address: add --backend dask")
    if backend == "dask" and _given(ctx, "jobs"):
        raise click.UsageError("--jobs counts local processes; the Dask workers do the work")


TIMINGS = ("seconds", "rounds_per_second")  # the only figures of a run that a seed cannot fix


def _timings_option() -> Callable[[F], F]:
    return click.option(
        "--timings/--no-timings",
        default=True,
        show_default=True,
        help="Report how long the run took; --no-timings leaves it out of --json, so that two"
        " runs with the same seed print identical JSON.",
    )


def _as_json(result: dict[str, Any], timings: bool) -> str:
    return json.dumps(result if timings else {k: v for k, v in result.items() if k not in TIMINGS})


def _json_option() -> Callable[[F], F]:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _given(ctx: click.Context, *names: str) -> list[str]:
    """Which of these parameters the command line set, as the user wrote them."""
    out = []
    for name in names:
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT):
            out.append(name.upper() if name == "rules" else "--" + name.replace("_", "-"))
    return out


def _quiet_stdout() -> None:
    """Point stdout at /dev/null: its reader is gone, and the interpreter's last flush of what
    is still buffered must not fail (and print a traceback) on the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass
    finally:
        os.close(devnull)


class _Command(click.Command):
    """A subcommand whose --help ends with the exit statuses."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("epilog", EXIT_STATUS)
        super().__init__(*args, **kwargs)


class _Group(click.Group):
    """Renders every RulekitError as a located message and exits 1, never a traceback; Ctrl-C
    exits 130 and a closed pipe exits 0 quietly (what was written was read)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RulekitError as err:
            click.echo(err.render(), err=True)
            ctx.exit(1)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)
        except BrokenPipeError:
            _quiet_stdout()
            ctx.exit(0)


_Group.command_class = _Command


@click.group(
    cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_STATUS
)
@click.version_option(__version__, "-V", "--version", prog_name="rulekit")
def cli() -> None:
    """rulekit: write, check, play, test and compare hanafuda fishing-game variants.

    \b
    Examples:
      rulekit list
      rulekit check hachihachi hachihachi/kirisame
      rulekit describe hachihachi --format markdown
      rulekit eval hachihachi --hand 10 11 12 30 31 32 80

    \b
    Shell completion (commands, options, bundled rule names), e.g. in ~/.bashrc:
      eval "$(_RULEKIT_COMPLETE=bash_source rulekit)"
    (zsh: zsh_source, fish: fish_source; see the README.)
    """


# ---------------------------------------------------------------- list
@cli.command("list")
@_json_option()
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
    table.add_column("title")
    table.add_column("players", no_wrap=True)
    table.add_column("source")
    for v in variants:
        name = v["name"] + "".join(f"\n= {d}" for d in v["default_for"])
        table.add_row(name, v["title"], v["table_sizes"], v["source"] or "-")
    _stdout().print(table)


# ---------------------------------------------------------------- check
@cli.command()
@_rules_argument(nargs=-1)
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
    from rulekit.lang.checks import zero_sum_warnings

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
        for warning in zero_sum_warnings(rs):  # reported, but the file passes
            click.echo(warning.render() + "\n", err=True)
    if failed:
        sys.exit(1)


# ---------------------------------------------------------------- describe
@cli.command()
@_rules_argument()
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
@_rules_argument()
@click.argument("cards", nargs=-1)
@click.option(
    "--hand", "mode", flag_value="hand", help="CARDS are a dealt hand: which teyaku count."
)
@click.option(
    "--captured", "mode", flag_value="captured", help="CARDS are a captured pile: its yaku."
)
@click.option("--field", "mode", flag_value="field", help="CARDS are the field: the multiplier.")
@_json_option()
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


# ---------------------------------------------------------------- simulate
def _engine_option() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--engine",
        type=click.Choice(["auto", "scalar", "batch"]),
        default="auto",
        show_default=True,
        help="Who plays the rounds: the batch engine (a compiled kernel, many times faster) "
        "plays the random and greedy bots' single rounds of most rule files; auto uses it "
        "where it applies and says so. Both play exactly the same rounds.",
    )


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on a terminal (stderr) while the block runs, nothing otherwise; yields
    the function that moves it: update(done, total)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task = bar.add_task(label, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


@cli.command()
@_rules_argument()
@click.option(
    "--rounds", type=int, help="Play N independent rounds (dealer rotating). Default 1000."
)
@click.option("--games", type=int, help="Play N whole games (the file's number of rounds each).")
@_seats_option("the fewest the file allows")
@_bots_option(
    "rulewise", "Comma-separated bots, one per seat, cycled: rulewise,greedy,random,search,strong"
)
@_budget_options
@_seed_option("A seed replays the simulation exactly.")
@_jobs_option()
@_backend_options
@_json_option()
@_timings_option()
@click.option(
    "--record",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every round (or game) to this folder as a scenario file that replays it.",
)
@_engine_option()
@click.pass_context
def simulate(
    ctx: click.Context,
    rules: str,
    rounds: int | None,
    games: int | None,
    seats: int | None,
    bots: list[str],
    rollouts: int | None,
    think_ms: float | None,
    seed: int,
    jobs: int,
    backend: str,
    scheduler: str | None,
    as_json: bool,
    timings: bool,
    record: Path | None,
    engine: str,
) -> None:
    """Play many rounds or games between bots and report the statistics.

    Per seat: mean net score with its 95% confidence interval and win rate; how often each
    teyaku and yaku occurred; how rounds ended; turns per round; rounds per second.

    \b
    Examples:
      rulekit simulate hachihachi --rounds 20000 --seed 1 --json
      rulekit simulate koikoi --bots search --rounds 200 --seed 3 --json --no-timings
      rulekit simulate hachihachi --seats 4 --bots greedy,random --games 100
      rulekit simulate hachihachi/kirisame --rounds 100000 --jobs 2
      rulekit simulate hachihachi --bots random --rounds 1000000 --engine batch
      rulekit simulate hachihachi --rounds 50 --record regressions/
      rulekit simulate koikoi --rounds 1000000 --backend dask --scheduler tcp://10.0.0.5:8786
    """
    from rulekit.scenario.record import rules_ref
    from rulekit.sim.simulate import simulate as run

    _check_backend(ctx, backend, scheduler)
    ruleset = _load(rules)
    with _progress("simulating") as update:
        result = run(
            ruleset,
            seats=seats,
            bots=bots,
            seed=seed,
            rounds=rounds,
            games=games,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            progress=update,
            record=record,
            rules_ref=rules if record is None else rules_ref(rules, record),
            bot_options=_bot_options(rollouts, think_ms),
            engine=engine,
        )
    if as_json:
        click.echo(_as_json(result, timings))
        return
    _render_simulation(result)


BOTS_NOTE = "it plays the random and greedy bots only"  # rulekit.batch.engine.why_not's words


def _render_simulation(result: dict[str, Any]) -> None:
    console = _stdout()
    unit = result["unit"]
    n = result["games"] if unit == "game" else result["rounds"]
    console.print(
        f"[bold]{result['rules']}[/]: {n} {unit}s, seed {result['seed']}"
        + (f", {result['voids']} void deals redealt" if result["voids"] else "")
    )
    table = RichTable("seat", "bot", f"mean net / {unit}", "95% CI", "wins", header_style="bold")
    for s in result["seats"]:
        ci = "n/a" if s["ci95"] is None else f"± {s['ci95']:.2f}"
        table.add_row(
            str(s["seat"]), s["bot"], f"{s['mean']:+.2f}", ci, f"{s['wins']} ({s['win_rate']:.1%})"
        )
    console.print(table)
    rounds = max(1, result["rounds"])
    for key, title in (("teyaku", "teyaku"), ("yaku", "yaku")):
        if result[key]:
            t = RichTable(title, "count", "per round", header_style="bold")
            for name, count in result[key].items():
                t.add_row(name, str(count), f"{count / rounds:.4f}")
            console.print(t)
    ended = ", ".join(f"{k} {v / rounds:.1%}" for k, v in result["ended_by"].items())
    console.print(f"rounds ended by: {ended}")
    console.print(
        f"{result['turns_per_round']:.1f} turns per round; {result['rounds']} rounds in "
        f"{result['seconds']:.2f} s ({result['rounds_per_second']:.0f} rounds/s)"
    )
    if result["engine"] == "batch":
        console.print("played by the batch engine (a compiled kernel; the same rounds)")
    elif result["engine_note"] and not result["engine_note"].startswith(BOTS_NOTE):
        note = result["engine_note"]
        console.print(f"played by the scalar engine (not the batch engine: {note})")


# ---------------------------------------------------------------- compare
@cli.command()
@_rules_argument(nargs=-1)
@click.option(
    "--rounds",
    type=int,
    default=10000,
    show_default=True,
    help="Rounds of each variant (same deals).",
)
@_seats_option("the most of the variants' minimums")
@_bots_option("rulewise", "Bots, one per seat, cycled: rulewise,greedy,random,search,strong")
@_budget_options
@_seed_option("The same seed gives the same deals.")
@_jobs_option()
@_backend_options
@_json_option()
@_timings_option()
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a report: FILE.html or FILE.md.",
)
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="Write the plots to FILE.png."
)
@_engine_option()
@click.pass_context
def compare(
    ctx: click.Context,
    rules: tuple[str, ...],
    rounds: int,
    seats: int | None,
    bots: list[str],
    rollouts: int | None,
    think_ms: float | None,
    seed: int,
    jobs: int,
    backend: str,
    scheduler: str | None,
    as_json: bool,
    timings: bool,
    report: Path | None,
    plot: Path | None,
    engine: str,
) -> None:
    """Put variants side by side: the same deals, the same bots, and what changes.

    For each variant and as paired differences against the first, with 95% confidence
    intervals and a significant / not significant flag: mean net per seat position (dealer
    advantage) and spread; how rounds end; rounds with a teyaku; turns; frequency and average
    payment of each teyaku and yaku; continuing and how often it paid off; fairness and
    decisiveness. For every rule choice whose terms differ (continue, fold, swap, hiki, wild
    card), how often the bots exercised it, with a warning when they never did.

    \b
    Examples:
      rulekit compare hachihachi hachihachi/kirisame --rounds 100000 --jobs 2
      rulekit compare hachihachi my-table.rk --report compare.html --plot compare.png
      rulekit compare hachihachi my-table.rk --json > compare.json
      rulekit compare hachihachi my-table.rk --bots greedy --rounds 200000 --engine batch
    """
    from rulekit.sim.compare import compare as run
    from rulekit.sim.report import check_outputs, tables, warnings, write_plot, write_report

    if len(rules) < 2:
        raise click.UsageError("name two variants or more to compare")
    _check_backend(ctx, backend, scheduler)
    check_outputs(report=report, plot=plot)  # before the run, not after it
    variants = [_load(r) for r in rules]
    with _progress("comparing") as update:
        result = run(
            variants,
            list(rules),
            rounds=rounds,
            seats=seats,
            bots=bots,
            seed=seed,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            progress=update,
            bot_options=_bot_options(rollouts, think_ms),
            engine=engine,
        )
    if report is not None:
        write_report(result, report)
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        click.echo(_as_json(result, timings))
        return

    console = _stdout()
    for said in warnings(result):
        console.print(f"[bold red]{said}[/]")
    console.print(
        f"[bold]{result['rounds']} rounds[/] of each variant on the same deals,"
        f" {result['seats']} seats, bots {', '.join(result['bots'])}, seed {result['seed']}"
        f" ({result['seconds']:.1f} s)"
    )
    batched = [v["rules"] for v in result["variants"] if v["engine"] == "batch"]
    if batched:
        console.print(f"played by the batch engine (the same rounds): {', '.join(batched)}")
    for title, header, rows in tables(result):
        t = RichTable(*header, title=title, title_justify="left", header_style="bold")
        for row in rows:
            t.add_row(*row)
        console.print(t)
    for path in (report, plot):
        if path is not None:
            console.print(f"wrote {path}")


# ---------------------------------------------------------------- tune
@cli.command()
@_rules_argument()
@click.option(
    "--vary",
    metavar="'NAME LO..HI step S'",
    help="The number to vary and its candidate values: 'triple 10..40 step 5' or"
    " 'triple 10,15,25' (at most 50 values; --list shows the names).",
)
@click.option(
    "--target",
    default="fairness",
    show_default=True,
    help="The figure to rank by, any that compare reports: fairness, spread, decisiveness,"
    " swing, turns, teyaku, by_yaku, by_count, continued, paid_off, folds, swaps, hikis,"
    " 'position K' (net of dealer + K), 'teyaku:NAME', 'yaku:NAME', 'yaku paid:NAME', ...",
)
@click.option(
    "--aim",
    help="What is better: min, max, or a number (closest to it). Default: min for fairness"
    " and spread; say it for the other figures.",
)
@click.option("--list", "list_only", is_flag=True, help="List the numbers that can be varied.")
@click.option(
    "--rounds",
    type=int,
    default=2000,
    show_default=True,
    help="Rounds of the file and of each candidate (the same deals).",
)
@_seats_option("the fewest the file allows")
@_bots_option("rulewise", "Bots, one per seat, cycled: rulewise,greedy,random,search,strong")
@_budget_options
@_seed_option("The same seed gives the same deals, and the same result.")
@_jobs_option()
@_json_option()
@_timings_option()
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the target against the value, with 95% CI bars, to FILE.png.",
)
@_engine_option()
def tune(
    rules: str,
    vary: str | None,
    target: str,
    aim: str | None,
    list_only: bool,
    rounds: int,
    seats: int | None,
    bots: list[str],
    rollouts: int | None,
    think_ms: float | None,
    seed: int,
    jobs: int,
    as_json: bool,
    timings: bool,
    plot: Path | None,
    engine: str,
) -> None:
    """Tune one number of a rule file: play the file and each candidate value on the same
    deals (common random numbers), and rank the candidates by one figure of `compare`.

    For each candidate: the target figure with its 95% confidence interval, and its paired
    difference from the file as it is, with a significant / not significant flag. Then the best
    candidate, played against the runner-up on the same deals: the verdict says plainly when
    the best is not significantly better. What can be varied: the value of a teyaku, yaku or
    instant-win entry, a scoring step, the fold fees, the par, the unit's size, a multiplier
    (`--list`); a name shared by two tables takes its table: teyaku.NAME, yaku.NAME.

    \b
    Examples:
      rulekit tune hachihachi --list
      rulekit tune hachihachi --vary "triple 10..40 step 5" --seed 1
      rulekit tune hachihachi --seats 4 --vary "fee 0..20 step 5" --target "position 0" --aim 0
      rulekit tune my-table.rk --vary "kan 8,10,12" --target spread --plot tune.png
      rulekit tune koikoi --vary "instant_win 2..8" --target by_yaku --aim max --json
    """
    from rulekit.sim.report import check_outputs
    from rulekit.sim.tune import SpecError, knob_table, parse_spec, table_rows, write_plot
    from rulekit.sim.tune import tune as run

    ruleset = _load(rules)
    if list_only:
        _render_knobs(ruleset.title, knob_table(ruleset), as_json)
        return
    if vary is None:
        raise click.UsageError(
            f"say what to vary: --vary 'NAME LO..HI step S' (rulekit tune {rules} --list shows"
            " the names)"
        )
    check_outputs(plot=plot)  # before the run, not after it
    try:
        spec = parse_spec(vary)
        with _progress("tuning") as update:
            result = run(
                ruleset,
                rules,
                spec,
                target=target,
                aim=aim,
                rounds=rounds,
                seats=seats,
                bots=bots,
                seed=seed,
                jobs=jobs,
                progress=update,
                bot_options=_bot_options(rollouts, think_ms),
                hint_command=f"rulekit tune {rules}",
                engine=engine,
            )
    except SpecError as err:
        raise click.UsageError(err.render()) from None
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        click.echo(_as_json(result, timings))
        return
    console = _stdout()
    v = result["vary"]
    console.print(
        f"[bold]{result['title']}[/]: {v['name']} ({v['what']}; the file has {v['file_value']}),"
        f" {len(v['values'])} values; {result['rounds']} rounds of each on the same deals,"
        f" {result['seats']} seats, bots {', '.join(result['bots'])}, seed {result['seed']}"
        + (f" ({result['seconds']:.1f} s)" if timings else "")
    )
    target_is = f"{result['target']['label']}, aim {result['target']['aim']}"
    table = RichTable(
        v["name"],
        f"{result['target']['figure']} (95% CI)",
        "against the file (95% CI)",
        "verdict",
        "",
        title=f"{target_is}; the file as is: {_ci_text(result['file'])}",
        title_justify="left",
        header_style="bold",
    )
    for row in table_rows(result):
        table.add_row(*row, style="bold" if row[-1] else None)
    console.print(table)
    console.print(result["verdict"])
    if plot is not None:
        console.print(f"wrote {plot}")


def _ci_text(m: dict[str, Any]) -> str:
    return f"{m['mean']:.3f}" + (f" ± {m['ci95']:.3f}" if m["ci95"] is not None else "")


def _render_knobs(title: str, found: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"rules": title, "numbers": found}))
        return
    table = RichTable(
        "name", "full name", "what", "value", title=title, title_justify="left", header_style="bold"
    )
    for k in found:
        table.add_row(k["name"], k["full_name"], k["what"], str(k["value"]))
    _stdout().print(table)


# ---------------------------------------------------------------- diff
@cli.command("diff")
@click.argument("before", shell_complete=_complete_rules)
@click.argument("after", shell_complete=_complete_rules)
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

    click.echo(
        render(diff(_load(before), _load(after)), before, after, fmt == "markdown"), nl=False
    )


# ---------------------------------------------------------------- odds
@cli.command()
@_rules_argument()
@click.option(
    "--seats",
    type=int,
    help="Players at the table, among the variant's table sizes (default: the fewest).",
)
@_json_option()
def odds(rules: str, seats: int | None, as_json: bool) -> None:
    """The exact odds of each teyaku for one seat, and what teyaku pay per round.

    Counted over every possible hand, month by month (not sampled), at the table --seats sets
    (its deal and how many play); the expected payment includes the field multiplier, itself
    counted exactly from the cards the hand leaves. It leaves out, and says so, what depends on
    other rounds or on play: a multiplier carried over from the round before, redeals of a
    void field, folding.

    \b
    Examples:
      rulekit odds hachihachi
      rulekit odds hachihachi --seats 5
      rulekit odds hachihachi/kirisame --json
    """
    from rulekit.odds import teyaku_odds

    result = teyaku_odds(_load(rules), seats)
    if as_json:
        click.echo(json.dumps(result))
        return
    console = _stdout()
    seated = result["seats"]
    table_of = (
        f"{seated} at the table, {result['players']} play"
        if seated != result["players"]
        else f"{seated} players"
    )
    console.print(
        f"[bold]{result['rules']}[/]: {result['hand']}-card hands ({result['hands']:,} of them),"
        f" {table_of}, {result['field']} cards to the field"
    )
    table = RichTable("teyaku", "name", "value", "probability", "one hand in", header_style="bold")
    for e in result["teyaku"]:
        one_in = f"{e['one_in']:,.1f}" if e["one_in"] else "never"
        table.add_row(e["label"], e["name"], str(e["value"]), f"{e['probability']:.5f}", one_in)
    console.print(table)
    console.print(f"a hand with a teyaku: {result['any_teyaku']:.4f}")
    console.print(f"expected teyaku value per seat and round: {result['expected_value']:.3f}")
    console.print(
        f"expected teyaku payment received per seat and round: {result['expected_payment']:.3f}"
        f" (x the field multiplier, from each of the {result['players'] - 1} others);"
        f" paid at the table per round: {result['expected_payment_table']:.3f}"
    )
    if result["leaves_out"]:
        console.print("not counted: " + "; ".join(result["leaves_out"]))


# ---------------------------------------------------------------- play
@cli.command()
@_rules_argument(required=False)
@_seats_option("the fewest the file allows")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, from 0.")
@_bots_option("search", "Bots for the other seats, cycled: search,greedy,random")
@click.option("--seed", type=int, help="Deal from this seed (a seed replays the same deals).")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to save the game (a scenario file).",
)
@click.option(
    "--resume", type=click.Path(dir_okay=False, path_type=Path), help="Continue a saved game."
)
@click.option("--watch", is_flag=True, help="Bots in every seat; watch them play.")
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=0.5,
    show_default=True,
    help="Seconds between moves when watching.",
)
@click.option(
    "--think-ms",
    type=click.IntRange(min=1),
    default=150,
    show_default=True,
    help="The search bot's time per decision.",
)
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.pass_context
def play(
    ctx: click.Context,
    rules: str | None,
    seats: int | None,
    seat: int,
    bots: list[str],
    seed: int | None,
    save: Path | None,
    resume: Path | None,
    watch: bool,
    delay: float,
    think_ms: int,
    name: str,
) -> None:
    """Play a whole game in the terminal against bots (or watch them play).

    Pick a card by its position in your hand, its id or its name; when two field cards match,
    say which to take. At any prompt: help, rules, why (the payments and what they were for),
    hint (what the search bot would do), quit. Ctrl-C, the end of input or quit save the game;
    a saved game is a scenario file that `rulekit test` replays.

    \b
    Examples:
      rulekit play hachihachi
      rulekit play sakura --seats 4 --bots search,greedy,random --seed 7
      rulekit play koikoi --save koikoi-game.scenario.toml
      rulekit play --resume koikoi-game.scenario.toml
      rulekit play hachihachi --watch --bots search,greedy,random --delay 0.2
    """
    import random

    from rulekit.engine.tables import CompiledRules
    from rulekit.play.session import Session, default_save_path
    from rulekit.play.session import resume as resume_game
    from rulekit.play.terminal import Terminal
    from rulekit.scenario.record import rules_ref

    if resume is not None:
        kept = _given(ctx, "rules", "seats", "bots", "seed", "seat", "name", "watch")
        if kept:
            raise click.UsageError(
                f"{', '.join(kept)} with --resume: a saved game keeps its rules, seats, bots"
                " and seed (--save, --delay and --think-ms may change)"
            )
        if not resume.is_file():
            raise UsageError(f"no saved game at {resume}")
        target = save or resume
        session = resume_game(resume, target, think_ms if _given(ctx, "think_ms") else None)
    else:
        if rules is None:
            raise click.UsageError(
                "name the rules to play (hachihachi, koikoi, sakura, a file), or --resume a game"
            )
        if watch and (unused := _given(ctx, "seat", "name")):
            raise click.UsageError(f"{', '.join(unused)} with --watch: every seat is a bot")
        ruleset = _load(rules)
        chosen_seed = seed if seed is not None else random.randrange(10**6)
        target = save or default_save_path(rules, chosen_seed)
        session = Session.new(
            CompiledRules(ruleset),
            rules_ref(rules, target.parent),
            seed=chosen_seed,
            seats=seats,
            bots=bots,
            seat=seat,
            name=name,
            watch=watch,
            think_ms=think_ms,
        )
    console = Console(highlight=False)
    terminal = Terminal(
        session,
        console,
        console.input,
        target,
        watch_delay=delay if watch or session.human is None else None,
        hint_ms=session.think_ms or think_ms,
    )
    terminal.run()


# ---------------------------------------------------------------- serve
def _check_port(host: str, port: int) -> None:
    """A usage error now, rather than the server's own message after the address is shown."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.bind(address)
    except OSError as err:
        raise click.UsageError(
            f"cannot serve on {host}:{port}: {err.strerror or err}"
            " (choose another --host or --port)"
        ) from None


@cli.command()
@_rules_argument(nargs=-1, required=False)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (0.0.0.0: every network; think twice).",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
def serve(rules: tuple[str, ...], host: str, port: int) -> None:
    """Play in the browser: a local web app to play a whole game against the bots.

    The page offers the bundled rule files, and RULES: rule files, or folders whose rule files
    it offers. It reaches no other file and fetches nothing from the internet.

    \b
    Examples:
      rulekit serve
      rulekit serve my-rules/ --port 8080
    """
    import uvicorn

    from rulekit.web.app import create_app

    hosts = ["*"] if host in ("0.0.0.0", "::") else ["127.0.0.1", "localhost", host]
    app = create_app(rules, allowed_hosts=hosts)
    _check_port(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"rulekit serve: open http://{shown}:{port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


# ---------------------------------------------------------------- test
SKIPPED_FOLDERS = frozenset({"site-packages", "dist-packages", "node_modules", "__pycache__"})


def _skipped(folder: Path) -> bool:
    """A folder no one keeps scenarios in: hidden (.git, .venv), a virtual environment (it
    holds an installed copy of the bundled rules), installed packages."""
    return (
        folder.name.startswith(".")
        or folder.name in SKIPPED_FOLDERS
        or (folder / "pyvenv.cfg").is_file()
    )


def _scenarios_under(root: Path) -> list[Path]:
    """The *.scenario.toml files under a folder, sorted, not looking into skipped folders."""
    found = []
    for here, folders, files in os.walk(root):
        folders[:] = [f for f in folders if not _skipped(Path(here) / f)]
        found += [Path(here) / f for f in files if f.endswith(".scenario.toml")]
    return sorted(found)


def _scenario_files(paths: list[Path]) -> list[Path]:
    """The files given and the scenarios under the folders given; with none, the bundled
    rules' scenarios and the current folder's. Each file once, however it is reached."""
    from rulekit.resources import rules_dir
    from rulekit.scenario.load import find_scenarios

    out: list[Path] = []
    seen: set[Path] = set()
    for root in paths or [rules_dir(), Path(".")]:
        files = _scenarios_under(root) if root.is_dir() else find_scenarios([root])
        for f in files:
            if f.resolve() not in seen:
                seen.add(f.resolve())
                out.append(f)
    return out


@cli.command("test")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
def test_cmd(paths: tuple[Path, ...], quiet: bool) -> None:
    """Run scenario files (*.scenario.toml) and folders of them; report each failure.

    With no PATHS: the bundled rules' scenarios and those under the current folder. Hidden
    folders (.git, .venv), virtual environments and site-packages are not searched.
    A failure shows the expectation, what happened, and the round's ledger. The last line is
    `N passed, N failed`; the exit status is 1 on any failure or malformed scenario.

    \b
    Examples:
      rulekit test
      rulekit test rules/
      rulekit test my-table/disputed-sage.scenario.toml
    """
    from rulekit.scenario.runner import run_scenario

    files = _scenario_files(list(paths))
    passed = failed = 0
    for path in files:
        try:
            outcome = run_scenario(path)
        except RulekitError as err:
            failed += 1
            click.echo(f"ERROR {path}\n{err.render()}\n", err=True)
            continue
        if outcome.passed:
            passed += 1
            if not quiet:
                click.echo(f"ok    {outcome.name}: {outcome.title}")
        else:
            failed += 1
            click.echo(outcome.render() + "\n")
    if not files:
        click.echo("no scenario files (*.scenario.toml) found", err=True)
    click.echo(f"{passed} passed, {failed} failed")
    if failed or not files:
        sys.exit(1)


# ---------------------------------------------------------------- schema
@cli.command()
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


def main() -> None:
    code: int | str | None = 0
    try:
        cli(prog_name="rulekit")
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        code = 130
    except BrokenPipeError:
        _quiet_stdout()
    except Exception as exc:  # a bug: say so in one line, keep the traceback for developers
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        click.echo(
            f"rulekit: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in rulekit; run with RULEKIT_DEBUG=1 for the traceback.",
            err=True,
        )
        code = 1
    try:
        sys.stdout.flush()  # here, not at the interpreter's exit, to catch a closed pipe
    except BrokenPipeError:
        _quiet_stdout()
    sys.exit(code)


if __name__ == "__main__":
    main()
