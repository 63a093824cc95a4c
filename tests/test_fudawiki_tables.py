"""Fudawiki's 12 teyaku and its dekiyaku, with the example hands its tables show."""

from __future__ import annotations

import pytest

from rulekit.engine.tables import CompiledRules
from rulekit.evaluate import eval_captured, eval_field, eval_hand


def counted(c: CompiledRules, hand: str) -> tuple[list[str], int]:
    result = eval_hand(c, c.index.parse_many([hand]))
    return [e["name"] for e in result["counted"]], result["value"]


# The source's examples; where it shows fewer than 7 cards the rest are cards that make nothing.
TEYAKU = [
    ("triple", 10, "80 81 82 10 20 30 40"),
    ("special_triple", 15, "40 41 42 10 20 30 50"),
    ("special_triple", 15, "121 122 123 10 20 30 40"),
    ("red", 15, "71 41 31 42 82 102 12"),
    ("one_ribbon", 20, "41 32 42 82 102 12 93"),
    ("one_animal", 20, "40 32 42 82 102 12 93"),
    ("one_light", 20, "30 32 42 82 102 12 93"),
    ("three_pairs", 20, "122 121 10 11 50 53 83"),
    ("empty_nest", 25, "122 32 42 82 102 12 93"),
    ("four", 30, "30 31 32 33 42 82 102"),
    ("haneken", 30, "30 31 32 81 82 41 42"),
    ("one_two_four", 35, "80 122 121 30 31 32 33"),
    ("four_three", 50, "30 31 32 33 70 71 72"),
]


@pytest.mark.parametrize(("name", "value", "hand"), TEYAKU, ids=[f"{t[0]}-{t[2]}" for t in TEYAKU])
def test_each_teyaku_with_the_sources_example(
    fudawiki: CompiledRules, name: str, value: int, hand: str
) -> None:
    assert counted(fudawiki, hand) == ([name], value)


def test_only_the_highest_teyaku_counts(fudawiki: CompiledRules) -> None:
    # "if one can make a Triple and a Haneken, only the Haneken counts"
    result = eval_hand(fudawiki, fudawiki.index.parse_many(["30 31 32 81 82 41 42"]))
    assert {e["name"] for e in result["teyaku"]} == {"triple", "haneken"}
    assert [e["name"] for e in result["counted"]] == ["haneken"]


def test_two_triples_count_as_one_triple(fudawiki: CompiledRules) -> None:
    assert counted(fudawiki, "10 11 12 30 31 32 80") == (["triple"], 10)


def test_a_december_triple_with_the_phoenix_is_a_plain_triple(fudawiki: CompiledRules) -> None:
    assert counted(fudawiki, "120 121 122 10 20 30 40") == (["triple"], 10)


def test_november_counts_as_plain_in_teyaku(fudawiki: CompiledRules) -> None:
    # Reading: November cards are plains in every teyaku, so they make an Empty nest.
    assert counted(fudawiki, "110 22 32 42 52 62 72") == (["empty_nest"], 25)
    assert counted(fudawiki, "112 22 32 42 52 62 72") == (["empty_nest"], 25)
    assert counted(fudawiki, "111 22 32 42 52 62 72") == (["empty_nest"], 25)


def test_one_light_excludes_the_rain_man(fudawiki: CompiledRules) -> None:
    names, _ = counted(fudawiki, "110 22 32 42 52 62 72")
    assert "one_light" not in names


def test_a_hand_with_no_teyaku(fudawiki: CompiledRules) -> None:
    assert counted(fudawiki, "10 20 30 40 50 60 70") == ([], 0)


def yaku(c: CompiledRules, cards: str) -> tuple[list[str], int]:
    result = eval_captured(c, c.index.parse_many([cards]))
    return sorted(e["name"] for e in result["yaku"]), result["value"]


DEKIYAKU = [
    ("poetry_ribbons", 35, "11 21 31"),
    ("blue_ribbons", 35, "61 91 101"),
    ("boar_deer_butterflies", 35, "70 100 60"),
    ("seven_ribbons", 50, "11 21 41 51 61 71 101"),
    ("four_lights", 50, "10 30 80 120"),
    ("five_lights", 75, "10 30 80 110 120"),
]


@pytest.mark.parametrize(("name", "value", "cards"), DEKIYAKU, ids=[d[0] for d in DEKIYAKU])
def test_each_dekiyaku(fudawiki: CompiledRules, name: str, value: int, cards: str) -> None:
    assert yaku(fudawiki, cards) == ([name], value)


def test_seven_ribbons_excludes_the_willow_ribbon(fudawiki: CompiledRules) -> None:
    assert yaku(fudawiki, "11 21 41 51 61 71 112") == ([], 0)


def test_four_lights_excludes_the_rain_man(fudawiki: CompiledRules) -> None:
    assert yaku(fudawiki, "10 30 80 110") == ([], 0)


def test_five_lights_supersedes_four_lights(fudawiki: CompiledRules) -> None:
    assert yaku(fudawiki, "10 30 80 110 120") == (["five_lights"], 75)


PLAINS = (
    "12 13 22 23 32 33 42 43 52 53 62 63 72 73 82 83 92 93 102 103 "  # 20 plains
    "113 111 112 110"  # and the four November cards
).split()


@pytest.mark.parametrize(
    ("n", "name", "value"),
    [(16, "plains_16", 50), (17, "plains_17", 60), (18, "plains_18", 75), (19, "plains_19", 100)],
)
def test_plains_dekiyaku_count_november_as_plains(
    fudawiki: CompiledRules, n: int, name: str, value: int
) -> None:
    # the last four of PLAINS are November cards: they count as plains here
    cards = " ".join(PLAINS[: n - 4] + PLAINS[20:])
    assert yaku(fudawiki, cards) == ([name], value)


def test_15_plains_make_nothing(fudawiki: CompiledRules) -> None:
    assert yaku(fudawiki, " ".join(PLAINS[:15])) == ([], 0)


def test_yaku_add_up(fudawiki: CompiledRules) -> None:
    assert yaku(fudawiki, "11 21 31 61 91 101 70 100 60") == (
        ["blue_ribbons", "boar_deer_butterflies", "poetry_ribbons"],
        105,
    )


def test_double_eight_is_decided_at_the_count_by_card_points(fudawiki: CompiledRules) -> None:
    lights = "10 30 80 110 120"  # 100 points
    animals = "20 40 50 60 70 81 90"  # 70 points
    names, _ = yaku(fudawiki, f"{lights} {animals}")
    assert "double_eight" in names
    result = eval_captured(fudawiki, fudawiki.index.parse_many([f"{lights} {animals}"]))
    assert result["points"] == 170
    assert any(e["name"] == "double_eight" and e.get("at_count") for e in result["yaku"])


@pytest.mark.parametrize(
    ("field", "multiplier", "carry"),
    [
        ("12 22 42 52 62 72", 1, 1),
        ("10 22 42 52 62 72", 2, 1),
        ("10 30 42 52 62 72", 2, 2),
        ("110 22 42 52 62 72", 4, 1),
        ("110 10 30 52 62 72", 4, 2),
        ("110 120 42 52 62 72", 4, 4),
    ],
)
def test_field_multiplier_and_carry_over(
    fudawiki: CompiledRules, field: str, multiplier: int, carry: int
) -> None:
    result = eval_field(fudawiki, fudawiki.index.parse_many([field]))
    assert (result["multiplier"], result["next_round_at_least"]) == (multiplier, carry)
    assert result["void"] is False
