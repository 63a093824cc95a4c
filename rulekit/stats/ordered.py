"""Sums of float columns that give the floats a loop over the rounds gives.

A report's float figures are defined by the loop that made them: `total += x` round after
round (Moments.add), or Python's `sum()` of a round's few values. numpy's sum adds pairwise,
in another order, and may differ in the last bits; these add as the loop does, so a figure
summed from arrays prints exactly as the loop printed it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

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


# Values that are whole multiples of STEP, of absolute sum below BOUND, add up exactly in any
# order: every partial sum is such a multiple below BOUND, 2**52 steps at most, so it is a float
# and no addition rounds. Amounts in points, halves and quarters, and their squares, are.
STEP = 2.0**-20
BOUND = 2.0**32


def exact_in_any_order(x: Floats) -> npt.NDArray[np.bool_]:
    """Per column of x (axis 0 the rows): whether adding its values in any order gives the
    same, exact, sums."""
    steps = x * (1 / STEP)  # (a power of two: exact)
    exact: npt.NDArray[np.bool_] = (steps == np.rint(steps)).all(axis=0)
    exact &= np.abs(x).sum(axis=0) < BOUND
    return exact


def ordered_sums_in_parts(x: Floats, part: int) -> Floats:
    """ordered_sum() of each run of `part` rows of a 2-d x (the last run may be shorter):
    [parts, columns]; numpy's own sum for the columns where that is the same
    (exact_in_any_order), the others added row by row."""
    parts = -(-len(x) // part)
    padded = np.zeros((parts * part, x.shape[1]))
    padded[: len(x)] = x  # the last part's rows, then zeros, which add nothing
    runs = padded.reshape(parts, part, x.shape[1])
    if not parts:
        return padded
    total: Floats = np.empty((parts, x.shape[1]))
    exact = exact_in_any_order(x)
    total[:, exact] = runs[:, :, exact].sum(axis=1)
    rest = ~exact
    if rest.any():
        total[:, rest] = np.cumsum(runs[:, :, rest], axis=1)[:, -1]
    return total + 0.0


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
