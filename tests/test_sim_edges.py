"""Edges of simulation and comparison: void redeals (one rule, bounded), splitting the work,
the chunk driver, whole-run intervals, seat ranges, the statistics helper, the greedy bot's
fold threshold, and the scripts and benchmarks built on them."""

from __future__ import annotations

import importlib.util
import multiprocessing
import signal
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from rulekit.agents import make_agent
from rulekit.agents.base import SeededAgent
from rulekit.agents.search import SearchAgent
from rulekit.cli import cli
from rulekit.engine import actions as A
from rulekit.engine.playout import play_deal, play_round
from rulekit.engine.round import Phase, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.errors import RulekitError, UsageError
from rulekit.lang import load_rules
from rulekit.sim import compare as C
from rulekit.sim.backends import run_chunks
from rulekit.sim.simulate import Plan, run_part, simulate
from rulekit.stats.moments import Moments, t95
from rulekit.stats.tally import Tally
from tests.conftest import compiled, rules

ROOT = Path(__file__).parent.parent
ALWAYS_VOID = (
    'game "Always void" variant "test"\n'
    'extends "koikoi/sloper"\n'
    "void if the field has a month of 1 or a month of 2 or a month of 3 or a month of 4\n"
)


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, if the block runs longer than `seconds`."""

    def expired(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def always_void(tmp_path: Path) -> Path:
    path = tmp_path / "always.rk"
    path.write_text(ALWAYS_VOID, encoding="utf-8")
    return path


# ---------------------------------------------------------------- void deals


def test_simulate_stops_with_an_error_when_every_deal_is_void(always_void: Path) -> None:
    with deadline(30), pytest.raises(RulekitError, match="void deals in a row"):
        simulate(load_rules(always_void, check=False), rounds=1)


def test_compare_stops_with_an_error_when_every_deal_is_void(always_void: Path) -> None:
    variants = [rules("koikoi/sloper"), load_rules(always_void, check=False)]
    with deadline(30), pytest.raises(RulekitError, match="void deals in a row"):
        compare_quietly(variants, rounds=2)


def compare_quietly(variants: list[Any], **kwargs: Any) -> dict[str, Any]:
    return C.compare(variants, [f"v{k}" for k in range(len(variants))], **kwargs)


def test_a_worker_error_shuts_the_processes_down(always_void: Path) -> None:
    variants = [rules("koikoi/sloper"), load_rules(always_void, check=False)]
    # greedy bots on the scalar engine: the error is the same, without the default bots'
    # calibration and rollouts before it
    with deadline(60), pytest.raises(RulekitError, match="void deals in a row"):
        compare_quietly(variants, rounds=400, jobs=2, bots=["greedy"], engine="scalar")
    assert multiprocessing.active_children() == []


def test_the_command_line_says_why_instead_of_hanging(always_void: Path) -> None:
    with deadline(30):
        result = CliRunner().invoke(cli, ["simulate", str(always_void), "--rounds", "1"])
    assert result.exit_code == 1
    # `check` finds the rule that voids every deal before any is played (the engine's limit
    # above still stops a file loaded without the check)
    assert "every field of 8 cards is void" in result.stderr
    assert "Traceback" not in result.stderr


class Recording(SeededAgent):
    """A random bot that writes down every seed it is given."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.seeds: list[str] = []

    def start(self, seed: int | str) -> None:
        super().start(seed)
        self.seeds.append(str(seed))

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


def test_a_void_deal_is_redealt_with_the_bots_re_seeded_for_each_try() -> None:
    c = compiled("koikoi/sloper")
    void_deal = None
    for i in range(400):  # the first deal that is void (after the hand-swap decision)
        players = [Recording(), Recording()]
        moves: list[tuple[int, int]] = []
        rnd, result, voids = play_deal(c, 2, i, players, seed=0, moves=moves)
        if voids:
            void_deal = i
            break
    assert void_deal is not None
    assert not result.void and rnd.round_no == void_deal
    for s, p in enumerate(players):
        assert p.seeds == [f"0:{void_deal}:{s}"] * (voids + 1)
    # the moves are those of the round played, which replays from its own deal number
    again = Round(c, 2, void_deal % 2, seed=0, deal_no=f"{void_deal}.{voids}", round_no=void_deal)
    for seat, action in moves:
        assert again.current == seat
        again.apply(action)
    assert again.result().net == result.net


