"""The round's start, made faster, does what the plain code did: the deal's permutation, the
setup plan (steps that do nothing left out), the teyaku payments written straight to the
ledger, the cards shown for a teyaku, the folded hands' cards."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import ir
from rulekit.cards import CardIndex, bits
from rulekit.engine import actions as A
from rulekit.engine import deal, ledger, setup, specialise
from rulekit.engine import tables as engine_tables
from rulekit.engine.round import FOLD, SWAP, Round, _prototype
from rulekit.engine.shown import compile_shown
from rulekit.engine.state import RoundState
from rulekit.engine.tables import CompiledRules, _Codegen
from rulekit.hands import compare
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names

TABLES = [
    ("hachihachi/fudawiki", 3),
    ("hachihachi/fudawiki", 4),
    ("hachihachi/wikipedia-draft", 7),
    ("hachihachi/kirisame", 3),
    ("hachihachi/two-player", 2),
    ("koikoi/sloper", 2),
    ("sakura/hawaii", 3),
]
# read only for the whole round
SHARED = {f.name for f in fields(RoundState) if f.metadata.get("shared")}
COMPILED = {name: CompiledRules(load_rules(name)) for name in {n for n, _ in TABLES}}


def _reference_permutation(n: int, x: int) -> list[int]:
    items, out = list(range(n)), []
    for d in range(n, 0, -1):
        x, i = divmod(x, d)
        out.append(items.pop(i))
    return out


@settings(max_examples=300, deadline=None)
@given(n=st.integers(min_value=0, max_value=98), x=st.integers(0, (1 << 512) - 1))
def test_the_permutation_is_the_factorial_base_reading(n: int, x: int) -> None:
    assert specialise.permutation(n)(x) == _reference_permutation(n, x)


@settings(max_examples=200, deadline=None)
@given(mask=st.integers(min_value=0, max_value=(1 << 49) - 1))
def test_card_bits_are_the_bits(mask: int) -> None:
    assert specialise.card_bits(49)(mask) == bits(mask)


# ---------------------------------------------------------------- the cards shown
def _reference_shown(cond: ir.Condition, ix: CardIndex, h: int) -> tuple[bool, int]:
    """compile_shown's reading, written plainly (every item of a junction asked)."""
    if isinstance(cond, ir.Count):
        m = ix.mask(cond.cards)
        return (True, h & m) if compare(cond.op, (h & m).bit_count(), cond.n) else (False, 0)
    if isinstance(cond, ir.And | ir.Or):
        results = [_reference_shown(i, ix, h) for i in cond.items]
        held = [r[0] for r in results]
        if not (all(held) if isinstance(cond, ir.And) else any(held)):
            return False, 0
        cards = 0
        for _, c in results:
            cards |= c
        return True, cards
    return compile_shown(cond, ix)(h)  # the other kinds are unchanged


@pytest.mark.parametrize("name", sorted(COMPILED))
@settings(max_examples=60, deadline=None)
@given(picks=st.lists(st.integers(0, 47), min_size=6, max_size=10, unique=True))
def test_the_cards_shown_are_the_plain_readings(name: str, picks: list[int]) -> None:
    c = COMPILED[name]
    if c.rules.teyaku is None:
        return
    hand = sum(1 << b for b in picks)
    for e in c.rules.teyaku.entries:
        assert compile_shown(e.condition, c.index)(hand) == _reference_shown(
            e.condition, c.index, hand
        ), e.name


# ---------------------------------------------------------------- whole starts
def _started(name: str, seats: int, deals: int) -> list[dict[str, Any]]:
    """Each deal's round, its setup choices made (a swap, join or fold by the deal's number),
    as its fields (the shared ones left out: the deal's own are compared through the rest)."""
    c = COMPILED[name]
    out = []
    for i in range(deals):
        r = Round(c, seats, i % seats, seed=3, deal_no=i)
        k = 0
        while r.phase in (SWAP, FOLD):
            if r.phase == SWAP:
                r.apply(A.SWAP if (i + k) % 2 else A.KEEP)
            else:
                r.apply(A.JOIN if (7 * i + k) % 3 else A.FOLD)
            k += 1
        out.append({k: v for k, v in r.__dict__.items() if k not in SHARED})
    return out


