"""Edges of the rule language: overrides of whole statements, what cannot be played, JSON IR that
the engine could not run, line numbers after unusual line breaks, and the exact messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RuleErrors, RulekitError, either
from rulekit.evaluate import eval_hand
from rulekit.lang import load_rules
from rulekit.lang import transformer as tf
from rulekit.lang.loader import load_rules_text
from rulekit.lang.parser import _parser
from tests.lang_helpers import errors_of, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are named relative to the working directory in messages."""
    monkeypatch.chdir(tmp_path)


FUDAWIKI = 'extends "hachihachi/fudawiki"\n'
KIRISAME = 'extends "hachihachi/kirisame"\n'
SLOPER = 'extends "koikoi/sloper"\n'


# ---------------------------------------------------------------- first dealer


def test_a_house_rule_switches_the_first_dealer_from_dice_to_card_draw(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, KIRISAME + "first dealer by card draw; lowest month\n"))
    assert rules.first_dealer == ir.FirstDealer(method="draw", best_card_breaks_ties=False)


def test_a_house_rule_switches_the_first_dealer_from_card_draw_to_dice(tmp_path: Path) -> None:
    assert load_rules("koikoi/sloper").first_dealer.best_card_breaks_ties
    rules = load_rules(write(tmp_path, SLOPER + "first dealer by dice\n"))
    assert rules.first_dealer == ir.FirstDealer(method="dice", best_card_breaks_ties=False)


def test_a_card_draw_without_then_best_card_drops_the_tie_break(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, SLOPER + "first dealer by card draw; lowest month\n"))
    assert rules.first_dealer == ir.FirstDealer(method="draw", best_card_breaks_ties=False)
    again = load_rules(
        write(tmp_path, KIRISAME + "first dealer by card draw; lowest month then best card\n")
    )
    assert again.first_dealer == ir.FirstDealer(method="draw", best_card_breaks_ties=True)


# ---------------------------------------------------------------- seats, deal, rounds


def test_seats_2_over_a_range_means_exactly_two(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, FUDAWIKI + "seats 2\n"))
    assert rules.seats == ir.Seats(min=2, max=2, active=None)


def test_seats_replaces_the_range_and_the_players_of_a_round_as_one(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, FUDAWIKI + "seats 4 to 5\n"))
    assert rules.seats == ir.Seats(min=4, max=5, active=None)


def test_seats_fewer_than_two(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "seats 0\n")
    assert errors_of(path) == (
        "house.rk:2:7: seats 0: a game needs at least 2 players\n"
        " 2 | seats 0\n"
        "   |       ^\n"
        " = for example: seats 2, or seats 3 to 6, 3 play"
    )
    assert "house.rk:2:7: seats 1: a game needs at least 2 players" in errors_of(
        write(tmp_path, KIRISAME + "seats 1\n")
    )


def test_seats_whose_most_is_fewer_than_the_fewest(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "seats 3 to 2\n")
    assert errors_of(path) == (
        "house.rk:2:9: seats 3 to 2: 2 is fewer than 3\n"
        " 2 | seats 3 to 2\n"
        "   |         ^^^^\n"
        " = the fewest players come first: seats 3 to 6"
    )


def test_the_players_of_a_round_must_be_seated(tmp_path: Path) -> None:
    path = write(tmp_path, FUDAWIKI + "seats 2 to 6, 3 play\n")
    assert errors_of(path) == (
        "house.rk:2:13: seats 2 to 6, 3 play: the players of a round must be seated,"
        " and a table may have only 2\n"
        " 2 | seats 2 to 6, 3 play\n"
        "   |             ^^^^^^^^\n"
        " = for example: seats 2, or seats 3 to 6, 3 play"
    )
    message = errors_of(write(tmp_path, FUDAWIKI + "seats 3 to 6, 1 play\n"))
    assert message.startswith("house.rk:2:13: seats 3 to 6, 1 play: a round needs at least 2")


def test_a_deal_of_no_cards(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "deal 0 to each, 6 to the field\n")
    assert errors_of(path) == (
        "house.rk:2:6: deal 0 to each: every player is dealt at least one card\n"
        " 2 | deal 0 to each, 6 to the field\n"
        "   |      ^\n"
        " = for example: deal 7 to each, 6 to the field"
    )