def test_simulate_totals_do_not_depend_on_how_the_work_is_split() -> None:
    plan = Plan(rules("koikoi/sloper"), 2, ("greedy", "greedy"), 0, False)
    whole = run_part(plan, 0, 1500)
    parts = Tally(2)
    for start in range(0, 1500, 50):
        parts.merge(run_part(plan, start, start + 50))
    assert whole.voids >= 2  # several void deals, in different chunks
    assert (whole.total, whole.voids, whole.wins) == (parts.total, parts.voids, parts.wins)


def test_simulate_and_compare_redeal_the_same_way() -> None:
    r = rules("koikoi/sloper")
    sim = simulate(r, rounds=300, seed=0)
    cmp = compare_quietly([r, r], rounds=300, seed=0)
    assert sim["voids"] == cmp["variants"][0]["voids"] > 0


# ---------------------------------------------------------------- the chunk driver


def _fails_on_the_third(plan: str, start: int, stop: int) -> tuple[str, int]:
    if start == 2:
        raise UsageError("the third chunk fails")
    return plan, stop - start


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_chunks_in_order_with_progress_and_errors(jobs: int) -> None:
    seen: list[tuple[int, int]] = []
    parts = run_chunks(
        _fails_on_the_third, "x", 2, chunk=1, jobs=jobs, progress=lambda d, t: seen.append((d, t))
    )
    assert list(parts) == [("x", 1), ("x", 1)] and seen == [(1, 2), (2, 2)]
    with deadline(60), pytest.raises(UsageError, match="third chunk"):
        list(run_chunks(_fails_on_the_third, "x", 5, chunk=1, jobs=jobs))
    assert multiprocessing.active_children() == []


def test_simulate_has_the_dask_backend() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(UsageError, match="needs --scheduler"):
        simulate(rules("koikoi/sloper"), rounds=10, backend="dask")


def test_simulate_on_a_dask_cluster_gives_the_local_numbers() -> None:
    distributed = pytest.importorskip("dask.distributed")
    r = rules("koikoi/sloper")
    local = simulate(r, rounds=600, seed=2)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = simulate(
            r, rounds=600, seed=2, backend="dask", scheduler=cluster.scheduler_address
        )
    for report in (local, remote):
        report.pop("seconds")
        report.pop("rounds_per_second")
    assert remote == local


# ---------------------------------------------------------------- whole-run figures


def test_fairness_and_spread_of_a_variant_against_itself_differ_by_exactly_nothing() -> None:
    r = rules("hachihachi")
    result = compare_quietly([r, r], rounds=300, seed=4)
    d = result["differences"][0]
    for figure in ("fairness", "spread"):
        expected = {"mean": 0.0, "ci95": 0.0, "significant": False}
        assert {k: d[figure][k] for k in expected} == expected, figure  # keys may be added


def test_whole_run_figures_are_centred_on_their_value() -> None:
    result = compare_quietly([rules("hachihachi"), rules("hachihachi/kirisame")], rounds=400)
    a, b = result["variants"]
    d = result["differences"][0]
    for figure in ("fairness", "spread"):
        assert d[figure]["mean"] == b[figure]["value"] - a[figure]["value"], figure
        assert d[figure]["ci95"] > 0 and a[figure]["ci95"] > 0
    # fairness is the best position's mean minus the worst's, over the whole run
    means = [p["mean"] for p in a["position"]]
    assert a["fairness"]["value"] == pytest.approx(max(means) - min(means))


def test_the_jackknife_of_a_mean_is_the_batch_means_interval() -> None:
    """For a plain mean over equal batches the delete-one jackknife gives exactly the standard
    error of the batch means: the interval is t(19) times it."""
    batches = [[Moments()] for _ in range(C.BATCHES)]
    for i in range(C.BATCHES * 5):
        batches[i % C.BATCHES][0].add(float((i * 7919) % 23))
    got = C.jackknife(lambda ms: ms[0].mean, batches)
    means = [b[0].mean for b in batches]
    assert got["mean"] == pytest.approx(statistics.mean(means))
    expected = t95(C.BATCHES - 1) * statistics.stdev(means) / C.BATCHES**0.5
    assert got["ci95"] == pytest.approx(expected)


def test_a_short_comparison_has_intervals_from_its_batches() -> None:
    result = compare_quietly([rules("hachihachi"), rules("hachihachi/kirisame")], rounds=3)
    assert result["variants"][0]["fairness"]["ci95"] is not None  # 3 batches, 2 d.f.
    result = compare_quietly([rules("hachihachi"), rules("hachihachi/kirisame")], rounds=2)
    assert result["differences"][0]["spread"]["ci95"] is not None


# ---------------------------------------------------------------- seats


