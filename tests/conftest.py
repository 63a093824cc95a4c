"""Shared fixtures: bundled variants, loaded and compiled once per session."""

from __future__ import annotations

from functools import cache

import pytest

from rulekit import ir
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules


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
