"""Issue 22, item 4: the batch path of simulate, compare and tune sums the kernel's arrays
rather than one Python object per round, and prints exactly what it printed before: every
case's `--json --no-timings` output is compared byte for byte with the output of the code
before that change (tests/tallies_today/, written by the code of commit "tests: the JSON of
simulate, compare and tune today"). The scalar path's counting bots play by the bots' cheap
choices, and count the same choices.

To write the expected outputs again (only where a change of what a seed plays is intended,
said in its commit): `python -m tests.test_tallies_in_arrays --write`.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulekit.agents import make_agent
from rulekit.agents.greedy import GreedyAgent
from rulekit.batch import engine as batch
from rulekit.cli import cli
from rulekit.engine.playout import play_deal
from rulekit.engine.round import Phase
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from rulekit.sim.compare import ComparePlan, run_parts
from rulekit.sim.exercise import Counting
from rulekit.stats.ordered import ordered_sum, ordered_sums_by, ordered_sums_in_parts, row_sums

TODAY = Path(__file__).parent / "tallies_today"
QUIET = ("--json", "--no-timings")

# (name, arguments): the batch engine (greedy and random bots, a few seeds, Hachi-Hachi at 3,
# 4 and 5 seats with their shares of a third, Koi-Koi and its house files, renamed entries, a
# comparison `auto` once split between the engines: since the kernel plays the scoring stage,
# its house file's figures are the same, only its "engine" changed), and the scalar engine
# (the counting bots: rulewise, and hiki and the wild card of Sakura/Hawaii)
CASES: list[tuple[str, tuple[str, ...]]] = [
    ("simulate-hachihachi-greedy", ("simulate", "hachihachi", "--bots", "greedy",
        "--rounds", "3000", "--seed", "1", "--engine", "batch")),
    ("simulate-hachihachi-4-random", ("simulate", "hachihachi", "--seats", "4", "--bots",
        "random", "--rounds", "3000", "--seed", "2", "--engine", "batch")),
    ("simulate-fudawiki-5-random", ("simulate", "hachihachi/fudawiki", "--seats", "5",
        "--bots", "random,greedy", "--rounds", "2000", "--seed", "5", "--engine", "batch")),
    ("simulate-koikoi-mixed", ("simulate", "koikoi", "--bots", "greedy,random",
        "--rounds", "3000", "--seed", "3", "--engine", "batch")),
    ("simulate-viewings-rain-random", ("simulate", "koikoi/house/viewings-rain", "--bots",
        "random", "--rounds", "2000", "--seed", "-7", "--engine", "batch")),
    ("compare-hachihachi-kirisame-greedy", ("compare", "hachihachi", "hachihachi/kirisame",
        "--bots", "greedy", "--rounds", "2000", "--seed", "1", "--engine", "batch")),
    ("compare-hachihachi-4-random", ("compare", "hachihachi", "hachihachi/fudawiki",
        "hachihachi/house/kan-12", "--seats", "4", "--bots", "random", "--rounds", "2000",
        "--seed", "2", "--engine", "batch")),
    ("compare-fudawiki-5-greedy", ("compare", "hachihachi/fudawiki",
        "hachihachi/house/grand-field-both", "--seats", "5", "--bots", "greedy,random",
        "--rounds", "1200", "--seed", "6", "--engine", "batch")),
    ("compare-koikoi-house-random", ("compare", "koikoi", "koikoi/house/viewings-rain",
        "koikoi/house/teshi-kuttsuki", "--bots", "random", "--rounds", "2000", "--seed", "3",
        "--engine", "batch")),
    ("compare-koikoi-sloper-greedy", ("compare", "koikoi", "koikoi/sloper", "--bots",
        "greedy", "--rounds", "1500", "--seed", "4", "--engine", "batch")),
    ("compare-koikoi-seven-or-more-auto", ("compare", "koikoi",
        "koikoi/house/seven-or-more-doubled", "--bots", "greedy", "--rounds", "400",
        "--seed", "1", "--engine", "auto")),
    ("compare-hachihachi-kirisame-rulewise-scalar", ("compare", "hachihachi",
        "hachihachi/kirisame", "--rounds", "60", "--seed", "1", "--engine", "scalar")),
    ("compare-koikoi-rulewise-scalar", ("compare", "koikoi", "koikoi/house/viewings-rain",
        "--rounds", "80", "--seed", "2", "--engine", "scalar")),
    ("compare-sakura-hawaii-greedy-scalar", ("compare", "sakura", "sakura/hawaii", "--bots",
        "greedy,random", "--rounds", "200", "--seed", "3", "--engine", "scalar")),
    ("tune-hachihachi-triple-greedy", ("tune", "hachihachi", "--vary",
        "triple 10..30 step 10", "--bots", "greedy", "--rounds", "1000", "--seed", "1",
        "--engine", "batch")),
    ("tune-koikoi-instant-random", ("tune", "koikoi", "--vary", "instant_win 2..6 step 2",
        "--target", "by_yaku", "--aim", "max", "--bots", "random", "--rounds", "1000",
        "--seed", "2", "--engine", "batch")),
]  # fmt: skip


def printed(args: tuple[str, ...]) -> str:
    """What `rulekit ARGS --json --no-timings` prints (the kernel compiled beforehand)."""
    result = CliRunner().invoke(cli, [*args, *QUIET])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(("name", "args"), CASES, ids=[name for name, _ in CASES])
def test_the_json_is_todays_byte_for_byte(name: str, args: tuple[str, ...]) -> None:
    assert printed(args) == (TODAY / f"{name}.json").read_text()


@pytest.mark.parametrize(
    "name", ["compare-hachihachi-kirisame-rulewise-scalar", "compare-koikoi-rulewise-scalar"]
)
def test_the_default_bots_on_the_batch_engine_report_what_the_scalar_one_reported(
    name: str,
) -> None:
    """The default bots played by the kernel, their rounds summed from its arrays: the report
    of the scalar engine today, but for the engine that played it."""
    args = [a if a != "scalar" else "batch" for a in dict(CASES)[name]]
    got, want = json.loads(printed(tuple(args))), json.loads((TODAY / f"{name}.json").read_text())
    for report in (got, want):
        for variant in report["variants"]:
            del variant["engine"], variant["engine_note"]
    assert got == want


def write() -> None:
    """Write every case's output as the expected one."""
    TODAY.mkdir(exist_ok=True)
    for name, args in CASES:
        (TODAY / f"{name}.json").write_text(printed(args))
        print(f"wrote {name}")


