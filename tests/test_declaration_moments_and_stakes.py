"""Declarations at other moments, by whom, with what stake (issue 23, item 2): `by any player`,
`by a player who holds COND`, `after seeing the hand`, `before the first play`, `x2 on his
winnings`, `N from each other player`, `he must win the round` / `he must make a yaku`, `N to
each other player if he fails`. The language, where the step goes, both engines deal by deal,
the bots, the view, describe and compare. koikoi/house/shaking and its scenarios (in
rules/koikoi/house/scenarios/) pin each reading on stacked deals."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.agents.greedy import cannot_cost
from rulekit.describe import declaration_sentence
from rulekit.engine import actions as A
from rulekit.engine.round import DECLARE, SWAP, Round, setup_steps
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.sim.exercise import exercised
from tests.test_batch_identity import assert_same_rounds, variant

SHAKE = 'declare shaking "Shaking": by a player who holds a month of 3; before the first play'
# (label, rule text, seats): each moment, who, and stake, both engines deal by deal
DECLARED = {
    "a penalty if he fails to win, an award if he wins, flat": (
        f'extends "koikoi/house/shaking"\n{SHAKE}; x2 on his winnings; 2 from each other'
        " player; he must win the round; 1 to each other player if he fails; flat\n",
        (2,),
    ),
    "any player after seeing the hand, a yaku to make, x3": (
        'extends "hachihachi/fudawiki"\ndeclare call "Call": by any player; after seeing the'
        " hand; x3 on his winnings; he must make a yaku; 4 to each other player if he fails\n",
        (3, 4),
    ),
    "the dealer before the first play, with teyaku and a sit-out fold": (
        'extends "hachihachi/house/rotating-sit-out"\ndeclare call "Call": by the dealer; before'
        " the first play; only if not 2 of round month; 3 from each other player\n",
        (4,),
    ),
}


def _rules(text: str) -> ir.Ruleset:
    return load_rules_text(text, "probe.rk", Path(__file__))


def test_each_moment_who_and_stake_is_read() -> None:
    (d,) = load_rules("koikoi/house/shaking").declarations
    assert (d.by, d.moment, d.factor, d.award, d.penalty, d.success) == (
        "any", "before_play", 2, 0, 0, "none",
    )  # fmt: skip
    assert [o.option for o in d.offers] == ["declare"] and d.offers[0].condition is not None
    text, _ = DECLARED["a penalty if he fails to win, an award if he wins, flat"]
    (d,) = _rules(text).declarations
    assert (d.award, d.penalty, d.success, d.times_multiplier) == (2, 1, "wins", False)
    text, _ = DECLARED["any player after seeing the hand, a yaku to make, x3"]
    (d,) = _rules(text).declarations
    assert (d.by, d.moment, d.factor, d.success) == ("any", "after_hand", 3, "yaku")
    # mizuten as it was
    (m,) = load_rules("hachihachi/house/mizuten").declarations
    assert (m.by, m.moment, m.factor, m.award, m.penalty) == ("dealer", "before_deal", 1, 0, 0)


def test_each_moment_puts_the_declaration_where_it_says() -> None:
    """Before the deal: first; after seeing the hand: after the deal and a swap, before the
    field and a fold after the deal; before the first play: last."""
    sloper = load_rules("koikoi/sloper")
    fudawiki = load_rules("hachihachi/fudawiki")
    for base, moment, want in [
        (sloper, "before_deal", ["declare", "hands", "swap", "field", "instant_win"]),
        (sloper, "after_hand", ["hands", "swap", "declare", "field", "instant_win"]),
        (sloper, "before_play", ["hands", "swap", "field", "instant_win", "declare"]),
        (fudawiki, "after_hand", ["hands", "declare", *fudawiki.setup[1:]]),
    ]:
        d = ir.Declaration(name="d", moment=moment, factor=2)
        rules = base.model_copy(update={"declarations": (d,)})
        assert setup_steps(rules) == want, moment


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            f"{SHAKE}; 1 to each other player if he fails",
            "a penalty if he fails, but nothing he must do",
            "he must win the round",
        ),
        (
            "declare call: by any player; after seeing the hand; he must join",
            "joining and folders' payments are the dealer's stake",
            "by the dealer",
        ),
        (
            "declare call: by the dealer; before the first play",
            "the declaration changes nothing",
            "x2 on his winnings",
        ),
        (
            "declare call: before the deal; only if a month of 3; x2 on his winnings",
            "a test of his cards cannot be used in a condition on a declaration",
            "hand unseen",
        ),
        (
            "declare call: after seeing the hand; only if score >= 2; x2 on his winnings",
            "'score' cannot be used in a condition on a declaration made with the hand seen",
            "may be used in",
        ),
    ],
)
def test_a_declaration_that_means_nothing_is_a_located_error(
    line: str, message: str, hint: str
) -> None:
    with pytest.raises(RulekitError) as info:
        _rules(f'extends "hachihachi/house/rotating-sit-out"\n{line}\n')
    errors = getattr(info.value, "errors", [info.value])
    hit = [e for e in errors if message in e.message]
    assert hit, [e.message for e in errors]
    assert hit[0].loc is not None and hit[0].loc.line == 2
    assert hint in (hit[0].hint or ""), hit[0].hint


@pytest.mark.parametrize("label", list(DECLARED))
def test_both_engines_play_each_moment_and_stake_deal_by_deal(label: str) -> None:
    text, seat_counts = DECLARED[label]
    for seats in seat_counts:
        assert_same_rounds(variant(text), label, seats, deals=12)


def test_each_holder_is_asked_in_turn_and_sees_his_hand() -> None:
    """Shaking: every player holding a triplet is asked, the dealer first, with his hand in
    view (not blind, as a declaration before the deal is); who holds none is not asked."""
    c = CompiledRules(load_rules("koikoi/house/shaking"))
    asked = 0
    for seed in range(40):
        rnd = Round(c, 2, dealer=seed % 2, seed=seed)
        greedy = make_agent("greedy", seed)
        order = []
        while not rnd.is_terminal:
            view = PlayerView(rnd, rnd.current)
            if rnd.phase == DECLARE:
                hand = rnd.hands[rnd.current]
                months = Counter(
                    rnd.ix.ids[b] // 10 for b in range(hand.bit_length()) if hand >> b & 1
                )
                assert 3 in months.values() and view.hand == hand & rnd.ix.full
                order.append(rnd.current)
            rnd.apply(greedy.act(view))
        assert order == sorted(order, key=lambda s: s != rnd.dealer)  # the dealer first
        assert rnd.declared == sum(1 << s for s in order)  # greedy shakes each time
        asked += len(order)
    assert asked > 0


def test_the_bots_make_a_declaration_that_cannot_cost_them() -> None:
    shaking = load_rules("koikoi/house/shaking")
    text, _ = DECLARED["a penalty if he fails to win, an award if he wins, flat"]
    assert cannot_cost(shaking) and not cannot_cost(_rules(text))
    assert not cannot_cost(load_rules("hachihachi/house/mizuten"))
    c = CompiledRules(shaking)
    for seed in range(40):
        rnd = Round(c, 2, dealer=0, seed=seed)
        rnd.apply(A.KEEP)  # (Sloper's swap first)
        if rnd.phase == DECLARE:
            view = PlayerView(rnd, rnd.current)
            assert make_agent("greedy", 0).act(view) == A.DECLARE
            assert make_agent("rulewise", 0).act(view) == A.DECLARE
            return
    raise AssertionError("no deal offered a shake")


def test_describe_diff_and_compare_say_the_declaration() -> None:
    shaking = load_rules("koikoi/house/shaking")
    said = declaration_sentence(shaking.declarations[0], shaking)
    assert said.startswith("Before the first play, each player of the round, in turn from")
    assert "x2 on every payment to him" in said and "declare only if a month of 3" in said
    text, _ = DECLARED["a penalty if he fails to win, an award if he wins, flat"]
    strict = _rules(text)
    said = declaration_sentence(strict.declarations[0], strict)
    assert "each other player pays him 2 if he wins the round" in said
    assert "he pays each other player 1 if he fails to win the round" in said
    seen = exercised(load_rules("koikoi/sloper"), shaking, Counter(), Counter())
    assert seen["unseen"] == ["declare"]


def test_a_person_shakes_in_the_browser_with_his_hand_in_view() -> None:
    """At a declaration made with the hand seen, the browser shows the hand (not before the
    deal's empty one), offers declare or pass with the stake, and the log does not say
    `unseen`."""
    from rulekit.play.session import Session
    from rulekit.web.games import WebGame, _stakes

    c = CompiledRules(load_rules("koikoi/house/shaking"))
    for seed in range(60):
        session = Session.new(
            c, "koikoi/house/shaking", seed=seed, seats=2, bots=("greedy",), seat=1
        )
        game = WebGame("g", session)
        game.advance()
        rnd = session.round
        assert rnd is not None
        if rnd.phase == SWAP and rnd.current == 1:
            game.move(A.KEEP)  # (Sloper's swap first)
        if rnd.phase != DECLARE or rnd.current != 1:
            continue
        table = game.state()["table"]
        assert table["phase"] == "declare" and len(table["hand"]) == 8
        assert [m["words"] for m in table["moves"]] == ["declare Shaking", "pass"]
        assert "x2 on every payment to him" in str(_stakes(session.views[1]))
        game.move(A.DECLARE)
        assert rnd.declared >> 1 & 1
        assert "You declare Shaking" in game.log and "unseen" not in game.log
        return
    raise AssertionError("no deal asked the person to shake")
