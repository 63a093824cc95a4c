"""The yaku and teyaku matches (engine/tables.py, packed counts where an entry only counts
cards) against a plain reading of each condition, for every entry of every bundled file and for
made-up tables of counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import ir
from rulekit.cards import CardIndex, bits
from rulekit.engine.tables import PACK_STATES, ChoiceTable, CompiledRules, CompiledTable, Packed
from rulekit.hands import compare
from rulekit.lang import load_rules

RULES = Path(__file__).resolve().parents[1] / "rules"
FILES = sorted(p for p in RULES.glob("**/*.rk") if p.parent.name != "common")
COMPILED = {p.relative_to(RULES).as_posix(): CompiledRules(load_rules(p)) for p in FILES}
DECK = 48  # every bundled deck's cards


def _month_counts(x: int, ix: CardIndex) -> list[int]:
    return [(x & m).bit_count() for m in ix.month_masks]


def _shape_holds(shape: ir.Shape, x: int, ix: CardIndex) -> bool:
    """Some distinct months, one set per group unit, each holding exactly its size."""
    counts = _month_counts(x, ix)
    units = [g for g in shape.groups for _ in range(g.count)]

    def place(k: int, used: frozenset[int]) -> bool:
        if k == len(units):
            return True
        g = units[k]
        allowed = g.months or ix.months
        return any(
            counts[i] == g.size and i not in used and place(k + 1, used | {i})
            for i, m in enumerate(ix.months)
            if m in allowed
        )

    return place(0, frozenset())


def plain(c: ir.Condition, x: int, ix: CardIndex) -> bool | None:
    """The condition read as the rules say, for the pile `x` (None: it asks about the round)."""
    if isinstance(c, ir.AllOf):
        return all(x >> ix.bit[cid] & 1 for cid in c.cards)
    if isinstance(c, ir.AnyOf):
        return any(x >> ix.bit[cid] & 1 for cid in c.cards)
    if isinstance(c, ir.Count):
        return compare(c.op, sum(x >> ix.bit[cid] & 1 for cid in set(c.cards)), c.n)
    if isinstance(c, ir.Shape):
        return _shape_holds(c, x, ix)
    if isinstance(c, ir.PointsCmp):
        return compare(c.op, sum(ix.points_of_bit[b] for b in bits(x)), c.n)
    if isinstance(c, ir.And | ir.Or):
        parts = [plain(i, x, ix) for i in c.items]
        if None in parts:
            return None
        return all(parts) if isinstance(c, ir.And) else any(parts)
    if isinstance(c, ir.Not):
        inner = plain(c.item, x, ix)
        return None if inner is None else not inner
    return None


def _tables() -> list[tuple[str, str]]:
    return [
        (name, kind)
        for name, c in COMPILED.items()
        for kind in ("yaku", "teyaku")
        if getattr(c, kind) is not None
    ]


def _check(table: CompiledTable, ix: CardIndex, x: int) -> None:
    got = table.hits(x, None, at_count=True)
    # an owner's choice reads the pile one way: its entries as that reading writes them
    read = table.reading(x) if isinstance(table, ChoiceTable) else table
    for i, entry in enumerate(read.entries):
        want = plain(entry.condition, x, ix)
        if want is not None:
            assert bool(got >> i & 1) == want, (entry.name, bin(x))


piles = st.sets(st.integers(0, DECK - 1), max_size=DECK).map(lambda s: sum(1 << b for b in s))
small_piles = st.sets(st.integers(0, DECK - 1), max_size=12).map(lambda s: sum(1 << b for b in s))


@pytest.mark.parametrize(("name", "kind"), _tables())
@settings(max_examples=60, deadline=None)  # per table of every bundled file: many tables
@given(x=st.one_of(piles, small_piles))
def test_every_bundled_entry_reads_as_written(name: str, kind: str, x: int) -> None:
    c = COMPILED[name]
    table = getattr(c, kind)
    _check(table, c.index, x)


def test_koikoi_yaku_are_packed() -> None:
    """The bundled yaku tables are read from packed counts (the point of Packed)."""
    table = COMPILED["koikoi/sloper.rk"].yaku
    assert table is not None
    assert "_Q" in "\n".join(table.match_play_inline[0])


IX = COMPILED["koikoi/sloper.rk"].index
# the made-up entries count among a few cards, so that the piles drawn hold any number of them
POOL = IX.ids[:10]
CARD_IDS = st.lists(st.sampled_from(POOL), min_size=1, max_size=6, unique=True).map(tuple)
pool_piles = st.sets(st.integers(0, len(POOL) - 1)).map(lambda s: sum(1 << b for b in s))
OPS = st.sampled_from([">=", "<=", "=", "!=", ">", "<"])
leaf = st.one_of(
    st.builds(ir.AllOf, cards=CARD_IDS),
    st.builds(ir.AnyOf, cards=CARD_IDS),
    st.builds(ir.Count, cards=CARD_IDS, op=OPS, n=st.integers(0, 7)),
)
conditions = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.builds(ir.And, items=st.lists(inner, min_size=1, max_size=3).map(tuple)),
        st.builds(ir.Or, items=st.lists(inner, min_size=1, max_size=3).map(tuple)),
        st.builds(ir.Not, item=inner),
    ),
    max_leaves=5,
)


def _table(conds: list[ir.Condition], **kw: Any) -> CompiledTable:
    entries = tuple(
        ir.Yaku(name=f"e{i}", label=f"e{i}", value=1, condition=c, **kw)
        for i, c in enumerate(conds)
    )
    return CompiledTable(ir.YakuTable(policy="all", entries=entries), IX)


@settings(max_examples=200, deadline=None)
@given(
    conds=st.lists(conditions, min_size=1, max_size=4),
    xs=st.lists(st.one_of(pool_piles, piles), min_size=1, max_size=8),
)
def test_made_up_counts_read_as_written(conds: list[ir.Condition], xs: list[int]) -> None:
    """Any `and`, `or`, `not` of counts with any operator and bound (some always or never
    true), at the turn and at the count: the same hits as the plain reading."""
    states = Packed.states(IX, conds)
    assert states is not None
    for at_count in (False, True):
        table = _table(conds, at_count=at_count)
        for x in xs:
            _check(table, IX, x)
    if states <= PACK_STATES:
        assert "_Q" in "\n".join(_table(conds).match_play_inline[0])


def test_too_many_states_are_tested_one_by_one() -> None:
    """A table whose counts give more states than PACK_STATES keeps its tests one by one."""
    ids = IX.ids
    conds: list[ir.Condition] = [
        ir.Count(cards=(ids[2 * k], ids[2 * k + 1]), op=">=", n=1) for k in range(16)
    ]
    states = Packed.states(IX, conds)
    assert states is not None and states > PACK_STATES
    table = _table(conds)
    assert "_Q" not in "\n".join(table.match_play_inline[0])
    assert table.match_play(1 << 2) == 2
