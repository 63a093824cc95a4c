"""Shared fixtures: bundled variants, loaded and compiled once per session."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import HealthCheck, settings

from rulekit import ir, stored
from rulekit.engine.tables import CompiledRules
from rulekit.lang import kept as lang_kept
from rulekit.lang import load_rules

# No test may depend on the machine's speed: hypothesis's per-example deadline (200 ms) and its
# "too slow" health check are off for every test, on a loaded 2-core machine as on any other.
settings.register_profile(
    "rulekit",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("rulekit")


@pytest.fixture(autouse=True, scope="session")
def _kept_apart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What rulekit keeps between runs (rulekit.stored) is kept, during the tests, in a folder
    of their own: no test reads what a run outside them kept. Subprocesses are not patched:
    they keep in the user's cache folder, each thing under this version of the code."""
    kept = tmp_path_factory.mktemp("kept")
    patch = pytest.MonkeyPatch()
    patch.setattr(stored, "user_cache", lambda environ=None: kept)
    # rule files are loaded anew by every test (one that breaks the parser on purpose would
    # read back a load kept by another); tests/test_kept_rules.py turns keeping on
    patch.setattr(lang_kept, "ENABLED", False)
    yield
    patch.undo()


@cache
def rules(name: str) -> ir.Ruleset:
    return load_rules(name)


@cache
def compiled(name: str) -> CompiledRules:
    return CompiledRules(rules(name))


@pytest.fixture
def fudawiki() -> CompiledRules:
    return compiled("hachihachi/fudawiki")


@pytest.fixture
def kirisame() -> CompiledRules:
    return compiled("hachihachi/kirisame")


def pytest_configure(config: pytest.Config) -> None:
    """The test run's processes (its workers, and the `python -m rulekit` the CLI tests start)
    keep Python's byte code as a user's installation does: without it (PYTHONDONTWRITEBYTECODE,
    which some sandboxes set) each of some hundred commands compiles rulekit's sources again."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
