"""Where numba keeps each kernel function's compiled code: a place named from the module's path
inside rulekit, not from where rulekit happens to be installed.

numba's own locator files a function's code under a hash of its source folder's absolute path,
so the same rulekit installed again (a new virtualenv, a reinstall, a second checkout, a CI
clone) compiled the whole kernel again (45 to 60 s of one core) although the code was the same.
Here the place is `rulekit_batch_kernel` and the like, inside the folder that
rulekit.batch.cache_folder names after the hash of every batch module's source: the same
sources share one compile wherever they are installed; a changed source gets a new folder. numba
still checks each function's own source by its content hash before it uses the cached code.

numba's internals change between versions: if `CacheImpl` or its locator list is not there,
nothing is changed (a reinstall only compiles again, as before).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from numba.core import caching

_PACKAGE = Path(__file__).resolve().parent.parent  # the rulekit folder
_BATCH = Path(__file__).resolve().parent


def cache_subpath(py_file: str | Path) -> str:
    """The place of a batch module's cached code: its folder's path from the rulekit folder up,
    e.g. `rulekit_batch_kernel` for rulekit/batch/kernel/turn.py, wherever rulekit is."""
    folder = Path(py_file).resolve().parent
    return "_".join((_PACKAGE.name, *folder.relative_to(_PACKAGE).parts))


_Base: Any = getattr(caching, "UserProvidedCacheLocator", None)


if _Base is not None:

    class PackageCacheLocator(_Base):  # type: ignore[misc]
        """numba's locator for a CACHE_DIR given by the user (rulekit.batch sets it), with the
        place inside it named by cache_subpath; for rulekit's batch modules only."""

        @classmethod
        def get_suitable_cache_subpath(cls, py_file: str) -> str:
            return cache_subpath(py_file)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not Path(py_file).resolve().is_relative_to(_BATCH):
                return None
            return super().from_function(py_func, py_file)


def install() -> bool:
    """Put PackageCacheLocator first among numba's locators (once); whether it is there."""
    impl: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if _Base is None or not isinstance(classes, list):
        return False
    if PackageCacheLocator not in classes:
        classes.insert(0, PackageCacheLocator)
    return True
