"""Conditions on the stop-or-continue choice (issue 23, item 1), and the bar a yaku made after a
lost one must beat (item 9): the language, both engines deal by deal, what the bots are asked,
and what `compare` shows of koikoi/house/stop-at-two (item 10). The scenarios beside
rules/koikoi/house/ and rules/koikoi/scenarios/choices/ pin each reading on a stacked deal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.batch import engine as batch
from rulekit.describe import offer_sentences
from rulekit.diff import diff
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.sim.compare import compare
from tests.test_batch_identity import assert_same_rounds, batch_deal, scalar_deal, variant

KOI = (
    'continue "Koi-koi": paid when stopping; multiplier per yaku; if another stops first'
    " forfeit; if unfinished forfeit"
)
# (label, rule text, seats): every offer and both readings of a yaku made after a lost one, in
# Koi-Koi (paid at the stop, one koi-koi factor per yaku) and Hachi-Hachi (sage, paid when
# made, three or four players)
OFFERED = {
    "one koi-koi per round, none with an empty hand": (
        f'extends "koikoi/sloper"\n{KOI}; continue at most once per round;'
        " continue not with an empty hand\n",
        (2,),
    ),
    "koi-koi only from round 2 and not the dealer; stop only at 3 or with a light": (
        f'extends "koikoi/sloper"\n{KOI}; continue only if round >= 2 and not dealer;'
        " stop only if score >= 3 or lights >= 1\n",
        (2,),
    ),
    "a new yaku beats what is left after the rain": (
        f'extends "koikoi/house/viewings-rain"\n{KOI}; after a lost yaku, a stop needs more'
        " than what is left\n",
        (2,),
    ),
    "sage only with an opponent's sage or the field had a light; stop only if score >= 20": (
        'extends "hachihachi/fudawiki"\ncontinue "Sage": paid when made; if beaten refund half'
        " and pay for all; if unfinished keep; continue only if an opponent continued or the"
        " field had any of crane, curtain, moon; stop only if score >= 20\n",
        (3, 4),
    ),
    "the dealer may not fold; join only with a light or from round 3": (
        'extends "hachihachi/fudawiki"\nfold: fee 10; forced folds pay 5; fold only if not'
        " dealer; join only if lights >= 1 or round >= 3\n",
        (4, 5),
    ),
}


def _rules(text: str) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", Path(__file__))


def test_offers_are_read_in_order_with_their_conditions_and_limits() -> None:
    text = (
        f'extends "koikoi/sloper"\n{KOI}; stop only if score >= 2; continue at most once per'
        " round; continue not with an empty hand; continue only if round >= 6\n"
    )
    offers = _rules(text).continuation.offers
    assert offers == (
        ir.Offer(option="stop", condition=ir.ScoreCmp(op=">=", n=2)),
        ir.Offer(option="continue", limits=("once_per_round",)),
        ir.Offer(option="continue", limits=("hand_not_empty",)),
        ir.Offer(option="continue", condition=ir.RoundCmp(op=">=", n=6)),
    )


def test_a_yaku_after_a_lost_one_beats_the_value_declared_unless_the_file_says_what_is_left() -> (
    None
):
    assert load_rules("koikoi/house/viewings-rain").continuation.after_loss == "declared"
    left = (
        f'extends "koikoi/sloper"\n{KOI}; after a lost yaku, a stop needs more than what is left\n'
    )
    assert _rules(left).continuation.after_loss == "left"


@pytest.mark.parametrize(
    ("line", "message", "where"),
    [
        ("stop only if lihgts >= 1", "did you mean 'lights'", "lihgts"),
        (
            "stop only if nobody won",
            "'nobody won' cannot be used in a condition on a choice",
            "nobody",
        ),
        ("continue only if dealt triple", "cannot be used in a condition on a choice", "dealt"),
        ("stop at most once per round", "a stop ends the round", "stop at most"),
    ],
    ids=["unknown name", "nobody won", "dealt", "stop once"],
)
def test_a_bad_offer_is_a_located_error(line: str, message: str, where: str) -> None:
    text = f'extends "koikoi/sloper"\n{KOI}; {line}\n'
    with pytest.raises(RulekitError) as info:
        _rules(text)
    shown = str(info.value)
    assert message in shown
    assert f"house.rk:2:{text.splitlines()[1].index(where) + 1}" in shown


@pytest.mark.parametrize("atom", ["score >= 2", "continued", "nobody won", "dealt triple"])
def test_a_condition_on_folding_that_means_nothing_there_is_a_located_error(atom: str) -> None:
    text = f'extends "hachihachi/fudawiki"\nfold: fee 10; fold only if {atom}\n'
    with pytest.raises(RulekitError) as info:
        _rules(text)
    shown = str(info.value)
    assert "cannot be used in a condition on joining or folding" in shown
    assert f"house.rk:2:{text.splitlines()[1].index(atom) + 1}" in shown


def test_fold_offers_are_read_and_said_in_words() -> None:
    text = 'extends "hachihachi/fudawiki"\nfold: fee 10; fold only if not dealer\n'
    rules = _rules(text)
    assert rules.fold.offers == (ir.Offer(option="fold", condition=ir.Not(item=ir.IsDealer())),)
    words = [c.sentence() for c in diff(load_rules("hachihachi/fudawiki"), rules)]
    assert any(
        "join and fold always offered" in w and "fold only if not dealer" in w for w in words
    )


def test_an_offer_where_yaku_do_not_end_the_round_is_refused() -> None:
    text = (
        'extends "sakura/hawaii"\n'
        "continue: yaku do not end the round; continue only if round >= 2\n"
    )
    with pytest.raises(RulekitError, match="nobody stops or continues"):
        _rules(text)


def test_describe_and_diff_say_the_offers_and_the_bar_in_words() -> None:
    rules = load_rules("koikoi/house/stop-at-two")
    said = offer_sentences(rules.continuation.offers, rules)
    assert said[0] == "Offered: stop only if score >= 2."
    words = [c.sentence() for c in diff(load_rules("koikoi/sloper"), rules)]
    assert any("stop only if score >= 2" in w and "always offered" in w for w in words), words
    left = _rules(
        f'extends "koikoi/house/viewings-rain"\n{KOI}; after a lost yaku, a stop needs more'
        " than what is left\n"
    )
    words = [c.sentence() for c in diff(load_rules("koikoi/house/viewings-rain"), left)]
    assert any("the value last declared -> what is left of it" in w for w in words), words


@pytest.mark.parametrize("label", list(OFFERED))
def test_both_engines_play_the_offers_deal_by_deal(label: str) -> None:
    text, seat_counts = OFFERED[label]
    c = variant(text)
    for seats in seat_counts:
        assert_same_rounds(c, label, seats)


def test_a_stop_never_offered_is_never_asked_and_every_yaku_continues() -> None:
    """`stop only if score >= 100`: no yaku reaches it, so nobody is ever asked, in either
    engine; every yaku calls a koi-koi for its maker (the continues count them)."""
    c = variant(f'extends "koikoi/sloper"\n{KOI}; stop only if score >= 100\n')
    bots = ("rulewise", "greedy")
    plan = batch.make_plan(c, 2, bots, 1)
    choices: Counter[str] = Counter()
    continued = 0
    for number in range(40):
        got = batch_deal(plan, number)
        assert got is not None
        assert got == scalar_deal(c, 2, bots, 1, number), f"deal {number}"
        choices += got["choices"]
        continued += got["continued"]
    assert choices["continue offered"] == 0 and continued > 20


def test_stop_at_two_asks_fewer_choices_and_ends_fewer_rounds_by_a_stop() -> None:
    """The issue's measure: `rulekit compare koikoi koikoi/house/stop-at-two` shows the stop
    rate falling, significantly (here on 3000 rounds; the docs quote 10,000)."""
    names = ["koikoi", "koikoi/house/stop-at-two"]
    report = compare([load_rules(n) for n in names], names, rounds=3000, seed=0)
    (diff,) = report["differences"]
    by_yaku = diff["figures"]["by_yaku"]
    assert by_yaku["mean"] < 0 and by_yaku["significant_corrected"], by_yaku
    sloper, two = report["variants"]
    assert two["choices"]["continue offered"] < sloper["choices"]["continue offered"]
    assert two["continuation"]["continued"] > sloper["continuation"]["continued"]


def test_stop_at_two_is_served_by_the_kernel() -> None:
    c = CompiledRules(load_rules("koikoi/house/stop-at-two"))
    assert batch.why_not(c, 2, ("rulewise", "rulewise")) is None
