"""`void if a hand has ...` (issue 23, item 4): a dealt hand that voids the deal, redealt by the
same dealer; tested in the field step after the field's own void rule (the scenarios
void-hand-*.scenario.toml pin the readings), played alike by both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.batch import engine as batch
from rulekit.describe import round_paragraphs
from rulekit.diff import diff
from rulekit.errors import RuleErrors
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from tests.test_batch_identity import assert_same_rounds, batch_deal, bot_sets, variant

NINTENDO = 'extends "koikoi/sloper"\nremove instant wins\n'
NINTENDO += "void if a hand has a month of 4 or 4 months of 2\n"
# a rule that sees the round (the dealer's hand only), at a table that folds after the field
DEALER_TRIPLE = 'extends "hachihachi/fudawiki"\nvoid if a hand has dealer and a month of 3\n'


def load(text: str) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", Path(__file__))


def test_void_if_a_hand_has_a_teshi_or_kuttsuki_is_read() -> None:
    rules = load(NINTENDO)
    assert isinstance(rules.void_hand, ir.Or)
    assert rules.void_hand_text == "a month of 4 or 4 months of 2"
    assert rules.instant_wins == ()


@pytest.mark.parametrize(("text", "seats"), [(NINTENDO, 2), (DEALER_TRIPLE, 3), (DEALER_TRIPLE, 4)])
def test_void_if_a_hand_has_is_played_alike_by_both_engines(text: str, seats: int) -> None:
    c = variant(text)
    assert_same_rounds(c, "void hand", seats)
    plan = batch.make_plan(c, seats, bot_sets(seats)[1], 1)
    voids = sum(d["voids"] for n in range(60) if (d := batch_deal(plan, n)) is not None)
    assert voids > 0, "the identity test must see void hands"


def test_a_hand_void_rule_that_voids_every_deal_is_an_error() -> None:
    with pytest.raises(RuleErrors, match="every deal of hands of 8 cards is void"):
        load('extends "koikoi/sloper"\nvoid if a hand has points >= 0\n')


def test_score_in_a_hand_void_rule_is_a_located_error() -> None:
    with pytest.raises(RuleErrors, match="'score' cannot be used in a hand's void rule") as e:
        load('extends "koikoi/sloper"\nvoid if a hand has score >= 1\n')
    assert e.value.errors[0].loc is not None and e.value.errors[0].loc.line == 2


@pytest.mark.parametrize(
    ("remove", "field", "hand"),
    [
        ("remove void", False, False),
        ("remove void hand", True, False),
        ("remove void field", False, True),
    ],
)
def test_remove_void_drops_both_rules_and_remove_void_hand_or_field_one(
    tmp_path: Path, remove: str, field: bool, hand: bool
) -> None:
    (tmp_path / "base.rk").write_text(NINTENDO)
    rules = load_rules_text(f'extends "base.rk"\n{remove}\n', "house.rk", tmp_path / "house.rk")
    assert (rules.void_field is not None, rules.void_hand is not None) == (field, hand)


def test_describe_and_diff_say_the_hand_void_rule() -> None:
    rules = load(NINTENDO)
    assert any(
        p.startswith("A dealt hand with a month of 4 or 4 months of 2 voids the deal")
        for p in round_paragraphs(rules)
    )
    changes = diff(load_rules("koikoi/sloper"), rules)
    said = [(c.what, c.before, c.after) for c in changes]
    assert ("void hand", None, "a month of 4 or 4 months of 2") in said


def test_a_hand_void_rule_that_every_dealer_makes_is_an_error() -> None:
    with pytest.raises(RuleErrors, match=r"no deal can be played"):
        load('extends "sakura/hawaii"\nvoid if a hand has dealer\n')
    assert load('extends "sakura/hawaii"\nvoid if a hand has dealer and a month of 3\n')


def test_a_hand_void_rule_that_the_hands_of_one_deck_cannot_all_escape_is_an_error() -> None:
    """Every hand must hold the one sake cup: taken hand by hand a deal would play about 1 time
    in 36, but two hands dealt from one deck never both hold it (found by the fuzzer)."""
    with pytest.raises(RuleErrors, match="none of 1,000 deals drawn at random") as e:
        load('extends "koikoi/sloper"\nvoid if a hand has none of sake\n')
    assert e.value.errors[0].loc is not None and e.value.errors[0].loc.line == 2
    # three cards to share between two hands: about one deal in five plays
    assert load('extends "koikoi/sloper"\nvoid if a hand has none of sake, curtain, moon\n')