def _every_step(r: RoundState) -> tuple[tuple[int, Any], ...]:
    return tuple(enumerate(setup.STEPS[name] for name in r.steps))


def _pay_parts_only(r: RoundState) -> None:
    """pay_teyaku as it was: every teyaku through ledger.pay_parts."""
    table = r.c.teyaku
    assert table is not None
    for s, payers, value, flat, name in r.pending_teyaku:
        ledger.pay_parts(r, list(payers), s, value, flat, "teyaku", name, table.split)
    r.pending_teyaku.clear()


@pytest.mark.parametrize(("name", "seats"), TABLES)
def test_the_plan_and_the_direct_payments_start_the_rounds_the_plain_way(
    name: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every step run (none left out) and every teyaku paid through ledger.pay_parts: the
    same rounds, field for field."""
    fast = _started(name, seats, 60)
    COMPILED[name].round_prototypes.clear()
    monkeypatch.setattr(setup, "setup_plan", _every_step)
    monkeypatch.setattr(setup, "pay_teyaku", _pay_parts_only)
    monkeypatch.setattr(deal, "pay_teyaku", _pay_parts_only)
    try:
        plain = _started(name, seats, 60)
    finally:
        COMPILED[name].round_prototypes.clear()
    assert fast == plain
    if name.startswith("hachihachi"):  # the test sees teyaku paid
        assert any(p.reason == "teyaku" for f in fast for p in f["ledger"])


def test_a_rounds_fields_are_its_own_and_its_deals() -> None:
    c = COMPILED["koikoi/sloper"]
    a = Round(c, 2, 1, seed="s", deal_no=4, round_no=7, carry=2)
    b = Round(c, 2, 1, seed="s", deal_no=4, round_no=7, carry=2)
    for key in RoundState._LISTS + RoundState._DICTS + RoundState._DICTS_OF_LISTS:
        if a.__dict__[key] is not None:
            assert a.__dict__[key] is not b.__dict__[key], key
    assert (a.dealer, a.round_no, a.carry_in, a._setup_seed) == (1, 7, 2, "s:4:setup")
    assert (a.stacked, a.next_dealer) == (None, 1)
    assert list(a.__dict__) == list(_prototype(c, 2)())  # the fields in the dataclass's order
    x = int.from_bytes(hashlib.sha512(b"s:4").digest(), "big")
    order = specialise.permutation(48)(x)
    assert a.initial_hands == [sum(1 << b for b in order[8 * s : 8 * s + 8]) for s in (0, 1)]


# ---------------------------------------------------------------- a month shape's lanes
@functools.cache
def _compiled(name: str) -> CompiledRules:
    return COMPILED.get(name) or CompiledRules(load_rules(name))


@pytest.mark.parametrize("name", [n for n in bundled_names() if "/" in n])
@settings(max_examples=20, deadline=None)  # x 30 files: the conditions of every file
@given(picks=st.lists(st.integers(0, 47), min_size=0, max_size=24, unique=True))
def test_month_lanes_count_as_the_months_do(name: str, picks: list[int]) -> None:
    """A condition compiled on month lanes (`c`) holds where the one compiled on month counts
    (`mc`) does, for every condition of every bundled file that sees only the cards."""
    c = _compiled(name)
    if not specialise.nibble_layout(c.index):
        return
    pile = sum(1 << b for b in picks) & c.index.full
    tables = [t for t in (c.rules.teyaku, c.rules.yaku) if t is not None]
    for e in (e for t in tables for e in t.entries):
        on_lanes = _Codegen(c.index).function(e.condition)
        with pytest.MonkeyPatch.context() as mp:  # the deck read as any layout: month counts
            mp.setattr(engine_tables, "nibble_layout", lambda index: False)
            on_counts = _Codegen(c.index).function(e.condition)
        assert on_lanes(pile) == on_counts(pile), e.name
