"""The rule language: text -> syntax tree -> IR, with located errors."""

from rulekit.lang.files import bundled_names, find_rules, reaching_only
from rulekit.lang.loader import ir_schema, load_rules

__all__ = ["bundled_names", "find_rules", "ir_schema", "load_rules", "reaching_only"]
