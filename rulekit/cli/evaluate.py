"""The commands that say what cards are worth: eval (a hand, a pile, a field) and odds."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.table import Table as RichTable

from rulekit.cli.common import bold, command, json_option, load, rules_argument, stdout
from rulekit.errors import UsageError


@command("eval")
@rules_argument()
@click.argument("cards", nargs=-1)
@click.option(
    "--hand", "mode", flag_value="hand", help="CARDS are a dealt hand: which teyaku count."
)
@click.option(
    "--captured", "mode", flag_value="captured", help="CARDS are a captured pile: its yaku."
)
@click.option(
    "--field", "mode", flag_value="field", help="CARDS are the field: the multiplier, a void deal."
)
@click.option(
    "--round",
    "round_no",
    type=click.IntRange(min=1),
    metavar="N",
    help="The round's number in the game (the first is 1), and so its month, for conditions on"
    " the round (round, round month).",
)
@click.option(
    "--dealer/--not-dealer",
    default=None,
    help="Whether the hand or pile is the dealer's, for conditions on the dealer.",
)
@json_option()
def eval_cmd(
    rules: str,
    cards: tuple[str, ...],
    mode: str | None,
    round_no: int | None,
    dealer: bool | None,
    as_json: bool,
) -> None:
    """Evaluate cards under a variant: a dealt hand, a captured pile or a field.

    CARDS are ids or names, space separated (10 crane 113 lightning ...). Conditions on the
    round are decided by --round (the month follows: round 1 is the deck's first month, 13 the
    first again) and --dealer; an entry that asks what is not given, or what eval cannot know
    (continues called, the score), is listed as undecided, and not counted.

    \b
    Examples:
      rulekit eval hachihachi --hand 10 11 12 30 31 32 80
      rulekit eval hachihachi/kirisame --hand 10 11 12 30 31 32 80 --json
      rulekit eval hachihachi --captured 11 21 31 61 91 101
      rulekit eval hachihachi --field rainman crane 12 22 42 52
      rulekit eval koikoi/house/tsukifuda --captured 10 11 12 13 --round 1
    """
    from rulekit.engine.tables import CompiledRules
    from rulekit.evaluate import Facts, eval_captured, eval_field, eval_hand

    if mode is None:
        raise click.UsageError("say what the cards are: --hand, --captured or --field")
    if mode == "field" and dealer is not None:
        raise click.UsageError("--dealer with --field: the field is nobody's")
    compiled = CompiledRules(load(rules))
    if not cards and mode != "field":
        raise UsageError(f"no cards given for --{mode}")
    ids = compiled.index.parse_many(cards, f"--{mode}")
    result = {"hand": eval_hand, "captured": eval_captured, "field": eval_field}[mode](
        compiled, ids, facts=Facts(round_no, dealer)
    )
    if as_json:
        click.echo(json.dumps(result))
        return
    console = stdout()
    shown = ", ".join(compiled.index.short(i) for i in ids)
    console.print(f"{compiled.rules.title}: {mode} {shown}")
    if told := _told(result):
        console.print(told)
    if mode == "field":
        carry = result["next_round_at_least"]
        console.print(f"multiplier x{result['multiplier']}; next round at least x{carry}")
        if result["void"]:
            console.print("void: this field voids the deal, which is dealt again")
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
    for e in result["undecided"]:
        depends = ", ".join(e["depends_on"])
        console.print(f"undecided: {e['label']} ({e['value']}) depends on {depends}")
    console.print(
        f"value: {result['value']}"
        + (f"   card points: {result['points']}" if "points" in result else "")
    )


def _told(result: dict[str, Any]) -> str:
    """What eval was told about the round, in words: `round 3 (cherry); the dealer's`."""
    said = []
    if result["round"] is not None:
        said.append(f"round {result['round']} ({result['month']})")
    if result.get("dealer") is not None:
        said.append("the dealer's" if result["dealer"] else "not the dealer's")
    return "; ".join(said)


@command()
@rules_argument()
@click.option(
    "--seats",
    type=int,
    help="Players at the table, among the variant's table sizes (default: the fewest).",
)
@json_option()
def odds(rules: str, seats: int | None, as_json: bool) -> None:
    """The exact odds of each teyaku and instant win for one seat, and what teyaku pay.

    Counted over every possible hand, month by month (not sampled), at the table --seats sets
    (its deal and how many play); the expected payment includes the field multiplier, itself
    counted exactly from the cards the hand leaves. An instant win (a dealt hand that wins the
    round at once: Koi-Koi's four of a month, Go-Stop's chongtong) is counted from the hand
    alone. It leaves out, and says so, what depends on other rounds or on play: a multiplier
    carried over from the round before, redeals of a void field, folding, an instant win that
    asks about the field or the dealer.

    \b
    Examples:
      rulekit odds hachihachi
      rulekit odds hachihachi --seats 5
      rulekit odds hachihachi/kirisame --json
      rulekit odds gostop
    """
    from rulekit.odds import teyaku_odds

    result = teyaku_odds(load(rules), seats)
    if as_json:
        click.echo(json.dumps(result))
        return
    console = stdout()
    seated = result["seats"]
    table_of = (
        f"{seated} at the table, {result['players']} play"
        if seated != result["players"]
        else f"{seated} players"
    )
    console.print(
        bold(
            result["rules"],
            f": {result['hand']}-card hands ({result['hands']:,} of them),"
            f" {table_of}, {result['field']} cards to the field",
        )
    )
    if result["teyaku"]:
        table = RichTable(
            "teyaku", "name", "value", "probability", "one hand in", header_style="bold"
        )
        for e in result["teyaku"]:
            one_in = f"{e['one_in']:,.1f}" if e["one_in"] else "never"
            table.add_row(e["label"], e["name"], str(e["value"]), f"{e['probability']:.5f}", one_in)
        console.print(table)
        console.print(f"a hand with a teyaku: {result['any_teyaku']:.4f}")
        console.print(f"expected teyaku value per seat and round: {result['expected_value']:.3f}")
        console.print(
            "expected teyaku payment received per seat and round:"
            f" {result['expected_payment']:.3f} (x the field multiplier, from each of the"
            f" {result['players'] - 1} others); paid at the table per round:"
            f" {result['expected_payment_table']:.3f}"
        )
    if result["instant_wins"]:
        wins = RichTable(
            "instant win", "name", "value", "probability", "one hand in", header_style="bold"
        )
        for e in result["instant_wins"]:
            counted = e["probability"] is not None
            one_in = f"{e['one_in']:,.1f}" if e["one_in"] else ("never" if counted else "-")
            chance = f"{e['probability']:.5f}" if counted else "not counted"
            wins.add_row(e["label"], e["name"], str(e["value"]), chance, one_in)
        console.print(wins)
        if result["any_instant_win"] is not None:
            console.print(
                f"a hand that wins at once: {result['any_instant_win']:.4f} (paid by each of"
                f" the {result['players'] - 1} others)"
            )
    if result["leaves_out"]:
        console.print("not counted: " + "; ".join(result["leaves_out"]))
