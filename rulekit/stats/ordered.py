"""Sums of float columns that give the floats a loop over the rounds gives.

A report's float figures are defined by the loop that made them: `total += x` round after
round (Moments.add), or Python's `sum()` of a round's few values. numpy's sum adds pairwise,
in another order, and may differ in the last bits; these add as the loop does, so a figure
summed from arrays prints exactly as the loop printed it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rulekit.stats.moments import Moments

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

# Python's sum() of floats: one after the other up to 3.11, compensated (Neumaier) from 3.12
COMPENSATED = sum([1e100, 1.0, -1e100]) != 0.0


def ordered_sum(x: Floats) -> Floats:
    """x's rows added one after the other, from 0.0, as `total = 0.0; total += row` adds
    them, value for value: [columns...] (an empty x: zeros)."""
    if len(x) == 0:
        return np.zeros(x.shape[1:])
    total: Floats = np.cumsum(x, axis=0)[-1] + 0.0  # (a loop from 0.0 never ends at -0.0)
    return total


def ordered_sums_by(x: Floats, group: Ints, groups: int) -> Floats:
    """ordered_sum() of the rows of each group (group[k] < groups: row k's), in row order:
    [groups, columns...]."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    sizes = np.bincount(group, minlength=groups)
    rank = np.arange(len(g)) - (np.cumsum(sizes) - sizes)[g]
    longest = int(sizes.max(initial=0))
    if longest == 0:
        return np.zeros((groups, *x.shape[1:]))
    padded = np.zeros((groups, longest, *x.shape[1:]))
    padded[g, rank] = x[order]  # a group's rows, then zeros, which add nothing
    return np.cumsum(padded, axis=1)[:, -1] + 0.0


def moments(x: Floats) -> list[Moments]:
    """A Moments per column of x, as Moments.add of its rows in order makes it."""
    n = len(x)
    totals = ordered_sum(x).tolist()
    squares = ordered_sum(x * x).tolist()
    return [Moments(n, t, s) for t, s in zip(totals, squares, strict=True)]


def row_sums(x: Floats) -> Floats:
    """Python's `sum(row)` of each row of x, float for float: [rows]. Trailing zeros add
    nothing, so rows of different lengths may be padded with them."""
    rows, width = x.shape
    if width == 0:
        return np.zeros(rows)
    total = x[:, 0] + 0.0  # sum() starts from the int 0
    if not COMPENSATED:
        for j in range(1, width):
            total = total + x[:, j]
        return total
    carry = np.zeros(rows)  # CPython's sum(): Neumaier's improved Kahan-Babuska summation
    for j in range(1, width):
        v = x[:, j]
        t = total + v
        carry += np.where(np.abs(total) >= np.abs(v), (total - t) + v, (v - t) + total)
        total = t
    return np.where((carry != 0) & np.isfinite(carry), total + carry, total)