def test_a_deal_larger_than_the_deck(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "deal 30 to each, 6 to the field\n")
    assert errors_of(path) == (
        "house.rk:2:6: deal 30 to each, 6 to the field: 3 players need 96 cards,"
        " and the deck has 48\n"
        " 2 | deal 30 to each, 6 to the field\n"
        "   |      ^^\n"
        " = at most 14 to each of 3 players"
    )


def test_a_deal_at_a_table_size(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends "sakura/hawaii"\ndeal at 7 seats: 6 to each, 7 to the field\n')
    assert errors_of(path).startswith(
        "house.rk:2:18: deal 6 to each, 7 to the field: 7 players need 49 cards,"
        " and the deck has 48\n"
    )


def test_the_joker_counts_in_the_deck_and_folded_hands_need_no_field() -> None:
    rules = load_rules("hachihachi/wikipedia-draft")  # 7 hands of 7 from 48 cards and the joker
    assert rules.seats.max == 7 and rules.joker == ir.Joker(seats=7)


def test_rounds_0(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "rounds 0; dealer rotates\n")
    assert errors_of(path) == (
        "house.rk:2:8: rounds 0: a game has at least one round\n"
        " 2 | rounds 0; dealer rotates\n"
        "   |        ^\n"
        " = for example: rounds 12"
    )


# ---------------------------------------------------------------- JSON IR


def ir_json(name: str) -> dict[str, object]:
    data: dict[str, object] = load_rules(name).model_dump(mode="json")
    return data


def test_a_json_file_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe{")
    assert errors_of(tmp_path / "bad.json") == (
        "bad.json:1:1: bad.json is not UTF-8 text (invalid start byte)"
    )


def test_a_json_card_without_a_class(tmp_path: Path) -> None:
    data = ir_json("hachihachi/kirisame")
    data["deck"]["cards"][0]["classes"] = []  # type: ignore[index]
    text = json.dumps(data)
    path = write(tmp_path, text, "cards.json")
    message = errors_of(path)
    at = text.index('"classes": []') + len('"classes": ') + 1
    assert message.startswith(f"cards.json:1:{at}: deck/cards/0/classes: [] should be non-empty\n")
    # the one long line is cut around the place of the error
    quoted = message.splitlines()[1]
    assert '"classes": []' in quoted and quoted.endswith("...")
    assert len(quoted) < 120


def test_a_json_variant_with_no_deal(tmp_path: Path) -> None:
    data = ir_json("hachihachi/kirisame")
    data["deal"] = []
    text = json.dumps(data)
    message = errors_of(write(tmp_path, text, "deal.json"))
    at = text.index('"deal": []') + len('"deal": ') + 1
    assert message.startswith(f"deal.json:1:{at}: deal: [] should be non-empty")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("seats", "min"), 0, "seats/min: 0 is less than the minimum of 2"),
        (("length", "rounds"), 0, "length/rounds: 0 is less than the minimum of 1"),
        (("deck", "classes"), [], "deck/classes: [] should be non-empty"),
    ],
)
def test_json_values_the_engine_cannot_play(
    tmp_path: Path, path: tuple[str, str], value: object, message: str
) -> None:
    data = ir_json("hachihachi/kirisame")
    data[path[0]][path[1]] = value  # type: ignore[index]
    text = json.dumps(data)
    said = errors_of(write(tmp_path, text, "x.json"))
    # located at the value (issue 21, item 8: every JSON error was at 1:1)
    at = text.index(f'"{path[0]}": ') + len(f'"{path[0]}": ')
    at = text.index(f'"{path[1]}": ', at) + len(f'"{path[1]}": ')
    assert said.startswith(f"x.json:1:{at + 1}: {message}"), said


def test_json_seats_whose_most_is_fewer_than_the_fewest(tmp_path: Path) -> None:
    data = ir_json("hachihachi/kirisame")
    data["seats"] = {"min": 4, "max": 3, "active": None}
    text = json.dumps(data)
    message = errors_of(write(tmp_path, text, "x.json"))
    at = text.index('"seats": ') + len('"seats": ') + 1
    assert message.startswith(f"x.json:1:{at}: seats: Value error, max (3) is less than min (4)")


