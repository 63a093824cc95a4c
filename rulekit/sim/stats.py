"""Moved to rulekit.stats.significance: this name stays for code written against it, and will
go in a later release."""

from __future__ import annotations

import warnings

from rulekit.stats.significance import holm, p_value, t_two_sided

__all__ = ["holm", "p_value", "t_two_sided"]

warnings.warn(
    "rulekit.sim.stats moved: import holm, p_value and t_two_sided from rulekit.stats.significance",
    DeprecationWarning,
    stacklevel=2,
)
