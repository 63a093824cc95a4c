"""The mean and 95% confidence interval rule of every figure rulekit reports (simulate,
compare, tune, the bots' calibration, the benchmarks): Student's t quantiles, the sample
variance from exact or float sums, and Moments, a figure's count, sum and sum of squares."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
# the 97.5% quantile of Student's t with 1, 2, ... 30 degrees of freedom
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom (the normal
    quantile's Cornish-Fisher expansion beyond the table, within 1e-4 of the exact value)."""
    if df < 1:
        raise ValueError("a t quantile needs one degree of freedom or more")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def variance(n: int, total: Any, squares: Any) -> float:
    """The sample variance from a count, a sum and a sum of squares (exact when they are ints
    or fractions); 0 with fewer than two samples."""
    if n < 2:
        return 0.0
    return max(0.0, float((squares - total * total / n) / (n - 1)))


def ci95(n: int, total: Any, squares: Any) -> float | None:
    """Half-width of the 95% confidence interval of the mean (Student's t with n - 1 degrees of
    freedom); None with fewer than two samples."""
    if n < 2:
        return None
    return t95(n - 1) * math.sqrt(variance(n, total, squares) / n)


@dataclass
class Moments:
    """Count, sum and sum of squares of a figure, to give its mean and confidence interval."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, o: Moments) -> None:
        self.n += o.n
        self.total += o.total
        self.squares += o.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        return math.sqrt(variance(self.n, self.total, self.squares))

    @property
    def ci95(self) -> float | None:
        return ci95(self.n, self.total, self.squares)

    def report(self) -> dict[str, Any]:
        ci = self.ci95
        return {
            "mean": self.mean,
            "ci95": ci,
            "significant": ci is not None and abs(self.mean) > ci,
        }
