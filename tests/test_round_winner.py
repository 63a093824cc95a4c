"""Who wins a round (issue 25, Tensho): `count: round wins by yaku points, then plains, then
points`, criteria tried in turn; and a yaku that wins the round at once where yaku do not end
the round. Both engines play the fixtures under tests/round_rules/ alike; Tensho's scenarios
(rules/tensho/scenarios/) pin each reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.agents import make_agent
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine.playout import play_deal
from rulekit.engine.scoring import key_masks
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.lang.checks import check_yaku_paid
from tests.lang_helpers import errors_of, write
from tests.test_batch_identity import assert_same_rounds, seat_range

FIXTURES = Path(__file__).parent / "round_rules"
FILES = sorted(FIXTURES.glob("*.rk"))


def test_round_wins_by_yaku_points_then_plains_then_points_is_said_in_words() -> None:
    rules = load_rules("tensho/fudawiki")
    assert [k.key for k in rules.count.round_by] == ["yaku", "cards", "points"]
    plains = rules.count.round_by[1]
    assert plains.label == "plains" and len(plains.cards) == 21  # the 45-card deck's chaff
    said = to_markdown(rulebook(rules))
    assert "the most yaku points, then the most plains, then the most points wins the round" in said
    assert "A tie on every one of them is a drawn round." in said
    other = load_rules(FIXTURES / "by-weighted-plains.rk")
    words = render(diff(rules, other), "a", "b")
    assert (
        "what wins a round (a count by round wins): the most yaku points, then the most plains,"
        " then the most points -> the most lights, then the most plains, then the most points"
    ) in words


def test_round_wins_by_a_class_counts_a_card_treated_as_two_twice() -> None:
    rules = load_rules(FIXTURES / "by-weighted-plains.rk")
    plains = rules.count.round_by[1]
    assert plains.cards.count(113) == 2 and plains.cards.count(12) == 1
    mask = CompiledRules(rules).index.mask
    assert key_masks(mask, plains.cards) == [mask(sorted(set(plains.cards))), mask([113])]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'extends "tensho"\ncount: round wins by yaku points, then plainz\n',
            "house.rk:2:40: round wins by 'plainz': no such class",
        ),
        (
            'extends "tensho"\ncount: round wins by points, then plains, then lights, then'
            " animals, then ribbons\n",
            "house.rk:2:75: round wins by at most 4 criteria",
        ),
    ],
)
def test_round_wins_by_an_unknown_class_or_too_many_criteria_is_a_located_error(
    tmp_path: Path, text: str, message: str
) -> None:
    said = errors_of(write(tmp_path, text))
    assert message in said
    if "plainz" in text:
        assert "did you mean 'plain'?" in said


def test_yaku_that_rank_the_round_are_not_said_to_be_never_paid() -> None:
    rules = load_rules("tensho/fudawiki")
    assert check_yaku_paid(rules) == []
    ranked_by_cards = rules.model_copy(
        update={"count": rules.count.model_copy(update={"round_by": rules.count.round_by[1:]})}
    )
    assert "the yaku are never paid" in check_yaku_paid(ranked_by_cards)[0].render()


def test_a_yaku_that_wins_at_once_where_yaku_do_not_end_the_round_ends_it() -> None:
    """Flower Viewing wins the round at once in Hana-Awase, whose yaku do not end the round:
    the round ends when it is made (cards left in the hands), the cards are counted as the
    piles stand, and its maker wins."""
    c = CompiledRules(load_rules(FIXTURES / "at-once-over-a-par.rk"))
    assert not c.rules.continuation.ends_round
    ended = early = 0
    for number in range(40):
        agents = [make_agent("greedy", s) for s in range(3)]
        rnd, result, _ = play_deal(c, 3, number, agents, seed=1)
        made = [s for s, names in result.yaku.items() if "flower_viewing" in names]
        if not made:
            assert result.ended_by != "yaku"
            continue
        ended += 1
        early += any(rnd.hands)
        assert result.ended_by == "yaku" and result.winner == made[0]
    assert ended >= 3 and early >= 3


def test_tenshos_instant_win_takes_the_round_before_the_hands_run_out() -> None:
    c = CompiledRules(load_rules("tensho/fudawiki"))
    ended = 0
    for number in range(150):
        agents = [make_agent("greedy", s) for s in range(2)]
        _, result, _ = play_deal(c, 2, number, agents, seed=3)
        if result.ended_by != "yaku":
            continue
        ended += 1
        (maker,) = [s for s, names in result.yaku.items() if "front_elder" in names]
        assert result.winner == maker
        assert [(p.payer, p.payee, p.amount, p.reason) for p in result.ledger] == [
            (1 - maker, maker, 1, "round won")
        ]
    assert ended >= 2


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_both_engines_play_the_round_winner_fixtures_alike(path: Path) -> None:
    c = CompiledRules(load_rules(path))
    for seats in seat_range(c):
        assert_same_rounds(c, path.stem, seats, deals=5)


def test_yaku_that_only_rank_the_round_are_not_said_to_be_scored() -> None:
    """Where the round goes to the most yaku points, describe says the yaku rank the players
    at the count, not that they are scored there."""
    said = to_markdown(rulebook(load_rules("tensho")))
    assert "at the count their points rank the players" in said
    assert "they are scored at the count" not in said
