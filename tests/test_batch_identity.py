"""The batch engine plays exactly the scalar engine's rounds: for every bundled rule file and
table size it serves, with random and greedy bots (and a table of both), the same seed gives
the same deals, moves, ledgers (every payment, down to its detail), nets, endings, winners,
teyaku and yaku made, and rule choices offered and taken, deal by deal. Where it cannot serve
a file, it says why, and the files it cannot serve are pinned here (a new one fails: serve it,
or add it with its reason).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulekit.agents import make_agent
from rulekit.batch import engine as batch
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.lang.files import bundled_names
from rulekit.lang.loader import load_rules_text
from rulekit.sim.compare import compare
from rulekit.sim.exercise import Counting
from rulekit.sim.simulate import simulate

DEALS = 60  # per case and bots
SEEDS = (1, -7)
MAX_SEATS = 7
ALIASES = {"hachihachi", "koikoi", "sakura"}
# what the batch engine does not serve, and why (the scalar engine plays these)
STEPS = "the rule file has scoring steps (factors or awards)"
COUNTS = "the rule file counts by {} (the kernel counts by par or difference)"
POINTS = COUNTS.format("points")
NOT_SERVED = {
    "koikoi/house/koi-koi-doubles-stopper": STEPS,
    "koikoi/house/oya-ken": STEPS,
    "koikoi/house/seven-or-more-doubled": STEPS,
    "koikoi/house/tsukifuda": "yaku 'tsukifuda' asks about the round ('round month')",
    "sakura/hawaii": POINTS,
    "sakura/round-wins": COUNTS.format("round wins"),
    "sakura/house/target-score": POINTS,
    "sakura/house/yaku-25": POINTS,
}
TEAMS = "the rule file plays in teams"  # Sakura at 4 and 6 seats, said before its count


def not_served(name: str, seats: int) -> str | None:
    """Why the batch engine does not serve a bundled file at a table size (None: it does)."""
    if name.startswith("sakura/") and seats in (4, 6):
        return TEAMS
    return NOT_SERVED.get(name)


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
            assert why == not_served(name, seats)
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


# ---------------------------------------------------------------- hiki and the wild card
# Files the kernel serves, with a hiki and a wild lightning added: every combination of the
# wild card's options, with and without hiki; Sakura with a count the kernel plays, no teams.
HIKI = "hiki: capture all four cards of a month seen in hand and field"
WILD_OPTIONS = (
    "captures any field card from the hand",
    "collects its month at the end",
    "cannot break a hiki",
    "may be laid on the field when blocked",
)
EVERY_OPTION = 0b1111
SAKURA_PLAYED = {  # Sakura's play (hiki, the lightning, yaku in play) with a count it plays
    "sakura by difference": 'extends "sakura/hawaii"\nremove teams\ncount: difference; always\n',
    "sakura yaku-25 by par": (
        'extends "sakura/house/yaku-25"\nseats 2 to 3\ncount: par 120; always\n'
    ),
}


def wild_text(base: str, hiki: bool, options: int) -> str:
    """`base` with hiki (or not) and a wild lightning with the options whose bits are set in
    `options` (WILD_OPTIONS' order; 0: no wild card)."""
    lines = [f'extends "{base}"']
    if hiki:
        lines.append(HIKI)
    chosen = [o for i, o in enumerate(WILD_OPTIONS) if options >> i & 1]
    if chosen:
        lines.append("wild lightning: " + "; ".join(chosen))
    return "\n".join(lines) + "\n"


@cache
def variant(text: str) -> CompiledRules:
    return CompiledRules(load_rules_text(text, "variant.rk", Path(__file__)))


def seat_range(c: CompiledRules) -> range:
    r = c.rules
    return range(r.seats.min, min(r.seats.max, MAX_SEATS) + 1)


def wild_cases() -> list[tuple[str, str, int]]:
    """(label, rule text, seats): Koi-Koi with every combination, Hachi-Hachi with hiki and
    every combination at 3 seats and every option at every size, Sakura at every size."""
    out = []
    for hiki in (True, False):
        for options in range(16):
            if hiki or options:
                label = f"sloper hiki={int(hiki)} wild={options:04b}"
                out.append((label, wild_text("koikoi/sloper", hiki, options), 2))
    for options in range(16):
        label = f"fudawiki hiki=1 wild={options:04b}"
        out.append((label, wild_text("hachihachi/fudawiki", True, options), 3))
    text = wild_text("hachihachi/fudawiki", True, EVERY_OPTION)
    for seats in seat_range(variant(text)):
        if seats != 3:
            out.append(("fudawiki hiki=1 wild=1111", text, seats))
    for label, text in SAKURA_PLAYED.items():
        for seats in seat_range(variant(text)):
            out.append((label, text, seats))
    return out


def assert_same_rounds(c: CompiledRules, label: str, seats: int) -> None:
    """Both engines play the same rounds, deal by deal, for every bot set and seed."""
    for bots in bot_sets(seats):
        assert batch.why_not(c, seats, bots) is None
        for seed in SEEDS:
            plan = batch.make_plan(c, seats, bots, seed)
            for number in range(DEALS):
                got = batch_deal(plan, number)
                if got is None:
                    continue
                want = scalar_deal(c, seats, bots, seed, number)
                assert got == want, f"{label} at {seats}, {bots}, seed {seed}, deal {number}"


@pytest.mark.parametrize(
    ("label", "text", "seats"),
    [pytest.param(*case, id=f"{case[0]} at {case[2]}") for case in wild_cases()],
)
def test_batch_plays_hiki_and_the_wild_card_as_the_scalar_engine(
    label: str, text: str, seats: int
) -> None:
    assert_same_rounds(variant(text), label, seats)


@pytest.mark.parametrize("mechanic", ["hiki", *WILD_OPTIONS])
def test_the_hiki_and_wild_cases_play_every_option(mechanic: str) -> None:
    """Each of hiki and the wild card's options changes some of the deals the identity test
    holds (moves or ledger, seen in the scalar engine): a kernel that ignored it would fail."""
    changed = 0
    for base, seats in (("koikoi/sloper", 2), ("hachihachi/fudawiki", 3)):
        full = variant(wild_text(base, True, EVERY_OPTION))
        if mechanic == "hiki":
            without = variant(wild_text(base, False, EVERY_OPTION))
        else:
            option = WILD_OPTIONS.index(mechanic)
            without = variant(wild_text(base, True, EVERY_OPTION & ~(1 << option)))
        for bots in bot_sets(seats):
            for seed in SEEDS:
                for number in range(DEALS):
                    a = scalar_deal(full, seats, bots, seed, number)
                    b = scalar_deal(without, seats, bots, seed, number)
                    changed += (a["moves"], a["ledger"]) != (b["moves"], b["ledger"])
    assert changed


def test_compare_reports_hiki_and_wild_plays_as_the_scalar_engine() -> None:
    """A comparison of two wild card rules: the same report from both engines, the rule
    choices exercised (hikis, the wild card's plays) among it."""
    base = wild_text("hachihachi/fudawiki", True, EVERY_OPTION)
    other = wild_text("hachihachi/fudawiki", True, EVERY_OPTION & ~0b1000)
    variants = [variant(t).rules for t in (base, other)]
    names = ["every option", "not laid when blocked"]
    kw: dict[str, Any] = {"rounds": 300, "seats": 3, "bots": ["random", "greedy"], "seed": 3}
    fast = compare(variants, names, engine="batch", **kw)
    slow = compare(variants, names, engine="scalar", **kw)
    assert [v["engine"] for v in fast["variants"]] == ["batch", "batch"]
    wild = fast["differences"][0]["mechanics"]["differing"]["wild"]
    assert wild["offered"][0] > wild["taken"][0] > 0

    def same(report: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in report.items() if k not in ("seconds", "rounds_per_second")}
        out["variants"] = [
            {k: v for k, v in row.items() if k not in ("engine", "engine_note")}
            for row in report["variants"]
        ]
        return out

    assert same(fast) == same(slow)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simulate_reports_hiki_and_wild_plays_as_the_scalar_engine(bot: str) -> None:
    """The whole report of Sakura's play (hiki, the lightning) from both engines."""
    rules = variant(SAKURA_PLAYED["sakura by difference"]).rules
    kw: dict[str, Any] = {"seats": 3, "bots": [bot], "seed": 5, "rounds": 300}
    fast = simulate(rules, engine="batch", **kw)
    slow = simulate(rules, engine="scalar", **kw)
    assert (fast["engine"], slow["engine"]) == ("batch", "scalar")
    apart = ("seconds", "rounds_per_second", "engine")
    assert {k: v for k, v in fast.items() if k not in apart} == {
        k: v for k, v in slow.items() if k not in apart
    }
