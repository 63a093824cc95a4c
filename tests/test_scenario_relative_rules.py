"""A scenario's `rules` path is relative to the scenario file, with or without `house_rules`
(issue 11, point 7: `rules = "../x.rk"` plus house rules looked for the file in the wrong place,
joined to the scenario's folder twice)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulekit.scenario.runner import run_scenario

HOUSE = 'extends "koikoi/sloper"\ngame "Koi-Koi" variant "Sloper, test"\n'
SCENARIO = """title = "relative rules with house rules"
rules = "../house.rk"
{house}seats = ["Alice", "Bob"]
dealer = "Alice"
moves = ["Bob: keep", "Alice: play moon", "Bob: play 13", "Alice: play sake", "Alice: stop"]

[deal]
field = ["geese", 92, 32, "boar", "deer", "swallow", 121, 71]
stock = ["crane", "warbler", "cuckoo", "bridge", "butterflies"]

[deal.hands]
Alice = ["moon", "sake", "curtain", 12, 22, 42, 52, 62]
Bob = [13, 23, 43, 53, 63, 72, 102, 112]

[expect]
ledger = [{{ payer = "Bob", payee = "Alice", amount = {amount}, reason = "yaku" }}]
"""
# Moon viewing, 5; the inline house rule doubles every stop (a scoring step): 10.
DOUBLED = 'house_rules = """\nscoring\n  all_doubled "All doubled" x2\n"""\n'


def _write(tmp_path: Path, house: str, amount: int) -> Path:
    (tmp_path / "house.rk").write_text(HOUSE, encoding="utf-8")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    path = folder / "relative.scenario.toml"
    path.write_text(SCENARIO.format(house=house, amount=amount), encoding="utf-8")
    return path


@pytest.mark.parametrize(("house", "amount"), [("", 5), (DOUBLED, 10)])
@pytest.mark.parametrize("cwd", ["root", "folder", "elsewhere"])
def test_a_relative_rules_path_is_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, house: str, amount: int, cwd: str
) -> None:
    path = _write(tmp_path, house, amount)
    where = {"root": tmp_path, "folder": path.parent, "elsewhere": tmp_path.parent}[cwd]
    monkeypatch.chdir(where)
    outcome = run_scenario(Path(os.path.relpath(path, where)))
    assert outcome.passed, outcome.render()
