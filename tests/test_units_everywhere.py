"""A unit wherever a number of points is written (issue 23, item 8): `start at -5 kan`, `fee 1
kan`, a par, a target, an instant win and a bonus in the unit; a value written with the unit is
always in the unit (a `unit` override rescales it), a bare par, target or start stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.errors import RuleError, RuleErrors
from rulekit.lang.loader import load_rules_text

FUDAWIKI = 'extends "hachihachi/fudawiki"\n'  # unit kan = 10 points


def load(text: str, anchor: Path = Path(__file__)) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", anchor)


def test_start_at_minus_5_kan_and_until_a_score_of_30_kan() -> None:
    rules = load(FUDAWIKI + "rounds 12; start at -5 kan; until a score of 30 kan\n")
    assert (rules.length.start, rules.length.target) == (-50, 300)


def test_fold_fee_1_kan_and_forced_folds_pay_2_kan() -> None:
    rules = load(FUDAWIKI + "fold: fee 1 kan; forced folds pay 2 kan\n")
    assert (rules.fold.fee, rules.fold.forced_fee) == (10, 20)


def test_par_8_kan_instant_win_1_kan_and_a_bonus_of_1_kan_per_extra() -> None:
    rules = load(
        FUDAWIKI
        + "count: par 8 kan\ninstant win 1 kan if a hand has a month of 4\n"
        + 'dekiyaku\n  ribbons7 "Seven ribbons" 2 kan: ribbons >= 7; +1 kan per extra\n'
    )
    assert rules.count.par == 80
    assert [w.value for w in rules.instant_wins] == [10]
    extra = next(e for e in rules.yaku.entries if e.name == "ribbons7") if rules.yaku else None
    assert extra is not None and extra.value == 20
    assert extra.bonus is not None and extra.bonus.amount == 10


def test_a_value_with_the_unit_follows_a_unit_override_and_a_bare_one_stays(
    tmp_path: Path,
) -> None:
    (tmp_path / "base.rk").write_text(
        FUDAWIKI + "count: par 8 kan\nrounds 12; start at 5; until a score of 30 kan\n"
        "fold: fee 1 kan; forced folds pay 5\n"
    )
    rules = load('extends "base.rk"\nunit kan = 12 points\n', tmp_path / "house.rk")
    assert rules.count.par == 96  # written with the unit
    assert (rules.length.start, rules.length.target) == (5, 360)  # bare start stays
    assert (rules.fold.fee, rules.fold.forced_fee) == (12, 6)  # a bare fee is rescaled


def test_a_value_in_an_unknown_unit_is_a_located_error() -> None:
    with pytest.raises(RuleErrors) as e:
        load(FUDAWIKI + "rounds 12; start at 5 kanz\n")
    (error,) = e.value.errors
    assert "unknown unit 'kanz'" in error.message and error.hint == "did you mean 'kan'?"
    assert error.loc is not None and (error.loc.line, error.loc.col) == (2, 23)


def test_a_value_in_a_unit_no_file_declares_is_a_located_error() -> None:
    with pytest.raises(RuleErrors, match="'1 kan': no unit is declared") as e:
        load('extends "koikoi/sloper"\nrounds 12; start at 1 kan\n')
    assert e.value.errors[0].loc is not None and e.value.errors[0].loc.line == 2


def test_a_negative_fee_is_still_a_syntax_error() -> None:
    with pytest.raises(RuleError, match="unexpected '-1'; expected a number"):
        load(FUDAWIKI + "fold: fee -1 kan\n")
