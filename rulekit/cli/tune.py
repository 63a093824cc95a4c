"""The tune command: one number of a rule file varied over candidate values on the same deals,
the candidates ranked by one figure of compare."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table as RichTable

from rulekit.cli.common import (
    bold,
    bots_option,
    command,
    json_option,
    load,
    rules_argument,
    seats_option,
    seed_option,
    stdout,
)
from rulekit.cli.sim_options import (
    bot_options,
    budget_options,
    engine_option,
    jobs_option,
    notice,
    progress,
    result_json,
    timings_option,
)


@command()
@rules_argument()
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
@seats_option("the fewest the file allows")
@bots_option("rulewise", "Bots, one per seat, cycled: rulewise,greedy,random,search,strong")
@budget_options
@seed_option("The same seed gives the same deals, and the same result.")
@jobs_option()
@json_option()
@timings_option()
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the target against the value, with 95% CI bars, to FILE.png.",
)
@engine_option()
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
    instant-win entry, a scoring step, the fold fees, a forced folder's compensation, the par,
    the unit's size, a multiplier (`--list`); a name shared by two tables takes its table:
    teyaku.NAME, yaku.NAME.

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

    ruleset = load(rules)
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
        with progress("tuning") as update:
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
                bot_options=bot_options(rollouts, think_ms),
                hint_command=f"rulekit tune {rules}",
                engine=engine,
                notice=notice,
            )
    except SpecError as err:
        raise click.UsageError(err.render()) from None
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        click.echo(result_json(result, timings))
        return
    console = stdout()
    v = result["vary"]
    console.print(
        bold(
            result["title"],
            f": {v['name']} ({v['what']}; the file has {v['file_value']}),"
            f" {len(v['values'])} values; {result['rounds']} rounds of each on the same deals,"
            f" {result['seats']} seats, bots {', '.join(result['bots'])}, seed {result['seed']}"
            + (f" ({result['seconds']:.1f} s)" if timings else ""),
        )
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
    stdout().print(table)
