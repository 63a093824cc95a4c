"""The turn's fast paths give exactly what the general code gives: the generated tables
(engine/specialise.py), the match functions' card-count guards, play_plain against play, and
the tally's split sums."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.engine import capture, specialise
from rulekit.engine.actions import TARGET_SHIFT
from rulekit.engine.deal import deal_order
from rulekit.engine.round import PLAY, Round
from rulekit.engine.tables import (
    CompiledRules,
    _Codegen,
    cards_needed,
    guarded,
    referenced_cards,
)
from rulekit.errors import MoveError
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names
from rulekit.stats.tally import Tally

masks = st.integers(min_value=0, max_value=(1 << 48) - 1)


def compiled(name: str) -> CompiledRules:
    return CompiledRules(load_rules(name))


SLOPER = compiled("koikoi/sloper")


def reference_plays(c: CompiledRules, hand: int, field: int) -> list[int]:
    """capture.legal_actions's loop for a hand card play, as it was written first."""
    out = []
    for b in range(64):
        if not hand >> b & 1:
            continue
        m = field & c.index.month_mask_of_bit[b]
        if m.bit_count() == 2:
            lo = m & -m
            out.append(b | (lo.bit_length() << TARGET_SHIFT))
            out.append(b | ((m ^ lo).bit_length() << TARGET_SHIFT))
        else:
            out.append(b)
    return out


@settings(max_examples=400)
@given(masks, masks)
def test_plays_and_pairs_are_the_loops(hand: int, field: int) -> None:
    field &= ~hand
    assert SLOPER.plays(hand, field) == reference_plays(SLOPER, hand, field)
    pairs = 0
    for mm in SLOPER.index.month_masks:
        if (field & mm).bit_count() == 2:
            pairs |= mm
    assert SLOPER.pairs(field) == pairs


def test_a_deck_of_another_layout_gets_the_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specialise, "nibble_layout", lambda index: False)
    plays = specialise.compile_plays(SLOPER.index)
    pairs = specialise.compile_pairs(SLOPER.index)
    hand, field = 0b1011_0000_0001, 0b0100_0011_0110
    assert plays(hand, field) == reference_plays(SLOPER, hand, field)
    assert pairs(field) == 0b1111_0000 | 0b1111


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=(1 << 49) - 1))
def test_points_are_the_card_index_points(x: int) -> None:
    assert SLOPER.points(x) == SLOPER.index.points(x)


@pytest.mark.parametrize("n", [0, 1, 2, 13, 48, 49, 98])
def test_the_unrolled_permutation_is_the_factorial_base_reading(n: int) -> None:
    for k in range(50):
        seed = f"{k}:{n}"
        x = int.from_bytes(hashlib.sha512(seed.encode()).digest(), "big")
        items, want = list(range(n)), []
        for d in range(n, 0, -1):
            x, i = divmod(x, d)
            want.append(items.pop(i))
        assert deal_order(seed, n) == want


@pytest.mark.parametrize("name", [n for n in bundled_names() if "/" in n])
def test_a_condition_never_holds_below_the_cards_it_needs(name: str) -> None:
    """The guard `xc >= need` in a match function only skips tests that would fail: no mask
    of fewer cards, drawn from the entry's own cards first, makes the entry."""
    c = compiled(name)
    rng = random.Random(name)
    entries = [*(c.yaku.entries if c.yaku else ()), *(c.teyaku.entries if c.teyaku else ())]
    checked = 0
    for e in entries:
        need = cards_needed(e.condition, c.index)
        if not need:
            continue
        gen = _Codegen(c.index)
        test = gen.compile("cond", [f"    return {guarded(e.condition, gen.expr(e.condition))}"])
        own = [c.index.bit[cid] for cid in referenced_cards(e.condition)]
        for _ in range(200):
            k = rng.randrange(need)
            pool = own if own and rng.random() < 0.8 else list(range(len(c.index.ids)))
            x = sum(1 << b for b in rng.sample(pool, min(k, len(pool))))
            assert not test(x), (e.name, bin(x))
            checked += 1
    assert checked or not entries


@pytest.mark.parametrize("name", ["hachihachi/fudawiki", "koikoi/sloper"])
def test_play_plain_is_play(name: str) -> None:
    """Every action, legal or not, at every turn of some rounds: the same state after it, or
    the same refusal."""
    c = compiled(name)
    for deal in range(12):
        rnd = Round(c, c.rules.seats.min, 0, seed=5, deal_no=deal)
        assert c.plain
        steps = 0
        while not rnd.is_terminal and steps < 40:
            steps += 1
            legal = rnd.legal_actions()
            if rnd.phase == PLAY:
                tried = [*legal, -1, 63, 65, (5 << TARGET_SHIFT) | (legal[0] & 63), 999]
                for action in tried:
                    a, b = rnd.copy(), rnd.copy()
                    outcome = []
                    for twin, fn in ((a, capture.play), (b, capture.play_plain)):
                        try:
                            fn(twin, action)
                            outcome.append(None)
                        except MoveError as exc:
                            outcome.append(str(exc) + str(exc.hint))
                    assert outcome[0] == outcome[1], action
                    assert a.__dict__ == b.__dict__, action
            rnd.apply(legal[deal % len(legal)])


def test_the_tally_sums_ints_and_fractions_apart_and_exactly() -> None:
    results = [[3, -3], [Fraction(1, 2), Fraction(-1, 2)], [-8, 8], [Fraction(5, 2), -2]]
    whole, parts = Tally(2), Tally(2)
    for net in results:
        whole.add_unit(net, [0])
    for net in results[:2]:
        parts.add_unit(net, [1])
    rest = Tally(2)
    for net in results[2:]:
        rest.add_unit(net, [1])
    parts.merge(rest)
    assert whole.total == parts.total == [Fraction(-2), Fraction(3, 1) + Fraction(-1, 2)]
    assert isinstance(whole.total[0], Fraction)  # a fraction was added: as ever, a Fraction
    assert whole.squares == [9 + Fraction(1, 4) + 64 + Fraction(25, 4), 9 + Fraction(1, 4) + 64 + 4]
    ints = Tally(1)
    ints.add_unit([4], [0])
    assert ints.total == [4] and type(ints.total[0]) is int


@pytest.mark.parametrize("name", ["hachihachi/fudawiki", "koikoi/sloper", "sakura/hawaii"])
def test_previews_are_each_preview(name: str) -> None:
    c = compiled(name)
    for deal in range(10):
        rnd = Round(c, c.rules.seats.min, 0, seed=9, deal_no=deal)
        while not rnd.is_terminal:
            legal = rnd.legal_actions()
            if rnd.phase == PLAY:
                assert capture.previews(rnd, legal) == [capture.preview(rnd, a) for a in legal]
            rnd.apply(legal[(deal + rnd.turn) % len(legal)])


@given(st.one_of(st.integers(), st.text(max_size=40)))
def test_reseed_is_random_seed_of_the_seed_as_text(seed: int | str) -> None:
    import random

    from rulekit.agents.base import reseed

    fast, slow = random.Random(), random.Random()
    slow.gauss(0, 1)  # a pending gauss value is dropped by a seed, and by reseed too
    fast.gauss(0, 1)
    reseed(fast, seed)
    slow.seed(str(seed))
    assert fast.getstate() == slow.getstate()
    assert [fast.random() for _ in range(3)] == [slow.random() for _ in range(3)]
