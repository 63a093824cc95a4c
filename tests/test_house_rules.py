"""Issue 11, point 7: every house rule under rules/*/house/ is proven by rule files. Each one
loads with every check, extends the file it names, differs from it in words (`rulekit diff`
speaks the rulebook's language, never the IR's), and is pinned by at least one scenario."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.diff import Change, diff, render
from rulekit.lang import load_rules
from rulekit.lang.files import find_rules

ROOT = Path(__file__).resolve().parent.parent
HOUSE = sorted(ROOT.glob("rules/*/house/*.rk"))
SCENARIOS = sorted(ROOT.glob("rules/**/*.scenario.toml"))
EXTENDS = re.compile(r'^extends\s+"([^"]+)"', re.MULTILINE)

# The IR leaking into a diff: a dotted field name (`count.method`), a Python or JSON literal,
# or a bare `none` as a value (a phrase like "none (the rounds only)" is words).
FIELD_NAME = re.compile(r"\b[a-z_]+\.[a-z_]+\b")
LITERAL = re.compile(r"\b(true|false|True|False|None|null)\b")
BARE_NONE = re.compile(r"(?:: |-> )none\b(?! \()")


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}"


def _parent(path: Path) -> str:
    found = EXTENDS.search(path.read_text(encoding="utf-8"))
    assert found is not None, f"{path} extends nothing: a house rule is written over a variant"
    return found.group(1)


def _changes(path: Path) -> list[Change]:
    return diff(load_rules(_parent(path)), load_rules(path))


def _scenario_rules(scenario: Path) -> Path | None:
    """The rule file a scenario plays, found as the runner finds it."""
    data = tomllib.loads(scenario.read_text(encoding="utf-8"))
    ref = data.get("rules")
    return find_rules(ref, scenario).resolve() if isinstance(ref, str) else None


def test_there_are_house_rules_for_every_game() -> None:
    games = {p.parent.parent.name for p in HOUSE}
    assert games == {
        "hachihachi",
        "koikoi",
        "sakura",
        "bakappana",
        "hanaawase",
        "minhwatu",
        "mushi",
        "gostop",
        "tensho",
    }
    assert len(HOUSE) >= 10


@pytest.mark.parametrize("path", HOUSE, ids=_id)
def test_a_house_file_is_commented_and_loads_with_every_check(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# House rule"), "say what the table plays, first"
    rules = load_rules(path, check=True)
    assert rules.variant, "a house file names its variant"


@pytest.mark.parametrize("path", HOUSE, ids=_id)
def test_its_parent_is_what_it_extends(path: Path) -> None:
    rules = load_rules(path)
    parent = load_rules(_parent(path))
    assert Path(rules.files[-1]).resolve() == path.resolve()
    common = ROOT / "rules" / "common"  # (a deck it plays instead: Go-Stop's jokers)
    assert [Path(f).resolve() for f in rules.files[:-1] if Path(f).resolve().parent != common] == [
        Path(f).resolve() for f in parent.files if Path(f).resolve().parent != common
    ]


@pytest.mark.parametrize("path", HOUSE, ids=_id)
def test_the_diff_against_the_parent_says_the_rule_in_words(path: Path) -> None:
    changes = _changes(path)
    rule_changes = [c for c in changes if c.section != "game"]
    assert rule_changes, "a house file changes a rule, not only the variant's name"
    assert any(c.section == "game" and c.what == "variant" for c in changes)
    for c in changes:
        line = c.sentence()
        assert not FIELD_NAME.search(line), line
        assert not LITERAL.search(line), line
        assert not BARE_NONE.search(line), line


@pytest.mark.parametrize("path", HOUSE, ids=_id)
def test_a_scenario_pins_it(path: Path) -> None:
    naming = [s for s in SCENARIOS if _scenario_rules(s) == path.resolve()]
    assert naming, f"no scenario under rules/ plays {path.relative_to(ROOT)}"


def test_the_cli_diff_of_a_house_file_starts_with_its_name() -> None:
    result = CliRunner().invoke(cli, ["diff", "koikoi/sloper", "koikoi/house/oya-ken"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == ("koikoi/sloper -> koikoi/house/oya-ken: 2 differences")
    assert 'the variant\'s name: "Sloper" -> "Sloper, oya-ken"' in result.stdout


# ---------------------------------------------------------------- diff gaps (point 3)
def _house(tmp_path: Path, parent: str, lines: str, variant: str | None = "House") -> Path:
    game = load_rules(parent).game
    named = f'game "{game}" variant "{variant}"\n' if variant is not None else ""
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{parent}"\n{named}{lines}', encoding="utf-8")
    return path


def test_a_changed_variant_line_is_shown(tmp_path: Path) -> None:
    path = _house(tmp_path, "koikoi/sloper", "rounds 6\n", variant="Sloper, six rounds")
    text = render(diff(load_rules("koikoi/sloper"), load_rules(path)), "a", "b")
    assert 'The game:\n  the variant\'s name: "Sloper" -> "Sloper, six rounds"' in text
    assert text.startswith("a -> b: 2 differences")


def test_an_unchanged_variant_line_is_not_shown(tmp_path: Path) -> None:
    path = _house(tmp_path, "koikoi/sloper", "rounds 6\n", variant=None)
    changes = diff(load_rules("koikoi/sloper"), load_rules(path))
    assert [c.section for c in changes] == ["round"]


def test_removing_the_wild_card_is_one_line_in_words(tmp_path: Path) -> None:
    path = _house(tmp_path, "sakura/hawaii", "remove wild\n")
    changes = [
        c for c in diff(load_rules("sakura/hawaii"), load_rules(path)) if c.section != "game"
    ]
    assert len(changes) == 1
    line = changes[0].sentence()
    assert line.startswith("the wild card: removed (was: The lightning is wild: played from")
    assert not LITERAL.search(line) and not BARE_NONE.search(line)
    back = [c for c in diff(load_rules(path), load_rules("sakura/hawaii")) if c.section != "game"]
    assert [c.sentence().split(":")[0:2] for c in back] == [["the wild card", " added"]]


def test_a_changed_option_of_the_wild_card_is_still_one_line_per_option(tmp_path: Path) -> None:
    wild = "wild lightning: captures any field card from the hand; collects its month at the end\n"
    path = _house(tmp_path, "sakura/hawaii", wild)
    changes = [
        c for c in diff(load_rules("sakura/hawaii"), load_rules(path)) if c.section != "game"
    ]
    assert {c.what for c in changes} == {"wild.respects_hiki", "wild.lay_when_blocked"}


# ---------------------------------------------------------------- a game that ends (runner)
def _game_under(tmp_path: Path, source: str, rules: str) -> Path:
    text = (ROOT / source).read_text(encoding="utf-8")
    text = re.sub(r'^rules = ".*"$', f'rules = "{rules}"', text, count=1, flags=re.MULTILINE)
    path = tmp_path / "game.scenario.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_game_said_over_fails_when_no_target_ends_it(tmp_path: Path) -> None:
    from rulekit.scenario.runner import run_scenario

    source = "rules/sakura/house/scenarios/target-score-reached.scenario.toml"
    outcome = run_scenario(_game_under(tmp_path, source, "sakura/hawaii"))
    assert [f.what for f in outcome.failures] == ["the game over"]
    assert outcome.failures[0].actual == "the game goes on"


def test_rounds_written_after_the_target_is_reached_are_refused(tmp_path: Path) -> None:
    from rulekit.scenario.runner import run_scenario

    target = (ROOT / "rules/sakura/house/target-score.rk").as_posix()
    source = "rules/sakura/scenarios/whole-game.scenario.toml"
    outcome = run_scenario(_game_under(tmp_path, source, target))
    first = outcome.failures[0]
    assert (first.round, first.what) == (7, "the game")
    assert first.actual == "the game is over after round 7: a total of 500 reached"
    assert len(outcome.rounds) == 7
