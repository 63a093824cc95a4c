"""The kernel's machine code read back from numba's cache without numba's compiler set-up
(rulekit.batch.cached): a fifth of a short comparison's start, in every process that plays."""

from __future__ import annotations

import subprocess
import sys

from numba import njit

from rulekit.batch import engine
from rulekit.batch.cached import read_cached

PROBE = """
import sys
from rulekit.batch import engine
engine.load_kernel()
print(engine.kernel_loaded(), "numba.np.arraymath" in sys.modules)
"""


def test_a_process_reads_the_cached_kernel_without_numba_s_compiler_registries() -> None:
    """numba's own path imports and installs every implementation of its compiler (among them
    numba.np.arraymath) before it looks in its cache; the kernel's code needs none of them."""
    engine.load_kernel()  # compiled here first if this version's kernel is not cached yet
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    assert probe.stdout.split() == ["True", "False"]


def test_a_function_numba_does_not_cache_is_left_to_numba_s_own_path() -> None:
    @njit(cache=False)
    def plus_one(x: int) -> int:
        return x + 1

    assert not read_cached(plus_one, (1,))
    assert plus_one(1) == 2  # compiled by numba, as before
