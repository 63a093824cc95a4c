"""Conditions on the swap, a hiki and a declaration (issue 23, item 1): `swap only if COND`,
`hiki only if COND`, `declare ...; only if COND`. The language (read, located errors), both
engines deal by deal (and whole games, where the round number decides), describe and diff in
words. The scenarios in rules/koikoi/scenarios/choices/, rules/sakura/scenarios/ and
rules/hachihachi/house/scenarios/ pin each reading on a stacked deal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.describe import round_paragraphs
from rulekit.diff import diff
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.sim.exercise import exercised
from rulekit.sim.simulate import simulate
from tests.test_batch_identity import assert_same_rounds, variant

MIZUTEN = (
    'declare mizuten "Mizuten": by the dealer; before the deal; {offer}he must join;'
    " 10 from each who folds; times multiplier"
)
# (label, rule text, seats): a condition that varies from deal to deal in a single round
SINGLE_ROUNDS = {
    "the swap, after the field, only if the field had a light": (
        'extends "koikoi/sloper"\nsetup: hands, field, swap, instant_win\n'
        "swap only if the field had any of crane, curtain, moon, rainman, phoenix\n",
        (2,),
    ),
    "hiki only if not dealer, the lightning respecting hikis": (
        'extends "sakura/hawaii"\nhiki only if not dealer\n',
        (3, 4),
    ),
    "hiki in Koi-Koi only with a light in hand, not the dealer": (
        'extends "koikoi/sloper"\nhiki: capture all four cards of a month seen in hand and'
        " field\nhiki only if lights >= 1 and not dealer\n",
        (2,),
    ),
}


def _rules(text: str) -> ir.Ruleset:
    return load_rules_text(text, "probe.rk", Path(__file__))


def test_conditions_on_the_swap_a_hiki_and_a_declaration_are_read() -> None:
    swap = _rules('extends "koikoi/sloper"\nswap only if round >= 2\n')
    assert [o.option for o in swap.swap_offers] == ["swap"] and swap.swap_offers[0].condition
    hiki = _rules('extends "sakura/hawaii"\nhiki only if not dealer\n')
    assert [o.option for o in hiki.hiki_offers] == ["hiki"]
    declared = _rules(
        'extends "hachihachi/house/mizuten"\n' + MIZUTEN.format(offer="only if round >= 2; ")
    )
    (d,) = declared.declarations
    assert [o.option for o in d.offers] == ["declare"] and d.must_join
    # mizuten as bundled has none: its meaning (and its digests) unchanged
    assert load_rules("hachihachi/house/mizuten").declarations[0].offers == ()
    # `remove hiki` drops the hiki's condition with it
    gone = _rules('extends "sakura/hawaii"\nhiki only if not dealer\nremove hiki\n')
    assert not gone.hiki and gone.hiki_offers == ()


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            'extends "koikoi/sloper"\nhiki only if dealer\n',
            "'hiki only if ...': this variant has no hiki",
            "hiki: capture all four",
        ),
        (
            'extends "sakura/hawaii"\nswap only if round >= 2\n',
            "'swap only if ...': this variant has no swap step in its setup",
            "setup: hands, swap, field",
        ),
        (
            'extends "koikoi/sloper"\nswap only if lights >= 1\n',
            "a test of his cards cannot be used in a condition on the swap",
            "before he looks at his hand",
        ),
        (
            'extends "hachihachi/house/mizuten"\n' + MIZUTEN.format(offer="only if a month of 3; "),
            "a test of his cards cannot be used in a condition on a declaration",
            "hand unseen",
        ),
        (
            'extends "koikoi/sloper"\nswap only if score >= 2\n',
            "'score' cannot be used in a condition on the swap",
            "a condition on a choice",
        ),
        (
            'extends "sakura/hawaii"\nhiki only if lihgts >= 1\n',
            "lihgts",
            "lights",
        ),
    ],
)
def test_a_bad_condition_on_the_swap_a_hiki_or_a_declaration_is_a_located_error(
    text: str, message: str, hint: str
) -> None:
    with pytest.raises(RulekitError) as info:
        _rules(text)
    errors = getattr(info.value, "errors", [info.value])
    hit = [e for e in errors if message in e.message]
    assert hit, [e.message for e in errors]
    (e,) = hit[:1]
    assert e.loc is not None and e.loc.line == 2, e.loc
    assert hint in (e.hint or ""), e.hint


def test_describe_and_diff_say_the_conditions_in_words() -> None:
    hiki = _rules('extends "sakura/hawaii"\nhiki only if not dealer\n')
    said = " ".join(round_paragraphs(hiki))
    assert "Offered: hiki only if not dealer; when it is not, the player is not asked" in said
    words = [c.sentence() for c in diff(load_rules("sakura/hawaii"), hiki)]
    assert any("conditions on a hiki" in w and "hiki only if not dealer" in w for w in words)
    swap = _rules('extends "koikoi/sloper"\nswap only if round >= 2\n')
    words = [c.sentence() for c in diff(load_rules("koikoi/sloper"), swap)]
    assert any("none (always offered) -> swap only if round >= 2" in w for w in words), words
    declared = _rules(
        'extends "hachihachi/house/mizuten"\n' + MIZUTEN.format(offer="only if round >= 2; ")
    )
    words = [c.sentence() for c in diff(load_rules("hachihachi/house/mizuten"), declared)]
    assert any("Offered: declare only if round >= 2" in w for w in words), words


@pytest.mark.parametrize("label", list(SINGLE_ROUNDS))
def test_both_engines_play_conditions_on_the_swap_and_a_hiki_deal_by_deal(label: str) -> None:
    text, seat_counts = SINGLE_ROUNDS[label]
    c = variant(text)
    for seats in seat_counts:
        assert_same_rounds(c, label, seats, deals=12)


@pytest.mark.parametrize(
    "text",
    [
        'extends "koikoi/sloper"\nswap only if round >= 3\n',
        'extends "hachihachi/house/mizuten"\n' + MIZUTEN.format(offer="only if round >= 3; "),
    ],
    ids=["swap", "declaration"],
)
def test_both_engines_play_a_condition_on_the_round_number_over_whole_games(text: str) -> None:
    """`only if round >= 3`: not offered in the first two rounds of a game, offered after;
    the same games and the same choices counted in both engines."""
    rules = _rules(text)
    seats = 2 if rules.seats.min == 2 else 4
    runs = [
        simulate(rules, seats=seats, bots=["greedy", "random"], seed=3, games=2, engine=engine)
        for engine in ("scalar", "batch")
    ]
    for run in runs:
        for key in ("engine", "engine_note", "seconds", "rounds_per_second"):
            run.pop(key, None)
    assert runs[0] == runs[1]
    assert runs[0]["rounds"] > 2


def test_compare_counts_a_condition_on_the_swap_or_a_hiki_as_a_difference_in_the_mechanic() -> None:
    """Variants that differ only in the swap's (or a hiki's) conditions differ in that choice:
    never taken in either, compare says it cannot see it."""
    none: Counter[str] = Counter()
    swap = _rules('extends "koikoi/sloper"\nswap only if round >= 2\n')
    seen = exercised(load_rules("koikoi/sloper"), swap, none, none)
    assert "swap" in seen["differing"] and "swap" in seen["unseen"]
    hiki = _rules('extends "sakura/hawaii"\nhiki only if not dealer\n')
    seen = exercised(load_rules("sakura/hawaii"), hiki, none, Counter({"hiki": 1}))
    assert "hiki" in seen["differing"] and seen["unseen"] == []
