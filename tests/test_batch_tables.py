"""The batch tables (rulekit/batch/tables.py) answer as the scalar engine's compiled tables do.

Every bundled rule file, every table the batch tables serve: seeded random masks of every size,
hands and fields of the deal's sizes, month-heavy masks and masks built from the entries' own
cards, compared with CompiledTable, CompiledMultiplier, the void field and the instant wins
(those that ask about the round with random rounds as a player sees them); and random
conditions (hypothesis), the round's among them, compared with the scalar's generated code.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from rulekit import ir
from rulekit.batch import tables as bt
from rulekit.batch.bits import low_bit, popcount
from rulekit.cards import CardIndex
from rulekit.engine.scoring import _CountContext
from rulekit.engine.shown import compile_shown
from rulekit.engine.tables import (
    CompiledMultiplier,
    CompiledRules,
    CompiledTable,
    _Codegen,
    referenced_cards,
)
from rulekit.lang import load_rules

RULES = Path(__file__).resolve().parents[1] / "rules"
FILES = sorted(RULES.rglob("*.rk"))
NO_PILES = np.zeros(0, dtype=np.int64)
# hypothesis warns that the card strategies' reprs are long (the deck's ids, inlined)
pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
ROUND_KINDS = (
    ir.RoundCmp,
    ir.RoundMonth,
    ir.IsDealer,
    ir.SeatFromDealer,
    ir.Continued,
    ir.ScoreCmp,
    ir.OnField,
    ir.PayerHas,
    ir.NobodyWon,
    ir.DrawnBefore,
    ir.Declared,
)


@dataclass
class Ctx:
    """A count context with piles only (a condition asking what was dealt is not served)."""

    piles: list[int] = field(default_factory=list)

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool:
        raise AssertionError("a served table never asks what was dealt")


def count_context(c: CompiledRules, piles: list[int], hand: int) -> tuple[Any, np.ndarray]:
    """The scalar's own count context (scoring._CountContext) for a player dealt `hand`, with
    the teyaku that hand counts; and the batch tables' piles array saying the same."""
    counted = c.teyaku.counted(c.teyaku.match_play(hand), hand) if c.teyaku else ()
    r = SimpleNamespace(
        c=c,
        dealt_hands={0: hand},
        teyaku_counted={0: counted},
        captured=list(piles),
        order=list(range(len(piles))),
    )
    ctx = object.__new__(_CountContext)
    ctx.r, ctx.seat, ctx.sees_round = r, 0, False  # (its piles: the captured piles in order)
    arr = np.zeros(bt.DEALT_SLOT + 2, dtype=np.int64)
    arr[: len(piles)] = piles
    arr[bt.DEALT_SLOT] = sum(1 << i for i in counted)
    arr[bt.DEALT_SLOT + 1] = hand
    return ctx, arr


@dataclass
class RoundCtx:
    """What a condition that sees the round reads (engine.context.RoundView's fields), as the
    scalar's generated code reads it; `everyone` reads the piles (a served round condition
    never asks what was dealt here: dealt_holds is the count context's, tested above)."""

    piles: list[int]
    round: int = 1
    month_mask: int = 0
    is_dealer: bool = False
    place: int = 0  # his place in play order from the dealer (`second`, `third`)
    continued: int = 0
    opponent_continued: int = 0
    score: Any = 0
    field_at_deal: int = 0
    nobody_won: bool = False
    draws_before: int = 0
    payer: int = -1  # a scoring factor's payer's pile (-1: none)
    declared: bool = False  # the rule file's declaration was made (`declared NAME`)

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool:
        raise AssertionError("not asked here")

    def array(self, scale: int) -> np.ndarray:
        """The VM's context saying the same (batch/tables.py's CTX_ slots; scores scaled)."""
        arr = np.zeros(bt.CTX_WORDS, dtype=np.int64)
        arr[: len(self.piles)] = self.piles
        for slot, value in (
            (bt.CTX_ROUND, self.round),
            (bt.CTX_MONTH, self.month_mask),
            (bt.CTX_DEALER, self.is_dealer),
            (bt.CTX_CONTINUED, self.continued),
            (bt.CTX_CONTINUED + 1, self.opponent_continued),
            (bt.CTX_SCORE, self.score * scale),
            (bt.CTX_SCALE, scale),
            (bt.CTX_FIELD, self.field_at_deal),
            (bt.CTX_NOBODY_WON, self.nobody_won),
            (bt.CTX_DRAWS, self.draws_before),
            (bt.CTX_PAYER, self.payer),
            (bt.CTX_PLACE, self.place),
            (bt.CTX_DECLARED, self.declared),
        ):
            arr[slot] = int(value)
        return arr


