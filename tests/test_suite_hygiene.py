"""The test suite itself: it does not depend on the machine's speed, and says why it skips
(issue 21, item 18)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

TESTS = Path(__file__).parent
ROOT = TESTS.parent


def test_no_hypothesis_test_has_a_deadline() -> None:
    """A 200 ms deadline failed two tests on a loaded 2-core machine."""
    assert settings.default.deadline is None
    for path in TESTS.glob("*.py"):
        numeric = re.findall(r"deadline=(?!None)[\w.]+", path.read_text(encoding="utf-8"))
        assert not numeric, f"{path.name}: {numeric}"


def test_a_skipped_test_says_why(tmp_path: Path) -> None:
    """The README's test command prints the reason of each skip (`-rs` in pyproject's addopts),
    as the browser tests give theirs when Chromium is missing."""
    (tmp_path / "test_skipping.py").write_text(
        "import pytest\n\n\ndef test_it():\n    pytest.skip('Chromium is not installed')\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-n", "0",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert "SKIPPED" in done.stdout and "Chromium is not installed" in done.stdout, done.stdout
