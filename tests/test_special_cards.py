"""Special cards (issue 25): cards left out of a deck (`without`), a card counted as N cards of
its class (`treat lightning as 2 plains`) and a card's own points (`points moon 25`). The
fixtures beside their scenarios are in tests/special_cards/; both engines play each of them
deal by deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.describe import rulebook
from rulekit.diff import diff
from rulekit.engine import actions as A
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules
from rulekit.evaluate import eval_captured
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from tests.engine_helpers import play, stacked
from tests.lang_helpers import errors_of, write
from tests.test_batch_identity import assert_same_rounds

HERE = Path(__file__).parent / "special_cards"
FIXTURES = sorted(HERE.glob("*.rk"))
SLOPER = 'extends "koikoi/sloper"\n'


def errors_in(tmp_path: Path, path: Path) -> str:
    """The rendered error of a file that must not load, its folder left out."""
    return errors_of(path).replace(f"{tmp_path}/", "")


def said(rules_text: str) -> list[str]:
    """What `describe` says of the cards of a variant written as text."""
    rules = load_rules_text(rules_text, "house.rk", HERE / "house.rk")
    return [p for s in rulebook(rules) if s.title == "Cards" for p in s.paragraphs]


# ---------------------------------------------------------------- both engines


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_both_engines_play_the_special_cards_fixtures_alike(path: Path) -> None:
    c = CompiledRules(load_rules(path))
    assert_same_rounds(c, path.stem, c.rules.seats.min, 10)


def test_the_mushi_deck_plays_alike_in_both_engines() -> None:
    c = CompiledRules(
        load_rules_text(
            SLOPER + 'deck "common/mushi"\nyaku\n  remove boar_deer_butterflies\n',
            "v.rk",
            HERE / "v.rk",
        )
    )
    assert len(c.index.ids) == 40
    assert_same_rounds(c, "sloper on the mushi deck", 2, 10)


# ---------------------------------------------------------------- without


def test_without_leaves_the_cards_and_their_months_out_of_the_deck() -> None:
    rules = load_rules("common/mushi")
    assert len(rules.deck.cards) == 40
    assert [m.number for m in rules.deck.months] == [1, 2, 3, 4, 5, 8, 9, 10, 11, 12]
    assert rules.left_out == (60, 61, 62, 63, 70, 71, 72, 73)


def test_without_some_cards_of_a_month_keeps_the_month() -> None:
    """Tensho's deck: the hanafuda deck without the three paulownia plains."""
    rules = load_rules_text(
        SLOPER + "without 121, paulownia_plain_1 + paulownia_plain_2\n", "v.rk", HERE / "v.rk"
    )
    assert len(rules.deck.cards) == 45
    assert [c.id for c in rules.deck.cards if c.month == 12] == [120]


def test_a_left_out_card_named_by_a_yaku_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + "without clover\n")
    assert errors_in(tmp_path, path).startswith(
        "rules/koikoi/sloper.rk:59:62: 'boar' is left out of this deck\n"
    )
    assert "house.rk:2:1 leaves it out: remove what names it" in errors_in(tmp_path, path)


def test_a_left_out_month_named_is_a_located_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        SLOPER + "without month 7\nyaku\n  remove boar_deer_butterflies\n  x 1: 2 of clover\n",
    )
    assert "house.rk:5:13: 'clover' is left out of this deck" in errors_in(tmp_path, path)
    path = write(
        tmp_path, SLOPER + "without clover\nyaku\n  remove boar_deer_butterflies\n  x 1: 2 of 72\n"
    )
    assert "house.rk:5:13: card 72 is left out of this deck" in errors_in(tmp_path, path)


def test_without_every_card_is_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name "Empty"\ndeck "common/hanafuda"\nwithout lights + animals + ribbons + plains\n',
    )
    assert errors_in(tmp_path, path).startswith(
        "house.rk:3:1: 'without' leaves no card in the deck"
    )


