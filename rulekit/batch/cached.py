"""Reading the kernel's machine code back from numba's cache, without numba's compiler set-up.

Before numba's dispatcher looks in its cache, it installs every typing and lowering registry of
its compiler (imports and tables for all of numba's implementations): 0.15 to 0.2 s of one
core, a fifth of a short comparison's start, spent in every process that plays. Machine code
read back needs none of that, only the symbols of numba's runtime (NRT) that the kernel's
allocations link against. `read_cached` does just that, under numba's compile lock, and says
False when it did not: the cache does not hold this signature (the caller then takes numba's
own path, which compiles), or numba's internals are not those this was written against (numba's
own path again, only slower). A later compile in the process sets the registries up itself.
"""

from __future__ import annotations

from typing import Any


def read_cached(dispatcher: Any, args: tuple[Any, ...]) -> bool:
    """Bring the machine code of `dispatcher` for the types of `args` from numba's cache into
    this process (as Dispatcher.compile does on a cache hit). False: it was not read."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.runtime.nrt import rtsys
        from numba.core.typing.typeof import Purpose, typeof

        context = dispatcher.targetctx
        with global_compiler_lock:
            signature = tuple(typeof(a, Purpose.argument) for a in args)  # type: ignore[no-untyped-call]
            if tuple(signature) in dispatcher.overloads:
                return True
            rtsys.initialize(context)
            result = dispatcher._cache._load_overload(signature, context)
            if result is None or result.objectmode:
                return False
            context.insert_user_function(result.entry_point, result.fndesc, [result.library])
            dispatcher.add_overload(result)
        return True
    except Exception:  # numba's internals moved: its own path is still there
        return False
