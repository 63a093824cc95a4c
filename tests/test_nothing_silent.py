"""Nothing silent (issue 21, items 9 to 13): a statement that contradicts itself, a payment
that the file's options would never make, a sit-out nobody sits, a ledger line that names only
part of what it pays."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import RuleErrors
from rulekit.lang import load_rules


def _load(tmp_path: Path, text: str) -> None:
    path = tmp_path / "house.rk"
    path.write_text(text, encoding="utf-8")
    load_rules(path)


@pytest.mark.parametrize(
    ("line", "second", "message"),
    [
        ('continue "Sage": paid when made; if unfinished keep; if unfinished forfeit',
         "forfeit", "'forfeit' contradicts 'keep'"),
        ("teyaku best only, all add", "all add", "'all add' contradicts 'best only'"),
        ("dekiyaku\n  poetry_ribbons 40; flat; times multiplier", "times multiplier",
         "'times multiplier' contradicts 'flat'"),
        ("rounds 12; winner deals; dealer rotates", "dealer rotates",
         "'dealer rotates' contradicts 'winner deals'"),
        ("fold: fee 10; times multiplier; fee 20", "fee 20", "'fee 20' contradicts 'fee 10'"),
        ("count: par 88; always; always", "always", "'always' is given twice"),
        ('scoring\n  aw "Aw" the dealer takes 6; flat; times multiplier', "times multiplier",
         "'times multiplier' contradicts 'flat'"),
        ("continue: if beaten refund half and no penalty", "if beaten refund half and no penalty",
         "says a part twice, or 'no penalty' with a penalty"),
    ],
)  # fmt: skip
def test_contradictory_options_of_one_statement_are_an_error_at_the_second(
    tmp_path: Path, line: str, second: str, message: str
) -> None:
    """Issue 21, item 12: the last one won, silently."""
    text = f'extends "hachihachi/fudawiki"\n{line}\n'
    with pytest.raises(RuleErrors) as info:
        _load(tmp_path, text)
    (err,) = info.value.errors
    assert message in err.message
    assert err.loc is not None
    last = text.splitlines()[err.loc.line - 1]
    assert last[err.loc.col - 1 :].startswith(second)
