"""Scenario files: the bundled ones pass, a wrong expectation fails showing the ledger, a
malformed file gets a located error, recorded rounds replay to the identical ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.errors import RulekitError, ScenarioError
from rulekit.lang import load_rules
from rulekit.scenario.load import find_scenarios
from rulekit.scenario.model import scenario_schema
from rulekit.scenario.runner import run_scenario
from rulekit.sim.simulate import simulate

ROOT = Path(__file__).parent.parent
SCENARIOS = ROOT / "rules" / "hachihachi" / "scenarios"
WORKED = SCENARIOS / "fudawiki" / "worked-example.scenario.toml"

pytest_plugins = ["pytester"]


def test_rulekit_test_rules_passes_with_at_least_40_scenarios() -> None:
    result = CliRunner().invoke(cli, ["test", str(ROOT / "rules"), "-q"])
    assert result.exit_code == 0, result.stdout + result.stderr
    passed = int(result.stdout.strip().splitlines()[-1].split()[0])
    assert passed >= 40
    assert result.stdout.strip().endswith(f"{passed} passed, 0 failed")


def test_every_bundled_hachihachi_file_is_pinned_by_scenarios() -> None:
    for folder in ("fudawiki", "kirisame", "wikipedia-draft", "two-player"):
        assert len(list((SCENARIOS / folder).glob("*.scenario.toml"))) >= 5, folder


def test_a_wrong_expectation_fails_and_shows_what_the_ledger_says(tmp_path: Path) -> None:
    text = WORKED.read_text(encoding="utf-8").replace("Leonardo = -128", "Leonardo = -100")
    path = tmp_path / "wrong.scenario.toml"
    path.write_text(text, encoding="utf-8")
    outcome = run_scenario(path)
    assert not outcome.passed
    shown = outcome.render()
    assert "net" in shown
    assert "expected: Leonardo -100, Raphael -40, Donatello 108, Michelangelo 60" in shown
    assert "got:      Leonardo -128, Raphael -40, Donatello 108, Michelangelo 60" in shown
    assert "ledger:" in shown and "Leonardo -> Donatello" in shown and "fold fee" in shown
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 1
    assert result.stdout.strip().endswith("0 passed, 1 failed")


@pytest.mark.parametrize(
    ("change", "located", "message"),
    [
        (('dealer = "Leonardo"', 'dealr = "Leonardo"'), ":11:", "unknown key 'dealr'"),
        (('"Leonardo: play moon"', '"Leonardo: play mon"'), ":15:", "unknown card 'mon'"),
        (('"Raphael: fold"', '"Rafael: fold"'), ":14:", "no seat named 'Rafael'"),
        (('dealer = "Leonardo"', 'dealer = "Leonardo'), ":11:", "not valid TOML"),
        (('"Leonardo: join"', '"Leonardo join"'), ":14:", "names no seat"),
        (('rules = "hachihachi/fudawiki"', 'rules = "hachihachi/fudawik"'), ":9:", "no rule file"),
        (("multiplier = 4", 'multiplier = "four"'), ":", "expect.multiplier"),
    ],
)
def test_a_malformed_scenario_gets_a_located_error(
    tmp_path: Path, change: tuple[str, str], located: str, message: str
) -> None:
    text = WORKED.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "bad.scenario.toml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(RulekitError) as info:
        run_scenario(path)
    rendered = info.value.render()
    assert rendered.startswith(f"{path}{located}") or f"bad.scenario.toml{located}" in rendered, (
        rendered
    )
    assert message in rendered
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.stderr


def test_a_key_typo_suggests_the_key() -> None:
    from rulekit.scenario.load import parse_scenario

    with pytest.raises(ScenarioError) as info:
        parse_scenario(
            'title = "t"\nrules = "hachihachi"\nseats = ["A", "B", "C"]\n[expect]\nnett = {}\n',
            "x.toml",
        )
    assert info.value.hint == "did you mean 'net'?"
    assert info.value.loc is not None and info.value.loc.line == 5


def test_house_rules_inline_answer_a_quick_question(tmp_path: Path) -> None:
    text = WORKED.read_text(encoding="utf-8").replace(
        'rules = "hachihachi/fudawiki"',
        'rules = "hachihachi/fudawiki"\nhouse_rules = """\nteyaku\n  triple 12\n"""',
    )
    text = text.replace("Leonardo = -128", "Leonardo = -144").replace(
        "Donatello = 108", "Donatello = 116"
    )
    text = text.replace("Michelangelo = 60", "Michelangelo = 68")
    path = tmp_path / "house.scenario.toml"
    path.write_text(text, encoding="utf-8")
    assert run_scenario(path).passed


def test_an_error_in_house_rules_points_into_the_scenario(tmp_path: Path) -> None:
    text = WORKED.read_text(encoding="utf-8").replace(
        'rules = "hachihachi/fudawiki"',
        'rules = "hachihachi/fudawiki"\nhouse_rules = """\nteyaku\n  tripel 12\n"""',
    )
    path = tmp_path / "house.scenario.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulekitError) as info:
        run_scenario(path)
    rendered = info.value.render()
    assert "house.scenario.toml:12:3: no teyaku named 'tripel' to change" in rendered
    assert " 12 |   tripel 12" in rendered


@pytest.mark.parametrize(
    ("name", "seats"),
    [
        ("hachihachi/fudawiki", 4),
        ("hachihachi/kirisame", 3),
        ("hachihachi/wikipedia-draft", 5),
        ("hachihachi/two-player", 2),
    ],
)
def test_recorded_rounds_replay_to_the_identical_ledger(
    tmp_path: Path, name: str, seats: int
) -> None:
    simulate(
        load_rules(name),
        seats=seats,
        bots=["greedy", "random"],
        rounds=250,
        seed=8,
        record=tmp_path,
        rules_ref=name,
    )
    files = find_scenarios([tmp_path])
    assert len(files) == 250
    for path in files:
        outcome = run_scenario(path)
        assert outcome.passed, outcome.render()
        assert "ledger" in path.read_text(encoding="utf-8")


def test_a_recorded_game_replays(tmp_path: Path) -> None:
    simulate(
        load_rules("hachihachi/kirisame"),
        games=2,
        seed=5,
        record=tmp_path,
        rules_ref="hachihachi/kirisame",
    )
    files = find_scenarios([tmp_path])
    assert len(files) == 2
    for path in files:
        outcome = run_scenario(path)
        assert outcome.passed, outcome.render()
        assert len(outcome.rounds) == 12


def test_the_scenario_schema_is_current() -> None:
    committed = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    assert committed == scenario_schema(), (
        "run `rulekit schema scenario > schemas/scenario.schema.json`"
    )
    result = CliRunner().invoke(cli, ["schema", "scenario"])
    assert json.loads(result.stdout) == committed


def test_pytest_collects_scenario_files(pytester: pytest.Pytester) -> None:
    good = WORKED.read_text(encoding="utf-8")
    pytester.makefile(
        ".scenario.toml", good=good, bad=good.replace("Raphael = -40", "Raphael = -4")
    )
    result = pytester.runpytest("-q")  # the plugin is loaded through its entry point
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*expected: Leonardo -128, Raphael -4*"])
