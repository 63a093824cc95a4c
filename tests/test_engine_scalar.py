"""The scalar engine's faster roads give what the plain ones give (issue 15, point 1).

Each generated or shortened piece is held to the straightforward reading it replaced: the
deal written out against the permutation sliced into hands and stock, month shapes counted in
lanes against month-by-month loops, the multiplier written tier by tier against the tier loop,
the nested guards of a table's match against each entry's own test, a new round's fields
against its prototype, and the simulation's tally from a round's state against the tally of
its RoundResult.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.cards import CardIndex
from rulekit.engine import shown as shown_module
from rulekit.engine.playout import play_deal
from rulekit.engine.round import _FRESH, Round, _prototype
from rulekit.engine.specialise import compile_pairs, dealer, permutation
from rulekit.engine.tables import (
    ChoiceTable,
    CompiledMultiplier,
    CompiledRules,
    CompiledTable,
    _Codegen,
)
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names
from rulekit.stats.tally import Tally

ALIASES = {
    "hachihachi", "koikoi", "sakura", "bakappana", "hanaawase", "minhwatu", "mushi", "gostop",
    "tensho",
}  # fmt: skip
FILES = sorted(n for n in bundled_names() if n not in ALIASES)
HANDS = st.integers(min_value=0, max_value=(1 << 48) - 1)


def _compiled(name: str) -> CompiledRules:
    return CompiledRules(load_rules(name))


COMPILED = {name: _compiled(name) for name in FILES}


# ---------------------------------------------------------------- the deal
@settings(max_examples=200, deadline=None)
@given(
    x=st.integers(min_value=0, max_value=(1 << 512) - 1),
    n=st.sampled_from([48, 49, 50]),
    seated=st.integers(min_value=1, max_value=7),
    hand=st.integers(min_value=0, max_value=8),
)
def test_the_written_out_deal_is_the_permutation_dealt(
    x: int, n: int, seated: int, hand: int
) -> None:
    if seated * hand > n:
        return
    order = permutation(n)(x)
    hands, stock, from_top = dealer(n, seated, hand)(x)
    assert hands == [sum(1 << b for b in order[s * hand : (s + 1) * hand]) for s in range(seated)]
    assert stock == order[seated * hand :][::-1]
    assert from_top == stock[::-1]


def test_a_round_deals_what_the_seed_gives() -> None:
    """The round's hands and stock are deal_order's permutation of the seed, dealt in turn."""
    from rulekit.engine.deal import deal_order

    c = COMPILED["hachihachi/fudawiki"]
    rnd = Round(c, 3, 1, seed=9, deal_no=4)
    order = deal_order("9:4", 48)
    assert rnd.initial_hands == [sum(1 << b for b in order[7 * s : 7 * s + 7]) for s in range(3)]
    assert rnd.initial_stock == order[21:]
    assert rnd.stock == order[21 + 6 :][::-1]  # the field was laid from the top


@settings(max_examples=300, deadline=None)
@given(field=HANDS)
def test_the_turn_loops_wide_pair_tables_find_the_pairs(field: int) -> None:
    """The turn loop's 16-bit pair tables give compile_pairs' answer (and the plain loop's)."""
    from rulekit.engine.specialise import _wide_pair_table

    wide = _wide_pair_table(0)[field & 0xFFFF]
    wide |= _wide_pair_table(1)[field >> 16 & 0xFFFF] | _wide_pair_table(2)[field >> 32]
    ix = COMPILED["hachihachi/fudawiki"].index
    pairs = 0
    for mm in ix.month_masks:
        if (field & mm).bit_count() == 2:
            pairs |= mm
    assert wide == compile_pairs(ix)(field) == pairs


# ---------------------------------------------------------------- month shapes in lanes
def _shapes() -> list[tuple[str, ir.Shape]]:
    out = []
    for name in FILES:
        rules = COMPILED[name].rules
        for table in (rules.teyaku, rules.yaku):
            for entry in table.entries if table else ():
                out += [(name, c) for c in ir.parts_of(entry.condition) if isinstance(c, ir.Shape)]
    return out


SHAPES = _shapes()


def _loop_shape(shape: ir.Shape, ix: CardIndex) -> Callable[[int], tuple[bool, int]]:
    """shown._shape's month-by-month reading (the one for any deck)."""
    saved = shown_module.nibble_layout
    shown_module.nibble_layout = lambda index: False
    try:
        return shown_module._shape(shape, ix)
    finally:
        shown_module.nibble_layout = saved


def test_the_bundled_files_have_month_shapes() -> None:
    assert len(SHAPES) >= 10


@settings(max_examples=300, deadline=None)
@given(hand=HANDS, which=st.integers(min_value=0))
def test_month_shapes_in_lanes_show_what_the_loops_show(hand: int, which: int) -> None:
    name, shape = SHAPES[which % len(SHAPES)]
    ix = COMPILED[name].index
    assert shown_module._shape_lanes(shape, ix)(hand) == _loop_shape(shape, ix)(hand)


@settings(max_examples=200, deadline=None)
@given(
    hand=HANDS,
    size=st.integers(min_value=1, max_value=5),
    count=st.integers(min_value=1, max_value=3),
    months=st.sets(st.integers(min_value=1, max_value=12), max_size=4),
    other=st.integers(min_value=1, max_value=4),
)
def test_every_month_size_in_lanes(
    hand: int, size: int, count: int, months: set[int], other: int
) -> None:
    """Any sizes, counts and months, beyond those the bundled files write."""
    ix = COMPILED["hachihachi/fudawiki"].index
    groups = (
        ir.ShapeGroup(size=size, count=count, months=tuple(sorted(months))),
        ir.ShapeGroup(size=other, count=1),
    )
    shape = ir.Shape(groups=groups)
    assert shown_module._shape_lanes(shape, ix)(hand) == _loop_shape(shape, ix)(hand)


# ---------------------------------------------------------------- the field multiplier
def _tier_loop(m: CompiledMultiplier, field: int) -> tuple[int, int]:
    """The multiplier read tier by tier, as before it was written out."""
    factor = carry = 1
    for (tier_factor, mask, carry_at), test in zip(m.tiers, m.tests, strict=True):
        present = (field & mask).bit_count()
        applies = test(field, None) if test is not None else present
        if applies and tier_factor > factor:
            factor = tier_factor
        if carry_at is not None and present >= carry_at and tier_factor > carry:
            carry = tier_factor
    if m.step:
        factor += m.step * (field & m.per_mask).bit_count()
    return factor, carry


@settings(max_examples=300, deadline=None)
@given(field=HANDS, which=st.sampled_from(FILES))
def test_the_written_out_multiplier_is_the_tier_loop(field: int, which: str) -> None:
    m = COMPILED[which].multiplier
    assert m.of_field(field) == _tier_loop(m, field)


# ---------------------------------------------------------------- a table's match
def _tables() -> list[tuple[str, CompiledTable]]:
    return [(name, t) for name in FILES for t in (COMPILED[name].teyaku, COMPILED[name].yaku) if t]


TABLES = _tables()


@settings(max_examples=300, deadline=None)
@given(pile=HANDS, which=st.integers(min_value=0))
def test_a_match_holds_each_entry_that_holds(pile: int, which: int) -> None:
    """The nested card-count guards skip only tests that would fail."""
    name, table = TABLES[which % len(TABLES)]
    gen = _Codegen(COMPILED[name].index)
    expected = 0
    # an owner's choice reads the pile one way: its entries as that reading writes them
    read = table.reading(pile) if isinstance(table, ChoiceTable) else table
    for i, entry in enumerate(read.entries):
        if not entry.at_count and gen.function(entry.condition)(pile, None):
            expected |= 1 << i
    assert table.match_play(pile) == expected


@settings(max_examples=200, deadline=None)
@given(pile=HANDS, hits=st.integers(min_value=0), which=st.integers(min_value=0))
def test_counted_value_is_the_sum_of_the_values(pile: int, hits: int, which: int) -> None:
    _, table = TABLES[which % len(TABLES)]
    hits &= (1 << len(table.entries)) - 1
    counted, value = table.counted_value(hits, pile)
    assert counted == table.counted(hits, pile)
    assert value == sum(table.value(i, pile) for i in counted)
    assert type(value) is type(sum(table.value(i, pile) for i in counted))


# ---------------------------------------------------------------- a new round's fields
@pytest.mark.parametrize(("name", "seats"), [("hachihachi/fudawiki", 4), ("koikoi/sloper", 2)])
def test_a_new_rounds_fields_are_its_prototypes_in_fresh_containers(name: str, seats: int) -> None:
    make = _prototype(COMPILED[name], seats)
    a, b = make(), make()
    assert list(a) == list(b) and a == b
    for key in _FRESH:
        if a[key] is not None:
            assert a[key] is not b[key], key  # each round its own list or dict
    for key in ("c", "rules", "ix", "months"):
        assert a[key] is b[key]


# ---------------------------------------------------------------- the tally
@pytest.mark.parametrize(
    ("name", "seats"),
    [
        ("hachihachi/fudawiki", 3),
        ("hachihachi/kirisame", 3),
        ("hachihachi/wikipedia-draft", 4),
        ("koikoi/sloper", 2),
        ("sakura/hawaii", 3),
        ("sakura/round-wins", 2),
    ],
)
def test_the_tally_of_a_rounds_state_is_the_tally_of_its_result(name: str, seats: int) -> None:
    c = COMPILED[name]
    agents = [make_agent("random") for _ in range(seats)]
    from_state, from_result = Tally(seats), Tally(seats)
    for i in range(60):
        rnd, result, voids = play_deal(c, seats, i, agents, seed=11)
        from_state.voids += voids
        from_state.add_played(rnd)
        from_result.voids += voids
        from_result.add_round(result)
        from_result.add_unit(result.net, result.winners)
    assert from_state == from_result
    assert list(from_state.teyaku.most_common()) == list(from_result.teyaku.most_common())
    assert list(from_state.yaku.most_common()) == list(from_result.yaku.most_common())


def test_the_tally_keeps_fractions_apart() -> None:
    """A half-point net goes to the fraction sums, as add_unit puts it."""

    class Paid:
        payer, payee, amount = 0, 1, Fraction(1, 2)

    rnd = Round(COMPILED["koikoi/sloper"], 2, 0, seed=1)
    rnd.ledger = [Paid()]  # type: ignore[list-item]
    t, u = Tally(2), Tally(2)
    t.add_played(rnd)
    u.add_unit([Fraction(-1, 2), Fraction(1, 2)], [])
    assert t.fraction_sums == u.fraction_sums and t.int_sums == u.int_sums
