"""The commands that play many rounds between bots: simulate (one variant) and compare
(variants side by side on the same deals)."""

from __future__ import annotations

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
    backend_options,
    bot_options,
    budget_options,
    check_backend,
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
    "--rounds", type=int, help="Play N independent rounds (dealer rotating). Default 1000."
)
@click.option("--games", type=int, help="Play N whole games (the file's number of rounds each).")
@seats_option("the fewest the file allows")
@bots_option(
    "rulewise", "Comma-separated bots, one per seat, cycled: rulewise,greedy,random,search,strong"
)
@budget_options
@seed_option("A seed replays the simulation exactly.")
@jobs_option()
@backend_options
@json_option()
@timings_option()
@click.option(
    "--record",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every round (or game) to this folder as a scenario file that replays it.",
)
@engine_option()
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

    check_backend(ctx, backend, scheduler)
    ruleset = load(rules)
    with progress("simulating") as update:
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
            bot_options=bot_options(rollouts, think_ms),
            engine=engine,
            notice=notice,
        )
    if as_json:
        click.echo(result_json(result, timings))
        return
    _render_simulation(result)


BOTS_NOTE = "it plays the random, greedy and rulewise bots only"  # batch.engine.why_not's words


def _cold(note: str | None) -> bool:
    """Whether the scalar engine played only because the batch engine's kernel is not compiled
    yet (rulekit.sim.simulate.COLD_NOTE)."""
    from rulekit.sim.simulate import COLD_NOTE

    return note is not None and note.startswith(COLD_NOTE)


def _render_simulation(result: dict[str, Any]) -> None:
    console = stdout()
    unit = result["unit"]
    n = result["games"] if unit == "game" else result["rounds"]
    console.print(
        bold(
            result["rules"],
            f": {n} {unit}s, seed {result['seed']}"
            + (f", {result['voids']} void deals redealt" if result["voids"] else ""),
        )
    )
    shown = result.get("score_unit")  # `show scores in kan`: a game's nets in the unit
    size, per = (shown["points"], f", {shown['name']}") if shown else (1, "")
    net = f"mean net / {unit}{per}"
    table = RichTable("seat", "bot", net, "95% CI", "wins", header_style="bold")
    for s in result["seats"]:
        ci = "n/a" if s["ci95"] is None else f"± {s['ci95'] / size:.2f}"
        table.add_row(
            str(s["seat"]),
            s["bot"],
            f"{s['mean'] / size:+.2f}",
            ci,
            f"{s['wins']} ({s['win_rate']:.1%})",
        )
    console.print(table)
    if shown and result["totals"] is not None:
        totals = ", ".join(f"{t / size:.2f}" for t in result["totals"])
        console.print(f"mean totals at a game's end, {shown['name']}: {totals}")
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


@command()
@rules_argument(nargs=-1)
@click.option(
    "--rounds",
    type=int,
    default=10000,
    show_default=True,
    help="Rounds of each variant (same deals).",
)
@seats_option("the most of the variants' minimums")
@bots_option("rulewise", "Bots, one per seat, cycled: rulewise,greedy,random,search,strong")
@budget_options
@seed_option("The same seed gives the same deals.")
@jobs_option()
@backend_options
@json_option()
@timings_option()
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a report: FILE.html or FILE.md.",
)
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="Write the plots to FILE.png."
)
@engine_option()
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
    check_backend(ctx, backend, scheduler)
    check_outputs(report=report, plot=plot)  # before the run, not after it
    variants = [load(r) for r in rules]
    with progress("comparing") as update:
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
            bot_options=bot_options(rollouts, think_ms),
            engine=engine,
            notice=notice,
        )
    if report is not None:
        write_report(result, report)
    if plot is not None:
        write_plot(result, plot)
    if as_json:
        click.echo(result_json(result, timings))
        return

    console = stdout()
    for said in warnings(result):
        console.print(said, style="bold red")
    console.print(
        bold(
            f"{result['rounds']} rounds",
            f" of each variant on the same deals, {result['seats']} seats, bots"
            f" {', '.join(result['bots'])}, seed {result['seed']} ({result['seconds']:.1f} s)",
        )
    )
    batched = [v["rules"] for v in result["variants"] if v["engine"] == "batch"]
    if batched:
        console.print(f"played by the batch engine (the same rounds): {', '.join(batched)}")
    cold = [v["engine_note"] for v in result["variants"] if _cold(v["engine_note"])]
    if cold:  # the one reason that is the machine's, not the rule file's or the bots'
        console.print(f"played by the scalar engine (not the batch engine: {cold[0]})")
    for title, header, rows in tables(result):
        t = RichTable(*header, title=title, title_justify="left", header_style="bold")
        for row in rows:
            t.add_row(*row)
        console.print(t)
    for path in (report, plot):
        if path is not None:
            console.print(f"wrote {path}")