# ---------------------------------------------------------------- sums in a loop's order
finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)
thirds = st.integers(-(10**9), 10**9).map(lambda k: k / 3)  # inexact floats, as shares are


@given(st.lists(st.lists(finite | thirds, min_size=3, max_size=3), max_size=60))
def test_ordered_sums_are_a_loops_floats(rows: list[list[float]]) -> None:
    x = np.array(rows, dtype=np.float64).reshape(len(rows), 3)
    for column, got in enumerate(ordered_sum(x).tolist()):
        total = 0.0
        for row in rows:
            total += row[column]
        assert repr(got) == repr(total)
    for row, got in zip(rows, row_sums(x).tolist(), strict=True):
        assert repr(got) == repr(sum(row))


@given(st.lists(st.tuples(st.integers(0, 4), finite | thirds), max_size=60))
def test_ordered_sums_by_group_are_each_groups_loop(rows: list[tuple[int, float]]) -> None:
    group = np.array([g for g, _ in rows], dtype=np.int64)
    x = np.array([[v] for _, v in rows], dtype=np.float64).reshape(len(rows), 1)
    got = ordered_sums_by(x, group, 5)[:, 0].tolist()
    for g in range(5):
        total = 0.0
        for h, v in rows:
            if h == g:
                total += v
        assert repr(got[g]) == repr(total)


halves = st.integers(-(10**6), 10**6).map(lambda k: k / 2)  # exact in any order


@given(
    st.lists(st.tuples(halves, thirds | finite), max_size=90),
    st.integers(1, 40),
)
def test_sums_in_parts_are_each_parts_loop(rows: list[tuple[float, float]], part: int) -> None:
    """Per run of `part` rows: numpy's own sum where any order is exact (the halves), a loop's
    order elsewhere (thirds, any float): the loop's floats either way."""
    x = np.array(rows, dtype=np.float64).reshape(len(rows), 2)
    got = ordered_sums_in_parts(x, part).tolist()
    for p, start in enumerate(range(0, len(rows), part)):
        for column in range(2):
            total = 0.0
            for row in rows[start : start + part]:
                total += row[column]
            assert repr(got[p][column]) == repr(total)


def test_numpy_sums_in_another_order() -> None:
    """Why the sums above: numpy's own sum adds pairwise, and gives other floats."""
    x = np.array([0.1] * 10 + [1e16, -1e16] + [1 / 3] * 20)
    total = 0.0
    for v in x.tolist():
        total += v
    assert float(x.sum()) != total == float(ordered_sum(x[:, None])[0])


