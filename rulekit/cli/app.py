"""The `rulekit` command: one subcommand per job, each in the module of its group. Thin: parse
arguments, call the library, render.

Exit status: 0 ok, 1 a rule, scenario or data error (or a failed expectation), 2 a usage error
(Click's), 130 on Ctrl-C; a closed pipe (`rulekit check ... | head -1`) ends quietly with 0.
"""

from __future__ import annotations

import click

from rulekit import __version__
from rulekit.cli import evaluate, play, rules, serve, simulate, test, tune, warmup
from rulekit.cli.exits import EXIT_STATUS, Group, run


@click.group(
    cls=Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_STATUS
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


for subcommand in (
    rules.list_cmd,
    rules.check,
    rules.describe,
    evaluate.eval_cmd,
    simulate.simulate,
    simulate.compare,
    tune.tune,
    rules.diff_cmd,
    evaluate.odds,
    play.play,
    serve.serve,
    test.test_cmd,
    rules.schema,
    warmup.warmup,
):
    cli.add_command(subcommand)


def main() -> None:
    run(cli)
