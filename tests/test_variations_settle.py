"""Hana-Awase's and Bakappana's variations that needed a statement of their own (issue 25):
each read from its rule file, refused where it means nothing, said by describe and diff, and
played alike by both engines (the scenarios beside the house files pin the readings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import Agent, make_agent
from rulekit.agents.greedy import cannot_cost
from rulekit.batch import engine as batch
from rulekit.describe import round_paragraphs
from rulekit.diff import diff
from rulekit.engine.ledger import BANK
from rulekit.engine.playout import play_deal
from rulekit.engine.round import RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RuleErrors, RulekitError
from rulekit.lang import load_rules
from rulekit.lang.checks import check_yaku_paid, rule_warnings
from rulekit.lang.loader import load_rules_text
from tests.test_batch_identity import assert_same_rounds, batch_deal, bot_sets, variant

# a Dandruff that every round makes (a pile of 300 points or fewer: every pile)
EVERY_ROUND_DRAWN = (
    'extends "hanaawase/fudawiki"\nthe round is a draw if a player has points <= 300\n'
)


def load(text: str) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", Path(__file__))


def refused_at_line_2(text: str, match: str) -> RulekitError:
    """The error a house file's line 2 gets (matching `match`), located there."""
    with pytest.raises(RuleErrors, match=match) as e:
        load(text)
    err = e.value.errors[0]
    assert err.loc is not None and err.loc.line == 2
    return err


# ---------------------------------------------------------------- HA V1: Dandruff


def test_dandruff_is_read_as_a_draw_at_the_count() -> None:
    rules = load_rules("hanaawase/house/dandruff")
    assert rules.draw_at_count == ir.PointsCmp(op="<=", n=20)
    assert rules.draw_at_count_text == "points <= 20"
    assert load_rules("hanaawase/fudawiki").draw_at_count is None


def test_dandruff_every_payment_of_a_drawn_round_is_undone() -> None:
    """Yaku paid as they are made (Hana-Awase) are undone with the count: nobody is paid,
    nobody wins, and the round ends as a draw."""
    c = variant(EVERY_ROUND_DRAWN)
    parent = CompiledRules(load_rules("hanaawase/fudawiki"))
    paid = 0
    for number in range(12):
        _, result, _ = play_deal(c, 3, number, _greedy(3), seed=4)
        assert (result.ledger, result.winner, result.ended_by) == ([], None, "draw")
        _, before, _ = play_deal(parent, 3, number, _greedy(3), seed=4)
        paid += len(before.ledger)
    assert paid > 0, "the same deals pay something under the file extended"


def _greedy(seats: int) -> list[Agent]:
    return [make_agent("greedy", 0) for _ in range(seats)]


@pytest.mark.parametrize("seats", [3, 4])
def test_dandruff_is_played_alike_by_both_engines(seats: int) -> None:
    c = CompiledRules(load_rules("hanaawase/house/dandruff"))
    assert_same_rounds(c, "dandruff", seats, deals=12)
    every = variant(EVERY_ROUND_DRAWN)
    plan = batch.make_plan(every, seats, bot_sets(seats)[1], 1)
    for number in range(5):
        got = batch_deal(plan, number)
        assert got is not None and got["ledger"] == [] and got["ended_by"] == "draw"


def test_dandruff_announced_reads_the_declaration_in_its_condition() -> None:
    """A declaration with no stake is refused, unless a condition reads it: the draw's does."""
    rules = load_rules("hanaawase/house/dandruff-announced")
    assert rules.declarations[0].name == "fuke"
    assert isinstance(rules.draw_at_count, ir.And)
    assert ir.Declared(name="fuke") in rules.draw_at_count.items
    with pytest.raises(RuleErrors, match="the declaration changes nothing"):
        load('extends "hanaawase/fudawiki"\ndeclare fuke "Fuke": by any player\n')


def test_dandruff_announced_is_weighed_by_the_bots_not_made_as_if_it_cost_nothing() -> None:
    """An announcement that can make the round a draw may cost its maker: it is not one of the
    declarations the bots make blindly (greedy passes, rulewise follows its calibrated
    policy), while a factor on his winnings still is."""
    assert not cannot_cost(load_rules("hanaawase/house/dandruff-announced"))
    assert cannot_cost(load_rules("koikoi/house/shaking"))
    c = CompiledRules(load_rules("hanaawase/house/dandruff-announced"))
    for number in range(4):
        rnd, _, _ = play_deal(c, 4, number, _greedy(4), seed=1)
        assert rnd.declared == 0


def test_dandruff_announced_is_played_alike_by_both_engines() -> None:
    c = CompiledRules(load_rules("hanaawase/house/dandruff-announced"))
    assert_same_rounds(c, "dandruff announced", 4, deals=8)


def test_score_in_a_draw_at_the_count_is_a_located_error() -> None:
    refused_at_line_2(
        'extends "hanaawase/fudawiki"\nthe round is a draw if a player has score >= 1\n',
        "'score' cannot be used in a draw at the count",
    )


def test_a_misspelt_set_in_a_draw_at_the_count_is_a_located_error() -> None:
    err = refused_at_line_2(
        'extends "hanaawase/fudawiki"\nthe round is a draw if a player has plainz <= 2\n', "plainz"
    )
    assert "'plain'" in (err.hint or "")


def test_remove_draw_drops_the_draw_at_the_count() -> None:
    rules = load('extends "hanaawase/house/dandruff"\nremove draw\n')
    assert rules.draw_at_count is None


def test_describe_and_diff_say_the_draw_at_the_count() -> None:
    rules = load_rules("hanaawase/house/dandruff")
    assert any(
        p.startswith("When the hands are counted, a player with points <= 20 makes the round a")
        for p in round_paragraphs(rules)
    )
    said = [(c.what, c.before, c.after) for c in diff(load_rules("hanaawase/fudawiki"), rules)]
    assert ("a draw at the count, when a player has", None, "points <= 20") in said


