"""The fast roads of a yaku made and of the choices after it (engine.continuation.Plan, the
rule file's options decided once; pay_made's plain payment; playout.play_uniform drawing a
two-way choice straight to its handler) play exactly what the general roads play.

Each round is played twice from the same seeds: with the rule file's own plan and play_uniform,
and with a plan that takes every general step (the new entries reckoned, made's settling, the
general pay_yaku) and a loop that asks legal_actions and Round.apply for every choice. The
whole round state at the end must be the same, and each player's chance too."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import ir
from rulekit.engine import continuation
from rulekit.engine.capture import legal_actions, uniform_turns
from rulekit.engine.chance import Chance
from rulekit.engine.continuation import Plan, pay_yaku, plan
from rulekit.engine.playout import play_uniform
from rulekit.engine.round import DECIDE, DONE, PLAY, Round
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules


def _split(r: ir.Ruleset) -> ir.Ruleset:
    """The rule file with a split yaku table (a value shared by its payers)."""
    assert r.yaku is not None
    return r.model_copy(update={"yaku": r.yaku.model_copy(update={"split": True})})


def _flat(r: ir.Ruleset) -> ir.Ruleset:
    """The rule file with every other yaku paid as written (not times the field)."""
    assert r.yaku is not None
    entries = tuple(
        e.model_copy(update={"flat": True}) if i % 2 else e for i, e in enumerate(r.yaku.entries)
    )
    return r.model_copy(update={"yaku": r.yaku.model_copy(update={"entries": entries})})


def _same(r: ir.Ruleset) -> ir.Ruleset:
    return r


# (rule file, a change to it, seats): paid at the stop (plain), a factor, liability and a beaten
# continuer, paid when made, yaku that do not end the round, a fold phase, a split table, flat
# entries
CASES: list[tuple[str, Callable[[ir.Ruleset], ir.Ruleset], int]] = [
    ("koikoi/sloper", _same, 2),
    ("koikoi/house/koi-koi-doubles-stopper", _same, 2),
    ("koikoi/house/tsukifuda", _same, 2),
    ("hachihachi/kirisame", _same, 3),
    ("hachihachi/fudawiki", _same, 3),
    ("hachihachi/fudawiki", _same, 4),
    ("hachihachi/house/no-sage", _same, 3),
    ("sakura/hawaii", _same, 3),
    ("koikoi/sloper", _split, 2),
    ("koikoi/sloper", _flat, 2),
    ("hachihachi/fudawiki", _flat, 3),
]


def general_plan(c: CompiledRules) -> Plan:
    """The plan that takes every general step: made's code as it was before the plan."""
    pl = Plan(c)
    pl.needs_new = True
    pl.settles_when_made = True
    pl.plain_pay = False
    return pl


def play_general(rnd: Round, draws: Sequence[Chance]) -> None:
    """play_uniform's loop with every choice but the plain play phase's asked of
    legal_actions and Round.apply."""
    while (phase := rnd.phase) != DONE:
        if phase == PLAY and rnd.c.plain:
            uniform_turns(rnd, draws)
        else:
            legal = legal_actions(rnd)
            rnd.apply(legal[draws[rnd.current].below(len(legal))])


def state(rnd: Round) -> dict[str, object]:
    """Every field of the round but its compiled rule file (two of them are compared)."""
    return {k: v for k, v in vars(rnd).items() if k not in ("c", "ix")}


def played(c: CompiledRules, seats: int, deal: int, fast: bool) -> tuple[object, ...]:
    draws = [Chance(f"9:{deal}:{s}") for s in range(seats)]
    rnd = Round(c, seats, deal % seats, seed=9, deal_no=deal)
    (play_uniform if fast else play_general)(rnd, draws)
    return state(rnd), [(d.x, d.block) for d in draws]


@pytest.mark.parametrize(("name", "change", "seats"), CASES)
def test_the_fast_roads_play_what_the_general_roads_play(
    name: str, change: Callable[[ir.Ruleset], ir.Ruleset], seats: int
) -> None:
    rules = change(load_rules(name))
    fast, general = CompiledRules(rules), CompiledRules(rules)
    general.continuation_plan = general_plan(general)
    decided = 0
    for deal in range(40):
        a = played(fast, seats, deal, fast=True)
        b = played(general, seats, deal, fast=False)
        assert a == b, f"{name} ({change.__name__}) at {seats} seats, deal {deal}"
        decided += bool(a[0]["yaku_made"])
    assert decided  # some yaku were made (and paid, or chosen after)


def test_a_plan_is_decided_once_per_rule_file() -> None:
    c = CompiledRules(load_rules("koikoi/sloper"))
    rnd = Round(c, 2, 0, seed=1)
    assert c.continuation_plan is None
    pl = plan(rnd)
    assert c.continuation_plan is pl
    assert pl.plain_pay and not pl.needs_new and not pl.settles_when_made
    kirisame = CompiledRules(load_rules("hachihachi/kirisame"))
    other = Plan(kirisame)
    assert other.needs_new and other.settles_when_made and other.liable and other.beats
    assert not Plan(CompiledRules(_split(load_rules("koikoi/sloper")))).plain_pay


def _decisions(c: CompiledRules, seats: int, count: int) -> list[Round]:
    """Rounds waiting at a stop-or-continue choice."""
    out = []
    for deal in range(count):
        rnd = Round(c, seats, deal % seats, seed=4, deal_no=deal)
        draws = [Chance(f"4:{deal}:{s}") for s in range(seats)]
        while rnd.phase != DONE:
            if rnd.phase == DECIDE:
                out.append(rnd.copy())
            legal = legal_actions(rnd)
            rnd.apply(legal[draws[rnd.current].below(len(legal))])
    return out


SLOPER = CompiledRules(load_rules("koikoi/sloper"))
WAITING = _decisions(SLOPER, 2, 60)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(0, len(WAITING) - 1),
    multiplier=st.integers(1, 4),
    continues=st.integers(0, 3),
)
def test_the_plain_payment_is_pay_yakus(k: int, multiplier: int, continues: int) -> None:
    """pay_made's plain road: the same ledger and stake as pay_yaku, whatever the field's
    multiplier and the continues."""
    a, b = WAITING[k].copy(), WAITING[k].copy()
    p = a.current
    for r in (a, b):
        r.multiplier = multiplier
        r.continues[p] = continues
    continuation.pay_made(a, p)
    pay_yaku(b, p, b.made_entries[p], b.made_value[p], continues + 1)
    assert a.ledger and a.ledger == b.ledger
    assert (a.stake, a.stake_flat) == (b.stake, b.stake_flat)
