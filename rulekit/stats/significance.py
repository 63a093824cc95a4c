"""Tests of many differences at once: a two-sided p-value for each paired difference (Student's
t, from the mean and the 95% half-width the report already has) and Holm's step-down
adjustment, so that a comparison that tests dozens of figures does not flag some by chance."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rulekit.stats.moments import t95

ALPHA = 0.05
METHOD = "holm"
# Beyond this many degrees of freedom Student's t is the normal distribution to 4 decimals.
NORMAL_DF = 400


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    t = abs(t)
    if df > NORMAL_DF:
        return math.erfc(t / math.sqrt(2))
    return _betainc(df / 2, 0.5, df / (df + t * t))


def p_value(mean: float, ci95: float | None, df: int) -> float:
    """The two-sided p-value of a difference from 0, given its 95% half-width (t with `df`
    degrees of freedom). No interval: 1 (nothing can be said). A zero-width interval: 1 if the
    difference is exactly 0 (a variant against itself), else 0."""
    if ci95 is None or df < 1:
        return 1.0
    if ci95 == 0:
        return 1.0 if mean == 0 else 0.0
    return t_two_sided(mean * t95(df) / ci95, df)


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the k-th smallest is multiplied by (m - k + 1) and
    made non-decreasing. Rejecting adjusted p < alpha keeps the chance of any false finding
    among the m figures at most alpha, whatever their dependence."""
    m = len(ps)
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda k: ps[k])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out
