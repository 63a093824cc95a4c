"""The scoring stage in the engine: step conditions read through the one compiled evaluator
(cards on the payee's pile, the round, the payment's base as `score`), exact split payments,
and a game's totals (the starting score plus the net)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.engine import ledger, stage
from rulekit.engine.game import Game
from rulekit.engine.playout import play_round
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate


def _rules(tmp_path: Path, body: str, parent: str = "koikoi/sloper") -> CompiledRules:
    path = tmp_path / "house.rk"
    path.write_text(f'extends "{parent}"\n{body}', encoding="utf-8")
    return CompiledRules(load_rules(path))


def _round(c: CompiledRules, round_no: int = 0) -> Round:
    return Round(c, 3 if "hachi" in c.rules.game.lower() else 2, 0, seed=1, round_no=round_no)


class First:
    """Plays the first legal action (or, seeded, a random one)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed) if seed is not None else None

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return self.rng.choice(legal) if self.rng is not None else legal[0]


def test_a_step_reads_the_round_month_through_the_compiled_conditions(tmp_path: Path) -> None:
    """The round's month (a card test of the round: once refused by the stage's own table)."""
    c = _rules(tmp_path, 'scoring\n  tsuki "Month" x3 if 1 of round month\n')
    rnd = _round(c, round_no=0)  # round 1: the deck's first month
    first_month = c.index.month_masks[0]
    rnd.captured[0] = first_month & -first_month  # one card of that month
    rnd.captured[1] = 0
    assert stage.factor(rnd, 0, "yaku", 5) == 3
    assert stage.factor(rnd, 1, "yaku", 5) == 1


def test_score_is_the_payment_base_and_kinds_are_kept_apart(tmp_path: Path) -> None:
    c = _rules(tmp_path, "scoring\n  seven x2 if score >= 7\n  tey x5 on teyaku\n", "hachihachi")
    rnd = _round(c)
    assert stage.factor(rnd, 0, "yaku", 7) == 2
    assert stage.factor(rnd, 0, "yaku", Fraction(13, 2)) == 1
    assert stage.factor(rnd, 0, "special", 8) == 2  # a count-time entry is a yaku payment
    assert stage.factor(rnd, 0, "teyaku", 8) == 5
    assert stage.factor(rnd, 0, "count", 8) == 1


def test_nobody_won_holds_only_at_the_round_end(tmp_path: Path) -> None:
    """`nobody won` in a factor (payments during the round) never holds; in an award it holds
    at the end of a round with no winner."""
    c = _rules(tmp_path, "scoring\n  drawn x4 on everything if nobody won\n")
    rnd = _round(c)
    rnd.winner = None
    assert stage.factor(rnd, 0, "yaku", 5) == 1


def test_oya_ken_award_only_on_a_drawn_round() -> None:
    c = CompiledRules(load_rules("koikoi/house/oya-ken"))
    drawn = won = 0
    for seed in range(150):
        rnd = Round(c, 2, 0, seed=seed)
        result = play_round(rnd, [First(seed), First(seed + 1)])
        awards = [p for p in result.ledger if p.reason == "award"]
        if result.void or result.ended_by == "instant":
            continue
        assert bool(awards) == (result.winner is None), seed
        assert all(p.payee == 0 and p.amount == 6 for p in awards)  # the dealer, flat
        drawn += result.winner is None
        won += result.winner is not None
    assert drawn and won  # both kinds of round were seen


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10_000), st.integers(1, 6))
def test_a_split_is_exact_and_adds_up_to_the_value(value: int, payers: int) -> None:
    each = ledger.share(value, payers)
    assert each * payers == value
    assert isinstance(each, int) == (value % payers == 0)


def test_game_totals_are_the_start_plus_the_net(tmp_path: Path) -> None:
    path = tmp_path / "start.rk"
    path.write_text(
        'extends "koikoi/sloper"\nrounds 3; winner deals; start at 100\n', encoding="utf-8"
    )
    rules = load_rules(path)
    c = CompiledRules(rules)
    game = Game(c, 2, seed=5)
    while not game.is_over:
        game.record(play_round(game.new_round(), [First(), First()]))
    result = game.result()
    assert result.start == 100
    assert result.totals == [100 + n for n in result.net]
    assert sum(result.net) == 0 and sum(result.totals) == 200
    report = simulate(rules, seats=2, bots=["random"], seed=3, games=4)
    assert report["start"] == 100
    assert report["totals"] == pytest.approx([100 + s["mean"] for s in report["seats"]])
    assert simulate(rules, seats=2, bots=["random"], seed=3, rounds=4)["totals"] is None


EVERYTHING_CASES = [
    ("hachihachi/fudawiki", 4),  # fold fees
    ("hachihachi/kirisame", 3),  # special hands, teyaku returned
    ("koikoi/house/oya-ken", 2),  # instant wins and an award
    ("sakura/hawaii", 3),  # a score-style count: cards and yaku to the bank
    ("sakura/round-wins", 4),  # round wins
]


@pytest.mark.parametrize(("name", "seats"), EVERYTHING_CASES)
def test_x2_on_everything_doubles_every_payment(name: str, seats: int, tmp_path: Path) -> None:
    """Issue 21, item 10: `x2 on everything` multiplies every payment, awards, fold fees,
    instant wins and a score-style count's included, and changes nothing else (random bots
    play the same moves); a reversal of teyaku (`teyaku returned`) returns what was paid."""
    plain = CompiledRules(load_rules(name))
    doubled = _rules(tmp_path, 'scoring\n  all_x2 "All doubled" x2 on everything\n', name)
    reasons: set[str] = set()
    for number in range(80):
        got = [
            play_round(
                Round(c, seats, number % seats, seed=5, deal_no=number), [First(number)] * seats
            )
            for c in (plain, doubled)
        ]
        want, have = (g.ledger for g in got)
        assert [(p.payer, p.payee, p.reason) for p in have] == [
            (p.payer, p.payee, p.reason) for p in want
        ]
        for a, b in zip(want, have, strict=True):
            assert b.amount == 2 * a.amount, (name, number, a, b)
        reasons |= {p.reason for p in want}
    assert reasons - {"teyaku returned"}, name