# ---------------------------------------------------------------- hand sizes


EIGHT = 'teyaku\n  big "Big" 10: 8 of lights + animals + ribbons + plains\n'


def test_a_teyaku_of_an_8_card_hand_where_8_cards_are_dealt(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, SLOPER + EIGHT))
    assert rules.teyaku is not None and rules.teyaku.entry("big").value == 10


def test_a_teyaku_no_hand_of_the_dealt_size_can_make(tmp_path: Path) -> None:
    path = write(tmp_path, SLOPER + 'teyaku\n  ff "FF" 10: 3 months of 3\n')
    assert errors_of(path).startswith(
        "house.rk:3:3: no dealt hand of 8 cards can make 'ff' (3 months of 3)\n"
    )


def test_eval_accepts_the_hand_size_the_variant_deals(tmp_path: Path) -> None:
    c = CompiledRules(load_rules(write(tmp_path, SLOPER + EIGHT)))
    result = eval_hand(c, c.index.parse_many(["10 11 12 13 20 21 22 23"]))
    assert [e["name"] for e in result["teyaku"]] == ["big"]
    with pytest.raises(RulekitError) as info:
        eval_hand(c, c.index.parse_many(["10 11 12 13 20 21 22"]))
    assert info.value.message == "a dealt hand has 8 cards; 7 given"


def test_alternatives_in_words() -> None:
    assert [either(()), either([7]), either([7, 8]), either([3, 4, 5])] == [
        "",
        "7",
        "7 or 8",
        "3, 4 or 5",
    ]


def test_a_house_rule_may_deal_hands_the_teyaku_of_its_base_cannot_come_from(
    tmp_path: Path,
) -> None:
    """A scenario sets up a position with 3-card hands: the base's teyaku, made for 7 cards, are
    not typos. An entry no hand of any size dealt along the chain can make still is."""
    text = FUDAWIKI + "deal 3 to each, 6 to the field\n"
    assert load_rules(write(tmp_path, text)).hand_sizes() == [3]
    rules = load_rules_text(text, "scenario.toml", tmp_path / "scenario.toml")
    assert rules.teyaku is not None and rules.teyaku.entry("four").value == 30
    path = write(tmp_path, text + 'teyaku\n  eight "Eight" 5: plains = 8\n')
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    assert [e.message for e in info.value.errors] == [
        "no dealt hand of 3 or 7 cards can make 'eight' (plains = 8)"
    ]


# ---------------------------------------------------------------- line numbers


def test_a_form_feed_or_line_separator_in_a_comment_does_not_shift_the_quoted_line(
    tmp_path: Path,
) -> None:
    """Lines are numbered at "\\n" only (as the parser does), not where str.splitlines splits."""
    path = write(
        tmp_path,
        FUDAWIKI + "# page\fbreak \u2028 and a line separator\x1c\n"
        "dekiyaku\n  poetry_ribbons: all of crane, cutrain\n",
    )
    assert errors_of(path) == (
        "house.rk:4:33: unknown card, class, tag, set or month 'cutrain'\n"
        " 4 |   poetry_ribbons: all of crane, cutrain\n"
        "   |                                 ^^^^^^^\n"
        " = did you mean 'curtain'?"
    )


def test_a_syntax_error_after_a_form_feed(tmp_path: Path) -> None:
    path = write(tmp_path, FUDAWIKI + "# page\fbreak\nteyaku best onyl\n")
    assert errors_of(path) == (
        "house.rk:3:13: unexpected 'onyl'; expected 'only'\n"
        " 3 | teyaku best onyl\n"
        "   |             ^^^^\n"
        " = did you mean 'only'?"
    )


def test_a_syntax_error_at_the_end_of_a_line_after_a_form_feed(tmp_path: Path) -> None:
    path = write(tmp_path, FUDAWIKI + '# \f\nteyaku\n  x "X" 5: lights >=\n')
    assert errors_of(path).startswith(
        'house.rk:4:21: unexpected end of line; expected a number\n 4 |   x "X" 5: lights >=\n'
    )


# ---------------------------------------------------------------- deck files, wild card