# ---------------------------------------------------------------- HA 22: the additive score


def test_the_additive_score_is_read_as_yaku_scored_for_their_makers() -> None:
    rules = load_rules("hanaawase/house/additive")
    assert (rules.count.method, rules.count.makers_score) == ("points", True)
    assert not rules.count.opponents_lose and not rules.continuation.paid_in_play
    assert not check_yaku_paid(rules)


def test_the_additive_score_is_card_points_plus_ones_own_yaku() -> None:
    """Each net is the player's card points and the values of the yaku he made: nobody pays
    anybody (every payment is from the bank)."""
    c = CompiledRules(load_rules("hanaawase/house/additive"))
    table = c.rules.yaku
    assert table is not None
    values = {e.name: e.value for e in table.entries}
    made = 0
    for number in range(10):
        _, result, _ = play_deal(c, 3, number, _greedy(3), seed=2)
        assert all(p.payer == BANK for p in result.ledger)
        for s, net in enumerate(result.net):
            yaku = sum(values[n] for n in result.yaku.get(s, ()) if _scored(result, s, n))
            assert net == result.points[s] + yaku
            made += yaku
    assert made > 0, "some yaku were made and scored"


def _scored(result: RoundResult, seat: int, name: str) -> bool:
    """Whether a yaku listed as made was scored (one outgrown in its exclusive group is not)."""
    return any(p.payee == seat and p.detail == name for p in result.ledger)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_additive_score_is_played_alike_by_both_engines(seats: int) -> None:
    assert_same_rounds(CompiledRules(load_rules("hanaawase/house/additive")), "additive", seats, 6)


def test_each_yaku_scores_for_its_maker_under_a_par_count_is_a_warning() -> None:
    rules = load(
        'extends "hanaawase/fudawiki"\ncount: par 88; always; each yaku scores for its maker\n'
    )
    said = [w.message for w in rule_warnings(rules)]
    assert any(
        "'each yaku scores for its maker' is an option of a count by points" in m for m in said
    )


def test_describe_and_diff_say_each_yaku_scores_for_its_maker() -> None:
    rules = load_rules("hanaawase/house/additive")
    assert any(
        "each scores his card points; each yaku is scored for its maker" in p
        for p in round_paragraphs(rules)
    )
    said = [c.sentence() for c in diff(load_rules("hanaawase/fudawiki"), rules)]
    assert "each yaku is scored for its maker (a count by points or round wins): no -> yes" in said


# ---------------------------------------------------------------- BK V2: Sanju-sen-me

SANJU = "bakappana/house/sanju-sen-me"


def test_sanju_sen_me_is_read_as_a_count_by_steps_paid_by_each_other_player() -> None:
    count = load_rules(SANJU).count
    assert (count.method, count.step_value, count.step_points) == ("per_points", 1, 10)
    assert count.round_paid == "others"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sanju_sen_me_pays_each_player_his_tens_from_each_other_player(seats: int) -> None:
    """A player's net is his full tens times the others, less the others' tens: the page's
    "for every 10 points in the score, each player is paid 1 share by each of the other"
    players, settled between every two; zero-sum; the most card points win."""
    c = CompiledRules(load_rules(SANJU))
    for number in range(8):
        _, result, _ = play_deal(c, seats, number, _greedy(seats), seed=3)
        tens = [p // 10 for p in result.points]
        for s in range(seats):
            assert result.net[s] == (seats - 1) * tens[s] - (sum(tens) - tens[s])
        assert result.points[result.winner] == max(result.points)


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        (f'extends "{SANJU}"\n', 3),
        (f'extends "{SANJU}"\n', 4),
        ('extends "bakappana/fudawiki"\ncount: 1 per 10 points\n', 3),  # against the bank
        ('extends "hanaawase/fudawiki"\ncount: 2 per 7 points; paid by each other player\n', 3),
    ],
)
def test_a_count_by_steps_is_played_alike_by_both_engines(text: str, seats: int) -> None:
    assert_same_rounds(variant(text), "a count by steps", seats, 6)


def test_a_count_by_steps_against_the_bank_scores_each_his_steps() -> None:
    c = variant('extends "bakappana/fudawiki"\ncount: 3 per 20 points\n')
    _, result, _ = play_deal(c, 3, 0, _greedy(3), seed=1)
    assert result.net == [3 * (p // 20) for p in result.points]
    assert all(p.payer == BANK and p.reason == "cards" for p in result.ledger)


def test_a_step_of_no_points_is_a_located_error() -> None:
    refused_at_line_2(
        'extends "bakappana/fudawiki"\ncount: 1 per 0 points; paid by each other player\n',
        "needs a step of at least 1 point",
    )


def test_paid_by_each_other_player_under_a_par_count_is_a_located_error() -> None:
    refused_at_line_2(
        'extends "bakappana/fudawiki"\ncount: par 88; paid by each other player\n',
        "or by steps of card points",
    )


def test_describe_and_diff_say_the_count_by_steps() -> None:
    rules = load_rules(SANJU)
    assert any(
        "each player's card points count 1 for every full 10, paid him by each other player" in p
        for p in round_paragraphs(rules)
    )
    said = [c.sentence() for c in diff(load_rules("bakappana/fudawiki"), rules)]
    assert any("each player's card points in full steps (N per M points)" in s for s in said)
    steps = load('extends "bakappana/house/sanju-sen-me"\ncount: 1 per 5 points\n')
    said = [c.sentence() for c in diff(rules, steps)]
    assert "the card points of a step (a count by steps): 10 -> 5" in said
