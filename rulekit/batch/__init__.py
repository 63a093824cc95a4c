"""The batch engine: many rounds at once in numba kernels, playing what the scalar engine plays."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numba


def cache_folder(sources: list[Path], environ: dict[str, str] | None = None) -> Path:
    """Where numba keeps the compiled kernel: a folder named after the hash of every batch
    module's source. numba keys each function's cache on its own file's content only, not on
    the modules it calls into (the kernel's parts, chance.py, tables.py), so an edit of one
    would leave the others' cached code stale; a folder per version of them all compiles
    everything again instead. Under $NUMBA_CACHE_DIR if set, else the user's cache folder."""
    env = os.environ if environ is None else environ
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    base = env.get("NUMBA_CACHE_DIR") or str(
        Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rulekit"
    )
    return Path(base) / f"batch-{digest.hexdigest()[:16]}"


_here = Path(__file__).resolve().parent
_config: Any = numba.config  # (its settings are not typed)
# read by numba when each cached function is decorated (the modules below import after this)
_config.CACHE_DIR = str(cache_folder([*_here.glob("*.py"), *_here.glob("kernel/*.py")]))

# filed under the modules' place inside rulekit, not where rulekit is installed: a reinstall of
# the same sources (a new virtualenv, another checkout) finds the compiled kernel (locating.py)
from rulekit.batch import locating as _locating  # noqa: E402

_locating.install()

# the kernel's functions optimized once each, not again in every caller (rulekit.batch.linking)
from rulekit.batch import linking as _linking  # noqa: E402, F401