def test_compare_says_when_no_table_size_suits_every_variant() -> None:
    variants = [rules("hachihachi"), rules("koikoi/sloper")]
    with pytest.raises(UsageError, match="no table size suits every variant") as info:
        C.compare(variants, ["hachihachi", "koikoi/sloper"], rounds=10)
    assert "hachihachi seats 3 to 6 players" in info.value.message
    assert "koikoi/sloper seats 2 players" in info.value.message
    with pytest.raises(UsageError, match="koikoi/sloper cannot seat 3") as info:
        C.compare(variants, ["hachihachi", "koikoi/sloper"], rounds=10, seats=3)
    assert info.value.hint is not None and "no table size suits" in info.value.hint


def test_compare_suggests_the_common_seats() -> None:
    variants = [rules("hachihachi"), rules("hachihachi/kirisame")]
    with pytest.raises(UsageError, match="cannot seat 4") as info:
        C.compare(variants, ["a", "b"], rounds=10, seats=4)
    assert info.value.hint == "the variants all seat 3 players: use --seats 3"


# ---------------------------------------------------------------- statistics


def test_one_confidence_interval_rule_student_t() -> None:
    m = Moments()
    m.add(0.0)
    assert m.ci95 is None and m.report() == {"mean": 0.0, "ci95": None, "significant": False}
    m.add(2.0)
    assert m.ci95 == pytest.approx(12.706)  # t with 1 degree of freedom, sd = sqrt(2), n = 2
    t = Tally(1)
    t.add_unit([0], [])
    assert t.ci95(0) is None
    t.add_unit([2], [])
    assert t.ci95(0) == pytest.approx(12.706)
    assert t95(19) == 2.093
    assert t95(10_000) == pytest.approx(1.9602, abs=1e-4)


# ---------------------------------------------------------------- bots


def test_greedy_joins_with_a_better_than_average_hand() -> None:
    c = compiled("hachihachi/fudawiki")
    joined = decided = 0
    for k in range(60):
        rnd = Round(c, 4, k % 4, seed=1, deal_no=k)
        agents = [make_agent("greedy", f"{k}:{s}") for s in range(4)]
        views = [PlayerView(rnd, s) for s in range(4)]
        while rnd.phase == Phase.FOLD:
            view = views[rnd.current]
            action = agents[rnd.current].act(view)
            decided += 1
            joined += action == A.JOIN
            rnd.apply(action)
    assert decided > 100
    assert 0.4 < joined / decided < 0.8  # it joined 90% of the time at 25 points


def test_the_search_bot_is_a_seeded_agent_and_replays() -> None:
    c = compiled("koikoi/sloper")
    assert isinstance(SearchAgent(), SeededAgent)
    results = []
    for _ in range(2):
        bots = [SearchAgent(0, rollouts=8), make_agent("greedy")]
        _, result, _ = play_deal(c, 2, 5, bots, seed="search")
        results.append(result.ledger)
    assert results[0] == results[1]


def _load_script(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_scenarios_gives_up_a_two_round_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _load_script(ROOT / "scripts" / "make_scenarios.py", "make_scenarios")
    monkeypatch.setattr(script, "MAX_GAMES", 3)
    monkeypatch.setattr(script, "out", tmp_path)
    with deadline(30):
        script.record_two_rounds(
            "x", "never", "never", "koikoi/sloper", 2, lambda *a: False, "never"
        )
    assert "not found: never" in capsys.readouterr().out
    assert not list(tmp_path.rglob("*.toml"))
    c = CompiledRules(load_rules("koikoi/sloper"))
    script.record_found(
        c,
        "x",
        "drawn",
        "A drawn round",
        "koikoi/sloper",
        2,
        lambda rnd, res, mv: res.ended_by == "draw",
        lambda rnd, names: "drawn",
    )
    assert (tmp_path / "x" / "drawn.scenario.toml").read_text(encoding="utf-8").count("draw")


def test_the_strength_benchmark_compiles_once_and_redeals(always_void: Path) -> None:
    bench = _load_script(ROOT / "benchmarks" / "bench_strength.py", "bench_strength")
    bench.compiled.cache_clear()
    for deal in (3, 4):
        _, _, times = bench.rotate(("koikoi/sloper", 2, "random", deal, 4, 0))
        assert times
    assert bench.compiled.cache_info().misses == 1
    # not a void round scored 0: the file is refused when loaded, or play stops at the limit
    with deadline(30), pytest.raises(RulekitError, match=r"void deals in a row|is void"):
        bench.rotate((str(always_void), 2, "random", 0, 4, 0))


def test_play_round_is_shared() -> None:
    from rulekit.sim import simulate as sim_module

    assert sim_module.play_round is play_round
