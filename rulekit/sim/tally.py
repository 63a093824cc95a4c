"""Moved to rulekit.stats (statistics below everything that reports them): this name stays for
code written against it, and will go in a later release."""

from __future__ import annotations

import warnings

from rulekit.stats.moments import Moments, ci95, t95, variance
from rulekit.stats.tally import Tally

__all__ = ["Moments", "Tally", "ci95", "t95", "variance"]

warnings.warn(
    "rulekit.sim.tally moved: import Tally from rulekit.stats.tally, Moments, t95, variance "
    "and ci95 from rulekit.stats.moments",
    DeprecationWarning,
    stacklevel=2,
)
