"""What rulekit keeps between runs: small results that cost a command part of a second each
time (the bots' calibration of a variant, a rule file loaded: rulekit.lang.kept), kept in the
user's cache folder under this version of rulekit's code, so that a new version never reads
what an older one computed.

Keeping is best effort: a folder that cannot be written, or a file that cannot be read (another
version's, a half-written one), only means the result is computed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent
KEPT = 1000  # results kept of one kind (a rule file loaded is about 40 kB)


def user_cache(environ: dict[str, str] | None = None) -> Path:
    """rulekit's folder in the user's cache: $XDG_CACHE_HOME/rulekit, else ~/.cache/rulekit
    (where the batch engine's kernel is kept too)."""
    env = os.environ if environ is None else environ
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulekit"


@cache
def code_digest() -> str:
    """This version of rulekit's code: a hash of every module of the package."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def folder(kind: str) -> Path:
    """Where results of `kind` computed by this version of the code are kept."""
    return user_cache() / f"{kind}-{code_digest()}"


def read(kind: str, key: str) -> Any | None:
    """The JSON kept under `key`, or None (never kept, or unreadable)."""
    try:
        return json.loads((folder(kind) / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None


def write(kind: str, key: str, value: Any) -> None:
    """Keep `value` (JSON) under `key`, whole or not at all (written beside, then renamed).
    The first write of a version of the code drops what older versions kept of that kind; a
    kind holding more than KEPT results drops the older half of them."""
    where = folder(kind)
    part: str | None = None
    try:
        if not where.is_dir():
            where.mkdir(parents=True)
            _drop_other_versions(kind)
        else:
            _drop_oldest(where)
        with tempfile.NamedTemporaryFile("w", dir=where, suffix=".part", delete=False) as f:
            part = f.name
            json.dump(value, f)
        os.replace(part, where / f"{key}.json")
    except OSError:
        if part is not None:
            with contextlib.suppress(OSError):
                os.unlink(part)


def _drop_other_versions(kind: str) -> None:
    mine = folder(kind)
    for other in user_cache().glob(f"{kind}-*"):
        if other != mine and other.is_dir():
            shutil.rmtree(other, ignore_errors=True)


def _drop_oldest(where: Path) -> None:
    kept = list(where.glob("*.json"))
    if len(kept) <= KEPT:
        return
    by_age = sorted(kept, key=lambda p: p.stat().st_mtime)
    for old in by_age[: len(by_age) // 2]:
        with contextlib.suppress(OSError):
            old.unlink()
