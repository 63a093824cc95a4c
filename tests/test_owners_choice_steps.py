"""The owner's choice in the scoring steps (issue 25): a pile is read there as its yaku read it.
Go-Stop's sake cup counts "as either an Animal or 2 Chaff": a winner whose chaff yaku needs it
as two chaff has ten chaff for pi-bak's `plains >= 10` too (the steps read it as an animal
only, before), and each pile, the payee's and the payer's, is read its own way. Both engines."""

from __future__ import annotations

from rulekit import ir
from rulekit.engine import stage
from rulekit.engine.round import Round
from rulekit.engine.tables import CompiledRules, StepReadings, with_payer_of
from rulekit.lang import load_rules
from tests.engine_helpers import stacked
from tests.test_batch_identity import assert_same_rounds

NINE_PLAINS = [12, 13, 22, 23, 32, 33, 42, 43, 52]  # single chaff


def gostop_round(payee: list[int], payer: list[int]) -> Round:
    """A round of Go-Stop (Fudawiki) whose seat 0 holds `payee` and seat 1 `payer`."""
    c = CompiledRules(load_rules("gostop/gostop"))
    rnd = Round(c, 3, 0, deal=stacked(c, [[10, 11], [20, 21], [30, 31]], [40, 41]))
    rnd.captured = [c.index.mask(payee), c.index.mask(payer), 0]
    return rnd


def test_pi_bak_reads_the_sake_cup_as_the_winners_chaff_yaku_reads_it() -> None:
    """Nine chaff and the sake cup: the chaff yaku reads it as two (eleven chaff); so does
    pi-bak, x2 from a payer with three chaff."""
    rnd = gostop_round([*NINE_PLAINS, 90], [62, 63, 72])
    assert rnd.c.yaku is not None and rnd.c.yaku.second_reading(rnd.captured[0])
    assert stage.factor(rnd, 0, "yaku", 1, payer=1) == 2
    without = gostop_round([*NINE_PLAINS, 81], [62, 63, 72])  # the geese: nine chaff
    assert stage.factor(without, 0, "yaku", 1, payer=1) == 1


def test_the_payers_pile_is_read_its_own_way() -> None:
    """The payer's sake cup, his yaku worth the same either way, is an animal (the first
    reading): four chaff, pi-bak holds; the winner's read as two chaff all the same."""
    rnd = gostop_round([*NINE_PLAINS, 90], [62, 63, 72, 73, 91])
    assert stage.factor(rnd, 0, "yaku", 1, payer=1) == 2
    swapped = gostop_round([*NINE_PLAINS, 91], [62, 63, 72, 73, 90])
    assert stage.factor(swapped, 0, "yaku", 1, payer=1) == 1  # nine chaff: no yaku, no pi-bak


def test_a_condition_takes_the_payers_part_from_another_reading() -> None:
    first = ir.And(
        items=(ir.Count(cards=(1,), op=">=", n=1), ir.PayerHas(item=ir.AllOf(cards=(2,))))
    )
    second = ir.And(
        items=(ir.Count(cards=(1,), op=">=", n=2), ir.PayerHas(item=ir.AllOf(cards=(3,))))
    )
    mixed = with_payer_of(first, second)
    assert mixed == ir.And(items=(first.items[0], second.items[1]))


def test_only_a_step_the_second_reading_changes_reads_it() -> None:
    c = CompiledRules(load_rules("gostop/gostop"))
    kinds = {s.name: isinstance(t, StepReadings) for s, t in c.scoring if isinstance(s, ir.Factor)}
    assert kinds["pi_bak"] and not kinds["gwang_bak"]


def test_both_engines_read_the_owners_choice_in_the_steps_alike() -> None:
    c = CompiledRules(load_rules("gostop/matgo"))
    assert_same_rounds(c, "matgo", 2, 10)


def test_the_kernel_reads_each_pile_its_own_way_in_the_steps() -> None:
    """The kernel's step conditions (kernel/stage.step_hits) for the piles above: pi-bak holds
    exactly where the scalar engine's does."""
    from rulekit.batch import engine as batch
    from rulekit.batch.kernel import layout as K
    from rulekit.batch.kernel.stage import step_hits

    c = CompiledRules(load_rules("gostop/gostop"))
    S, Q, T, _ = batch.make_plan(c, 3, ("greedy",) * 3, 1).arrays
    pi_bak = next(i for i, s in enumerate(c.rules.scoring) if s.name == "pi_bak")
    for payee, payer, holds in (
        ([*NINE_PLAINS, 90], [62, 63, 72], True),
        ([*NINE_PLAINS, 81], [62, 63, 72], False),
        ([*NINE_PLAINS, 90], [62, 63, 72, 73, 91], True),
        ([*NINE_PLAINS, 91], [62, 63, 72, 73, 90], False),
    ):
        S[K.P_CAPTURED, 0] = c.index.mask(payee)
        S[K.P_CAPTURED, 1] = c.index.mask(payer)
        assert bool(step_hits(S, Q, T, 0, 1, False, 1) >> pi_bak & 1) == holds, (payee, payer)
        scalar = gostop_round(payee, payer)
        assert (stage.factor(scalar, 0, "yaku", 1, payer=1) == 2) == holds
