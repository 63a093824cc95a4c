"""A comparison's span comes back to the run's process packed (rulekit.sim.packed): merged into
the run's totals, it must give what merging its parts one by one gives, to the last bit and in
the same order of keys, whatever the floats (they are not always whole points: a share of a
third, a ratio) and whichever keys each part names."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.lang import load_rules
from rulekit.sim.columns import BATCHES, PER_ROUND, VariantTally
from rulekit.sim.compare import ComparePart, ComparePlan, run_parts
from rulekit.sim.packed import PackedSpan
from rulekit.stats.moments import Moments

SEATS = 2
floats = st.floats(-1e6, 1e6, allow_nan=False)
moments = st.builds(Moments, st.integers(0, 50), floats, floats)
names = st.sampled_from(["a", "b", "c", "d", "e"])


@st.composite
def tallies(draw: st.DrawFn) -> VariantTally:
    return VariantTally(
        SEATS,
        rounds=draw(st.integers(0, 200)),
        voids=draw(st.integers(0, 5)),
        position=[draw(moments) for _ in range(SEATS)],
        figures={k: draw(moments) for k in PER_ROUND},
        batch_position=[[draw(moments) for _ in range(SEATS)] for _ in range(BATCHES)],
        ended=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        teyaku=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        teyaku_paid=draw(st.dictionaries(names, floats)),
        yaku=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        yaku_paid=draw(st.dictionaries(names, floats)),
        histogram=Counter(draw(st.dictionaries(st.integers(-9, 9), st.integers(1, 9)))),
        choices=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
    )


parts = st.builds(
    ComparePart,
    st.lists(tallies(), min_size=2, max_size=2),
    st.lists(st.dictionaries(names, moments), min_size=1, max_size=1),
)


def _fresh() -> ComparePart:
    return ComparePart([VariantTally(SEATS) for _ in range(2)], [{}])


def _same(a: ComparePart, b: ComparePart) -> None:
    assert a == b  # dataclass equality: every count and float
    for x, y in zip(a.tallies, b.tallies, strict=True):
        for field in ("ended", "teyaku", "yaku", "histogram", "choices", "teyaku_paid"):
            assert list(getattr(x, field)) == list(getattr(y, field))  # the order of keys
    assert [list(d) for d in a.diffs] == [list(d) for d in b.diffs]


@settings(deadline=None, max_examples=60)
@given(st.lists(st.lists(parts, min_size=1, max_size=4), min_size=1, max_size=3))
def test_a_packed_span_merges_as_its_parts_one_by_one(spans: list[list[ComparePart]]) -> None:
    one_by_one, packed = _fresh(), _fresh()
    for span in spans:
        for part in span:
            one_by_one.merge(part)
        PackedSpan.of(span).merge_into(packed)
    _same(packed, one_by_one)


def test_a_real_span_merges_as_its_parts() -> None:
    """Parts of a comparison played by the scalar engine (shares and ratios among its
    floats), packed two spans at a time."""
    rules = (load_rules("hachihachi"), load_rules("hachihachi/kirisame"))
    plan = ComparePlan(rules, 3, ("greedy", "random", "greedy"), 3, 0, engines=("scalar",) * 2)
    played = run_parts(plan, 0, 90, chunk=20)
    one_by_one, packed = _fresh_for(3), _fresh_for(3)
    for part in played:
        one_by_one.merge(part)
    for span in (played[:2], played[2:]):
        PackedSpan.of(span).merge_into(packed)
    _same(packed, one_by_one)


def _fresh_for(seats: int) -> ComparePart:
    return ComparePart([VariantTally(seats) for _ in range(2)], [{}])
