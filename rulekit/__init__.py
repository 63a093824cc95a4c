"""rulekit: a rules platform for hanafuda fishing games."""

__version__ = "0.1.0"