def random_round(ix: CardIndex, piles: list[int], rng: random.Random) -> RoundCtx:
    """A round as some player sees it: any number, month, role, continues, score, field."""
    number = rng.randrange(14)
    return RoundCtx(
        piles=piles,
        round=number + 1,
        month_mask=ix.month_masks[number % len(ix.month_masks)],
        is_dealer=rng.random() < 0.5,
        place=rng.randrange(5),
        continued=rng.randrange(4),
        opponent_continued=rng.randrange(4),
        score=rng.choice((0, 1, 3, 5, 7, 12, 40, Fraction(7, 2))),
        field_at_deal=rng.getrandbits(len(ix.ids)) & rng.getrandbits(len(ix.ids)),
        nobody_won=rng.random() < 0.5,
        draws_before=rng.randrange(4),
        payer=rng.choice((-1, rng.getrandbits(len(ix.ids)))),
        declared=rng.random() < 0.5,
    )


_compiled: dict[Path, CompiledRules] = {}


def compiled(path: Path) -> CompiledRules:
    if path not in _compiled:
        _compiled[path] = CompiledRules(load_rules(path))
    return _compiled[path]


def asks_round(cond: ir.Condition) -> bool:
    return any(isinstance(c, ROUND_KINDS) for c in ir.parts_of(cond))


def conditions(c: CompiledRules) -> Iterator[ir.Condition]:
    rules = c.rules
    for table in (rules.teyaku, rules.yaku):
        for e in table.entries if table else ():
            yield e.condition
    yield from (t.condition for t in rules.multiplier.tiers if t.condition is not None)
    if rules.void_field is not None:
        yield rules.void_field
    if rules.void_hand is not None:
        yield rules.void_hand
    if rules.draw_at_count is not None:
        yield rules.draw_at_count
    yield from (w.condition for w in rules.instant_wins)
    yield from (s.condition for s in rules.scoring if s.condition is not None)


