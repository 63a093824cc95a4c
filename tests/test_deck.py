"""The 48-card deck: ids, names, months, classes, totals."""

from __future__ import annotations

from rulekit.lang.checks import deck_totals
from tests.conftest import rules


def test_deck_totals() -> None:
    totals = deck_totals(rules("hachihachi"))
    assert totals["cards"] == 48
    assert (totals["lights"], totals["animals"], totals["ribbons"], totals["plains"]) == (
        5,
        9,
        10,
        24,
    )
    assert totals["points"] == 264 == 3 * 88


def test_card_ids_are_month_then_index() -> None:
    deck = rules("hachihachi").deck
    assert [c.id for c in deck.cards][:5] == [10, 11, 12, 13, 20]
    for c in deck.cards:
        assert c.id == c.month * 10 + c.rank and 0 <= c.rank <= 3
    assert {m.number for m in deck.months} == set(range(1, 13))


def test_the_names_of_the_design() -> None:
    by_name = {c.name: c.id for c in rules("hachihachi").deck.cards}
    expected = {
        "crane": 10, "curtain": 30, "moon": 80, "rainman": 110, "phoenix": 120, "sake": 90,
        "boar": 70, "deer": 100, "butterflies": 60, "lightning": 113, "paulownia_yellow": 121,
    }  # fmt: skip
    assert {n: by_name[n] for n in expected} == expected


def test_tags() -> None:
    deck = rules("hachihachi").deck
    tagged = {t: sorted(c.id for c in deck.cards if t in c.tags) for t in ("poetry", "blue", "red")}
    assert tagged == {"poetry": [11, 21, 31], "blue": [61, 91, 101], "red": [41, 51, 71]}
