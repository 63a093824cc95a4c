"""The batch engine plays exactly the scalar engine's rounds: for every bundled rule file and
table size it serves, with random and greedy bots (and a table of both), the same seed gives
the same deals, moves, ledgers (every payment, down to its detail), nets, endings, winners,
teyaku and yaku made, and rule choices offered and taken, deal by deal. Where it cannot serve
a file, it says why, and the files it cannot serve are pinned here (a new one fails: serve it,
or add it with its reason).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names
from rulekit.sim.exercise import Counting
from rulekit.sim.simulate import simulate

DEALS = 60  # per case and bots
SEEDS = (1, -7)
MAX_SEATS = 7
ALIASES = {"hachihachi", "koikoi", "sakura"}
# what the batch engine does not serve, and why (the scalar engine plays these)
WILD = "the rule file has a hiki or a wild card"
STEPS = "the rule file has scoring steps (factors or awards)"
NOT_SERVED = {
    "koikoi/house/koi-koi-doubles-stopper": STEPS,
    "koikoi/house/oya-ken": STEPS,
    "koikoi/house/seven-or-more-doubled": STEPS,
    "koikoi/house/tsukifuda": "yaku 'tsukifuda' asks about the round ('round month')",
    "sakura/hawaii": WILD,
    "sakura/round-wins": WILD,
    "sakura/house/target-score": WILD,
    "sakura/house/yaku-25": WILD,
}


def cases() -> list[tuple[str, int]]:
    out = []
    for name in bundled_names():
        if name in ALIASES:
            continue
        r = load_rules(name)
        for seats in range(r.seats.min, min(r.seats.max, MAX_SEATS) + 1):
            if not r.seats.refusal(r.title, seats):
                out.append((name, seats))
    return out


def bot_sets(seats: int) -> list[tuple[str, ...]]:
    mixed = tuple("greedy" if s % 2 else "random" for s in range(seats))
    return [("random",) * seats, ("greedy",) * seats, mixed]


def scalar_deal(c: CompiledRules, seats: int, bots: tuple[str, ...], seed: int, number: int):  # type: ignore[no-untyped-def]
    agents = [Counting(make_agent(b, 0)) for b in bots]
    choices: Counter[str] = Counter()
    for a in agents:
        a.counts = choices
    moves: list[tuple[int, int]] = []
    _, result, voids = play_deal(c, seats, number, agents, seed=seed, moves=moves)
    return {
        "voids": voids,
        "moves": moves,
        "ledger": result.ledger,
        "net": result.net,
        "turns": result.turns,
        "continued": result.continued,
        "paid_off": result.continued_paid_off,
        "ended_by": result.ended_by,
        "winners": sorted(result.winners),
        "teyaku": result.teyaku,
        "yaku": {s: Counter(names) for s, names in result.yaku.items()},
        "choices": choices,
    }


def batch_deal(plan: batch.Plan, number: int) -> dict[str, Any] | None:
    (got,) = batch.rounds(plan, number, number + 1)
    if got is None:
        return None  # the kernel handed this deal to the scalar engine
    moves = batch.play(plan, number, number + 1, trace=True).moves
    assert moves is not None
    return {
        "voids": got.voids,
        "moves": [(int(s), int(a)) for s, a in moves[0] if s != -9],
        "ledger": got.ledger,
        "net": got.net,
        "turns": got.turns,
        "continued": got.continued,
        "paid_off": got.continued_paid_off,
        "ended_by": got.ended_by,
        "winners": got.winners,
        "teyaku": got.teyaku,
        "yaku": {s: Counter(names) for s, names in got.yaku.items()},
        "choices": got.choices,
    }


@pytest.mark.parametrize(("name", "seats"), cases(), ids=lambda v: str(v))
def test_batch_plays_the_scalar_rounds(name: str, seats: int) -> None:
    c = CompiledRules(load_rules(name))
    for bots in bot_sets(seats):
        why = batch.why_not(c, seats, bots)
        if name in NOT_SERVED:
            assert why == NOT_SERVED[name]
            continue
        assert why is None, f"{name} at {seats}: {why}"
        for seed in SEEDS:
            plan = batch.make_plan(c, seats, bots, seed)
            for number in range(DEALS):
                got = batch_deal(plan, number)
                if got is None:
                    continue
                want = scalar_deal(c, seats, bots, seed, number)
                assert got == want, f"{name} at {seats}, {bots}, seed {seed}, deal {number}"


def test_every_bundled_hachi_hachi_file_is_served() -> None:
    """The batch engine's target: every Hachi-Hachi file, at every table size."""
    served = {name for name, _ in cases() if name not in NOT_SERVED}
    assert {n for n in bundled_names() if n.startswith("hachihachi/")} <= served
    assert set(NOT_SERVED) <= set(bundled_names())


@pytest.mark.parametrize(
    ("name", "seats"),
    [
        ("hachihachi/fudawiki", 3),
        ("hachihachi/fudawiki", 4),
        ("hachihachi/wikipedia-draft", 3),  # halves: exact fraction totals
        ("hachihachi/kirisame", 3),
        ("koikoi/sloper", 2),
    ],
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simulate_reports_the_scalar_report(name: str, seats: int, bot: str) -> None:
    """The whole report, down to a total's type (an int, or a float from exact fractions)."""
    rules = load_rules(name)
    fast = simulate(rules, seats=seats, bots=[bot], seed=5, rounds=300, engine="batch")
    slow = simulate(rules, seats=seats, bots=[bot], seed=5, rounds=300, engine="scalar")
    assert (fast["engine"], slow["engine"]) == ("batch", "scalar")
    apart = ("seconds", "rounds_per_second", "engine")
    assert {k: v for k, v in fast.items() if k not in apart} == {
        k: v for k, v in slow.items() if k not in apart
    }


# Deals of seed 1 (random bots, Fudawiki at 3) in which a caller whose dekiyaku a beaten
# caller paid as a penalty calls sage and is beaten in turn (issue 21, item 1).
SAGE_CHAINS = (9421, 14158)


@pytest.mark.parametrize("number", SAGE_CHAINS)
def test_sage_caller_beaten_after_a_chain_refunds_half_in_both_engines(number: int) -> None:
    c = CompiledRules(load_rules("hachihachi/fudawiki"))
    bots = ("random",) * 3
    want = scalar_deal(c, 3, bots, 1, number)
    refunders = [e.payer for e in want["ledger"] if e.reason == "refund"]
    penalised = [e.payee for e in want["ledger"] if e.reason == "penalty"]
    # the first beaten caller's penalty paid a dekiyaku whose maker then refunds half of it
    assert len(set(refunders)) == 2 and penalised[0] in refunders[2:]
    second = [e for e in want["ledger"] if e.reason == "refund" and e.payer == penalised[0]]
    assert len(second) == 2 and all(e.amount > 0 for e in second)
    assert batch_deal(batch.make_plan(c, 3, bots, 1), number) == want
