"""The rule language: text -> syntax tree -> IR, with located errors.

A rule file loaded before by this rulekit is read back (rulekit.lang.kept) without importing
the parser, the syntax tree or the resolver: a command that only runs a variant starts without
them (about a tenth of its start)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.lang import kept
from rulekit.lang.files import bundled_names, find_rules, reach_limited, reaching_only

if TYPE_CHECKING:
    from rulekit import ir

__all__ = ["bundled_names", "find_rules", "ir_schema", "load_rules", "reaching_only"]


def load_rules(ref: str | Path, *, check: bool = True) -> ir.Ruleset:
    """The IR of a rule file (path or bundled name), or RuleErrors with every problem found.
    A load of the same files by this rulekit is read back (rulekit.lang.kept)."""
    path = find_rules(str(ref)) if not isinstance(ref, Path) else ref
    if path.suffix != ".json" and not reach_limited():
        rules = kept.read_back(path, check)
        if rules is not None:
            return rules
    from rulekit.lang.loader import load_unkept

    return load_unkept(path, check)


def ir_schema() -> dict[str, object]:
    """The JSON Schema of the IR (what `rulekit schema ir` prints)."""
    from rulekit.lang.loader import ir_schema as schema

    return schema()
