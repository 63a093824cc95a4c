"""The batch engine: many rounds at once in numba kernels, playing what the scalar engine plays."""

from __future__ import annotations

import os


def _stale_guard() -> None:
    """numba's cache of the kernel is keyed on kernel.py's own time stamp only, not on the
    modules it calls into (chance.py, tables.py): when one of them is newer (an edit in a
    checkout), kernel.py is touched so that the kernel is compiled again, never run stale."""
    here = os.path.dirname(os.path.abspath(__file__))
    kernel = os.path.join(here, "kernel.py")
    try:
        newest = max(os.path.getmtime(os.path.join(here, f)) for f in ("chance.py", "tables.py"))
        if newest > os.path.getmtime(kernel):
            os.utime(kernel)
    except OSError:  # an installed, read-only package: its files come together
        pass


_stale_guard()
