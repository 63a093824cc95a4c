"""Values by table size (issue 23, item 8): a par per table size (`count: par 88 at 3 seats, 66
at 4 seats`), `check`'s zero-sum warning at each size, and a scoring step played only at one
table size (`at 4 seats: ...`); both engines play them alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RuleErrors
from rulekit.lang.checks import check_par_total
from rulekit.lang.loader import load_rules_text
from tests.test_batch_identity import assert_same_rounds, variant

BY_SIZE = """extends "hachihachi/fudawiki"
seats 3 to 4
count: par 88 at 3 seats, 66 at 4 seats
scoring
  at 4 seats: four_bonus "Four at the table" the dealer takes 1 kan
  at 3 seats: x2 on the count
"""


def load(text: str) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", Path(__file__))


def test_par_88_at_3_seats_66_at_4_seats_is_each_tables_par() -> None:
    count = load(BY_SIZE).count
    assert (count.par_for(3), count.par_for(4)) == (88, 66)
    assert check_par_total(load(BY_SIZE)) == []  # 3 x 88 and 4 x 66 are the deck's 264


def test_a_par_for_the_other_sizes_and_one_at_a_size() -> None:
    count = load('extends "hachihachi/fudawiki"\ncount: par 88, 66 at 4 seats\n').count
    assert [count.par_for(n) for n in range(3, 7)] == [88, 66, 88, 88]


def test_check_warns_at_the_table_size_whose_par_is_not_zero_sum() -> None:
    text = 'extends "hachihachi/fudawiki"\nseats 3 to 4\ncount: par 88 at 3 seats, 60 at 4\n'
    (warning,) = check_par_total(load(text))
    assert "par 60 x 4 players is not the deck's 264 points" in warning.message
    assert warning.hint == "a par of 66 makes 4 players' pars the deck's total"


def test_par_at_9_seats_of_a_3_to_6_seat_file_is_a_located_error() -> None:
    with pytest.raises(RuleErrors) as e:
        load('extends "hachihachi/fudawiki"\ncount: par 88, 66 at 9 seats\n')
    (error,) = e.value.errors
    assert error.message == "par 66 at 9 seats: this game seats 3 to 6 players, not 9"
    assert error.loc is not None and (error.loc.line, error.loc.col) == (2, 16)


def test_a_table_size_without_a_par_is_an_error() -> None:
    with pytest.raises(RuleErrors, match="no par at 5 or 6 seats"):
        load('extends "hachihachi/fudawiki"\ncount: par 88 at 3 seats, 66 at 4 seats\n')


def test_at_9_seats_before_a_scoring_step_of_a_3_to_6_seat_file_is_an_error() -> None:
    with pytest.raises(RuleErrors, match="at 9 seats: this game seats 3 to 6 players, not 9"):
        load('extends "hachihachi/fudawiki"\nscoring\n  at 9 seats: b "B" the dealer takes 6\n')


def test_at_4_seats_before_a_statement_that_is_not_a_scoring_step_is_an_error() -> None:
    with pytest.raises(RuleErrors, match="'at 4 seats:' is written before a scoring step"):
        load('extends "hachihachi/fudawiki"\nat 4 seats: count: par 66\n')


def test_a_step_at_4_seats_is_played_only_at_4_seats() -> None:
    c = CompiledRules(load(BY_SIZE))
    for seats, paid in ((3, False), (4, True)):
        agents = [make_agent("greedy", 0) for _ in range(seats)]
        _, result, _ = play_deal(c, seats, 1, agents, seed=1)
        awards = [p for p in result.ledger if p.reason == "award"]
        assert bool(awards) == paid and all(p.amount == 10 for p in awards)


def test_the_count_at_4_seats_pays_over_the_par_of_4_seats() -> None:
    c = CompiledRules(load(BY_SIZE.replace("only", "")))
    agents = [make_agent("greedy", 0) for _ in range(4)]
    counted = 0
    for number in range(20):
        rnd, result, _ = play_deal(c, 4, number, agents, seed=1)
        counts = [p for p in result.ledger if p.reason == "count"]
        if counts:
            counted += 1
            gains = {p.payee: 0 for p in counts}
            for p in counts:
                gains[p.payee] += p.amount
            for seat, gain in gains.items():
                assert gain == (result.points[seat] - 66) * rnd.multiplier
    assert counted


@pytest.mark.parametrize("seats", [3, 4])
def test_pars_and_steps_by_table_size_are_played_alike_by_both_engines(seats: int) -> None:
    assert_same_rounds(variant(BY_SIZE), "by table size", seats)