def test_a_deck_file_that_leaves_cards_out_states_its_own_totals(tmp_path: Path) -> None:
    """hanafuda.rk's `expect cards 48` is about the whole deck: it does not hold for a deck
    made from it without some cards, whose own `expect` is checked instead."""
    write(
        tmp_path,
        'name "Short"\ndeck "common/hanafuda"\nwithout clover\nexpect cards 43\n',
        "short.rk",
    )
    path = write(tmp_path, 'game "G"\ndeck "short"\n')
    assert errors_in(tmp_path, path).startswith(
        "short.rk:4:8: the deck has 44 cards, but this file expects 43"
    )


def test_describe_and_diff_say_the_cards_left_out() -> None:
    assert "Left out of the deck: 8 cards (60, 61, 62, 63, 70, 71, 72, 73)." in said(
        SLOPER + "without peony, clover\nyaku\n  remove boar_deer_butterflies\n"
    )
    words = [
        c.sentence() for c in diff(load_rules("koikoi/sloper"), load_rules(HERE / "mushi-deck.rk"))
    ]
    assert "70 boar: left out of the deck" in words


# ---------------------------------------------------------------- a card counted as two


def test_a_card_treated_as_two_plains_counts_twice_in_ten_plains() -> None:
    c = CompiledRules(load_rules(HERE / "double-chaff.rk"))
    nine = c.index.parse_many(["12 13 22 23 32 33 42 43 113"])  # eight plains and the lightning
    made = eval_captured(c, nine)
    assert [y["name"] for y in made["yaku"]] == ["ten_plains"]
    assert made["value"] == 1
    both = eval_captured(c, [*nine, 121])  # and the yellow paulownia: 12 plains
    assert both["value"] == 3  # 1, +1 per extra: the eleventh and the twelfth
    plain = CompiledRules(load_rules("koikoi/sloper"))
    assert eval_captured(plain, nine)["yaku"] == []


def test_a_card_treated_as_two_plains_counts_twice_in_a_dealt_hand() -> None:
    """Not only in the yaku: in every condition (an instant win here) that counts plains."""
    c = CompiledRules(
        load_rules_text(
            SLOPER + "treat lightning as 2 plains\ninstant win 6 if a hand has plains >= 8\n",
            "v.rk",
            HERE / "v.rk",
        )
    )
    ((win, test),) = c.instant_wins
    hand = c.index.mask(c.index.parse_many(["12 13 22 23 32 33 113 10"]))  # 6 plains, lightning
    assert test(hand)
    assert not test(hand & ~c.index.mask([113]) | c.index.mask([42]))  # 7 plains
    assert (
        win.condition
        != load_rules_text(
            SLOPER + "instant win 6 if a hand has plains >= 8\n", "v.rk", HERE / "v.rk"
        )
        .instant_wins[0]
        .condition
    )


def test_a_weighted_card_names_a_class_and_a_weight_of_one_to_four(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + "treat lightning as 5 plains\n")
    assert errors_in(tmp_path, path).startswith(
        "house.rk:2:1: a card counts as 1 to 4 plains, not 5"
    )
    path = write(tmp_path, SLOPER + "treat lightning as 2 plans\n")
    assert "did you mean 'plain'?" in errors_in(tmp_path, path)


def test_a_weighted_card_in_an_owners_choice_is_an_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        SLOPER + "treat sake as 2 plains\ntreat sake as animal or 2 plains, owner's choice\n",
    )
    assert "card 90 counts as 2 already" in errors_in(tmp_path, path)


def test_describe_and_diff_say_a_card_counted_as_two() -> None:
    assert "Lightning, paulownia_yellow counts as 2 plains in every count of plains." in said(
        SLOPER + "treat lightning + paulownia_yellow as 2 plains\n"
    )
    words = [
        c.sentence()
        for c in diff(load_rules("koikoi/sloper"), load_rules(HERE / "double-chaff.rk"))
    ]
    assert "113 lightning counts as: one card -> 2 plains" in words


# ---------------------------------------------------------------- a card's own points


def test_a_card_with_points_of_its_own_scores_them() -> None:
    rules = load_rules(HERE / "own-points.rk")
    assert (rules.card_points(80), rules.card_points(110), rules.card_points(10)) == (25, 15, 20)
    c = CompiledRules(rules)
    assert c.index.points(c.index.mask([80, 110, 10])) == 60
    assert eval_captured(c, [80])["points"] == 25


