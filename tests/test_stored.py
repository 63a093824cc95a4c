"""What rulekit keeps between runs (rulekit.stored): the bots' calibration of a variant is
computed once per version of the code, not at every command; what cannot be kept or read back
is computed again, never an error."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import rulekit.agents.calibrate as calibrate
from rulekit import stored
from tests.conftest import compiled

USER_CACHE = stored.user_cache  # as collected, before the tests keep things apart (conftest)


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache folder, and no policy computed in this process yet."""
    monkeypatch.setattr(stored, "user_cache", lambda environ=None: tmp_path)
    monkeypatch.setattr(calibrate, "_POLICIES", {})
    return tmp_path


def _calibrations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []
    real = calibrate.calibrate

    def counted(*args: Any, **kwargs: Any) -> calibrate.DealPolicy:
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(calibrate, "calibrate", counted)
    return made


def test_a_policy_is_calibrated_once_then_read_back(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _calibrations(monkeypatch)
    c = compiled("hachihachi")
    first = calibrate.deal_policy(c, 4)
    assert len(made) == 1
    files = list(kept.glob("policies-*/*.json"))
    assert len(files) == 1 and files[0].parent.name == f"policies-{stored.code_digest()}"
    calibrate._POLICIES.clear()  # as a new command starts
    assert calibrate.deal_policy(c, 4) == first
    assert len(made) == 1  # read back, not played again


def test_what_cannot_be_read_back_is_calibrated_again(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = compiled("hachihachi")
    right = calibrate.deal_policy(c, 4)
    (path,) = kept.glob("policies-*/*.json")
    made: list[int] = []

    def again(*args: Any, **kwargs: Any) -> calibrate.DealPolicy:
        made.append(1)
        return right  # (what a calibration gives: the one above, without its seconds)

    monkeypatch.setattr(calibrate, "calibrate", again)
    for text in ("{half", json.dumps({"join_at": 1.0, "colour": "red"}), "[1, 2]"):
        path.write_text(text)
        calibrate._POLICIES.clear()
        assert calibrate.deal_policy(c, 4) == right
    assert len(made) == 3
    assert json.loads(path.read_text())["swap_samples"] == right.swap_samples  # written again


def test_a_folder_that_cannot_be_made_only_means_calibrating_again(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache folder's place is a file (a folder without write permission is written by
    root, who runs CI, all the same)."""
    blocked = kept / "a file"
    blocked.write_text("")
    monkeypatch.setattr(stored, "user_cache", lambda environ=None: blocked)
    made = _calibrations(monkeypatch)
    c = compiled("hachihachi")
    calibrate.deal_policy(c, 4)
    calibrate._POLICIES.clear()
    calibrate.deal_policy(c, 4)
    assert len(made) == 2


def test_a_failed_write_leaves_no_part_behind(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(stored.json, "dump", full)
    stored.write("things", "key", {"a": 1})
    assert stored.read("things", "key") is None
    assert list(kept.rglob("*")) == [stored.folder("things")]  # the folder, empty


def test_the_folder_follows_the_users_cache_setting() -> None:
    assert USER_CACHE({"XDG_CACHE_HOME": "/x"}) == Path("/x/rulekit")
    assert USER_CACHE({}) == Path.home() / ".cache" / "rulekit"


def test_a_new_version_drops_what_older_ones_kept(kept: Path) -> None:
    old = kept / "things-0123456789abcdef"
    old.mkdir()
    (old / "key.json").write_text("{}")
    stored.write("things", "key", {"a": 1})
    assert not old.exists()
    assert stored.read("things", "key") == {"a": 1}


def test_a_kind_keeps_at_most_its_share(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored, "KEPT", 10)
    for i in range(12):
        stored.write("things", f"k{i}", i)
        os.utime(stored.folder("things") / f"k{i}.json", (i, i))  # k0 the oldest
    left = sorted(p.stem for p in stored.folder("things").glob("*.json"))
    assert len(left) <= 10 and "k11" in left and "k0" not in left
