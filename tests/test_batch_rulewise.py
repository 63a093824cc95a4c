"""The batch kernel's rule-weighing bot in pieces (tests/test_batch_identity.py holds its whole
rounds to the scalar engine's): the shuffle its worlds are dealt by draws what the scalar
bot's Chance draws, across refills, with its divisions batched."""

from __future__ import annotations

import hashlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.agents.chance import Chance
from rulekit.batch.chance import below, sha512_limbs, shuffle


def chance_limbs(seed: str) -> np.ndarray:
    """A bot's number and block (32 limbs), as the kernel holds Chance(seed)."""
    x = int.from_bytes(hashlib.sha512(seed.encode()).digest(), "big")
    out = np.zeros(32, dtype=np.int64)
    for i in range(16):
        out[i] = out[16 + i] = (x >> (32 * i)) & 0xFFFFFFFF
    return out


def test_chance_limbs_is_the_kernels_hash() -> None:
    buf = np.zeros(128, dtype=np.int64)
    buf[:6] = list(b"7:12:1")
    out = np.zeros(16, dtype=np.int64)
    sha512_limbs(buf, 6, out, np.zeros(80, dtype=np.int64))
    assert out.tolist() == chance_limbs("7:12:1")[:16].tolist()


@settings(max_examples=80, deadline=None)
@given(
    seed=st.text(alphabet="0123456789:-", min_size=1, max_size=20),
    steps=st.lists(st.tuples(st.booleans(), st.integers(0, 60)), min_size=1, max_size=40),
)
def test_a_worlds_shuffle_is_fisher_yates_by_chance(
    seed: str, steps: list[tuple[bool, int]]
) -> None:
    """Observation.sample's shuffle from a Chance: place i (from the last down) trades with
    below(i + 1). Many shuffles in a row, single draws between them, so that the number runs
    low and is refilled (the hash of its block) at every point of a shuffle."""
    chance = Chance(seed)
    x = chance_limbs(seed)
    scratch = np.zeros(144, dtype=np.int64)
    items = np.zeros(64, dtype=np.int64)
    for draw, n in steps:
        if draw:
            assert below(x, scratch, n + 1) == chance.below(n + 1)
            continue
        items[:n] = np.arange(n) * 3
        shuffle(x, scratch, items, n)
        want = [k * 3 for k in range(n)]
        for i in range(n - 1, 0, -1):
            j = chance.below(i + 1)
            want[i], want[j] = want[j], want[i]
        assert items[:n].tolist() == want


def limbs_of(value: int, block: bytes) -> np.ndarray:
    """The kernel's number x = value with the block it was read from (32 limbs)."""
    out = np.zeros(32, dtype=np.int64)
    b = int.from_bytes(block, "big")
    for i in range(16):
        out[i] = (value >> (32 * i)) & 0xFFFFFFFF
        out[16 + i] = (b >> (32 * i)) & 0xFFFFFFFF
    return out


def fisher_yates(chance: Chance, n: int) -> list[int]:
    """Observation.sample's shuffle of range(n) from a Chance, as the scalar bot draws it."""
    pool = list(range(n))
    for i in range(n - 1, 0, -1):
        j = chance.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    return pool


# numbers about the refill (below 2**64: the next block) and about 2**96, where shuffle stops
# dividing in groups: a group divided where a draw in it would have refilled differs there
NEAR_A_REFILL = [
    *(2**64 + d for d in (-1, 0, 1, 2**31, 2**40)),
    *(2**65 + d for d in (-1, 0, 1)),
    *(2**80 + d for d in (-1, 0, 1)),
    *(2**95 + d for d in (-1, 0, 1)),
    *(2**96 + d for d in (-1, 0, 1, 2**31, 2**64)),
    *(2**97 + d for d in (-1, 0, 1)),
    2**96 * 7 + 5,
    2**128 - 1,
]


def test_shuffle_draws_what_chance_below_draws_near_a_refill() -> None:
    """The worlds' shuffle against the scalar Chance itself, its number set just about a
    refill and about the point where draws start being divided in groups: every size of pool
    a world deals (and more), then the draws after it, so that the number left is the same."""
    scratch = np.zeros(144, dtype=np.int64)
    items = np.zeros(64, dtype=np.int64)
    block = hashlib.sha512(b"near a refill").digest()
    for value in NEAR_A_REFILL:
        for n in (*range(1, 50), 60, 63):
            chance = Chance(0)
            chance.block, chance.x = block, value
            x = limbs_of(value, block)
            items[:n] = np.arange(n)
            shuffle(x, scratch, items, n)
            want = fisher_yates(chance, n)
            assert items[:n].tolist() == want, (value, n)
            assert [below(x, scratch, 1000) for _ in range(30)] == [
                chance.below(1000) for _ in range(30)
            ], (value, n)


def test_shuffle_draws_what_chance_below_draws_over_many_seeds() -> None:
    """Seat chances as the kernel seeds them ("{seed}:{number}:{seat}"), each spent by a run
    of worlds' shuffles of the sizes a round's hidden cards take, until its number has been
    refilled several times."""
    scratch = np.zeros(144, dtype=np.int64)
    items = np.zeros(64, dtype=np.int64)
    for seed in range(60):
        for seat in range(3):
            name = f"{seed}:{seed * 7 + 1}:{seat}"
            chance = Chance(name)
            x = chance_limbs(name)
            for k in range(12):
                n = 8 + (seed * 5 + seat * 11 + k * 13) % 41
                items[:n] = np.arange(n)
                shuffle(x, scratch, items, n)
                assert items[:n].tolist() == fisher_yates(chance, n), (name, k, n)
            assert below(x, scratch, 2**30) == chance.below(2**30)