def test_points_of_an_unknown_card_or_class_suggests_one(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + "points mooon 25\n")
    text = errors_in(tmp_path, path)
    assert text.startswith("house.rk:2:8: unknown class or card 'mooon'")
    assert "did you mean 'moon'?" in text


def test_describe_and_diff_say_a_cards_own_points() -> None:
    assert "Moon scores 25 points of its own." in said(SLOPER + "points moon 25\n")
    words = [
        c.sentence()
        for c in diff(load_rules("hachihachi/fudawiki"), load_rules(HERE / "own-points.rk"))
    ]
    assert "moon: 20 -> 25" in words


# ---------------------------------------------------------------- a lone card


def test_a_lone_card_is_one_play_without_a_target() -> None:
    """The phoenix is one play, taking nothing, even with cards of its month on the field."""
    c = CompiledRules(
        load_rules_text(
            SLOPER + "lone phoenix: goes to whoever plays or draws it\n", "v.rk", HERE / "v.rk"
        )
    )
    hands = [[120, 10, 30, 21, 41, 51, 61, 71], [20, 22, 102, 110, 111, 112, 11, 31]]
    rnd = Round(c, 2, 0, deal=stacked(c, hands, [121, 122, 42, 52, 62, 72, 82, 92], [100]))
    play(rnd, [(1, "keep")])
    phoenix = c.index.bit[120]
    assert [a for a in rnd.legal_actions() if a & A.CARD_MASK == phoenix] == [phoenix]
    play(rnd, [(0, "play phoenix")])
    assert rnd.captured[0] == 1 << phoenix  # not a paulownia of the field
    assert rnd.field & c.index.mask([121, 122]) == c.index.mask([121, 122])


def test_a_lone_card_names_cards_and_is_not_the_wild_card(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + "lone phenix: goes to whoever plays or draws it\n")
    assert "did you mean 'phoenix'?" in errors_in(tmp_path, path)
    path = write(
        tmp_path,
        SLOPER + "wild lightning: captures any field card from the hand\n"
        "lone lightning: goes to whoever plays or draws it\n",
    )
    assert "house.rk:3:1: the wild card cannot be a lone card" in errors_in(tmp_path, path)


def test_describe_and_diff_say_a_lone_card() -> None:
    text = SLOPER + "lone phoenix: goes to whoever plays or draws it\n"
    rules = load_rules_text(text, "house.rk", HERE / "house.rk")
    paragraphs = [p for s in rulebook(rules) for p in s.paragraphs]
    assert any(p.startswith("Phoenix goes to whoever plays or draws it") for p in paragraphs)
    words = [c.sentence() for c in diff(load_rules("koikoi/sloper"), rules)]
    assert "cards that go to whoever plays or draws them: none -> phoenix" in words


# ---------------------------------------------------------------- bonus cards


def test_the_korean_deck_adds_bonus_cards_of_no_month() -> None:
    rules = load_rules("common/korean")
    assert rules.deck.bonus == (130, 131, 132)
    assert {rules.card(c).month for c in rules.deck.bonus} == {0}
    assert [m.number for m in rules.deck.months] == list(range(1, 13))
    c = CompiledRules(rules)
    assert all(c.index.month_mask_of_bit[c.index.bit[b]] == 0 for b in rules.deck.bonus)


def test_a_bonus_card_counts_as_its_plains() -> None:
    c = CompiledRules(load_rules(HERE / "bonus-cards.rk"))
    eight = c.index.parse_many(["12 13 22 23 32 33 42 43"])
    assert eval_captured(c, eight)["yaku"] == []
    made = eval_captured(c, [*eight, 130])  # two chaff: ten plains
    assert [y["name"] for y in made["yaku"]] == ["ten_plains"]
    assert eval_captured(c, [*eight, 132])["value"] == 2  # three chaff: eleven plains


