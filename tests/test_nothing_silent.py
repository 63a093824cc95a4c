"""Nothing silent (issue 21, items 9 to 13): a statement that contradicts itself, a payment
that the file's options would never make, a sit-out nobody sits, a ledger line that names only
part of what it pays."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.diff import diff
from rulekit.errors import RuleErrors
from rulekit.lang import load_rules
from rulekit.lang.checks import check_yaku_paid, rule_warnings
from rulekit.lang.files import bundled_names
from tests.conftest import rules


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


@pytest.mark.parametrize(
    ("base", "lines", "said"),
    [
        ("hachihachi/fudawiki", "continue: yaku do not end the round",
         "a count by par pays only the cards"),
        ("koikoi/sloper", "continue: yaku do not end the round", "'count: none' counts nothing"),
        ("sakura/hawaii", "count: points; always",
         "a count by points scores them only with 'opponents lose each yaku'"),
        ("hachihachi/fudawiki",
         "continue: yaku do not end the round\\ncount: par 88; always; opponents lose each yaku",
         "'opponents lose each yaku' is an option of a count by points or round wins"),
    ],
)  # fmt: skip
def test_yaku_never_paid_at_the_count_are_a_warning(
    tmp_path: Path, base: str, lines: str, said: str
) -> None:
    """Issue 21, item 9: yaku scored at a count that never pays them, and an option a par count
    ignores, were accepted without a word."""
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{base}"\n{lines}\n'.replace("\\n", "\n"), encoding="utf-8")
    warnings = rule_warnings(load_rules(path))
    assert any(said in w.message for w in warnings), [w.message for w in warnings]
    assert all(w.loc is not None and w.loc.file.endswith("house.rk") for w in warnings)


def test_every_bundled_file_pays_its_yaku() -> None:
    for name in bundled_names():
        assert not check_yaku_paid(load_rules(name)), name


def test_diff_says_yaku_that_do_not_end_the_round_are_paid_at_the_count() -> None:
    """`diff` said "yaku are paid: when their maker stops -> when made"."""
    changes = diff(rules("koikoi/sloper"), rules("sakura/hawaii"))
    words = [c.sentence() for c in changes if c.what == "continuation.paid"]
    assert words == ["yaku are paid: when their maker stops -> at the count"]


def test_check_prints_the_warning_and_passes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "house.rk"
    path.write_text('extends "hachihachi/fudawiki"\ncontinue: yaku do not end the round\n')
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 0
    assert "house.rk:2:1: warning: the yaku are never paid" in result.output