def masks(c: CompiledRules, rng: random.Random, n: int) -> Iterator[int]:
    """Masks of every kind: any size, the deal's hand and field sizes, month-heavy, and cards
    of one or two entries (so that entries hit) with a few others."""
    ix = c.index
    nbits = len(ix.ids)
    sizes = [d.hand for d in c.rules.deal] + [d.field for d in c.rules.deal]
    entry_cards = [
        ix.mask(referenced_cards(e.condition))
        for t in (c.rules.teyaku, c.rules.yaku)
        if t
        for e in t.entries
    ]

    def sample(k: int) -> int:
        return sum(1 << b for b in rng.sample(range(nbits), min(k, nbits)))

    for j in range(n):
        kind = j % 4
        if kind == 0:
            yield sample(rng.randint(0, nbits))
        elif kind == 1:
            yield sample(rng.choice(sizes))
        elif kind == 2:
            x = 0
            for mm in rng.sample(ix.month_masks, rng.randint(1, 5)):
                bits = [b for b in range(nbits) if mm >> b & 1]
                # (a month of one card: Tensho's paulownia, its three plains left out)
                least = min(2, len(bits))
                x |= sum(1 << b for b in rng.sample(bits, rng.randint(least, len(bits))))
            yield x | sample(rng.randint(0, 3))
        else:
            x = 0
            for cards in rng.sample(entry_cards, min(2, len(entry_cards))):
                x |= cards if rng.random() < 0.7 else cards & sample(nbits // 2)
            yield x | sample(rng.randint(0, 8))


def piles_with(x: int, rng: random.Random, nbits: int) -> list[int]:
    """2 to 4 disjoint piles in play order, one of them `x` (the player counted)."""
    rest = [b for b in range(nbits) if not x >> b & 1]
    rng.shuffle(rest)
    others = [0] * rng.randint(1, 3)
    for b in rest[: rng.randint(0, len(rest))]:
        others[rng.randrange(len(others))] |= 1 << b
    others.insert(rng.randint(0, len(others)), x)
    return others


def check_table(c: CompiledRules, table: CompiledTable, rng: random.Random) -> None:
    tab = bt.table_arrays(table, c.index, c.rules.teyaku)
    hand_size = c.rules.deal[0].hand
    n = len(table.entries)
    out = np.zeros(64, dtype=np.int64)
    for x in masks(c, rng, 300):
        play = bt.match(tab, x, False, NO_PILES, 0)
        assert play == table.match_play(x), (table.names, bin(x))
        assert bt.match(tab, x, True, NO_PILES, 0) == table.match_count(x, None)
        piles = piles_with(x, rng, len(c.index.ids))
        # a dealt hand: often one that made its cards' months whole, so `captured dealt` holds
        dealt = sum(1 << b for b in rng.sample(range(len(c.index.ids)), hand_size))
        if rng.random() < 0.5:
            dealt = (dealt & ~x) | (x & dealt) | (x & rng.getrandbits(len(c.index.ids)))
        ctx, arr = count_context(c, piles, dealt)
        count = bt.match(tab, x, True, arr, len(piles))
        if table.sees_round:  # as a player sees the round (RoundView): its tests read it
            view = random_round(c.index, piles, rng)
            varr = view.array(12)
            play = bt.match(tab, x, False, varr, len(piles))
            assert play == table.match_play(x, view), (table.names, bin(x), view)
            count = bt.match(tab, x, True, varr, len(piles))
            assert count == table.match_count(x, view), (table.names, bin(x), view)
        else:
            assert count == table.match_count(x, ctx), (table.names, bin(x), piles)
            assert bt.match(tab, x, False, arr, len(piles)) == table.match_play(x, ctx)
        for i in range(n):
            assert bt.value(tab, i, x) == table.value(i, x)
        for hits in (play | count, rng.getrandbits(n) if n else 0):
            k = bt.counted(tab, hits, x, out)
            assert tuple(out[:k]) == table.counted(hits, x), (table.names, hits, bin(x))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(RULES)))
