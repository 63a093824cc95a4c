"""The round's end on its shorter roads: a payment built through its slots, pay_parts without
factors written in, the yaku paid when stopping (values read only where a payment needs them),
and run_part's loop of single rounds: each holds to what the longer road gives."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.agents import make_agent
from rulekit.engine import ledger
from rulekit.engine.ledger import Payment, entry
from rulekit.engine.playout import play_deal_out
from rulekit.lang import load_rules
from rulekit.sim.simulate import Plan, compiled_rules, run_part
from rulekit.stats.tally import Tally

amounts = st.one_of(
    st.integers(-500, 500), st.fractions(min_value=-50, max_value=50, max_denominator=4)
)


@given(
    st.tuples(
        st.integers(0, 10**6),
        st.integers(-1, 6),
        st.integers(-1, 6),
        amounts,
        st.text(max_size=12),
        st.text(max_size=12),
        st.integers(1, 32),
        amounts,
    )
)
def test_an_entry_is_the_payment_the_dataclass_builds(fields: tuple[Any, ...]) -> None:
    built = entry(*fields)
    expected = Payment(*fields)
    assert type(built) is Payment
    assert built == expected and hash(built) == hash(expected)
    assert dataclasses.astuple(built) == dataclasses.astuple(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.amount = 0  # type: ignore[misc]


def _round(multiplier: int) -> Any:
    """The parts of a round state that the ledger reads, with no scoring factor."""
    return SimpleNamespace(
        c=SimpleNamespace(factors=[], any_factor=False),
        multiplier=multiplier,
        ledger=[],
        round_no=7,
    )


@settings(max_examples=200)
@given(
    st.lists(st.integers(0, 3), max_size=5),
    st.integers(0, 3),
    st.integers(0, 40),
    st.integers(0, 40),
    st.booleans(),
    st.integers(1, 6),
)
def test_pay_parts_without_factors_writes_what_pay_writes(
    payers: list[int], payee: int, base: int, flat: int, split: bool, multiplier: int
) -> None:
    """The same entries as pay() for each payer (nothing to himself, nothing of 0)."""
    flat = min(flat, base)
    fast = _round(multiplier)
    ledger.pay_parts(fast, payers, payee, base, flat, "yaku", "d", split)
    slow = _round(multiplier)
    others = [q for q in payers if q != payee]
    field, each_flat = base - flat, flat
    if split and others:
        field, each_flat = ledger.share(field, len(others)), ledger.share(flat, len(others))
    for q in others:
        ledger.pay(slow, q, payee, field, "yaku", "d")
        if each_flat:
            ledger.pay(slow, q, payee, each_flat, "yaku", "d", flat=True)
    assert fast.ledger == slow.ledger
    assert all(p.amount for p in fast.ledger)
    if split and others and base % len(others):
        assert any(isinstance(p.base, Fraction) for p in fast.ledger)


@pytest.mark.parametrize(
    ("name", "seats"),
    [("koikoi/sloper", 2), ("hachihachi/fudawiki", 3), ("sakura/hawaii", 3)],
)
def test_run_part_plays_and_counts_the_rounds_one_by_one(name: str, seats: int) -> None:
    """run_part's loop of single rounds tallies what a round-by-round loop tallies."""
    rules = load_rules(name)
    plan = Plan(rules, seats, ("random",) * seats, 5, games=False)
    got = run_part(plan, 10, 70)
    c = compiled_rules(rules)
    agents = [make_agent("random") for _ in range(seats)]
    want = Tally(seats)
    for i in range(10, 70):
        rnd, voids = play_deal_out(c, seats, i, agents, seed=5)
        want.voids += voids
        want.add_played(rnd)
    assert got == want
    assert got.rounds == 60 and sum(got.wins) > 0


def test_a_stop_pays_every_yaku_made_once() -> None:
    """Koi-Koi: a stopper is paid what he made (times his continues and the field) by the
    other player, in one payment naming his yaku; the stake is what was paid."""
    c = compiled_rules(load_rules("koikoi/sloper"))
    agents = [make_agent("random") for _ in range(2)]
    stops = 0
    for i in range(80):
        rnd, _ = play_deal_out(c, 2, i, agents, seed=3)
        if rnd.ended_by != "yaku":
            continue
        stops += 1
        (paid,) = [p for p in rnd.ledger if p.reason == "yaku"]
        w = rnd.winner
        assert w is not None and paid.payee == w and paid.payer == 1 - w
        assert paid.base == rnd.made_value[w] * (rnd.continues[w] + 1)
        assert paid.amount == paid.base * rnd.multiplier
        assert paid.detail.split(", ") == rnd.yaku_made[w]
        assert rnd.stake[w] == paid.base
    assert stops > 10
