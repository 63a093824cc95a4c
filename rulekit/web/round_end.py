"""What the page shows when a round ends: each player's final piles, his count against the par,
each yaku and teyaku with its value, the payments in words with their factors, and the yaku a
player called on and lost (a forfeit), so that nobody wonders why a round paid what it did.
Everything here was public at the end of the round: the hands left unplayed are not shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekit.engine.state import RoundResult
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
        yaku = screen.valued(compiled.yaku, result.yaku.get(seat, []), pile, rules)
        teyaku = screen.valued(compiled.teyaku, result.teyaku.get(seat, []), 0, rules)
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
                # how the owner's choice read his pile at the count (`sake as 2 plains`)
                "reading": screen.reading_text(view, seat),
            }
        )
    return {
        "players": players,
        "explained": [screen.payment_sentence(p, names, view) for p in result.ledger],
        "forfeits": _forfeits(view, result, names),
        "field_multiplier": result.multiplier,
    }


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
