"""The rule file's scoring steps: the factors, which the ledger applies to the payments they
name as it writes them; who takes an award, and whether a step's condition holds (the awards
are paid by engine.scoring, which runs the whole stage).

A step's condition is compiled with every other condition (engine.tables) and tested on the
payee's captured pile, with the round as he sees it (engine.context.RoundView): `score` is the
payment's base, `nobody won` holds only at the round's end with no winner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.engine.context import RoundView
from rulekit.engine.payments import BANK, Amount

if TYPE_CHECKING:
    from rulekit.engine.state import RoundState

# ir.Factor.on -> the payment reasons a factor multiplies (None: every payment: awards, fold
# fees and instant wins too); the count is the par or difference count's payments and a
# score-style count's cards and round wins
FACTOR_ON: dict[str, frozenset[str] | None] = {
    "yaku": frozenset({"yaku", "special", "liability", "penalty"}),
    "teyaku": frozenset({"teyaku"}),
    "count": frozenset({"count", "cards", "round won"}),
    "all": None,
}
# ir.Award.payee -> who takes an award: the dealer (who leads in his place when he sits the
# round out: the first in play order), the round's final winner (None: nobody), the second or
# the third in play order from the dealer (None: fewer play)
AWARD_PAYEES: dict[str, Callable[[RoundState], int | None]] = {
    "dealer": lambda r: r.order[0],
    "winner": lambda r: r.winner,
    "second": lambda r: r.order[1] if len(r.order) > 1 else None,
    "third": lambda r: r.order[2] if len(r.order) > 2 else None,
}


def holds(
    test: Callable[..., bool] | None,
    r: RoundState,
    seat: int,
    score: Amount,
    ended: bool,
    payer: int = BANK,
) -> bool:
    """A step's condition for `seat`: his pile, the round as he sees it, `score` as his, and
    (a factor's) the pile of the payment's `payer` (the bank: none)."""
    if test is None:
        return True
    ctx = RoundView(r, seat, nobody_won=ended and r.winner is None)
    ctx.score = score  # type: ignore[assignment]  # an exact share may be a fraction
    if payer >= 0:
        ctx.payer = r.captured[payer]
    return test(r.captured[seat] if seat >= 0 else 0, ctx)


# payments a declaration's (and an event's) factor leaves as they are: their own stakes
NOT_WINNINGS = frozenset({"declaration", "event"})


def declared(r: RoundState, payee: int, reason: str) -> int:
    """A declaration's factor on a payment to one who made it (ir.Declaration.factor), and
    the factors of the events he made (ir.Event.factor, once per time), on anything but
    their own stakes; 1 for any other payment."""
    if payee < 0 or reason in NOT_WINNINGS:
        return 1
    times = r.event_factor[payee] if r.c.event_factor else 1
    if r.declared >> payee & 1:
        if r.declared_times:  # (once per month of N, ir.Declaration.factor_per_month)
            times *= r.c.declared_factor ** r.declared_times[payee]
        else:
            times *= r.c.declared_factor
    return times


def factor(r: RoundState, payee: int, reason: str, score: Amount, payer: int = BANK) -> int:
    """The product of the factors whose kind and condition fit this payment from `payer` to
    `payee` (1: none; 0: a factor of 0, the payment is not made)."""
    result = 1
    for step, test in r.c.factors:
        reasons = FACTOR_ON[step.on]
        if reasons is not None and reason not in reasons:
            continue
        if step.seats is not None and step.seats != r.seated:
            continue  # played only at another table size
        if holds(test, r, payee, score, ended=False, payer=payer):
            result *= step.factor
    return result
