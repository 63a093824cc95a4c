"""A rule set's content, hashed: the key under which what is built from a rule set (its
compiled tables, the bots' calibration, the batch engine's plans) is kept, whatever object
holds it (one unpickled again in another process, one loaded again)."""

from __future__ import annotations

import hashlib

from rulekit import ir

KEPT = 128  # rule set objects remembered (a run's variants, a tune's candidates, a server's)

_DIGESTS: dict[int, tuple[ir.Ruleset, str]] = {}


def rules_digest(rules: ir.Ruleset) -> str:
    """The rule set's content, hashed: the SHA-256 of its canonical JSON (remembered for the
    object, which is kept alive, so its id is not reused while it is remembered)."""
    hit = _DIGESTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    digest = hashlib.sha256(rules.model_dump_json().encode()).hexdigest()
    remember(rules, digest)
    return digest


def remember(rules: ir.Ruleset, digest: str) -> None:
    """Take `digest` as the rule set's (one kept with it: rulekit.lang.kept), sparing its
    serializer's build, a twentieth of a command's start."""
    if len(_DIGESTS) >= KEPT:
        _DIGESTS.clear()
    _DIGESTS[id(rules)] = (rules, digest)
