"""Rule files loaded before, read back: a command starts without parsing, resolving and
checking its rule files again (a tenth to a third of a second a file) when none of them
changed since a run of the same rulekit loaded them.

A load is kept with what it depended on: the text of every file it read (its own, those it
extends, its deck), and every reference it resolved (`extends "hachihachi"` found beside the
file or among the bundled ones). It is read back only if every file still has that text and
every reference still finds the same file (a file of that name created beside the one that
extends it would be found first), from the same working directory (names in messages are
relative to it). Only a load without errors is kept: a file with errors is loaded again, and
its errors reported, every time. Kept by rulekit.stored, under this version of the code.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from rulekit import ir, stored
from rulekit.digest import remember, rules_digest
from rulekit.errors import RulekitError, register_source
from rulekit.lang.files import display_name, find_rules

KIND = "rules"
ENABLED = True  # (the tests turn it off but where they test it: tests/conftest.py)


@dataclass
class Reads:
    """What a load depended on: the files it read, with their text, and the references it
    resolved (the reference, the file it was written in, the file found)."""

    texts: dict[Path, str] = field(default_factory=dict)
    refs: list[tuple[str, Path, Path]] = field(default_factory=list)

    def read(self, path: Path, text: str) -> None:
        self.texts[path.resolve()] = text

    def found(self, ref: str, written_in: Path, path: Path) -> None:
        self.refs.append((ref, written_in.resolve(), path.resolve()))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _key(path: Path, check: bool) -> str:
    where = json.dumps([str(path.resolve()), check, os.getcwd()])
    return hashlib.sha256(where.encode()).hexdigest()[:32]


def keep(path: Path, check: bool, reads: Reads, rules: ir.Ruleset) -> None:
    """Keep a load of `path` that succeeded, with what it read."""
    if not ENABLED:
        return
    stored.write(
        KIND,
        _key(path, check),
        {
            "files": [[str(p), _digest(t)] for p, t in reads.texts.items()],
            "refs": [[r, str(w), str(f)] for r, w, f in reads.refs],
            "rules": base64.b64encode(pickle.dumps(rules, protocol=5)).decode("ascii"),
            "digest": rules_digest(rules),
        },
    )


def read_back(path: Path, check: bool) -> ir.Ruleset | None:
    """The rules a run of this rulekit loaded from `path`, if nothing they depend on changed
    since (None: load it). The files' texts are registered, as a parse would, so that a later
    message located in them quotes its line."""
    if not ENABLED:
        return None
    kept = stored.read(KIND, _key(path, check))
    if not isinstance(kept, dict):
        return None
    try:
        texts = {}
        for name, digest in kept["files"]:
            text = Path(name).read_text(encoding="utf-8-sig")
            if _digest(text) != digest:
                return None
            texts[Path(name)] = text
        for ref, written_in, found in kept["refs"]:
            if find_rules(ref, Path(written_in)).resolve() != Path(found):
                return None
        rules = _unpickled(kept["rules"])
        digest = str(kept["digest"])
    except (TypeError, KeyError, ValueError, OSError, RulekitError):
        return None  # never kept, another shape, a file gone or unreadable: load it
    if rules is None:
        return None
    for p, text in texts.items():
        register_source(display_name(p), text)
    remember(rules, digest)
    return rules


def _unpickled(text: str) -> ir.Ruleset | None:
    """The rule set kept as `text`, or None. Pickled, not JSON: validating the IR again would
    build every model's validator (ir's models defer it to their first use), a tenth of the
    start of a command that only runs a variant. What is unpickled is this version's own
    (kept under its code digest, in the user's cache folder, as numba's machine code is)."""
    try:
        rules = pickle.loads(base64.b64decode(text, validate=True))
    except Exception:  # a file another hand wrote, cut short: load the rule file
        return None
    return rules if isinstance(rules, ir.Ruleset) else None
