"""Writing a rule file in a test's folder and reading the error it gets, for the language tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import RulekitError
from rulekit.lang import load_rules


def write(tmp_path: Path, text: str, name: str = "house.rk") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> str:
    """The rendered error of a rule file that must not load."""
    with pytest.raises(RulekitError) as info:
        load_rules(path)
    return info.value.render()
