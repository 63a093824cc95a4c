"""Conditions that see the round (round, round month, dealer, continued, score, the field at the
deal, nobody won), multiplier tiers with any condition, and instant wins as a table: what they
resolve to, where each may be written, their errors, their words in the rulebook and in diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulekit import ir
from rulekit.cards import CardIndex
from rulekit.describe import condition_text, rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine.context import RoundView
from rulekit.engine.round import DECIDE, Round
from rulekit.engine.tables import CompiledRules, CompiledTable
from rulekit.lang import load_rules
from tests.engine_helpers import play, stacked
from tests.lang_helpers import errors_of, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


KOI = 'extends "koikoi/sloper"\n'
HACHI = 'extends "hachihachi/fudawiki"\n'


def yaku_condition(tmp_path: Path, cond: str) -> ir.Condition:
    rules = load_rules(write(tmp_path, f'{KOI}yaku\n  house "House" 4: {cond}\n'))
    assert rules.yaku is not None
    return rules.yaku.entry("house").condition


# ---------------------------------------------------------------- resolving to the IR


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("round >= 6", ir.RoundCmp(op=">=", n=6)),
        ("round == 12", ir.RoundCmp(op="=", n=12)),
        ("all of round month", ir.RoundMonth(op="=", n=4, all=True)),
        ("3 of round month", ir.RoundMonth(op=">=", n=3)),
        ("dealer", ir.IsDealer()),
        ("not dealer", ir.Not(item=ir.IsDealer())),
        ("continued", ir.Continued(who="self", op=">=", n=1)),
        ("continued 2 or more times", ir.Continued(who="self", op=">=", n=2)),
        ("an opponent continued", ir.Continued(who="opponent", op=">=", n=1)),
        ("the field had any of rainman", ir.OnField(item=ir.AnyOf(cards=(110,)))),
    ],
)
def test_each_condition_resolves_to_its_ir(
    tmp_path: Path, text: str, expected: ir.Condition
) -> None:
    assert yaku_condition(tmp_path, text) == expected


def test_round_conditions_combine_with_card_conditions(tmp_path: Path) -> None:
    cond = yaku_condition(tmp_path, "all of round month and round >= 6 or dealer and continued")
    assert isinstance(cond, ir.Or)
    first, second = cond.items
    assert first == ir.And(items=(ir.RoundMonth(op="=", n=4, all=True), ir.RoundCmp(op=">=", n=6)))
    assert second == ir.And(items=(ir.IsDealer(), ir.Continued()))


@pytest.mark.parametrize(
    "text",
    [
        "round >= 6",
        "all of round month",
        "3 of round month",
        "dealer",
        "not dealer",
        "continued 2 or more times",
        "an opponent continued",
        "the field had all of rainman, phoenix",
    ],
)
def test_the_rulebook_says_a_condition_as_the_file_writes_it(tmp_path: Path, text: str) -> None:
    rules = load_rules(write(tmp_path, f'{KOI}yaku\n  house "House" 4: {text}\n'))
    assert rules.yaku is not None
    assert condition_text(rules.yaku.entry("house").condition, rules) == text


def test_score_and_nobody_won_are_said_in_words() -> None:
    rules = load_rules("koikoi")
    assert condition_text(ir.ScoreCmp(op=">=", n=7), rules) == "score >= 7"
    assert condition_text(ir.NobodyWon(), rules) == "nobody won"


# ---------------------------------------------------------------- where each may be written


@pytest.mark.parametrize(
    ("lines", "word", "where"),
    [
        ('yaku\n  house "House" 4: score >= 7\n', "score", "a yaku condition"),
        ('yaku\n  house "House" 4: nobody won\n', "nobody won", "a yaku condition"),
        ("void if the field has dealer\n", "dealer", "a void rule"),
        ("void if the field has continued\n", "continued", "a void rule"),
        ("multiplier\n  x4 if dealer\n", "dealer", "a multiplier tier"),
        ("instant wins\n  odd 3: continued\n", "continued", "an instant win"),
        (
            'yaku\n  house "House" 4: the field had dealer\n',
            "dealer",
            "'the field had ...'",
        ),
    ],
)
def test_a_condition_where_it_means_nothing_is_a_located_error(
    tmp_path: Path, lines: str, word: str, where: str
) -> None:
    text = errors_of(write(tmp_path, KOI + lines))
    assert f"'{word}' cannot be used in {where}" in text
    assert "house.rk:" in text
    assert f"'{word}' may be used in" in text


def test_score_in_a_teyaku_says_it_belongs_to_scoring_steps(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, HACHI + "teyaku\n  odd 3: score >= 7\n"))
    assert "'score' cannot be used in a teyaku condition" in text
    assert "'score' may be used in a scoring step" in text
    assert "house.rk:3:" in text


@pytest.mark.parametrize(
    ("cond", "message"),
    [
        ("round >= 0", "round >= 0 never holds: the first round of a game is round 1"),
        ("round < 1", "round < 1 never holds"),
        ("5 of round month", "5 of round month: a month has 1 to 4 cards"),
        ("0 of round month", "0 of round month: a month has 1 to 4 cards"),
        ("continued 0 or more times", "'continued 0 or more times' always holds"),
    ],
)
def test_numbers_out_of_range(tmp_path: Path, cond: str, message: str) -> None:
    text = errors_of(write(tmp_path, f'{KOI}yaku\n  house "House" 4: {cond}\n'))
    assert message in text
    assert "house.rk:3:" in text


def test_round_conditions_are_allowed_in_teyaku_void_tiers_and_instant_wins(
    tmp_path: Path,
) -> None:
    rules = load_rules(
        write(
            tmp_path,
            HACHI
            + "void if the field has a month of 4 and round >= 2\n"
            + "teyaku\n  odd 3: dealer and 2 of round month\n"
            + "multiplier\n  x4 if all of rainman, phoenix and round = 12\n",
        )
    )
    assert isinstance(rules.void_field, ir.And)
    assert ir.RoundCmp(op=">=", n=2) in rules.void_field.items
    assert rules.teyaku is not None
    assert rules.teyaku.entry("odd").condition == ir.And(
        items=(ir.IsDealer(), ir.RoundMonth(op=">=", n=2))
    )


# ---------------------------------------------------------------- tiers


def test_the_old_tier_form_keeps_its_meaning() -> None:
    tiers = load_rules("hachihachi").multiplier.tiers
    assert tiers and all(t.condition is None for t in tiers)


def test_a_tier_with_any_condition(tmp_path: Path) -> None:
    rules = load_rules(
        write(tmp_path, HACHI + "multiplier\n  x4 if all of rainman, phoenix; carry if 2 or more\n")
    )
    x4 = next(t for t in rules.multiplier.tiers if t.factor == 4)
    assert x4.condition == ir.AllOf(cards=(110, 120))
    assert x4.cards == (110, 120) and x4.carry_at == 2
    assert x4.text == "all of rainman, phoenix"
    book = to_markdown(rulebook(rules))
    assert "x4 if the field has all of rainman, phoenix; the next round at least x4 too" in book


def test_a_carry_on_a_tier_that_names_no_card(tmp_path: Path) -> None:
    text = errors_of(
        write(tmp_path, HACHI + "multiplier\n  x4 if round = 12; carry if 1 or more\n")
    )
    assert "counts the cards the tier names, and it names none" in text


def test_diff_says_a_tier_condition(tmp_path: Path) -> None:
    base = load_rules("hachihachi")
    house = load_rules(write(tmp_path, HACHI + "multiplier\n  x4 if all of rainman, phoenix\n"))
    text = render(diff(base, house), "a", "b")
    assert "x4: any of rainman, phoenix" in text and "-> all of rainman, phoenix" in text


# ---------------------------------------------------------------- instant wins


TABLE = """instant wins
  teshi     "Teshi (four of a month)"  6: a month of 4
  kuttsuki  "Kuttsuki (four pairs)"    4: 4 months of 2
