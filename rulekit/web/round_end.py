"""What the page shows when a round ends: each player's final piles, his count against the par,
each yaku and teyaku with its value, the payments in words with their factors, and the yaku a
player called on and lost (a forfeit), so that nobody wonders why a round paid what it did.
Everything here was public at the end of the round: the hands left unplayed are not shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekit.engine.ledger import BANK, Payment
from rulekit.engine.state import RoundResult
from rulekit.engine.tables import CompiledTable
from rulekit.engine.view import PlayerView
from rulekit.output import amount_text
from rulekit.play import screen

Card = Callable[[int], dict[str, Any]]


def round_end(
    view: PlayerView, result: RoundResult, names: list[str], card: Card
) -> dict[str, Any]:
    """The round's end as the page draws it (`view`: any seat's view of the finished round;
    `card`: a card id as the page's card object)."""
    compiled = view.compiled
    rules = compiled.rules
    ix = compiled.index
    par = rules.count.par_for(view.seated) if rules.count.method == "par" else None
    players = []
    for seat, name in enumerate(names):
        pile = view.captured[seat]
        yaku = _valued(compiled.yaku, result.yaku.get(seat, []), pile, rules)
        teyaku = _valued(compiled.teyaku, result.teyaku.get(seat, []), 0, rules)
        points = ix.points(pile)
        players.append(
            {
                "name": name,
                "folded": view.folded[seat],
                "cards": [card(c) for c in sorted(ix.ids_of(pile))],
                "points": points if rules.card_points_count() else None,
                "par": par,
                "over_par": None if par is None else points - par,
                "yaku": yaku,
                "teyaku": teyaku,
                "calls": view.continues[seat],
                "net": amount_text(result.net[seat]),
            }
        )
    return {
        "players": players,
        "explained": [_payment_words(p, names, rules, view) for p in result.ledger],
        "forfeits": _forfeits(view, result, names),
        "field_multiplier": result.multiplier,
    }


def _valued(
    table: CompiledTable | None, made: list[str], pile: int, rules: Any
) -> list[dict[str, Any]]:
    """Entries made, by label, each with its value (a bonus valued on `pile`)."""
    if table is None:
        return []
    out = []
    for name in made:
        i = table.position.get(name)
        value = table.value(i, pile) if i is not None else None
        out.append({"label": screen.label(rules, name), "value": value})
    return out


def _payment_words(p: Payment, names: list[str], rules: Any, view: PlayerView) -> str:
    """One payment as a sentence: who pays whom, how much, for what (each yaku or teyaku with
    its value), and the factor that multiplied it."""
    who = {**dict(enumerate(names)), BANK: "the bank"}
    what = p.reason
    if p.detail and p.reason in ("yaku", "teyaku"):
        table = view.compiled.yaku if p.reason == "yaku" else view.compiled.teyaku
        pile = view.captured[p.payee] if p.reason == "yaku" and 0 <= p.payee < len(names) else 0
        parts = _valued(table, [n.strip() for n in p.detail.split(",")], pile, rules)
        what += " " + ", ".join(
            f"{e['label']} ({e['value']})" if e["value"] is not None else e["label"] for e in parts
        )
    elif p.detail:
        what += f" ({screen.label(rules, p.detail)})"
    factor = f": {amount_text(p.base)} x{p.multiplier}" if p.multiplier != 1 else ""
    verb = "pay" if screen.is_you(who[p.payer]) else "pays"
    return f"{who[p.payer]} {verb} {who[p.payee]} {amount_text(p.amount)} for {what}{factor}"


def _forfeits(view: PlayerView, result: RoundResult, names: list[str]) -> list[str]:
    """Players who called on (koi-koi, sage) with yaku made and were not paid for them."""
    rules = view.compiled.rules
    call = screen.call_word(rules)
    paid = {p.payee for p in result.ledger if p.reason == "yaku"}
    out = []
    for seat, name in enumerate(names):
        made = view.yaku_made.get(seat, [])
        if not made or view.continues[seat] == 0 or seat in paid:
            continue
        labels = ", ".join(screen.labels(rules, made))
        why = (
            "the round was drawn"
            if result.winner is None
            else f"{names[result.winner]} won the round"
        )
        out.append(
            f"{name} called {call} with {labels} ({view.made_value[seat]}): {why}, "
            f"so {'they are' if ',' in labels else 'it is'} forfeited"
        )
    return out
