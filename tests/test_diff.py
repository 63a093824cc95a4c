"""rulekit.diff's words for what a house rule changes."""

from __future__ import annotations

from pathlib import Path

from rulekit.diff import diff
from rulekit.lang import load_rules


def test_an_entry_given_its_first_option_is_said_in_words(tmp_path: Path) -> None:
    """An entry without options said as "no option", not a bare `none` (tests/test_house_rules'
    rule for what diff prints)."""
    house = tmp_path / "at-count.rk"
    house.write_text(
        'extends "hanaawase/fudawiki"\nyaku\n'
        '  blue_ribbons "Blue Ribbons (aotan)" 40: all of blue; at count\n',
        encoding="utf-8",
    )
    changes = diff(load_rules("hanaawase"), load_rules(house))
    said = [c for c in changes if c.what == "blue_ribbons options"]
    assert [(c.before, c.after) for c in said] == [("no option", "at the count")]
