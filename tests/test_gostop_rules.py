"""Go-Stop's rules as statements of the language (issue 25): each one in the IR, said in
words by describe and diff, refused where it cannot apply. What they play is pinned by the
scenarios in rules/gostop/scenarios/ and held between the engines by the identity tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulekit import ir
from rulekit.cli import cli
from rulekit.describe import rulebook
from rulekit.lang import load_rules


def _text(rules: ir.Ruleset) -> str:
    return " ".join(p for s in rulebook(rules) for p in s.paragraphs)


def _house(tmp_path: Path, body: str, name: str = "house.rk") -> Path:
    path = tmp_path / name
    path.write_text(f'extends "gostop/gostop"\n{body}\n', encoding="utf-8")
    return path


# ---------------------------------------------------------------- GS 4, 30: the stop minimum


def test_choice_only_if_the_stop_minimum_is_the_choice_as_a_whole() -> None:
    for name, minimum in (("gostop/gostop", 3), ("gostop/matgo", 7)):
        offers = load_rules(name).continuation.offers
        assert [o.option for o in offers] == ["choice"], name
        assert f">= {minimum}" in _text(load_rules(name))


def test_choice_only_if_is_said_in_words_by_describe_and_diff(tmp_path: Path) -> None:
    text = _text(load_rules("gostop/gostop"))
    assert "Offered: choice only if score >= 3." in text
    assert "neither stops nor continues (no continue counted): play goes on" in text
    assert "he takes the other" not in text  # (no stop or continue offer to say it of)
    house = _house(
        tmp_path,
        'continue "Go": paid when stopping; if beaten no penalty; if another stops first'
        " forfeit; if unfinished forfeit; +1 per continue; stop only if score >= 3",
    )
    out = CliRunner().invoke(cli, ["diff", "gostop/gostop", str(house)])
    assert out.exit_code == 0, out.output
    assert "choice only if score >= 3 -> stop only if score >= 3" in out.output


def test_choice_only_if_on_yaku_that_do_not_end_the_round_is_refused(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        'continue "Go": paid when made; yaku do not end the round; choice only if score >= 3',
    )
    out = CliRunner().invoke(cli, ["check", str(house)])
    assert out.exit_code == 1
    assert "house.rk:2:" in out.output
    assert "nobody stops or continues when yaku do not end the round" in out.output
    assert "Traceback" not in out.output
