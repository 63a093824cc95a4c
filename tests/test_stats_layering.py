"""The statistics sit below what reports them (issue 22's debt): the batch engine, the bots and
the engine import nothing from rulekit.sim (its tallies, moments and rule set digests live in
rulekit.stats and rulekit.digest), and rulekit.stats imports none of batch, agents or sim."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

RULEKIT = Path(__file__).parent.parent / "rulekit"


def imported(path: Path) -> set[str]:
    """The rulekit modules a module imports, at its top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rulekit"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("rulekit"))
    return out


def reaching(folders: tuple[str, ...], above: tuple[str, ...]) -> list[str]:
    """'module imports name' for each module of `folders` importing from a package `above`."""
    found = []
    for folder in folders:
        for path in sorted((RULEKIT / folder).rglob("*.py")):
            for name in sorted(imported(path)):
                if any(name == f"rulekit.{a}" or name.startswith(f"rulekit.{a}.") for a in above):
                    found.append(f"{path.relative_to(RULEKIT)} imports {name}")
    return found


def test_batch_agents_and_engine_import_nothing_from_sim() -> None:
    assert reaching(("batch", "agents", "engine"), ("sim",)) == []


def test_the_statistics_import_nothing_that_reports_them() -> None:
    assert reaching(("stats",), ("sim", "batch", "agents", "cli", "web")) == []


@pytest.mark.parametrize(
    ("old", "new", "names"),
    [
        ("rulekit.sim.tally", "rulekit.stats.tally", ["Tally"]),
        ("rulekit.sim.tally", "rulekit.stats.moments", ["Moments", "t95", "variance", "ci95"]),
        ("rulekit.sim.stats", "rulekit.stats.significance", ["holm", "p_value", "t_two_sided"]),
    ],
)
def test_the_old_import_paths_still_work_and_say_where_the_names_went(
    old: str, new: str, names: list[str]
) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new):
        module = importlib.import_module(old)
    for name in names:
        assert getattr(module, name) is getattr(importlib.import_module(new), name)
