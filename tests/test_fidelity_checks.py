"""`rulekit check` warns when a variant's count can stop being zero-sum, and only then."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit import ir
from rulekit.cli import cli
from rulekit.lang import load_rules
from rulekit.lang.checks import (
    check_field_month,
    check_par_total,
    check_unplayed_cards,
    zero_sum_warnings,
)
from tests.conftest import rules

ROOT = Path(__file__).parent.parent
BUNDLED = sorted(
    str(p.relative_to(ROOT / "rules").with_suffix(""))
    for p in (ROOT / "rules").glob("*/*.rk")
    if p.parent.name != "common"
)
VOID_LINE = "void if the field has a month of 4\n"


def _write(tmp_path: Path, text: str, name: str = "house.rk") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _kirisame_without_void(tmp_path: Path) -> Path:
    """kirisame.rk as it was before it stated its reading: no void for a field four."""
    text = (ROOT / "rules/hachihachi/kirisame.rk").read_text(encoding="utf-8")
    assert VOID_LINE in text
    text = text.replace(VOID_LINE, "").replace(
        'deck "common/hanafuda"', f'deck "{ROOT / "rules/common/hanafuda.rk"}"'
    )
    return _write(tmp_path, text, "kirisame-silent.rk")


@pytest.mark.parametrize("name", BUNDLED)
def test_no_bundled_file_warns(name: str) -> None:
    assert [w.render() for w in zero_sum_warnings(rules(name))] == []


def test_a_par_that_times_the_players_is_not_the_deck_total_warns(tmp_path: Path) -> None:
    path = _write(tmp_path, 'extends "hachihachi/kirisame"\ncount: par 80; only without yaku\n')
    warnings = check_par_total(load_rules(path))
    assert len(warnings) == 1
    text = warnings[0].render()
    assert "par 80 x 3 players is not the deck's 264 points" in text
    assert f"{path.name}:2:1: warning:" in text.replace(str(tmp_path) + "/", "")
    assert "a par of 88" in text


def test_a_field_four_without_a_void_warns_at_the_deal(tmp_path: Path) -> None:
    warnings = check_field_month(load_rules(_kirisame_without_void(tmp_path)))
    assert len(warnings) == 1
    text = warnings[0].render()
    assert "a field of 6 cards can hold a month of 4" in text
    assert "deal 7 to each, 6 to the field" in text
    assert "void if the field has a month of 4" in text


def test_a_void_that_misses_the_field_four_still_warns() -> None:
    fudawiki = rules("hachihachi/fudawiki")
    pairs = ir.Shape(groups=(ir.ShapeGroup(size=2, count=3),))
    assert check_field_month(fudawiki) == []
    assert len(check_field_month(fudawiki.model_copy(update={"void_field": pairs}))) == 1
    assert len(check_field_month(fudawiki.model_copy(update={"void_field": None}))) == 1


def test_a_dealer_who_captures_the_field_four_keeps_the_count_zero_sum() -> None:
    sakura = rules("sakura/hawaii")
    par = sakura.model_copy(update={"count": ir.Settlement(method="par", par=40)})
    assert check_field_month(par) == []
    assert len(check_field_month(par.model_copy(update={"dealer_captures": None}))) == 1


def test_only_a_par_count_is_checked() -> None:
    two = rules("hachihachi/two-player")  # a difference count: zero-sum whatever is left over
    assert two.count.method == "difference"
    assert zero_sum_warnings(two.model_copy(update={"void_field": None})) == []


def test_cards_never_drawn_warn(tmp_path: Path) -> None:
    path = _write(tmp_path, 'extends "hachihachi/fudawiki"\ndeal 6 to each, 6 to the field\n')
    warnings = check_unplayed_cards(load_rules(path))
    assert len(warnings) == 1
    assert "at 3 players 6 cards are never drawn" in warnings[0].render()


def test_cards_left_in_the_stock_are_drawn_when_it_is_played_out(tmp_path: Path) -> None:
    text = 'extends "hachihachi/fudawiki"\ndeal 6 to each, 6 to the field\nplay out the stock\n'
    assert check_unplayed_cards(load_rules(_write(tmp_path, text))) == []


def test_check_prints_a_warning_and_still_passes(tmp_path: Path) -> None:
    path = _kirisame_without_void(tmp_path)
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "ok  " in result.output
    assert "warning: the count is not zero-sum" in result.output
    clean = CliRunner().invoke(cli, ["check", "hachihachi/kirisame"])
    assert clean.exit_code == 0 and "warning" not in clean.output
