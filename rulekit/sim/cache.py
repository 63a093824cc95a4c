"""What a run builds from a rule set, built once per process and rule set content.

A chunk of work may reach a process as a rule set unpickled again (a Dask worker's, a process
started by spawn), or a run may come back to a rule file already played (tune's second
comparison, a server's next request): keyed by object identity, each would compile its rules,
its tables and its plans again. Keyed by the rule set's content (the digest of its canonical
JSON: rulekit.digest), they are built once per process; everything else hangs off the compiled
rules (the continuation plan, the generated turn loops, the bots' tables, the batch engine's
plan).
"""

from __future__ import annotations

from collections import OrderedDict

from rulekit import ir
from rulekit.digest import rules_digest
from rulekit.engine.tables import CompiledRules

KEPT = 32  # rule sets kept per process: a tune over many values, a server's recent files

_COMPILED: OrderedDict[str, CompiledRules] = OrderedDict()


def compiled_rules(rules: ir.Ruleset) -> CompiledRules:
    """The compiled tables of a rule set, compiled once per process for the same content (the
    most recently used KEPT of them are kept)."""
    key = rules_digest(rules)
    hit = _COMPILED.get(key)
    if hit is not None:
        _COMPILED.move_to_end(key)
        return hit
    c = CompiledRules(rules)
    _COMPILED[key] = c
    if len(_COMPILED) > KEPT:
        _COMPILED.popitem(last=False)
    return c