"""


def test_the_one_line_instant_win_is_the_table_entry_instant_win() -> None:
    rules = load_rules("koikoi")
    assert rules.instant_win is None  # the old field is never produced
    (win,) = rules.instant_wins
    assert (win.name, win.label, win.value) == ("instant_win", "Instant win", 6)
    assert win.text == "a month of 4 or 4 months of 2"


def test_instant_wins_as_a_table(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, KOI + TABLE))
    names = [(w.name, w.label, w.value) for w in rules.instant_wins]
    assert names == [
        ("instant_win", "Instant win", 6),
        ("teshi", "Teshi (four of a month)", 6),
        ("kuttsuki", "Kuttsuki (four pairs)", 4),
    ]


def test_instant_wins_override_and_remove_by_name(tmp_path: Path) -> None:
    write(
        tmp_path,
        KOI + TABLE.replace("instant wins\n", "instant wins\n  remove instant_win\n"),
        "a.rk",
    )
    path = write(tmp_path, 'extends "a.rk"\ninstant wins\n  kuttsuki 5\n  remove teshi\n', "b.rk")
    rules = load_rules(path)
    assert [(w.name, w.value, w.label) for w in rules.instant_wins] == [
        ("kuttsuki", 5, "Kuttsuki (four pairs)")
    ]


def test_an_unknown_instant_win_to_remove(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + "instant wins\n  remove instant_wn\n"))
    assert "no instant win named 'instant_wn' to remove" in text
    assert "instant_win" in text  # did you mean


def test_an_instant_win_takes_no_options(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + "instant wins\n  teshi 6: a month of 4; at count\n"))
    assert "instant win 'teshi' takes no options" in text and "house.rk:3:" in text


def test_an_instant_win_needs_a_value(tmp_path: Path) -> None:
    text = errors_of(write(tmp_path, KOI + "instant wins\n  teshi: a month of 4\n"))
    assert "teshi" in text


def test_old_json_ir_with_one_instant_win_loads_into_the_table() -> None:
    data = json.loads(load_rules("koikoi").model_dump_json())
    data["instant_wins"] = []
    data["instant_win"] = {"value": 6, "condition": {"kind": "shape", "groups": [{"size": 4}]}}
    rules = ir.Ruleset.model_validate(data)
    assert rules.instant_win is None
    assert [(w.name, w.value) for w in rules.instant_wins] == [("instant_win", 6)]


def test_rulebook_and_diff_of_the_instant_wins_table(tmp_path: Path) -> None:
    house = load_rules(
        write(
            tmp_path, KOI + TABLE.replace("instant wins\n", "instant wins\n  remove instant_win\n")
        )
    )
    book = to_markdown(rulebook(house))
    assert "Teshi (four of a month): a hand with a month of 4 wins 6 at once" in book
    assert "paid the highest" in book
    text = render(diff(load_rules("koikoi"), house), "a", "b")
    assert "instant_win: removed (was Instant win 6: a month of 4 or 4 months of 2)" in text
    assert "teshi: added: Teshi (four of a month) 6: a month of 4" in text
    assert "kuttsuki: added: Kuttsuki (four pairs) 4: 4 months of 2" in text


# ---------------------------------------------------------------- the engine


class _Ctx:
    """A RoundContext written by hand."""

    def __init__(self, **kw: object) -> None:
        self.round = 1
        self.month_mask = 0
        self.is_dealer = False
        self.continued = 0
        self.opponent_continued = 0
        self.score = 0
        self.field_at_deal = 0
        self.nobody_won = False
        self.__dict__.update(kw)


def _compiled(tmp_path: Path, cond: str) -> tuple[CompiledTable, CardIndex]:
    rules = load_rules(write(tmp_path, f'{KOI}yaku\n  house "House" 4: {cond}\n'))
    c = CompiledRules(rules)
    assert c.yaku is not None
    return c.yaku, c.index


def _mask(index: CardIndex, cards: str) -> int:
    return index.mask(index.parse_many([cards])) if cards else 0


def _holds(table: CompiledTable, index: CardIndex, cards: str, ctx: object) -> bool:
    return bool(table.hits(_mask(index, cards), ctx) >> table.position["house"] & 1)


def test_card_only_tables_need_no_context() -> None:
    c = CompiledRules(load_rules("koikoi"))
    assert c.yaku is not None and not c.yaku.sees_round
    assert not c.multiplier.sees_round


@pytest.mark.parametrize(
    ("cond", "ctx", "expected"),
    [
        ("round >= 6", {"round": 6}, True),
        ("round >= 6", {"round": 5}, False),
        ("dealer", {"is_dealer": True}, True),
        ("not dealer", {"is_dealer": True}, False),
        ("continued 2 or more times", {"continued": 2}, True),
        ("continued 2 or more times", {"continued": 1}, False),
        ("an opponent continued", {"opponent_continued": 1}, True),
        ("an opponent continued", {"continued": 3}, False),
    ],
)
def test_round_conditions_read_the_context(
    tmp_path: Path, cond: str, ctx: dict[str, object], expected: bool
) -> None:
    table, index = _compiled(tmp_path, cond)
    assert table.sees_round
    assert _holds(table, index, "", _Ctx(**ctx)) is expected
    assert _holds(table, index, "", None) is False  # never without a round


def test_round_month_counts_the_cards_tested(tmp_path: Path) -> None:
    table, index = _compiled(tmp_path, "all of round month")
    pine = index.month_masks[0]
    assert _holds(table, index, "10 11 12 13", _Ctx(month_mask=pine))
    assert not _holds(table, index, "10 11 12", _Ctx(month_mask=pine))
    assert not _holds(table, index, "10 11 12 13", _Ctx(month_mask=index.month_masks[1]))


def test_the_field_had_tests_the_field_at_the_deal(tmp_path: Path) -> None:
    table, index = _compiled(tmp_path, "the field had all of rainman, phoenix")
    both = _mask(index, "rainman phoenix")
    assert _holds(table, index, "", _Ctx(field_at_deal=both))
    assert not _holds(table, index, "rainman phoenix", _Ctx(field_at_deal=0))


def test_a_condition_tier_and_its_carry(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, 'extends "hachihachi/house/grand-field-both"\n'))
    c = CompiledRules(rules)
    ix = c.index
    assert c.multiplier.of_field(_mask(ix, "rainman 13")) == (2, 1)
    assert c.multiplier.of_field(_mask(ix, "rainman phoenix")) == (4, 4)
    assert c.multiplier.of_field(_mask(ix, "rainman crane")) == (2, 2)
    assert c.multiplier.of_field(_mask(ix, "13 23")) == (1, 1)


def test_instant_wins_highest_first() -> None:
    c = CompiledRules(load_rules("koikoi/house/teshi-kuttsuki"))
    assert [w.name for w, _ in c.instant_wins] == ["teshi", "kuttsuki"]


def _round(tmp_path: Path, text: str, **kw: Any) -> Round:
    """A two-seat Koi-Koi round of a house file, dealt as written (`deal`: hands, field)."""
    c = CompiledRules(load_rules(write(tmp_path, text)))
    hands, field = kw.pop("deal", (([], []), []))
    return Round(c, 2, kw.pop("dealer", 0), deal=stacked(c, hands, field), **kw)


def test_the_round_view_counts_rounds_from_one_and_cycles_the_months() -> None:
    c = CompiledRules(load_rules("koikoi"))
    rnd = Round(c, 2, 1, seed=3, round_no=13)
    view = RoundView(rnd, 1)
    assert view.round == 14 and view.month_mask == c.index.month_masks[1]  # February again
    assert view.is_dealer and not RoundView(rnd, 0).is_dealer
    assert RoundView(rnd).field_at_deal == 0  # the swap comes before the field
    rnd.apply(A.KEEP)
    assert RoundView(rnd).field_at_deal == rnd.laid_field != 0


TESHI_ALICE = (
    [[10, 11, 12, 13, 20, 40, 50, 60], [21, 22, 23, 43, 53, 63, 72, 102]],
    [92, 32, 112, 101, 82, 121, 71, 83],
)


def test_a_hand_with_several_instant_wins_is_paid_the_highest(tmp_path: Path) -> None:
    house = KOI + TABLE.replace("instant wins\n", "instant wins\n  remove instant_win\n")
    house += '  dealer_teshi "Dealer\'s teshi" 8: a month of 4 and dealer\n'
    rnd = _round(tmp_path, house, deal=TESHI_ALICE)
    rnd.apply(A.KEEP)
    assert rnd.ended_by == "instant"
    assert [(p.payer, p.payee, p.amount, p.detail) for p in rnd.ledger] == [
        (1, 0, 8, "dealer_teshi")
    ]
    rnd = _round(tmp_path, house, deal=TESHI_ALICE, dealer=1)  # the teshi is not the dealer's
    rnd.apply(A.KEEP)
    assert [(p.payer, p.payee, p.amount, p.detail) for p in rnd.ledger] == [(1, 0, 6, "teshi")]


def test_a_void_field_that_sees_the_round(tmp_path: Path) -> None:
    house = KOI + "void if the field has 2 of round month and round = 2\n"
    field = [22, 23, 92, 32, 112, 101, 82, 121]  # two plum cards: February's
    hands = [[10, 11, 12, 40, 50, 60, 70, 72], [13, 20, 21, 43, 53, 63, 73, 102]]

    def void(round_no: int) -> bool:
        rnd = _round(tmp_path, house, deal=(hands, field), round_no=round_no)
        rnd.apply(A.KEEP)  # the swap, then the field
        return rnd.void

    assert void(1)
    assert not void(0)  # January
    assert not void(2)  # March


def test_a_yaku_that_sees_the_dealer_is_made_only_by_him(tmp_path: Path) -> None:
    house = KOI + 'yaku\n  oya_pine "Dealer\'s pine" 5: 2 of round month and dealer\n'
    hands = [[10, 40, 50, 60, 70, 72, 81, 102], [13, 43, 53, 63, 73, 82, 91, 103]]
    field = [11, 12, 21, 32, 42, 52, 62, 112]
    for dealer, maker in ((0, 0), (1, None)):
        rnd = _round(tmp_path, house, deal=(hands, field), dealer=dealer)
        rnd.apply(A.KEEP)
        if rnd.current == 1:
            play(rnd, [(1, "play 43")])
        play(rnd, [(0, "play 10 onto 11")])  # the crane takes a pine card: two of January
        made = rnd.phase == DECIDE and rnd.current == 0
        assert made is (maker == 0)
        assert rnd.yaku_made.get(0, []) == (["oya_pine"] if maker == 0 else [])
