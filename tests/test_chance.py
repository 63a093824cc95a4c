"""The bots' chance (rulekit.agents.chance): draws in range, a seed replays, a new block when
fewer than 64 bits are left, and the exact digits a batch engine must reproduce."""

from __future__ import annotations

from collections import Counter
from hashlib import sha512

from hypothesis import given
from hypothesis import strategies as st

from rulekit.agents.chance import Chance

seeds = st.one_of(st.integers(), st.text(max_size=30))


@given(seeds, st.lists(st.integers(1, 2**70), min_size=1, max_size=200))
def test_a_draw_is_in_range_and_a_seed_replays(seed: int | str, ns: list[int]) -> None:
    a, b = Chance(seed), Chance(seed)
    drawn = [a.below(n) for n in ns]
    assert all(0 <= r < n for r, n in zip(drawn, ns, strict=True))
    assert drawn == [b.below(n) for n in ns]
    assert (a.block, a.x) == (b.block, b.x)


@given(seeds)
def test_the_seed_is_the_sha512_of_its_text(seed: int | str) -> None:
    c = Chance(seed)
    assert c.block == sha512(str(seed).encode()).digest()
    assert Chance(str(seed)).x == c.x  # 7 and "7" are the same seed, as play_deal passes it


def test_draws_are_mixed_radix_digits_of_the_hash() -> None:
    x = int.from_bytes(sha512(b"1:2:3").digest(), "big")
    c = Chance("1:2:3")
    for n in (48, 7, 2, 1000, 1):
        x, r = divmod(x, n)
        assert c.below(n) == r
    assert c.x == x


def test_below_one_is_zero_and_spends_nothing() -> None:
    c = Chance("s")
    before = c.x
    assert [c.below(1) for _ in range(5)] == [0] * 5
    assert c.x == before


def test_a_new_block_is_the_hash_of_the_last_when_fewer_than_64_bits_are_left() -> None:
    c = Chance("refill")
    first = c.block
    refills = 0
    for _ in range(300):  # 300 digits of base 7: about 842 bits, so at least one refill
        left, block = c.x, c.block
        r = c.below(7)
        assert 0 <= r < 7
        if c.block != block:
            refills += 1
            assert left < 1 << 64  # only then
            assert c.block == sha512(block).digest()
            assert divmod(int.from_bytes(c.block, "big"), 7) == (c.x, r)
        else:
            assert left >= 1 << 64
    assert refills >= 1 and c.block != first


def test_pinned_digits() -> None:
    """What a seed draws, fixed: a batch engine mirroring Chance must give exactly these (and
    a change here changes every bot's play: tests/engine_digests.json)."""
    c = Chance("7:0:1")
    assert [c.below(n) for n in (8, 8, 7, 3, 2, 48)] == [0, 2, 1, 2, 0, 31]


def test_draws_are_near_uniform() -> None:
    """6,000 draws of below(6) from one seed: each face within 4.5 standard deviations."""
    c = Chance("uniform")
    counts = Counter(c.below(6) for _ in range(6000))
    sd = (6000 * (1 / 6) * (5 / 6)) ** 0.5
    assert set(counts) == set(range(6))
    assert all(abs(k - 1000) < 4.5 * sd for k in counts.values())
