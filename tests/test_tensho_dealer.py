"""Tensho's TE 10, the dealer's claim of the field (`the dealer may take 2 of a month of 3 on the
field and play second`): what it offers and takes in the scalar engine, that the kernel has a
handler for it and its rulewise bot weighs it, its errors, and how describe, diff and compare
say it. The scenarios rules/tensho/scenarios/dealer-*.scenario.toml pin the readings (which two
cards, two months of three, declining); tests/test_batch_identity.py holds the two engines to
the same rounds of every Tensho file, claims included."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.describe import rulebook, to_markdown
from rulekit.diff import diff, render
from rulekit.engine import actions as A
from rulekit.engine import setup
from rulekit.engine.round import CLAIM, PLAY, Round, StackedDeal, setup_steps
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RulekitError
from rulekit.lang import load_rules
from rulekit.lang.loader import load_rules_text
from rulekit.sim.exercise import exercised

# a deal of Tensho's with three pines on the field (and nothing else of three): the
# scenario dealer-claims-two-of-three's
HANDS = ((41, 120, 22, 32, 53, 113), (13, 23, 33, 52, 72, 82))
STOCK = (111, 30, 62, 50)


def tensho_round(field: tuple[int, ...]) -> Round:
    """A round of Tensho dealt by seat 0 with this field, Set 1 (the dealer passed on Set 2)."""
    rnd = Round(CompiledRules(load_rules("tensho")), 2, 0, deal=StackedDeal(HANDS, field, STOCK))
    rnd.apply(A.PASS)  # the declaration of Set 2, before the deal
    return rnd


def test_te10_the_dealer_takes_the_two_best_of_three_and_plays_second() -> None:
    rnd = tensho_round((10, 11, 12, 42, 60, 71, 80, 93, 103))
    assert (rnd.phase, rnd.current, rnd.legal_actions()) == (CLAIM, 0, [A.CLAIM, A.PASS])
    rnd.apply(A.CLAIM)
    ix = rnd.ix
    assert sorted(ix.ids_of(rnd.captured[0])) == [10, 11]  # the crane and the pine ribbon
    assert 12 in ix.ids_of(rnd.field)  # the pine plain stays
    assert (rnd.phase, rnd.current, rnd.order) == (PLAY, 1, [1, 0])


def test_te10_declined_the_dealer_leads_and_takes_nothing() -> None:
    rnd = tensho_round((10, 11, 12, 42, 60, 71, 80, 93, 103))
    rnd.apply(A.PASS)
    assert (rnd.phase, rnd.current, rnd.order, rnd.captured) == (PLAY, 0, [0, 1], [0, 0])


@pytest.mark.parametrize(
    "field",
    [
        (100, 101, 102, 103, 10, 11, 42, 60, 80),  # a month of four: not three
        (10, 11, 40, 42, 60, 71, 80, 93, 103),  # pairs only
    ],
    ids=["four", "pairs"],
)
def test_te10_is_not_offered_without_a_month_of_exactly_three(field: tuple[int, ...]) -> None:
    rnd = tensho_round(field)
    assert (rnd.phase, rnd.current) == (PLAY, 0)
    with pytest.raises(RulekitError, match="must play a card: claim"):
        rnd.apply(A.CLAIM)


def test_te10_two_months_of_three_give_two_of_each() -> None:
    rnd = tensho_round((10, 11, 12, 100, 101, 102, 80, 93, 60))
    rnd.apply(A.CLAIM)
    assert sorted(rnd.ix.ids_of(rnd.captured[0])) == [10, 11, 100, 101]


def test_the_claim_is_a_round_step_both_engines_handle() -> None:
    """Exhaustiveness: every step a round runs (the file's, a declaration's at each moment,
    the claim) has a handler in the scalar engine and in the kernel."""
    tensho = load_rules("tensho")
    files = [
        tensho,
        *(load_rules(name) for name in ("koikoi", "hachihachi/house/mizuten", "gostop")),
    ]
    steps = {s for r in files for s in setup_steps(r)} | set(ir.SetupStep.__args__)
    assert "claim" in steps
    assert steps <= set(setup.PLAN_STEPS)
    assert steps <= set(batch.PLAN_STEPS)
    assert setup_steps(load_rules("tensho"))[-1] == "claim"  # last: the field laid


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("take 3 of a month of 3", "he takes at least one card and leaves at least one"),
        ("take 2 of a month of 5", "a month on the field has 2 to 4 cards"),
    ],
)
def test_a_claim_that_cannot_be_played_is_a_located_error(line: str, message: str) -> None:
    text = f'extends "tensho"\nthe dealer may {line} on the field and play second\n'
    with pytest.raises(RulekitError, match=message) as err:
        load_rules_text(text, "house.rk", Path(__file__))
    assert "house.rk:2:" in str(err.value)


def test_play_second_needs_two_players_in_a_round() -> None:
    text = (
        'extends "hachihachi"\nthe dealer may take 2 of a month of 3 on the field and play second\n'
    )
    with pytest.raises(RulekitError, match="'play second' needs two players in each round"):
        load_rules_text(text, "house.rk", Path(__file__))


def test_json_ir_refuses_a_claim_of_the_whole_month() -> None:
    with pytest.raises(ValueError, match="take"):
        ir.DealerClaim(take=3, size=3)


def test_describe_and_diff_say_the_claim_in_words() -> None:
    tensho = load_rules("tensho")
    said = to_markdown(rulebook(tensho))
    assert "the dealer may take 2 of them" in said and "play second" in said
    house = load_rules_text(
        'extends "tensho"\nremove the dealer may take\n', "house.rk", Path(__file__)
    )
    changed = render(diff(tensho, house), "a", "b")
    assert "the dealer's claim of the field: removed" in changed


def test_rulewise_weighs_the_claim_in_the_kernel_and_greedy_always_claims() -> None:
    """Of the deals that offer it, greedy claims every one; rulewise, weighing claim against
    pass by rollouts, claims some and passes on others."""
    c = CompiledRules(load_rules("tensho"))
    for bots, all_taken in ((("greedy", "greedy"), True), (("rulewise", "rulewise"), False)):
        choices: Counter[str] = Counter()
        for got in batch.rounds(batch.make_plan(c, 2, bots, 1), 0, 40):
            assert got is not None
            choices += got.choices
        offered, taken = choices["claim offered"], choices["claim"]
        assert offered > 0
        assert (taken == offered) if all_taken else (0 < taken < offered), choices


def test_compare_says_when_the_claim_is_never_exercised() -> None:
    tensho = load_rules("tensho")
    house = load_rules_text(
        'extends "tensho"\nremove the dealer may take\n', "house.rk", Path(__file__)
    )
    none: Counter[str] = Counter()
    assert exercised(tensho, house, none, none)["unseen"] == ["claim"]
    seen = Counter({"claim offered": 3, "claim": 2})
    assert exercised(tensho, house, seen, none)["differing"]["claim"]["taken"] == [2, 0]


def test_the_scalar_rulewise_bot_asks_its_rollouts_about_the_claim() -> None:
    rnd = tensho_round((10, 11, 12, 42, 60, 71, 80, 93, 103))
    agent = make_agent("rulewise", 0)
    agent.start("0:0:0")
    assert agent.act(PlayerView(rnd, 0)) in (A.CLAIM, A.PASS)
