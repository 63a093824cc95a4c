"""Rule files loaded before are read back (rulekit.lang.kept) only while nothing they depend
on changed: the text of every file read, every reference resolved, the working directory. A
load with errors is never kept."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulekit.lang.loader as loader
from rulekit import stored
from rulekit.cli import cli
from rulekit.digest import rules_digest
from rulekit.errors import RulekitError
from rulekit.lang import kept, load_rules


@pytest.fixture
def keeping(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """Keeping on, in an empty cache folder; yields the names of the files parsed."""
    monkeypatch.setattr(kept, "ENABLED", True)
    monkeypatch.setattr(stored, "user_cache", lambda environ=None: tmp_path / "cache")
    parsed: list[str] = []
    real = loader.parse_rule_text

    def counted(text: str, name: str) -> Any:
        parsed.append(name)
        return real(text, name)

    monkeypatch.setattr(loader, "parse_rule_text", counted)
    monkeypatch.setattr(loader, "_parsed_file", counted)  # (not the parses kept in memory)
    monkeypatch.chdir(tmp_path)
    yield parsed


def _house(folder: Path, text: str = "") -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "house.rk"
    path.write_text(f'extends "koikoi"\ngame "Koi-Koi" variant "House"\n{text}')
    return path


def test_a_load_is_read_back_without_parsing(keeping: list[str]) -> None:
    first = load_rules("hachihachi/kirisame")
    assert len(keeping) >= 2  # the file and those it extends
    keeping.clear()
    assert load_rules("hachihachi/kirisame") == first
    assert keeping == []


def test_a_load_read_back_brings_its_digest_without_serializing_the_rules(
    keeping: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digest (the key of what is built from the rules) is kept with them: computing it
    again would build the IR's serializers, a twentieth of a command's start."""
    first = load_rules("hachihachi/kirisame")
    expected = hashlib.sha256(first.model_dump_json().encode()).hexdigest()
    again = load_rules("hachihachi/kirisame")
    monkeypatch.setattr(type(again), "model_dump_json", None)  # not called again
    assert rules_digest(again) == expected


def test_a_changed_file_is_loaded_again(keeping: list[str], tmp_path: Path) -> None:
    path = _house(tmp_path / "mine", "unit kan = 10 points\n")
    load_rules(path)
    path.write_text(path.read_text().replace('"House"', '"House, changed"'))
    keeping.clear()
    assert load_rules(path).variant == "House, changed"
    assert keeping  # parsed again


def test_a_file_found_first_now_is_loaded(keeping: list[str], tmp_path: Path) -> None:
    """`extends "koikoi"` found the bundled file; a koikoi.rk created beside the house file
    is found first from then on."""
    path = _house(tmp_path / "mine")
    assert load_rules(path).title.startswith("Koi-Koi")
    (tmp_path / "mine" / "koikoi.rk").write_text(
        'extends "koikoi/sloper"\ngame "Local Koi-Koi" variant "beside"\n'
    )
    keeping.clear()
    assert load_rules(path).game == "Koi-Koi"  # the house file's own header still names it
    assert any("mine/koikoi.rk" in name for name in keeping)


def test_another_working_directory_loads_again(
    keeping: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names in messages are relative to the working directory: a load is kept per directory."""
    path = _house(tmp_path / "mine")
    load_rules(path)
    monkeypatch.chdir(tmp_path / "mine")
    keeping.clear()
    assert load_rules(path).files[-1] == "house.rk"
    assert keeping


@pytest.mark.parametrize("text", ["seats 2 to 2; oops\n", "teyaku\n  odd: all of unicorn\n"])
def test_a_file_with_errors_is_never_kept(keeping: list[str], tmp_path: Path, text: str) -> None:
    path = _house(tmp_path / "mine", text)
    for _ in range(2):
        with pytest.raises(RulekitError):
            load_rules(path)
    assert not list((tmp_path / "cache").glob("rules-*/*.json"))


def test_a_kept_load_that_cannot_be_read_is_loaded_again(
    keeping: list[str], tmp_path: Path
) -> None:
    first = load_rules("koikoi")
    for text in ("{", json.dumps({"files": [], "refs": [], "rules": "{}"}), "[]"):
        for f in (tmp_path / "cache").glob("rules-*/*.json"):
            f.write_text(text)
        keeping.clear()
        assert load_rules("koikoi") == first
        assert keeping


def test_check_quotes_a_warnings_line_after_a_kept_load(keeping: list[str], tmp_path: Path) -> None:
    """A kept load registers its files' texts, so a message located in them still quotes
    its line (here check's zero-sum warning on the count)."""
    path = tmp_path / "par.rk"
    path.write_text('extends "hachihachi"\ngame "Hachi-Hachi" variant "Par 80"\ncount: par 80\n')
    said = [CliRunner().invoke(cli, ["check", str(path)]).output for _ in range(2)]
    assert "count: par 80" in said[0]
    assert said[1] == said[0]


def test_a_base_file_edited_between_two_loads_is_read_as_edited(tmp_path: Path) -> None:
    """The loader keeps the parse of a file it read (rulekit.lang.loader._parsed_file), by its
    text: a house rule loaded again after its base changed on disk sees the change."""
    base = tmp_path / "base.rk"
    base.write_text('extends "koikoi/sloper"\nrounds 6\n', encoding="utf-8")
    house = 'extends "base.rk"\n'
    anchor = tmp_path / "house.rk"
    assert loader.load_rules_text(house, "house.rk", anchor).length.rounds == 6
    base.write_text('extends "koikoi/sloper"\nrounds 3\n', encoding="utf-8")
    assert loader.load_rules_text(house, "house.rk", anchor).length.rounds == 3
