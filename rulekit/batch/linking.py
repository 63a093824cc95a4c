"""The kernel's compile, optimized once per function instead of once per caller.

numba compiles every function a kernel calls into a library of its own, then, for each
library, links in the libraries of everything it calls and runs LLVM's whole module
optimization over the result. The kernel's functions call each other some levels deep, so
the same code was optimized again in every caller's module: two thirds of a fresh compile's
LLVM time (measured: 23 of 40 s, 181 libraries).

A function compiled for a caller (its compile nested in the caller's) is here left with its
function-level optimization only: its caller links it in and optimizes the whole module,
inlining and all, as before. A function compiled for Python (a compile that is not nested:
`play_deals` and any entry Python calls first) is optimized whole, as numba would. The machine
code of a kernel is therefore what it was (the identity tests hold it to the scalar engine);
what changes is the compile's time. A function first compiled for a caller and then called
from Python runs its own code without the module passes: correct, only slower; the kernel's
Python-facing entries are not called from other kernels. Only rulekit's batch modules are
compiled this way: other numba code in the process is left as numba makes it.

numba's internals change between versions: if `CPUCodeLibrary._optimize_final_module` is not
there, nothing is changed (the compile is only slower).
"""

from __future__ import annotations

import threading
from typing import Any

from numba.core import codegen, event

_state = threading.local()


def _compiling() -> list[bool]:
    """The dispatcher compiles in progress on this thread, outermost first: whether each is one
    of rulekit's kernels (a caller's type inference compiles its callees inside its own)."""
    stack: list[bool] | None = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    return stack


class _NestedCompiles(event.Listener):
    """Keeps _compiling() as numba starts and ends each function's compile."""

    def on_start(self, event: Any) -> None:
        dispatcher = event.data.get("dispatcher") if isinstance(event.data, dict) else None
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        _compiling().append(module.startswith(__package__ or "rulekit.batch"))

    def on_end(self, event: Any) -> None:
        _compiling().pop()


def _for_a_kernel() -> bool:
    """Whether the library being finalized is a rulekit kernel compiled for another."""
    stack = _compiling()
    return len(stack) > 1 and stack[-1]


# numba's own optimization of a library's final module (None: not found in this numba)
_library: Any = getattr(codegen, "CPUCodeLibrary", None)
_numba_optimize: Any = getattr(_library, "_optimize_final_module", None)


def _optimize_final_module(library: Any) -> None:
    if _for_a_kernel():  # its callers optimize it with their own module
        return
    _numba_optimize(library)


def _install() -> bool:
    if _numba_optimize is None:
        return False
    _library._optimize_final_module = _optimize_final_module
    register: Any = event.register  # (numba is not typed)
    register("numba:compile", _NestedCompiles())
    return True


INSTALLED = _install()