def test_the_bonus_step_comes_once_the_field_is_out() -> None:
    assert load_rules(HERE / "bonus-cards.rk").setup == (
        "hands", "swap", "field", "bonus", "instant_win",
    )  # fmt: skip


def test_a_bonus_card_is_declared_once_with_a_weight_and_a_class(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + 'card 130 extra "Extra" bonus as 5 plains\n')
    assert "house.rk:2:1: a card counts as 1 to 4 plains, not 5" in errors_in(tmp_path, path)
    path = write(tmp_path, SLOPER + 'card 130 extra "Extra" bonus as 2 plans\n')
    assert "did you mean 'plain'?" in errors_in(tmp_path, path)
    path = write(
        tmp_path, 'name "D"\ndeck "common/hanafuda"\ncard 10 extra "Extra" bonus as 2 plains\n'
    )
    assert "house.rk:3:1: card 10 is declared twice" in errors_in(tmp_path, path)


def test_describe_and_diff_say_the_bonus_cards() -> None:
    rules = load_rules(HERE / "bonus-cards.rk")
    paragraphs = [p for s in rulebook(rules) for p in s.paragraphs]
    assert any(
        p.startswith("Bonus cards (bonus_two_1, bonus_two_2, bonus_three):") for p in paragraphs
    )
    words = [c.sentence() for c in diff(load_rules("koikoi/sloper"), rules)]
    assert "130 bonus_two_1: a bonus card added to the deck" in words


def test_a_bonus_cards_id_is_past_the_months_cards(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + 'card 14 extra "Extra" bonus as 2 plains\n')
    text = errors_in(tmp_path, path)
    assert "house.rk:2:1: a bonus card's id is past the months' cards, not 14" in text
    assert 'for example: card 130 extra "Extra" bonus as 2 plains' in text


# ---------------------------------------------------------------- the wild card's variants


def _last_draw(text: str) -> Round:
    """A round of Sloper on Mushi's deck with `text` added whose stock is down to the
    lightning: Alice takes pine 12 with the crane and draws it, the stock's last card."""
    c = CompiledRules(load_rules_text(text, "v.rk", HERE / "v.rk"))
    hands = [[10, 30, 23, 41, 51, 81, 91, 111], [20, 22, 100, 110, 112, 11, 31, 40]]
    rnd = Round(c, 2, 0, deal=stacked(c, hands, [12, 32, 42, 52, 82, 92, 102, 21]))
    play(rnd, [(1, "keep")])
    rnd.stock = [c.index.bit[113]]  # the rest of the stock is out of this round
    play(rnd, [(0, "play crane")])
    return rnd


def test_the_wild_card_drawn_last_takes_the_whole_field() -> None:
    base = 'extends "mushi-deck.rk"\nwild lightning: captures any field card from the hand'
    swept = _last_draw(base + "; takes the whole field when drawn last\n")
    ids = swept.ix.mask
    assert swept.field == 0
    assert swept.captured[0] == ids([10, 12, 113, 32, 42, 52, 82, 92, 102, 21])
    laid = _last_draw(base + "\n")  # an ordinary willow card: laid (no willow on the field)
    assert laid.field == ids([32, 42, 52, 82, 92, 102, 21, 113])


def test_both_engines_play_mushis_wild_card_alike_over_more_deals() -> None:
    """Its draws (taken from the field by the next card, the whole field when drawn last) are
    rarer than its plays: more deals."""
    c = CompiledRules(load_rules(HERE / "mushi-wild.rk"))
    assert_same_rounds(c, "mushi-wild", 2, 40)


def test_a_card_counted_as_two_is_weighed_in_the_payers_pile_too() -> None:
    """Go-Stop's pi-bak (`the payer has plains ...`) counts the lightning as two chaff in the
    payer's pile, as every other count of the class does (it counted once)."""
    pi_bak = next(s for s in load_rules("gostop/gostop").scoring if s.name == "pi_bak")
    assert pi_bak.condition is not None
    payer = next(c for c in ir.parts_of(pi_bak.condition) if isinstance(c, ir.PayerHas))
    assert any(isinstance(c, ir.AllOf) and c.cards == (113,) for c in ir.parts_of(payer.item))
