"""Every payment of a round is a ledger entry; a round's result is its ledger.

An entry moves `amount` from `payer` to `payee`, so transfers are zero-sum by construction; a
score-style settlement (points counted, not paid) credits or charges a seat against the BANK.
Amounts are ints, or exact fractions where a rule pays half of an odd value.

This module is the only writer of a round's ledger: `pay` (a base times the field's
multiplier), `record` (an entry as given: instant wins, fold fees, scores), `void`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.engine.payments import (
    BANK,
    Amount,
    Payment,
    as_number,
    entry,
    half,
    net,
    share,
)
from rulekit.engine.stage import declared, factor

if TYPE_CHECKING:
    from rulekit.engine.state import RoundState

# (the payments' values, for the modules that write or read a ledger through this one)
__all__ = [
    "BANK",
    "Amount",
    "Payment",
    "as_number",
    "entry",
    "half",
    "net",
    "pay",
    "pay_parts",
    "record",
    "share",
    "void",
]


def pay(
    r: RoundState,
    payer: int,
    payee: int,
    base: Amount,
    reason: str,
    detail: str,
    score: Amount | None = None,
    flat: bool = False,
) -> None:
    """`base` times the field's multiplier (not when `flat`: an entry paid as written) from
    payer to payee (nothing to oneself, or of 0), and times the scoring stage's factors that
    fit it (tested with `score`, the payment's base before the continue multiplier and before
    it is split between payers, when the caller knows it)."""
    if payer == payee or not base:
        return
    mult = 1 if flat else r.multiplier
    if r.c.any_factor:
        mult *= factor(r, payee, reason, base if score is None else score, payer)
        mult *= declared(r, payee, reason)
        if not mult:  # a factor of 0: the payer pays nothing
            return
    r.ledger.append(entry(r.round_no, payer, payee, base * mult, reason, detail, mult, base))


def pay_parts(
    r: RoundState,
    payers: list[int],
    payee: int,
    base: Amount,
    flat: Amount,
    reason: str,
    detail: str,
    split: bool = False,
    score: Amount | None = None,
) -> None:
    """`base`, of which `flat` is paid as written, to payee from each payer, or (`split`) the
    total shared exactly between them; the factors see `score` (default: the whole base)."""
    payers = [q for q in payers if q != payee]
    if not payers:
        return
    score = base if score is None else score
    field = base - flat
    if split:
        field, flat = share(field, len(payers)), share(flat, len(payers))
    if not r.c.any_factor:  # pay() without a factor to look up, written in: the same entries
        add = r.ledger.append
        no = r.round_no
        mult = r.multiplier
        for q in payers:
            if field:
                add(entry(no, q, payee, field * mult, reason, detail, mult, field))
            if flat:
                add(entry(no, q, payee, flat, reason, detail, 1, flat))
        return
    for q in payers:
        pay(r, q, payee, field, reason, detail, score)
        if flat:  # (pay writes nothing of 0)
            pay(r, q, payee, flat, reason, detail, score, flat=True)


def record(
    r: RoundState,
    payer: int,
    payee: int,
    amount: Amount,
    reason: str,
    detail: str = "",
    multiplier: int = 1,
    base: Amount | None = None,
) -> None:
    """An entry as given (not multiplied by the field): base defaults to the amount. The
    scoring stage's factors that fit it apply, as to every payment (tested for its payee, or
    for the player charged when the bank is paid); a reversal of entries already written
    (`teyaku returned`) copies them as they are."""
    base = amount if base is None else base
    if r.c.any_factor and reason not in _AS_WRITTEN:
        times = factor(r, payer if payee == BANK else payee, reason, base, payer)
        times *= declared(r, payee, reason)  # (to a seat: the bank is no declarer)
        if not times:  # a factor of 0: the payer pays nothing
            return
        amount, multiplier = amount * times, multiplier * times
    r.ledger.append(entry(r.round_no, payer, payee, amount, reason, detail, multiplier, base))


# entries that copy others already multiplied (record leaves them as given)
_AS_WRITTEN = frozenset({"teyaku returned"})


def void(r: RoundState) -> None:
    """A void deal: nothing paid."""
    r.ledger.clear()
