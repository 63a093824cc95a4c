"""Every row of hana.kirisame.org's table of 47 dealt hands, values copied from the source.

Each hand was built by hand for its row: it satisfies the row, and no listed row worth more.
November cards count as dregs in dealt hands (the reading the table itself implies).
"""

from __future__ import annotations

import pytest

from rulekit.engine.tables import CompiledRules
from rulekit.evaluate import eval_hand

# (row name in the source, value in the source, a hand of 7 cards)
ROWS = [
    # the basic 12
    ("Three", 24, "10 11 12 20 30 40 50"),
    ("Standing Three", 36, "40 41 42 10 20 30 50"),
    ("Red", 36, "11 21 32 42 52 62 72"),
    ("One Slip", 36, "11 22 32 42 52 62 72"),
    ("One Ten", 36, "20 12 32 42 52 62 72"),
    ("Wither", 48, "12 22 32 42 52 62 72"),
    ("One Light", 48, "10 22 32 42 52 62 72"),
    ("Lead", 48, "10 11 20 21 30 31 40"),
    ("Four", 72, "10 11 12 13 20 30 40"),
    ("Haneken", 84, "10 11 12 20 21 30 31"),
    ("Four Two One", 96, "10 11 12 13 20 21 30"),
    ("Four Three", 240, "10 11 12 13 20 21 22"),
    # the 35 combinations
    ("Red Three", 60, "11 12 13 21 32 42 52"),
    ("One Slip Three", 60, "11 12 13 22 32 42 52"),
    ("One Ten Three", 60, "20 22 23 32 42 52 62"),
    ("One Light Three", 72, "10 12 13 22 32 42 52"),
    ("Wither Three", 72, "110 111 112 12 22 32 42"),
    ("Two Three", 72, "10 11 12 20 21 22 30"),
    ("Red Standing Three", 72, "41 42 43 11 22 32 52"),
    ("One Slip Standing Three", 72, "41 42 43 12 22 32 52"),
    ("One Ten Standing Three", 72, "40 42 43 12 22 32 52"),
    ("Wither Standing Three", 84, "121 122 123 12 22 32 42"),
    ("Two Standing Threes", 96, "40 41 42 50 51 52 10"),
    ("Red Lead", 84, "11 12 21 22 32 33 42"),
    ("One Slip Lead", 84, "11 12 22 23 32 33 42"),
    ("One Ten Lead", 84, "20 22 12 13 32 33 42"),
    ("Wither Lead", 96, "12 13 22 23 32 33 42"),
    ("One Light Lead", 96, "10 12 22 23 32 33 42"),
    ("Red Four", 108, "110 111 112 113 11 21 32"),
    ("One Slip Four", 108, "110 111 112 113 11 22 32"),
    ("One Ten Four", 108, "110 111 112 113 20 32 42"),
    ("Wither Four", 120, "110 111 112 113 12 22 32"),
    ("One Light Four", 120, "110 111 112 113 10 22 32"),
    ("Red Haneken", 120, "11 12 13 21 22 32 33"),
    ("One Slip Haneken", 120, "11 12 13 22 23 32 33"),
    ("One Ten Haneken", 120, "20 22 23 12 13 32 33"),
    ("Wither Haneken", 132, "110 111 112 12 13 22 23"),
    ("One Light Haneken", 132, "10 12 13 22 23 32 33"),
    ("Red Four Two One", 132, "110 111 112 113 11 12 21"),
    ("One Slip Four Two One", 132, "110 111 112 113 11 12 22"),
    ("One Ten Four Two One", 132, "110 111 112 113 20 22 12"),
    ("Wither Four Two One", 144, "110 111 112 113 12 13 22"),
    ("One Light Four Two One", 144, "110 111 112 113 10 12 22"),
    ("One Slip Four Three", 276, "110 111 112 113 11 12 13"),
    ("One Ten Four Three", 276, "110 111 112 113 20 22 23"),
    ("Wither Four Three", 288, "110 111 112 113 121 122 123"),
    ("One Light Four Three", 288, "110 111 112 113 10 12 13"),
]


def test_the_table_has_47_rows_12_basic_and_35_combinations(kirisame: CompiledRules) -> None:
    assert len(ROWS) == 47
    assert len({name for name, _, _ in ROWS}) == 47
    assert kirisame.teyaku is not None
    assert sorted(e.label for e in kirisame.teyaku.entries) == sorted(name for name, _, _ in ROWS)


@pytest.mark.parametrize(("row", "value", "hand"), ROWS, ids=[r[0] for r in ROWS])
def test_dealt_hand_row(kirisame: CompiledRules, row: str, value: int, hand: str) -> None:
    ids = kirisame.index.parse_many([hand])
    result = eval_hand(kirisame, ids)
    assert [e["label"] for e in result["counted"]] == [row]
    assert result["value"] == value


@pytest.mark.parametrize(
    ("hand", "value", "why"),
    [
        # One Light with the December Standing Three is no listed row: One Light Three.
        ("10 121 122 123 22 32 42", 72, "One Light Three"),
        # Red with Two Three: Two Three, the highest listed row it satisfies.
        ("11 12 13 21 22 23 32", 72, "Two Three"),
        # A Three with a Standing Three: Two Three.
        ("10 11 12 40 41 42 20", 72, "Two Three"),
        # Red with Two Standing Threes: Two Standing Threes.
        ("41 42 43 51 52 53 12", 96, "Two Standing Threes"),
    ],
)
def test_hands_matching_no_listed_row_count_the_highest_row_they_satisfy(
    kirisame: CompiledRules, hand: str, value: int, why: str
) -> None:
    result = eval_hand(kirisame, kirisame.index.parse_many([hand]))
    assert result["value"] == value
    assert result["counted"][0]["label"] == why


def test_only_one_dealt_hand_counts(kirisame: CompiledRules) -> None:
    result = eval_hand(kirisame, kirisame.index.parse_many(["10 11 12 30 31 32 80"]))
    assert len(result["teyaku"]) > 1
    assert len(result["counted"]) == 1
    assert result["value"] == 72
