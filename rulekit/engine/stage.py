"""The scoring stage: the rule file's factor steps applied to payments as the ledger writes
them, and its award steps at the round's end.

Conditions of a step are tested for the payee of the payment through CONDITIONS, a dispatch
table keyed by IR condition types (the round's number, the dealer, continues, the payment's
score, a round nobody won, and their combinations); a test checks every type it names.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit import ir
from rulekit.engine.ledger import Amount

if TYPE_CHECKING:
    from rulekit.engine.state import RoundState

OPS: dict[str, Callable[[Amount, Amount], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "=": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}

# a payment's reason -> the kind of payment a factor names (`on yaku`, `on teyaku`, ...)
KINDS = {
    "yaku": "yaku",
    "special": "yaku",
    "liability": "yaku",
    "penalty": "yaku",
    "teyaku": "teyaku",
    "count": "count",
}


class Context:
    """What a step's condition may ask: the round, the seat tested, the payment's score."""

    def __init__(self, r: RoundState, seat: int, score: Amount, ended: bool) -> None:
        self.r = r
        self.seat = seat
        self.score = score
        self.ended = ended


def _continued(c: ir.Continued, x: Context) -> bool:
    counts = x.r.continues
    if c.who == "self":
        return OPS[c.op](counts[x.seat], c.n)
    return any(OPS[c.op](counts[q], c.n) for q in x.r.order if q != x.seat)


CONDITIONS: dict[type, Callable[..., bool]] = {
    ir.ScoreCmp: lambda c, x: OPS[c.op](x.score, c.n),
    ir.RoundCmp: lambda c, x: OPS[c.op](x.r.round_no + 1, c.n),
    ir.IsDealer: lambda c, x: x.seat == x.r.order[0],
    ir.Continued: _continued,
    ir.NobodyWon: lambda c, x: x.ended and x.r.winner is None,
    ir.And: lambda c, x: all(holds(i, x) for i in c.items),
    ir.Or: lambda c, x: any(holds(i, x) for i in c.items),
    ir.Not: lambda c, x: not holds(c.item, x),
}


def holds(c: ir.Condition | None, x: Context) -> bool:
    if c is None:
        return True
    test = CONDITIONS.get(type(c))
    if test is None:
        raise NotImplementedError(f"a scoring step cannot test {c.kind} yet")
    return test(c, x)


def factor(r: RoundState, payee: int, reason: str, score: Amount) -> int:
    """The product of the factors whose kind and condition fit this payment (1: none)."""
    kind = KINDS.get(reason)
    result = 1
    for step in r.rules.scoring:
        if not isinstance(step, ir.Factor) or step.on not in ("all", kind):
            continue
        if holds(step.condition, Context(r, payee, score, ended=False)):
            result *= step.factor
    return result


def awards(r: RoundState) -> None:
    """The award steps, once the round's winner is final: to the dealer (who leads in his
    place when he sits out) or the winner, from each other player or split between them."""
    from rulekit.engine import ledger

    for step in r.rules.scoring:
        if not isinstance(step, ir.Award):
            continue
        payee = r.order[0] if step.payee == "dealer" else r.winner
        if payee is None or not holds(step.condition, Context(r, payee, step.value, ended=True)):
            continue
        others = [q for q in r.order if q != payee]
        mult = r.multiplier if step.multiplied else 1
        amount = step.value * mult
        each = ledger.share(amount, len(others)) if step.split else amount
        for q in others:
            ledger.record(r, q, payee, each, "award", step.name, mult, step.value)
