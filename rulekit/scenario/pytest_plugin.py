"""pytest collects *.scenario.toml files: a folder of house rules and scenarios needs nothing
else to have a test suite. Registered through the `pytest11` entry point."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulekit.errors import RulekitError


class ScenarioFailed(Exception):
    """A scenario whose expectations the rules do not bear out."""


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.name.endswith(".scenario.toml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield ScenarioItem.from_parent(self, name=self.path.name.removesuffix(".scenario.toml"))


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from rulekit.scenario.runner import run_scenario

        outcome = run_scenario(self.path)
        if not outcome.passed:
            raise ScenarioFailed(outcome.render())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        if isinstance(excinfo.value, RulekitError):
            return excinfo.value.render()
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.name}"