def test_a_deck_file_that_extends_another_file(tmp_path: Path) -> None:
    write(tmp_path, 'extends "common/hanafuda"\n', "my-deck.rk")
    path = write(tmp_path, 'game "G"\ndeck "my-deck"\n')
    assert errors_of(path) == (
        "my-deck.rk:1:1: a deck file cannot extend another file\n"
        ' 1 | extends "common/hanafuda"\n'
        "   | ^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        " = my-deck.rk is included as a deck at house.rk:2:1; a deck file may name the"
        ' deck it changes (deck "common/hanafuda", then `without ...`)'
    )


def test_a_game_file_named_as_a_deck(tmp_path: Path) -> None:
    path = write(tmp_path, 'game "G"\ndeck "hachihachi/kirisame"\n')
    assert errors_of(path).startswith(
        "rules/hachihachi/kirisame.rk:8:1: a game file cannot be included as a deck\n"
    )


def test_an_unknown_wild_card_is_one_error(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "wild 0: captures any field card from the hand\n")
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    assert [e.message for e in info.value.errors] == ["no card 0"]


def test_a_wild_card_set_of_several_cards(tmp_path: Path) -> None:
    path = write(tmp_path, KIRISAME + "wild lights: captures any field card from the hand\n")
    assert errors_of(path).startswith("house.rk:2:1: a wild card is one card\n")


# ---------------------------------------------------------------- grammar and transformer


def _tree_names() -> set[str]:
    """Every name a parse-tree node can have: rules and aliases (inlined rules make none)."""
    names = set()
    for rule in _parser().rules:
        name = str(rule.alias or rule.origin.name)
        if name.startswith("_") or (rule.options.expand1 and not rule.alias):
            continue
        names.add(name)
    return names


def test_every_grammar_rule_is_handled_by_the_transformer() -> None:
    names = _tree_names()
    tables = set(tf.OPTIONS) | set(tf.TABLE_OPTIONS) | set(tf.ENTRY_FLAGS)
    methods = {n for n in names if callable(getattr(tf._ToAst, n, None))}
    assert names - methods - tables == set()
    assert tables - names == set(), "a table names a rule the grammar does not have"
    assert methods & tables == set(), "a rule is handled twice"


def test_mechanic_options_are_named_as_the_fields_of_the_ir() -> None:
    fields = {
        f
        for model in (
            ir.Seats,
            ir.Fold,
            ir.Continuation,
            ir.Settlement,
            ir.Length,
            ir.WildCard,
            ir.Declaration,
            ir.Event,
            ir.Bomb,
            ir.Compensation,
            ir.DrawOffer,
        )
        for f in model.model_fields
    }
    assert {kind for kind, _ in tf.OPTIONS.values()} - fields == set()


def test_a_variant_without_mechanics_takes_the_defaults_of_the_ir(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, 'game "G"\ndeck "common/hanafuda"\n'))
    defaults = ir.Ruleset(game="G", deck=rules.deck, points={})
    skip = {"game", "files", "deck", "points", "expectations"}
    assert rules.model_dump(exclude=skip) == defaults.model_dump(exclude=skip)


def test_a_json_ir_files_errors_point_into_it(tmp_path: Path) -> None:
    """Issue 21, item 8: a JSON dump of a rule file carries the places of that file's lines,
    and its checks' errors pointed there (`rules/common/hanafuda.rk:85`) or nowhere (1:1)."""
    data = ir_json("hachihachi/fudawiki")
    data["yaku"]["entries"][0]["condition"] = {  # type: ignore[index]
        "kind": "count", "cards": [11, 21, 31], "op": ">=", "n": 9
    }  # fmt: skip
    text = json.dumps(data, indent=1)
    message = errors_of(write(tmp_path, text, "x.json"))
    lines = text.splitlines()
    made = next(i for i, line in enumerate(lines) if '"name": "poetry_ribbons"' in line) + 1
    assert message.startswith(f"x.json:{made}:") and "no pile of captured cards" in message
    data = ir_json("hachihachi/fudawiki")
    data["setup"] = ["hands", "field", "teyaku"]
    text = json.dumps(data, indent=1)
    message = errors_of(write(tmp_path, text, "y.json"))
    seats = next(i for i, line in enumerate(text.splitlines()) if '"max": 6' in line) + 1
    assert message.startswith(f"y.json:{seats}:") and "setup has no 'fold' step" in message
