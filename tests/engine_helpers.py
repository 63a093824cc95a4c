"""Building rounds from written-down deals and playing written-down moves, for the tests."""

from __future__ import annotations

from collections.abc import Sequence

from rulekit.engine import actions as A
from rulekit.engine.ledger import Payment
from rulekit.engine.round import Round, StackedDeal
from rulekit.engine.tables import CompiledRules


def stacked(
    c: CompiledRules,
    hands: Sequence[Sequence[int]],
    field: Sequence[int],
    stock_top: Sequence[int] = (),
    restock: Sequence[int] | None = None,
) -> StackedDeal:
    """A deal from card ids; the stock is `stock_top` followed by every card not yet placed."""
    placed = [*(c for h in hands for c in h), *field, *stock_top]
    assert len(placed) == len(set(placed)), "a card is placed twice"
    rest = [i for i in c.index.ids if i not in placed]
    return StackedDeal(
        tuple(tuple(h) for h in hands),
        tuple(field),
        tuple(stock_top) + tuple(rest),
        tuple(restock) if restock is not None else None,
    )


def play(rnd: Round, moves: Sequence[tuple[int, str]]) -> None:
    """Apply moves written as (seat, 'play 61'), checking whose turn it is."""
    for seat, text in moves:
        assert rnd.current_player == seat, (
            f"{text!r}: it is seat {rnd.current_player}'s turn, not {seat}'s"
        )
        rnd.apply(A.parse(text, rnd.ix))


def payments(rnd: Round, *reasons: str) -> list[tuple[int, int, object, str]]:
    """(payer, payee, amount, reason) of the ledger, optionally only some reasons."""
    return [
        (p.payer, p.payee, p.amount, p.reason)
        for p in rnd.ledger
        if not reasons or p.reason in reasons
    ]


def as_tuples(ledger: list[Payment]) -> list[tuple[int, int, object, str, str]]:
    return [(p.payer, p.payee, p.amount, p.reason, p.detail) for p in ledger]
