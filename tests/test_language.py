"""The rule language: syntax, overrides, views, shapes, and the exact error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RuleErrors, RulekitError
from rulekit.evaluate import eval_captured, eval_hand
from rulekit.lang import load_rules
from tests.lang_helpers import errors_of, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are named relative to the working directory in messages."""
    monkeypatch.chdir(tmp_path)


BASE = 'extends "hachihachi/fudawiki"\n'


def hand_value(rules: ir.Ruleset, hand: str) -> int:
    c = CompiledRules(rules)
    return int(eval_hand(c, c.index.parse_many([hand]))["value"])


# ---------------------------------------------------------------- house rules


def test_a_house_rule_is_a_few_lines_on_top_of_a_published_variant(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """# our table pays Red only for exactly two ribbons
extends "hachihachi/fudawiki"
teyaku
  red: ribbons = 2 and plains = 5
""",
    )
    rules = load_rules(path)
    red = rules.teyaku.entry("red") if rules.teyaku else None
    assert red is not None and red.value == 15 and red.label == "Red (aka)"
    assert hand_value(rules, "11 21 32 42 52 62 72") == 15
    assert hand_value(rules, "11 21 31 42 52 62 72") == 0  # three ribbons: no longer Red
    assert rules.files[-1].endswith("house.rk")


def test_an_override_can_change_only_the_value(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, BASE + "teyaku\n  triple 12\n"))
    assert rules.teyaku is not None
    assert rules.teyaku.entry("triple").value == 12
    assert rules.teyaku.entry("triple").text == "a month of 3"


def test_a_new_entry_is_added_and_remove_drops_one(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            """extends "hachihachi/fudawiki"
teyaku
  two_triples "Two triples" 40: 2 months of 3
  remove one_light
""",
        )
    )
    assert rules.teyaku is not None
    names = [e.name for e in rules.teyaku.entries]
    assert "two_triples" in names and "one_light" not in names
    assert hand_value(rules, "10 11 12 30 31 32 80") == 40


def test_removing_an_entry_drops_it_from_exclusive_groups(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, BASE + "dekiyaku\n  remove five_lights\n"))
    assert rules.yaku is not None
    assert all("five_lights" not in g for g in rules.yaku.exclusive)


def test_an_extending_file_can_change_the_table_policy(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, BASE + "teyaku all add\n"))
    assert rules.teyaku is not None and rules.teyaku.policy == "all"
    # Triple and Haneken both count now
    assert hand_value(rules, "30 31 32 81 82 41 42") == 40


def test_a_restated_multiplier_section_replaces_the_tiers(tmp_path: Path) -> None:
    """Issue 11: a restated multiplier section replaces the parent's tiers whole (the x4 of the
    file extended is not kept beside the new x2 and x3)."""
    rules = load_rules(
        write(
            tmp_path,
            BASE + "multiplier\n  x2 if any of crane, curtain, moon\n  x3 if any of geese\n",
        )
    )
    factors = {t.factor: t for t in rules.multiplier.tiers}
    assert sorted(factors) == [2, 3]
    assert factors[2].carry_at is None


def test_extends_a_local_file_relative_to_the_including_file(tmp_path: Path) -> None:
    write(tmp_path, BASE + "teyaku\n  triple 11\n", "base.rk")
    (tmp_path / "sub").mkdir()
    child = write(tmp_path / "sub", 'extends "../base"\nteyaku\n  four 31\n', "child.rk")
    rules = load_rules(child)
    assert rules.teyaku is not None
    assert (rules.teyaku.entry("triple").value, rules.teyaku.entry("four").value) == (11, 31)


# ---------------------------------------------------------------- conditions


def test_bonus_per_extra_card(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            BASE + 'dekiyaku\n  ten_plains "Ten plains" 1: plains >= 10; +1 per extra\n',
        )
    )
    c = CompiledRules(rules)
    plains = "12 13 22 23 32 33 42 43 52 53 62 63"
    result = eval_captured(c, c.index.parse_many([plains]))
    assert {e["name"]: e["value"] for e in result["yaku"]} == {"ten_plains": 3}


def test_unless(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            BASE + 'dekiyaku\n  moon_view "Moon" 5: all of moon, sake; unless four_lights\n',
        )
    )
    c = CompiledRules(rules)
    assert [e["name"] for e in eval_captured(c, c.index.parse_many(["80 90"]))["yaku"]] == [
        "moon_view"
    ]
    names = [e["name"] for e in eval_captured(c, c.index.parse_many(["80 90 10 30 120"]))["yaku"]]
    assert names == ["four_lights"]


def test_a_card_in_two_classes_counts_in_both(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            """extends "hachihachi/fudawiki"
treat sake also as plain
dekiyaku
  five_animals "Five animals" 1: animals >= 5
  ten_plains "Ten plains" 1: plains >= 10
""",
        )
    )
    c = CompiledRules(rules)
    pile = "20 40 50 60 90 12 13 22 23 32 33 42 43 52"  # 4 animals + sake, 9 plains + sake
    names = [e["name"] for e in eval_captured(c, c.index.parse_many([pile]))["yaku"]]
    assert "five_animals" in names and "ten_plains" in names
    assert rules.card_points(90) == 10  # points come from the first class