def test_rule_file_tables(path: Path) -> None:
    """Each table, the multiplier, the void field, the instant wins, the card points and the
    scoring steps' conditions as the scalar's: without a round (a condition that asks about it
    is then false) and with random rounds as a player sees them."""
    c = compiled(path)
    rng = random.Random(str(path.relative_to(RULES)))
    assert bt.unsupported(c) is None
    for table in (c.teyaku, c.yaku):
        if table is not None:
            check_table(c, table, rng)
    arrays = bt.batch_tables(c)
    ix = c.index
    void_test = c.void_field
    instant_tests = [test for _, test in c.instant_wins]
    for x in masks(c, rng, 300):
        piles = piles_with(x, rng, len(ix.ids))
        view = random_round(ix, piles, rng)
        varr = view.array(12)
        for ctx, arr, n in ((None, NO_PILES, 0), (view, varr, len(piles))):
            got = bt.field_multiplier(arrays.multiplier, x, arr, n)
            assert got == c.multiplier.of_field(x, ctx), (bin(x), ctx)
            void = bool(void_test(x, ctx)) if void_test is not None else False
            assert bt.holds(arrays.void, 0, x, arr, n) == void, (bin(x), ctx)
            first = next((w for w, test in enumerate(instant_tests) if test(x, ctx)), -1)
            assert bt.first_instant_win(arrays.instant, x, arr, n) == first, (bin(x), ctx)
        assert bt.points(arrays.points, 0, x) == ix.points(x)
        steps = [test for _, test in c.scoring]
        hits = bt.match(arrays.stage_conditions, x, False, varr, len(piles))
        if arrays.stage_conditions[bt.T_SECOND]:  # the owner's choice: x read as its yaku read it
            k = 2 if bt.readings(arrays.yaku, x) == 2 else 0
            hits = bt.match_reading(arrays.stage_conditions, k, x, varr, len(piles))
        for i, test in enumerate(steps):
            want = True if test is None else bool(test(x, view))
            assert bool(hits >> i & 1) == want, (i, bin(x), view)
    for w, (win, _) in enumerate(c.instant_wins):
        assert bt.instant_value(arrays.instant, w) == win.value


def test_every_file_is_served() -> None:
    """The batch tables hold every condition of every bundled file (the round's too)."""
    assert not [p for p in FILES if bt.unsupported(compiled(p))]
    asking = [p for p in FILES if any(asks_round(cond) for cond in conditions(compiled(p)))]
    assert RULES / "koikoi/house/tsukifuda.rk" in asking  # (its yaku of the round's month)


# ---------------------------------------------------------------- random conditions


def fudawiki_index() -> CardIndex:
    return compiled(RULES / "hachihachi/fudawiki.rk").index


IX = fudawiki_index()
OPS = sorted(bt.OPS)
cards = st.lists(st.sampled_from(IX.ids), min_size=1, max_size=8, unique=True).map(tuple)
groups = st.builds(
    ir.ShapeGroup,
    size=st.integers(1, 5),
    count=st.integers(1, 3),
    months=st.lists(st.sampled_from(IX.months), max_size=4, unique=True).map(tuple),
)
leaves = st.one_of(
    st.builds(ir.AllOf, cards=cards),
    st.builds(ir.AnyOf, cards=cards),
    st.builds(ir.Count, cards=cards, op=st.sampled_from(OPS), n=st.integers(0, 5)),
    st.builds(ir.Shape, groups=st.lists(groups, min_size=1, max_size=3).map(tuple)),
    st.builds(ir.PointsCmp, op=st.sampled_from(OPS), n=st.integers(0, 120)),
)
conds = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(ir.And, items=st.lists(inner, min_size=1, max_size=4).map(tuple)),
        st.builds(ir.Or, items=st.lists(inner, min_size=1, max_size=4).map(tuple)),
        st.builds(ir.Not, item=inner),
        st.builds(ir.Everyone, item=inner),
    ),
    max_leaves=10,
)
round_leaves = st.one_of(
    st.builds(ir.RoundCmp, op=st.sampled_from(OPS), n=st.integers(0, 14)),
    st.builds(ir.RoundMonth, op=st.sampled_from(OPS), n=st.integers(0, 4)),
    st.builds(ir.RoundMonth, op=st.just(">="), n=st.just(0), all=st.just(True)),
    st.builds(ir.IsDealer),
    st.builds(ir.SeatFromDealer, place=st.integers(2, 4)),
    st.builds(
        ir.Continued,
        who=st.sampled_from(["self", "opponent"]),
        op=st.sampled_from(OPS),
        n=st.integers(0, 3),
    ),
    st.builds(ir.ScoreCmp, op=st.sampled_from(OPS), n=st.integers(0, 13)),
    st.builds(ir.OnField, item=leaves),
    st.builds(ir.PayerHas, item=leaves),
    st.builds(ir.NobodyWon),
    st.builds(ir.DrawnBefore, n=st.integers(1, 3)),
)
round_conds = st.recursive(
    leaves | round_leaves,
    lambda inner: st.one_of(
        st.builds(ir.And, items=st.lists(inner, min_size=1, max_size=4).map(tuple)),
        st.builds(ir.Or, items=st.lists(inner, min_size=1, max_size=4).map(tuple)),
        st.builds(ir.Not, item=inner),
        st.builds(ir.Everyone, item=inner),
        st.builds(ir.OnField, item=inner),
    ),
    max_leaves=10,
)
deck_masks = st.integers(0, IX.full)
month_masks = st.lists(st.sampled_from(IX.month_masks), max_size=5).map(
    lambda ms: sum(set(ms))
) | st.integers(0, IX.full).map(lambda x: x & (x >> 1 | x << 1))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cond=conds,
    x=deck_masks | month_masks,
    piles=st.lists(deck_masks | month_masks, min_size=1, max_size=4),
    lanes=st.booleans(),
)
def test_random_conditions(cond: ir.Condition, x: int, piles: list[int], lanes: bool) -> None:
    """Any card-only condition holds in the VM exactly when the scalar's code says so, by the
    4-bit lanes or by the month masks; `everyone` with and without piles."""
    emitter = bt._Emitter(IX)
    emitter.lanes = lanes
    prog = np.array(emitter.program(cond), dtype=np.int64)
    scalar = _Codegen(IX).function(cond)
    assert bt.holds(prog, 0, x, NO_PILES, 0) == scalar(x, None)
    arr = np.array(piles, dtype=np.int64)
    assert bt.holds(prog, 0, x, arr, len(piles)) == scalar(x, Ctx(piles))


