"""What a round pays: a payment (payer, payee, amount, reason...), exact amounts (ints, or
fractions where a rule pays half of an odd value), a seat's net. Plain values, read by every
part of the engine and beyond it; engine.ledger writes them, as the rules say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

Amount = int | Fraction

BANK = -1  # the other side of a score (score-style settlements are not transfers between seats)


def share(value: Amount, n: int) -> Amount:
    """Exactly one n-th of a value: an int when it is one."""
    if isinstance(value, int) and value % n == 0:
        return value // n
    result = Fraction(value) / n
    return int(result) if result.denominator == 1 else result


def half(value: Amount) -> Amount:
    """Exactly half: an int when it is one."""
    return share(value, 2)


def as_number(value: Amount) -> int | float:
    """For JSON and statistics: ints stay ints, halves become floats."""
    return value if isinstance(value, int) else float(value)


@dataclass(frozen=True, slots=True)
class Payment:
    round: int
    payer: int
    payee: int
    amount: Amount
    reason: str  # teyaku, yaku, fold fee, count, refund, penalty, liability, ...
    detail: str = ""  # the entry paid for, when there is one
    multiplier: int = 1
    base: Amount = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "payer": self.payer,
            "payee": self.payee,
            "amount": as_number(self.amount),
            "reason": self.reason,
            "detail": self.detail,
            "multiplier": self.multiplier,
            "base": as_number(self.base),
        }


def _entry_maker() -> Callable[[int, int, int, Amount, str, str, int, Amount], Payment]:
    """`Payment(...)` with every field given, built through its slots: the same frozen object,
    at half the cost of the dataclass's __init__ (which sets each field through
    object.__setattr__), for the few payments of every round."""
    new = object.__new__
    setters = [getattr(Payment, f.name).__set__ for f in fields(Payment)]
    s0, s1, s2, s3, s4, s5, s6, s7 = setters

    def entry(
        round_: int,
        payer: int,
        payee: int,
        amount: Amount,
        reason: str,
        detail: str,
        multiplier: int,
        base: Amount,
    ) -> Payment:
        p = new(Payment)
        s0(p, round_)
        s1(p, payer)
        s2(p, payee)
        s3(p, amount)
        s4(p, reason)
        s5(p, detail)
        s6(p, multiplier)
        s7(p, base)
        return p

    return entry


entry = _entry_maker()


def net(ledger: list[Payment], seats: int) -> list[Amount]:
    """Each seat's net result: received minus paid."""
    totals: list[Amount] = [0] * seats
    for p in ledger:
        if p.payer != BANK:
            totals[p.payer] -= p.amount
        if p.payee != BANK:
            totals[p.payee] += p.amount
    return totals