# ---------------------------------------------------------------- deals handed over
def handing_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's play with every third deal handed to the scalar engine, left as the kernel
    leaves such a deal: its info zeros but the mark, nothing written in its rows (zeros)."""
    real = batch.play

    def handing(plan: batch.Plan, start: int, stop: int, trace: bool = False) -> batch.Played:
        played = real(plan, start, stop, trace)
        handed = (np.arange(start, stop) % 3) == 1
        played.info[handed] = 0
        played.info[handed, batch.I_BAILED] = batch.K.BAIL_FULL
        for rows in (played.net, played.ledgers, played.seat_teyaku, played.seat_yaku):
            if rows is not None:
                rows[handed] = 0
        return played

    monkeypatch.setattr(batch, "play", handing)


def test_deals_the_kernel_hands_over_are_played_by_the_scalar_engine_in_their_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal the kernel marks (a share finer than its scale, a buffer full: rare in the
    bundled files) is played by the scalar engine into its row, among the kernel's: every
    third deal handed over, the comparison prints the same bytes."""
    handing_over(monkeypatch)
    for name in ("compare-hachihachi-kirisame-greedy", "compare-hachihachi-4-random"):
        args = dict(CASES)[name]
        assert printed(args) == (TODAY / f"{name}.json").read_text()


def test_a_deal_handed_over_has_no_ledger_in_the_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    handing_over(monkeypatch)
    c = CompiledRules(load_rules("koikoi"))
    d = batch.deals(batch.make_plan(c, 2, ("greedy", "greedy"), 1), 0, 30)
    assert d.handed.tolist() == [k % 3 == 1 for k in range(30)]
    assert (d.ledger[d.handed, :, 0] == -9).all()
    assert d.ledger.shape[1] < batch.K.LEDGER  # as long as the longest ledger played


def test_a_part_of_any_length_is_summed_as_its_rounds() -> None:
    """run_parts splits a span into parts at any length; one part of a span is its rounds
    added one by one (the report of a run is the same whichever the engine)."""
    rules = [load_rules("koikoi"), load_rules("koikoi/house/viewings-rain")]
    plans = [
        ComparePlan(tuple(rules), 2, ("greedy", "random"), 5, 0, engines=(engine, engine))
        for engine in ("batch", "scalar")
    ]
    for start, stop, chunk in ((0, 37, 37), (13, 250, 59)):
        fast, slow = (run_parts(plan, start, stop, chunk) for plan in plans)
        assert len(fast) == len(slow) == -(-(stop - start) // chunk)
        for a, b in zip(fast, slow, strict=True):
            assert a.tallies == b.tallies and a.diffs == b.diffs


# ---------------------------------------------------------------- the scalar path's counters
def test_counting_bots_play_plain_rounds_by_their_cheap_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """compare's counting bots offer the bot's plain choice (no view per play) where counting
    needs no view, and count what the bots counted when every play built a view."""
    acted: Counter[Phase] = Counter()
    real_act = GreedyAgent.act

    def act(self: GreedyAgent, view: PlayerView) -> int:
        acted[view.phase] += 1
        return real_act(self, view)

    monkeypatch.setattr(GreedyAgent, "act", act)
    monkeypatch.setattr(GreedyAgent, "plays_plain_greedily", True)  # (act is patched)

    class Viewing(Counting):  # the counting bot before: every play through act()
        def plain_choice(self, compiled: CompiledRules, seat: int) -> None:
            return None

    for name, seats in (("koikoi", 2), ("hachihachi", 3), ("sakura/hawaii", 2)):
        c = CompiledRules(load_rules(name))
        plain = c.rules.wild is None and not c.rules.hiki
        for bot in ("greedy", "rulewise", "random"):
            out = []
            for wrap in (Counting, Viewing):
                acted.clear()
                agents = [wrap(make_agent(bot, 0)) for _ in range(seats)]
                counts: Counter[str] = Counter()
                for agent in agents:
                    agent.counts = counts
                    assert (agent.plain_choice(c, 0) is not None) == (plain and wrap is Counting)
                results = [play_deal(c, seats, i, agents, seed=4)[1] for i in range(40)]
                out.append((results, counts))
                if bot != "random" and wrap is Counting and plain:
                    assert acted[Phase.PLAY] == 0, (name, bot)
            assert out[0] == out[1], (name, bot)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