@njit
def _bits_of(x: int) -> tuple[int, int]:
    return popcount(x), low_bit(x)


@given(x=st.integers(-(2**63), 2**63 - 1))
def test_bit_instructions(x: int) -> None:
    """rulekit.batch.bits: popcount and the lowest bit's index, over the whole int64 range."""
    count, low = _bits_of(x)
    assert count == (x % 2**64).bit_count()
    assert low == (64 if x == 0 else (x & -x).bit_length() - 1)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cond=round_conds,
    x=deck_masks | month_masks,
    piles=st.lists(deck_masks | month_masks, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_random_round_conditions(cond: ir.Condition, x: int, piles: list[int], seed: int) -> None:
    """Any condition on the cards and the round holds in the VM exactly when the scalar's code
    says so, for a random round as a player sees it (no pile in play yet: `everyone` holds of
    none); without a round, one that asks about it is false even under a `not`."""
    prog = np.array(bt.condition_program(cond, IX), dtype=np.int64)
    scalar = _Codegen(IX).function(cond)
    assert bt.holds(prog, 0, x, NO_PILES, 0) == scalar(x, None)
    view = random_round(IX, piles, random.Random(seed))
    arr = view.array(12)
    n = len(piles) if piles else bt.NO_PILES
    assert bt.holds(prog, 0, x, arr, n) == bool(scalar(x, view)), view


def test_too_deep_refused() -> None:
    """A stack deeper than one int64 holds is refused, not miscounted."""
    wide = ir.And(items=tuple(ir.AnyOf(cards=(10,)) for _ in range(bt.MAX_DEPTH + 1)))
    with pytest.raises(bt.Unsupported, match="deep"):
        bt.condition_program(wide, IX)
    ok = ir.And(items=tuple(ir.AnyOf(cards=(10,)) for _ in range(bt.MAX_DEPTH)))
    prog = np.array(bt.condition_program(ok, IX), dtype=np.int64)
    assert bt.holds(prog, 0, IX.mask([10]), NO_PILES, 0)
    assert not bt.holds(prog, 0, 0, NO_PILES, 0)


@st.composite
def tables(draw: st.DrawFn) -> ir.YakuTable:
    """A table with what the bundled files hardly use: unless, exclusive groups, bonuses, equal
    values (the lower index wins a tie), entries checked at the count."""
    n = draw(st.integers(1, 8))
    names = [f"e{i}" for i in range(n)]
    entries = []
    for name in names:
        bonus = draw(
            st.none()
            | st.builds(ir.Bonus, amount=st.integers(1, 3), cards=cards, over=st.integers(0, 4))
        )
        entries.append(
            ir.Yaku(
                name=name,
                label=name,
                value=draw(st.integers(1, 6)),
                condition=draw(leaves),
                bonus=bonus,
                unless=tuple(draw(st.lists(st.sampled_from(names), max_size=2, unique=True))),
                at_count=draw(st.booleans()),
                flat=draw(st.booleans()),
            )
        )
    size = min(2, n)
    group = st.lists(st.sampled_from(names), min_size=size, max_size=4, unique=True).map(tuple)
    return ir.YakuTable(
        policy=draw(st.sampled_from(["best", "all"])),
        entries=tuple(entries),
        exclusive=tuple(draw(st.lists(group, max_size=2))),
        split=draw(st.booleans()),
    )


@settings(max_examples=200, deadline=None)
@given(table=tables(), xs=st.lists(deck_masks | month_masks, min_size=1, max_size=4))
def test_random_tables(table: ir.YakuTable, xs: list[int]) -> None:
    """Hits, values and the counted entries of any card-only table as CompiledTable's."""
    scalar = CompiledTable(table, IX)
    tab = bt.table_arrays(scalar, IX)
    assert tab[bt.T_FLAT] == sum(1 << i for i, e in enumerate(table.entries) if e.flat)
    assert tab[bt.T_SPLIT] == table.split
    out = np.zeros(64, dtype=np.int64)
    arr = np.array(xs, dtype=np.int64)
    for x in xs:
        play = bt.match(tab, x, False, NO_PILES, 0)
        count = bt.match(tab, x, True, arr, len(xs))
        assert play == scalar.match_play(x)
        assert count == scalar.match_count(x, Ctx(xs))
        for i in range(len(table.entries)):
            assert bt.value(tab, i, x) == scalar.value(i, x)
        for hits in (
            play | count,
            (1 << len(table.entries)) - 1,
            x & ((1 << len(table.entries)) - 1),
        ):
            k = bt.counted(tab, hits, x, out)
            assert tuple(out[:k]) == scalar.counted(hits, x)


tiers = st.builds(
    ir.Tier,
    factor=st.integers(1, 6),
    cards=cards,
    carry_at=st.none() | st.integers(0, 3),
    condition=st.none() | leaves,
)


@settings(max_examples=200, deadline=None)
@given(
    spec=st.builds(
        ir.FieldMultiplier,
        tiers=st.lists(tiers, max_size=4).map(tuple),
        per_card=st.lists(st.sampled_from(IX.ids), max_size=6, unique=True).map(tuple),
        step=st.integers(0, 3),
    ),
    field=deck_masks | month_masks,
)
def test_random_multipliers(spec: ir.FieldMultiplier, field: int) -> None:
    """Any card-only multiplier, carry at 0 included, as CompiledMultiplier.of_field."""
    marr = bt.multiplier_array(spec, IX)
    got = bt.field_multiplier(marr, field, NO_PILES, 0)
    assert got == CompiledMultiplier(spec, IX).of_field(field)


@given(x=deck_masks)
def test_lanes_holding(x: int) -> None:
    """Bit 4i of the lane test, for every size: month i holds exactly that many cards."""
    for size in range(6):
        lanes = bt._lanes_holding(x, size)
        got = [i for i in range(len(IX.month_masks)) if lanes >> (4 * i) & 1]
        want = [i for i, mm in enumerate(IX.month_masks) if (x & mm).bit_count() == size]
        assert got == want, size


def test_absent_tables() -> None:
    """A file without teyaku gets an empty table (nothing holds) and a void program that never
    holds; the arrays of a file are all int64."""
    c = compiled(RULES / "sakura/hawaii.rk")
    arrays = bt.batch_tables(c)
    out = np.zeros(64, dtype=np.int64)
    assert c.teyaku is None and c.void_field is None
    for x in (0, IX.full, IX.month_masks[0]):
        assert bt.match(arrays.teyaku, x, False, NO_PILES, 0) == 0
        assert bt.match(arrays.teyaku, x, True, NO_PILES, 0) == 0
        assert bt.counted(arrays.teyaku, 0, x, out) == 0
        assert not bt.holds(arrays.void, 0, x, NO_PILES, 0)
        assert bt.first_instant_win(arrays.instant, x, NO_PILES, 0) == -1
    assert all(a.dtype == np.int64 for a in vars(arrays).values())


# ---------------------------------------------------------------- the cards a teyaku shows


def shown_by_kernel(prog: list[int], hand: int) -> int:
    """shown_cards of a one-entry shown array holding `prog`."""
    arr = np.array([1, 3, 3 + len(prog), *prog], dtype=np.int64)
    return int(bt.shown_cards(arr, 0, hand, np.zeros(64, dtype=np.int64)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cond=conds, hand=deck_masks | month_masks, lanes=st.booleans())
def test_the_cards_a_teyaku_shows_are_the_scalar_engines(
    cond: ir.Condition, hand: int, lanes: bool
) -> None:
    """The rule-weighing bot knows the cards another player showed for a teyaku: the batch
    tables' shown programs give engine/shown.py's cards (nothing where the condition does not
    hold, an `or`'s branches that hold, nothing for a `not` or an `everyone`), by the 4-bit
    lanes or by the month masks."""
    want = compile_shown(cond, IX)(hand)
    got = shown_by_kernel(bt.shown_program(cond, IX, lanes), hand)
    assert got == (want[1] if want[0] else 0)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(RULES)))
