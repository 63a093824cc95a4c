"""Issue 11, points 3 and 4 (language side): total, explicit overrides (a restated statement
replaces the whole of it, a statement given twice in one file is an error, inherited statements
removed by name, a restated multiplier replaces the tiers), and seats and roles (sit-out
policies, fold fee payees, declarations before the deal, yaku paid as made in a round that
plays on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.diff import diff, render
from rulekit.lang import load_rules
from tests.lang_helpers import errors_of, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are named relative to the working directory in messages."""
    monkeypatch.chdir(tmp_path)


def house(tmp_path: Path, parent: str, *lines: str) -> Path:
    return write(tmp_path, f'extends "{parent}"\n' + "\n".join(lines) + "\n")


# ---------------------------------------------------------------- a restated statement is whole
def test_a_restated_count_keeps_none_of_the_parents_options(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "sakura/hawaii", "count: round wins"))
    assert rules.count == ir.Settlement(method="round_wins")
    assert load_rules("sakura/hawaii").count.opponents_lose


def test_a_restated_continue_drops_multiplier_per_yaku(tmp_path: Path) -> None:
    """The issue's example: restating `continue` without `multiplier per yaku` drops it."""
    rules = load_rules(house(tmp_path, "koikoi", 'continue "Koi-koi": paid when stopping'))
    assert not rules.continuation.multiplier_per_yaku
    assert rules.continuation.if_unfinished == "keep"  # the IR's default, not the parent's
    text = render(diff(load_rules("koikoi"), rules), "a", "b")
    assert "the n-th yaku after continuing multiplies the score by n: yes -> no" in text


def test_a_restated_fold_keeps_none_of_the_parents_options(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", "fold: fee 5"))
    assert rules.fold == ir.Fold(fee=5)


def test_a_restated_deal_at_a_table_size_is_whole(tmp_path: Path) -> None:
    rules = load_rules(
        house(tmp_path, "sakura/hawaii", "deal at 3 seats: 6 to each, 8 to the field")
    )
    at3 = next(d for d in rules.deal if d.seats == 3)
    assert (at3.hand, at3.field) == (6, 8)


# ---------------------------------------------------------------- given twice in one file
@pytest.mark.parametrize(
    ("first", "second", "what"),
    [
        ("count: par 88", "count: difference", "'count'"),
        ("fold: fee 10", "fold: fee 5", "'fold'"),
        ('continue "A": paid when made', "no continue", "'continue'"),
        ("hiki: capture all four cards of a month seen in hand and field", "hiki: capture all"
         " four cards of a month seen in hand and field", "'hiki'"),
        ("sit out: the dealer", "sit out: by folding", "'sit out'"),
        ("deal at 4 seats: 5 to each, 8 to the field",
         "deal at 4 seats: 6 to each, 8 to the field", "'deal at 4 seats'"),
    ],
)  # fmt: skip
def test_a_statement_given_twice_in_one_file_is_located(
    tmp_path: Path, first: str, second: str, what: str
) -> None:
    path = house(tmp_path, "hachihachi/fudawiki", first, second)
    text = errors_of(path)
    assert f"house.rk:3:1: {what} is given twice in this file (first at house.rk:2:1" in text


def test_deal_at_two_table_sizes_is_not_twice(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "sakura/hawaii",
        "deal at 4 seats: 5 to each, 8 to the field",
        "deal at 5 seats: 4 to each, 8 to the field",
    )
    assert load_rules(path).deal


def test_an_entry_given_twice_in_a_house_file_is_an_error(tmp_path: Path) -> None:
    path = house(tmp_path, "hachihachi/fudawiki", "teyaku", "  triple 12", "  triple 14")
    assert "house.rk:4:3: teyaku 'triple' is defined twice in this file (first at house.rk:3" in (
        errors_of(path)
    )


def test_a_tier_given_twice_in_one_file_is_an_error(tmp_path: Path) -> None:
    path = house(
        tmp_path, "hachihachi/fudawiki", "multiplier", "  x2 if any of crane", "  x2 if any of moon"
    )
    assert "tier x2 is given twice in this file" in errors_of(path)


# ---------------------------------------------------------------- removed by name
@pytest.mark.parametrize(
    ("parent", "name", "field", "default"),
    [
        ("sakura/hawaii", "hiki", "hiki", False),
        ("sakura/hawaii", "wild", "wild", None),
        ("sakura/hawaii", "teams", "teams", ()),
        ("sakura/hawaii", "dealer captures", "dealer_captures", None),
        ("hachihachi/kirisame", "liability", "liability", None),
        ("hachihachi/fudawiki", "void", "void_field", None),
    ],
)
def test_an_inherited_statement_is_removed_by_name(
    tmp_path: Path, parent: str, name: str, field: str, default: object
) -> None:
    assert getattr(load_rules(parent), field) != default
    rules = load_rules(house(tmp_path, parent, f"remove {name}"))
    assert getattr(rules, field) == default


def test_remove_instant_wins(tmp_path: Path) -> None:
    rules = load_rules(
        house(tmp_path, "koikoi", "remove instant wins", "setup: hands, swap, field")
    )
    assert rules.instant_wins == () and rules.instant_win is None


def test_remove_joker_and_its_setup_step(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "hachihachi/wikipedia-draft",
        "remove joker",
        "seats 3 to 6, 3 play",
        "setup: hands, fold, teyaku, field",
    )
    assert load_rules(path).joker is None
    text = errors_of(house(tmp_path, "hachihachi/wikipedia-draft", "remove joker"))
    assert "setup has a 'joker' step, but the file has no joker" in text


def test_remove_teams_at_one_table_size(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "sakura/hawaii", "remove teams at 6 seats"))
    assert [t.seats for t in rules.teams] == [4]


