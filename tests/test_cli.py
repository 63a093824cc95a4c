"""The commands as a person types them: output, JSON keys, exit status, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_check_bundled_files() -> None:
    code, out, _ = run("check", "hachihachi", "hachihachi/kirisame")
    assert code == 0
    assert "ok  hachihachi: Hachi-Hachi (Fudawiki): 48 cards, 12 teyaku, 12 yaku" in out
    assert "ok  hachihachi/kirisame: Hachi-Hachi (kirisame): 48 cards, 47 teyaku, 10 yaku" in out


def test_check_reports_a_typo_with_location_caret_and_suggestion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("house.rk").write_text(
        'extends "hachihachi/fudawiki"\nteyaku\n  red: ribons >= 2\n', encoding="utf-8"
    )
    code, _, err = run("check", "house.rk")
    assert code == 1
    assert "house.rk:3:8: unknown card, class, tag, set or month 'ribons'" in err
    assert " 3 |   red: ribons >= 2" in err
    assert "   |        ^^^^^^" in err
    assert "did you mean 'ribbons'?" in err
    assert "house.rk: 1 error" in err


def test_check_a_missing_file() -> None:
    code, _, err = run("check", "no/such/file.rk")
    assert code == 1
    assert "no rule file 'no/such/file.rk'" in err
    assert "Traceback" not in err


def test_eval_hand_json_fudawiki_counts_10_and_kirisame_72() -> None:
    code, out, _ = run(
        "eval", "hachihachi", "--hand", "10", "11", "12", "30", "31", "32", "80", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"teyaku", "counted", "value", "round", "month", "dealer", "undecided"}
    assert data["value"] == 10
    assert data["teyaku"] == [{"name": "triple", "label": "Triple (sanbon)", "value": 10}]
    code, out, _ = run("eval", "hachihachi/kirisame", "--hand", "10 11 12 30 31 32 80", "--json")
    assert json.loads(out)["value"] == 72
    assert json.loads(out)["counted"][0]["name"] == "two_three"


def test_eval_accepts_card_names() -> None:
    code, out, _ = run(
        "eval", "hachihachi", "--captured", "crane", "curtain", "moon", "phoenix", "--json"
    )
    assert code == 0
    assert json.loads(out)["yaku"][0]["name"] == "four_lights"


def test_eval_field_json() -> None:
    _, out, _ = run(
        "eval", "hachihachi", "--field", "rainman", "phoenix", "12", "22", "42", "52", "--json"
    )
    assert json.loads(out) == {
        "multiplier": 4,
        "next_round_at_least": 4,
        "void": False,
        "round": None,
        "month": None,
    }


def test_eval_text_output() -> None:
    code, out, _ = run("eval", "hachihachi", "--hand", "30 31 32 81 82 41 42")
    assert code == 0
    assert "Haneken" in out and "value: 30" in out


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("10 11 12 13 20 21 99", "no card 99"),
        ("10 11 12 13 20 21 cran", "unknown card 'cran'"),
        ("10 11 12 13 20 21 10", "card 10 crane is given twice"),
        ("10 11 12", "a dealt hand has 7 cards; 3 given"),
    ],
)
def test_eval_bad_cards_get_a_clear_error(cards: str, message: str) -> None:
    code, _, err = run("eval", "hachihachi", "--hand", cards)
    assert code == 2  # a usage error: the cards given cannot be
    assert message in err
    assert "Traceback" not in err


def test_eval_without_a_mode_is_a_usage_error() -> None:
    code, _, err = run("eval", "hachihachi", "10")
    assert code == 2
    assert "--hand, --captured or --field" in err


def test_describe_markdown_has_the_tables() -> None:
    code, out, _ = run("describe", "hachihachi/kirisame", "--format", "markdown")
    assert code == 0
    assert out.startswith("# Hachi-Hachi (kirisame)")
    assert "| 110 | rainman | Rain man | 11 | light | 20 |  |" in out
    assert (
        "| one_light_four_three | One Light Four Three | 288 | One Light + Four Three |  |" in out
    )
    assert "48 cards: 5 lights at 20, 9 animals at 10, 10 ribbons at 5, 24 plains at 1;" in out
    assert "x4 if any of rainman, phoenix is on the field" in out


def test_describe_text() -> None:
    code, out, _ = run("describe", "hachihachi")
    assert code == 0
    assert "Four-three (shiso)" in out


def test_schema_ir_matches_the_committed_schema() -> None:
    code, out, _ = run("schema", "ir")
    assert code == 0
    committed = Path(__file__).parent.parent / "schemas" / "ir.schema.json"
    assert json.loads(out) == json.loads(committed.read_text(encoding="utf-8")), (
        "schemas/ir.schema.json is stale: run `rulekit schema ir > schemas/ir.schema.json`"
    )


def test_a_rule_file_given_as_json_ir(tmp_path: Path) -> None:
    from rulekit.lang import load_rules

    rules = load_rules("hachihachi/kirisame")
    path = tmp_path / "kirisame.json"
    path.write_text(rules.model_dump_json(), encoding="utf-8")
    code, out, _ = run("eval", str(path), "--hand", "10 11 12 30 31 32 80", "--json")
    assert code == 0 and json.loads(out)["value"] == 72
    path.write_text('{"game": "x"}', encoding="utf-8")
    code, _, err = run("check", str(path))
    assert code == 1 and "deck" in err


def test_every_command_has_help_with_an_example() -> None:
    for command in ("check", "describe", "eval", "schema"):
        code, out, _ = run(command, "--help")
        assert code == 0
        assert "Example" in out and "rulekit " + command in out


def test_the_console_script_runs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rulekit",
            "eval",
            "hachihachi",
            "--hand",
            "10 11 12 30 31 32 80",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["value"] == 10
