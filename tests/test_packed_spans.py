"""A comparison's span comes back to the run's process packed (rulekit.sim.packed): merged into
the run's totals, it must give what merging its parts one by one gives, to the last bit and in
the same order of keys, whatever the floats (they are not always whole points: a share of a
third, a ratio) and whichever keys each part names."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.lang import load_rules
from rulekit.sim.columns import BATCHES, PER_ROUND, VariantTally
from rulekit.sim.compare import ComparePart, ComparePlan, run_parts
from rulekit.sim.packed import PackedSpan
from rulekit.stats.moments import Moments

SEATS = 2
names = st.sampled_from(["a", "b", "c", "d", "e"])


def _moments(rng: random.Random) -> Moments:
    """A count, and floats of any size and fraction (thirds, ratios: no order adds them
    exactly alike)."""
    return Moments(rng.randrange(50), rng.uniform(-1e6, 1e6), rng.uniform(0, 1e6) / 3)


@st.composite
def tallies(draw: st.DrawFn) -> VariantTally:
    """A part's tally: the keys its counters and sums name drawn, its many floats from a
    drawn seed (drawn one by one, they exceed what hypothesis draws for an example)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    floats = st.builds(lambda _: rng.uniform(-1e6, 1e6) / 7, st.none())
    return VariantTally(
        SEATS,
        rounds=draw(st.integers(0, 200)),
        voids=draw(st.integers(0, 5)),
        position=[_moments(rng) for _ in range(SEATS)],
        figures={k: _moments(rng) for k in PER_ROUND},
        batch_position=[[_moments(rng) for _ in range(SEATS)] for _ in range(BATCHES)],
        ended=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        teyaku=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        teyaku_paid=draw(st.dictionaries(names, floats)),
        yaku=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
        yaku_paid=draw(st.dictionaries(names, floats)),
        histogram=Counter(draw(st.dictionaries(st.integers(-9, 9), st.integers(1, 9)))),
        choices=Counter(draw(st.dictionaries(names, st.integers(1, 9)))),
    )


@st.composite
def diffs(draw: st.DrawFn) -> dict[str, Moments]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    return {k: _moments(rng) for k in draw(st.lists(names, unique=True))}


parts = st.builds(
    ComparePart,
    st.lists(tallies(), min_size=2, max_size=2),
    st.lists(diffs(), min_size=1, max_size=1),
)


def _fresh() -> ComparePart:
    return ComparePart([VariantTally(SEATS) for _ in range(2)], [{}])


def _same(a: ComparePart, b: ComparePart) -> None:
    assert a == b  # dataclass equality: every count and float
    for x, y in zip(a.tallies, b.tallies, strict=True):
        for field in ("ended", "teyaku", "yaku", "histogram", "choices", "teyaku_paid"):
            assert list(getattr(x, field)) == list(getattr(y, field))  # the order of keys
    assert [list(d) for d in a.diffs] == [list(d) for d in b.diffs]


@settings(deadline=None, max_examples=25)  # each example is up to 12 parts of ~500 floats
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
