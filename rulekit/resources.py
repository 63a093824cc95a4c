"""Where the grammar and the bundled rule files live, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_INSTALLED = _PACKAGE / "_data"
_CHECKOUT = _PACKAGE.parent


def _data_dir(name: str) -> Path:
    installed = _INSTALLED / name
    if installed.is_dir():
        return installed
    return _CHECKOUT / name


def grammar_path() -> Path:
    return _data_dir("grammar") / "rulekit.lark"


def rules_dir() -> Path:
    return _data_dir("rules")
