"""The batch engine: many rounds at once in numba kernels, playing what the scalar engine plays."""

from __future__ import annotations

import os


def level_stamps(folders: list[str]) -> None:
    """numba caches each compiled function keyed on its own file's time stamp only, not on the
    modules it calls into (the kernel's parts, chance.py, tables.py): when one module of these
    folders is newer than another (an edit in a checkout), every older one is touched to its
    time, so that everything is compiled again rather than run stale."""
    try:
        stamps = {
            path: os.path.getmtime(path)
            for folder in folders
            for path in (os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py"))
        }
        newest = max(stamps.values(), default=0.0)
        for path, stamp in stamps.items():
            if stamp < newest:
                os.utime(path, (newest, newest))
    except OSError:  # an installed, read-only package: its files come together
        pass


_here = os.path.dirname(os.path.abspath(__file__))
level_stamps([_here, os.path.join(_here, "kernel")])
