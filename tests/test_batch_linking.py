"""rulekit.batch.linking: a kernel compiled for another kernel is optimized by its caller only;
a kernel compiled for Python, and any numba code not rulekit's, as numba does it."""

from __future__ import annotations

from typing import Any

import pytest
from numba import njit

from rulekit.batch import linking


def _pair(module: str) -> tuple[Any, Any]:
    """A callee and its caller, freshly compiled (no cache), as if defined in `module`."""

    def callee(x: int) -> int:
        return x * 3 + 1

    callee.__module__ = module
    inner = njit(cache=False)(callee)

    def caller(x: int) -> int:
        return inner(x) + inner(x + 1)

    caller.__module__ = module
    return inner, njit(cache=False)(caller)


@pytest.fixture
def optimized(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The libraries numba's whole-module optimization ran on, by name."""
    names: list[str] = []
    numba_optimize = linking._numba_optimize

    def counted(library: Any) -> None:
        names.append(library.name)
        numba_optimize(library)

    monkeypatch.setattr(linking, "_numba_optimize", counted)
    return names


def test_a_kernel_compiled_for_a_kernel_is_optimized_by_its_caller_only(
    optimized: list[str],
) -> None:
    assert linking.INSTALLED
    _, caller = _pair("rulekit.batch.kernel.probe")
    assert caller(2) == 7 + 10  # the same answers
    assert any("caller" in n for n in optimized)
    assert not any("callee" in n for n in optimized)


def test_numba_code_not_rulekits_is_optimized_as_numba_does(optimized: list[str]) -> None:
    _, caller = _pair("someone.elses.module")
    assert caller(2) == 17
    assert any("callee" in n for n in optimized)
    assert any("caller" in n for n in optimized)


def test_a_kernel_called_from_python_first_is_optimized_whole(optimized: list[str]) -> None:
    callee, _ = _pair("rulekit.batch.kernel.probe")
    assert callee(2) == 7
    assert any("callee" in n for n in optimized)