def test_treat_as_changes_class_and_points(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, BASE + "treat rainman as animal\nexpect points 254\n"))
    assert rules.card(110).classes == ("animal",)
    assert rules.card_points(110) == 10


def test_month_shapes_in_one_chain_use_distinct_months(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            BASE + 'teyaku\n  st3 "S3" 99: a month of 3 in april and a month of 3\n',
        )
    )
    assert hand_value(rules, "40 41 42 10 20 30 50") == 15  # one April triple: only special_triple
    assert hand_value(rules, "40 41 42 10 11 12 50") == 99


def test_a_long_condition_may_wrap(tmp_path: Path) -> None:
    rules = load_rules(
        write(
            tmp_path,
            """extends "hachihachi/fudawiki"
dekiyaku
  moon_or_cherry "Viewing" 5: all of moon, sake
                              or all of curtain, sake
  both "Both" 3: (all of poetry and
                  all of blue)
""",
        )
    )
    assert rules.yaku is not None
    assert rules.yaku.entry("moon_or_cherry").text == "all of moon, sake or all of curtain, sake"


def test_names_resolve_to_cards_sets_classes_tags_and_months() -> None:
    rules = load_rules("hachihachi/fudawiki")
    assert rules.yaku is not None
    assert rules.yaku.entry("poetry_ribbons").condition == ir.AllOf(cards=(11, 21, 31))
    assert rules.yaku.entry("blue_ribbons").condition == ir.AllOf(cards=(61, 91, 101))


# ---------------------------------------------------------------- errors, exactly


def test_a_typo_in_a_card_name_is_located_with_a_suggestion(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        BASE + "dekiyaku\n  poetry_ribbons: all of crane, cutrain\n",
    )
    assert errors_of(path) == (
        f"{path.name}:3:33: unknown card, class, tag, set or month 'cutrain'\n"
        " 3 |   poetry_ribbons: all of crane, cutrain\n"
        "   |                                 ^^^^^^^\n"
        " = did you mean 'curtain'?"
    )


def test_a_syntax_error_says_what_was_expected(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "teyaku best onyl\n")
    assert errors_of(path) == (
        f"{path.name}:2:13: unexpected 'onyl'; expected 'only'\n"
        " 2 | teyaku best onyl\n"
        "   |             ^^^^\n"
        " = did you mean 'only'?"
    )


def test_an_override_of_something_that_does_not_exist(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "teyaku\n  tripel 12\n")
    message = errors_of(path)
    assert message.startswith(f"{path.name}:3:3: no teyaku named 'tripel' to change")
    assert "did you mean 'triple'?" in message


def test_a_yaku_no_hand_can_make(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + 'dekiyaku\n  many "Many" 10: lights >= 6\n')
    assert errors_of(path).startswith(
        f"{path.name}:3:3: no pile of captured cards can make 'many' (lights >= 6)"
    )


def test_a_teyaku_no_dealt_hand_can_make(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + 'teyaku\n  ff "FF" 10: 2 months of 4\n')
    assert "no dealt hand of 7 cards can make 'ff'" in errors_of(path)


def test_deck_totals_are_checked_against_expectations(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "expect plains 19, points 240\n")
    message = errors_of(path)
    assert "the deck has 24 plains, but this file expects 19" in message
    assert "the deck has 264 points, but this file expects 240" in message


def test_every_error_of_a_file_is_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        BASE + "teyaku\n  tripel 12\n  red: ribons = 2\n"
        "dekiyaku\n  exclusive five_lights, fuor_lights\n",
    )
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    assert [(e.loc.line if e.loc else 0) for e in info.value.errors] == [3, 4, 6]


def test_a_duplicate_entry_in_a_base_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'deck "common/hanafuda"\nteyaku\n  a "A" 1: a month of 3\n  a "A" 2: a month of 4\n',
    )
    assert f"{path.name}:4:3: teyaku 'a' is defined twice" in errors_of(path)


def test_an_entry_outside_a_section(tmp_path: Path) -> None:
    path = write(tmp_path, 'deck "common/hanafuda"\n  a "A" 1: a month of 3\n')
    assert "entry 'a' in no section; it belongs under a 'teyaku' or 'yaku' line" in errors_of(path)


def test_files_that_extend_each_other_in_a_circle(tmp_path: Path) -> None:
    write(tmp_path, 'extends "b"\n', "a.rk")
    write(tmp_path, 'extends "a"\n', "b.rk")
    assert "the files extend each other in a circle" in errors_of(tmp_path / "a.rk")


def test_an_unknown_bundled_name_suggests_the_close_one() -> None:
    with pytest.raises(RulekitError) as info:
        load_rules("hachihachi/kirisam")
    assert info.value.hint == "did you mean 'hachihachi/kirisame'?"


def test_a_card_id_that_does_not_exist(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + 'dekiyaku\n  x "X" 1: all of 14\n')
    message = errors_of(path)
    assert "no card 14" in message and "month 1 has cards 10, 11, 12, 13" in message