def test_every_teyaku_shows_the_scalar_engines_cards(path: Path) -> None:
    """Every bundled teyaku on random hands and dealt hands: the cards Round.teyaku_revealed
    holds for the entries a hand counts (CompiledRules.teyaku_cards)."""
    c = compiled(path)
    if c.teyaku is None:
        return
    arr = bt.shown_array(c)
    stack = np.zeros(64, dtype=np.int64)
    rng = random.Random(str(path))
    for hand in masks(c, rng, 300):
        counted = c.teyaku.counted(c.teyaku.match_play(hand), hand)
        got = 0
        for i in counted:
            got |= int(bt.shown_cards(arr, i, hand, stack))
        assert got == c.teyaku_cards(hand, counted), (path.name, bin(hand), counted)


def test_plans_for_other_seeds_and_bots_use_the_tables_made_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """batch_tables makes a compiled file's arrays once per table size: why_not, then a plan for
    each seed and bot set (a tune's candidates, a comparison's variants) use them again."""
    from rulekit.batch import engine as batch
    from rulekit.batch import tables
    from rulekit.engine.tables import CompiledRules
    from rulekit.lang import load_rules

    made: list[int | None] = []
    real = tables._make_tables

    def counted(compiled: CompiledRules, seats: int | None) -> tables.BatchTables:
        made.append(seats)
        return real(compiled, seats)

    monkeypatch.setattr(tables, "_make_tables", counted)
    c = CompiledRules(load_rules("hachihachi"))
    assert batch.why_not(c, 3, ("greedy",) * 3) is None
    for bots in (("random",) * 3, ("greedy",) * 3):
        for seed in (1, 2):
            batch.make_plan(c, 3, bots, seed)
    assert made == [3]
    batch.make_plan(c, 4, ("greedy",) * 4, 1)  # another size: its own scoring steps
    batch.make_plan(CompiledRules(c.rules), 3, ("greedy",) * 3, 1)  # another compile
    assert made == [3, 4, 3]