def test_remove_a_statement_right_under_a_table(tmp_path: Path) -> None:
    """`remove hiki` after the yaku lines names the statement, not a yaku."""
    path = house(tmp_path, "sakura/hawaii", "yaku", "  i 60", "remove hiki")
    rules = load_rules(path)
    assert not rules.hiki and rules.yaku is not None and rules.yaku.entry("i").value == 60


def test_remove_what_is_not_inherited_is_located(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "koikoi", "remove hiki"))
    assert "house.rk:2:8: no 'hiki' to remove: the files extended do not say it" in text


def test_remove_an_unknown_statement_suggests(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "sakura/hawaii", "remove hikki"))
    assert "'hikki' is no statement that can be removed" in text
    assert "did you mean 'hiki'" in text


def test_remove_an_entry_outside_its_table_says_where(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "sakura/hawaii", "remove ro"))
    assert "'ro' is a yaku: remove it under a 'yaku' line" in text


# ---------------------------------------------------------------- the multiplier restated
def test_a_new_tier_does_not_sit_beside_the_old_ones(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", "multiplier", "  x3 if any of moon"))
    assert [(t.factor, t.cards) for t in rules.multiplier.tiers] == [(3, (80,))]


def test_remove_lines_alone_edit_the_multiplier(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", "multiplier", "  remove x2"))
    assert [t.factor for t in rules.multiplier.tiers] == [4]


def test_remove_the_multiplier(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "koikoi", "remove multiplier"))
    assert rules.multiplier == ir.FieldMultiplier()


# ---------------------------------------------------------------- seats and roles
@pytest.mark.parametrize(
    ("line", "policy"),
    [
        ("sit out: by folding", "fold"),
        ("sit out: the players after the dealer, in turn", "after_dealer"),
        ("sit out: the players after the dealer", "after_dealer"),
        ("sit out: the dealer", "dealer"),
        ("sit out: the dealer, then the players after him", "dealer"),
    ],
)
def test_sit_out_policies(tmp_path: Path, line: str, policy: str) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", "seats 4, 3 play", line))
    assert rules.seats.sit_out == policy


def test_sit_out_where_nobody_sits_out_is_located(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "hachihachi/kirisame", "sit out: the dealer"))
    assert "house.rk:2:10: nobody sits out: at seats 3 everyone seated plays" in text
    assert "seats 4, 3 play" in text


@pytest.mark.parametrize(
    ("option", "payee"),
    [
        ("to the round winner", "winner"),
        ("to the winner", "winner"),
        ("to the players", "active"),
        ("to the dealer", "dealer"),
        ("to the bank", "bank"),
    ],
)
def test_fold_fee_payees(tmp_path: Path, option: str, payee: str) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", f"fold: fee 10; {option}"))
    assert rules.fold.payee == payee


def test_fold_before_the_deal(tmp_path: Path) -> None:
    rules = load_rules(house(tmp_path, "hachihachi/fudawiki", "fold: fee 10; before the deal"))
    assert rules.fold.before_deal
    text = render(diff(load_rules("hachihachi/fudawiki"), rules), "a", "b")
    assert "players join or fold before the deal, before seeing a card: no -> yes" in text


def test_before_the_deal_with_a_rotating_sit_out_is_located(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "hachihachi/fudawiki",
        "seats 4, 3 play",
        "sit out: the dealer",
        "fold: fee 10; before the deal",
    )
    assert "house.rk:4:15: 'before the deal': nobody chooses to fold" in errors_of(path)


def test_a_misspelt_payee_is_a_syntax_error_with_the_choices(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "hachihachi/fudawiki", "fold: fee 10; to the banker"))
    assert "house.rk:2:" in text and "bank" in text


# ---------------------------------------------------------------- paid as made, the round plays on
def test_yaku_that_do_not_end_the_round_are_scored_at_the_count_by_default() -> None:
    c = load_rules("sakura/hawaii").continuation
    assert not c.ends_round and not c.paid_in_play


def test_paid_when_made_in_a_round_that_plays_on(tmp_path: Path) -> None:
    path = house(
        tmp_path, "hachihachi/fudawiki", "continue: yaku do not end the round; paid when made"
    )
    c = load_rules(path).continuation
    assert (c.ends_round, c.paid_in_play, c.refund_half) == (False, True, False)


def test_paid_at_the_count_says_the_default(tmp_path: Path) -> None:
    path = house(
        tmp_path, "sakura/hawaii", "continue: yaku do not end the round; paid at the count"
    )
    assert load_rules(path).continuation == load_rules("sakura/hawaii").continuation


def test_paid_at_the_count_needs_a_round_that_plays_on(tmp_path: Path) -> None:
    text = errors_of(house(tmp_path, "koikoi", "continue: paid at the count"))
    assert "house.rk:2:11: 'paid at the count': the yaku of this variant end the round" in text


def test_paid_when_stopping_needs_a_stop(tmp_path: Path) -> None:
    text = errors_of(
        house(tmp_path, "sakura/hawaii", "continue: yaku do not end the round; paid when stopping")
    )
    assert "'paid when stopping': nobody stops when yaku do not end the round" in text


def test_old_json_ir_keeps_sakuras_reading() -> None:
    """A Continuation written before `paid_in_play` existed is scored at the count."""
    old = {"allowed": True, "ends_round": False, "paid": "made"}
    assert not ir.Continuation.model_validate(old).paid_in_play
