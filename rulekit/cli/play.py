"""The play command: a whole game in the terminal against bots, or bots watched."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from rulekit.cli.common import bots_option, command, given, load, rules_argument, seats_option
from rulekit.errors import UsageError


@command()
@rules_argument(required=False)
@seats_option("the fewest the file allows")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, from 0.")
@bots_option("search", "Bots for the other seats, cycled: search,greedy,random")
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
        kept = given(ctx, "rules", "seats", "bots", "seed", "seat", "name", "watch")
        if kept:
            raise click.UsageError(
                f"{', '.join(kept)} with --resume: a saved game keeps its rules, seats, bots"
                " and seed (--save, --delay and --think-ms may change)"
            )
        if not resume.is_file():
            raise UsageError(f"no saved game at {resume}")
        target = save or resume
        session = resume_game(resume, target, think_ms if given(ctx, "think_ms") else None)
    else:
        if rules is None:
            raise click.UsageError(
                "name the rules to play (hachihachi, koikoi, sakura, a file), or --resume a game"
            )
        if watch and (unused := given(ctx, "seat", "name")):
            raise click.UsageError(f"{', '.join(unused)} with --watch: every seat is a bot")
        ruleset = load(rules)
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
    console = Console(highlight=False, markup=False)  # names and labels as written
    terminal = Terminal(
        session,
        console,
        console.input,
        target,
        watch_delay=delay if watch or session.human is None else None,
        hint_ms=session.think_ms or think_ms,
    )
    terminal.run()
