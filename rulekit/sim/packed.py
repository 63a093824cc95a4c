"""A span of a comparison packed for the trip back to the run's process.

A span's rounds are counted in parts of CHUNK rounds, and a run adds the parts up one after
the other, so its floats are those of a one-process run whatever the spans. Sent as they are,
the parts of a span are thousands of small objects, pickled in the process that played them,
unpickled and merged one Moments at a time in the run's process, which becomes the run's
bottleneck with two processes or more. Packed, a span is a few arrays: every float the parts
add, one row per part, added to the run's totals row after row (the same additions, in the
same order, so the same bits); the counts, exact in any order, summed in the span already.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from rulekit.sim.columns import VariantTally
from rulekit.stats.moments import Moments

if TYPE_CHECKING:
    from rulekit.sim.compare import ComparePart

Floats = npt.NDArray[np.float64]
COUNTERS = ("ended", "teyaku", "yaku", "histogram", "choices")
PAID = ("teyaku_paid", "yaku_paid")


def _added_in_order(start: Sequence[float], rows: Floats) -> list[float]:
    """start + rows[0] + rows[1] + ..., column by column, each addition as Python's float
    addition makes it (cumsum adds row after row)."""
    if not len(rows):
        return list(start)
    out: list[float] = np.cumsum(np.vstack([np.asarray(start, dtype=np.float64), rows]), axis=0)[
        -1
    ].tolist()
    return out


@dataclass
class PackedMoments:
    """Moments of the parts of a span, under keys: per key its count summed over the parts,
    and its total and sum of squares per part ([part, key]; 0.0 where a part lacks the key,
    which adds nothing to a total that starts at 0.0)."""

    keys: list[str]
    n: list[int]
    totals: Floats
    squares: Floats

    @classmethod
    def of(cls, parts: Sequence[dict[str, Moments]]) -> PackedMoments:
        keys = list(dict.fromkeys(k for part in parts for k in part))
        at = {k: i for i, k in enumerate(keys)}
        n = [0] * len(keys)
        totals = np.zeros((len(parts), len(keys)))
        squares = np.zeros((len(parts), len(keys)))
        for p, part in enumerate(parts):
            for k, m in part.items():
                i = at[k]
                n[i] += m.n
                totals[p, i] = m.total
                squares[p, i] = m.squares
        return cls(keys, n, totals, squares)

    def merge_into(self, into: dict[str, Moments]) -> None:
        """Merge every part, in order, as Moments.merge of each would (a key first seen in a
        part is added to `into` in the order the parts name them)."""
        kept = [into.setdefault(k, Moments()) for k in self.keys]
        totals = _added_in_order([m.total for m in kept], self.totals)
        squares = _added_in_order([m.squares for m in kept], self.squares)
        for m, n, t, s in zip(kept, self.n, totals, squares, strict=True):
            m.n += n
            m.total = t
            m.squares = s


@dataclass
class PackedSums:
    """Float sums of the parts of a span under keys (a part without the key adds 0.0)."""

    keys: list[str]
    values: Floats  # [part, key]

    @classmethod
    def of(cls, parts: Sequence[dict[str, float]]) -> PackedSums:
        keys = list(dict.fromkeys(k for part in parts for k in part))
        at = {k: i for i, k in enumerate(keys)}
        values = np.zeros((len(parts), len(keys)))
        for p, part in enumerate(parts):
            for k, v in part.items():
                values[p, at[k]] = v
        return cls(keys, values)

    def merge_into(self, into: dict[str, float]) -> None:
        start = [into.setdefault(k, 0.0) for k in self.keys]
        for k, v in zip(self.keys, _added_in_order(start, self.values), strict=True):
            into[k] = v


def _flat(t: VariantTally) -> list[Moments]:
    """A tally's Moments of fixed shape, in one fixed order."""
    return [
        *t.position,
        *t.figures.values(),
        *(m for batch in t.batch_position for m in batch),
    ]


@dataclass
class PackedTally:
    """A variant's tallies of the parts of a span."""

    rounds: int
    voids: int
    moments: PackedMoments  # _flat's Moments, keyed by their place
    counters: dict[str, Counter[str] | Counter[int]]  # summed over the span
    paid: dict[str, PackedSums]

    @classmethod
    def of(cls, parts: Sequence[VariantTally]) -> PackedTally:
        counters: dict[str, Counter[str] | Counter[int]] = {}
        for c in COUNTERS:
            total: Counter[str] | Counter[int] = Counter()
            for t in parts:
                total.update(getattr(t, c))  # the order each key is first seen, as merge's
            counters[c] = total
        return cls(
            rounds=sum(t.rounds for t in parts),
            voids=sum(t.voids for t in parts),
            moments=PackedMoments.of([{str(i): m for i, m in enumerate(_flat(t))} for t in parts]),
            counters=counters,
            paid={d: PackedSums.of([getattr(t, d) for t in parts]) for d in PAID},
        )

    def merge_into(self, into: VariantTally) -> None:
        """into.merge(part) for every part of the span, in order."""
        into.rounds += self.rounds
        into.voids += self.voids
        flat = _flat(into)
        placed = {str(i): m for i, m in enumerate(flat)}
        self.moments.merge_into(placed)
        for c, counts in self.counters.items():
            getattr(into, c).update(counts)
        for d, sums in self.paid.items():
            sums.merge_into(getattr(into, d))


@dataclass
class PackedSpan:
    """A comparison's parts of a span, packed: each variant's tallies, and the paired
    differences of each variant after the first."""

    tallies: list[PackedTally]
    diffs: list[PackedMoments]

    @classmethod
    def of(cls, parts: Iterable[ComparePart]) -> PackedSpan:
        listed = list(parts)
        variants = len(listed[0].tallies) if listed else 0
        return cls(
            [PackedTally.of([p.tallies[v] for p in listed]) for v in range(variants)],
            [PackedMoments.of([p.diffs[v] for p in listed]) for v in range(variants - 1)],
        )

    def merge_into(self, total: ComparePart) -> None:
        """total.merge(part) for every part of the span, in order: the same figures, bit for
        bit, and the same order of keys."""
        for tally, packed in zip(total.tallies, self.tallies, strict=True):
            packed.merge_into(tally)
        for diffs, packed_diffs in zip(total.diffs, self.diffs, strict=True):
            packed_diffs.merge_into(diffs)
