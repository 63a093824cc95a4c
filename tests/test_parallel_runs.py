"""Runs over processes (issue 22, item 1): --jobs 2 prints the JSON of --jobs 1, byte for byte,
and a process builds a rule file's compiled rules, batch plan and bots' calibration once, not
once per chunk: the plan reaches each process once, what is built from it is keyed by the rule
set's content, and the calibration is computed before the processes start.

What each process builds is counted in a file every process appends to (processes forked by
the run inherit the counting; a Dask worker is handed it)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulekit.agents.calibrate as calibrate
import rulekit.batch.engine as batch
from rulekit import stored
from rulekit.cli import cli
from rulekit.engine.tables import CompiledRules
from rulekit.sim import backends, cache
from rulekit.sim.compare import compare
from rulekit.sim.simulate import simulate
from tests.conftest import rules


def _json(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--json", "--no-timings"])
    assert result.exit_code == 0, result.output
    return result.stdout


RUNS = [
    "simulate hachihachi --rounds 700 --seed 4",  # rulewise
    "simulate hachihachi --seats 4 --bots greedy --rounds 900",
    "simulate koikoi --bots greedy --rounds 9000 --engine batch",
    "simulate hachihachi/kirisame --games 30 --seed 2",
    "simulate koikoi --bots greedy,random --games 60 --seed 1",
    "compare hachihachi hachihachi/wikipedia-draft --seats 4 --rounds 700",
    "compare koikoi koikoi/six-rounds --bots greedy --rounds 900",
    "compare hachihachi hachihachi/kirisame --bots greedy --rounds 4100 --engine batch",
]


@pytest.mark.parametrize("run", RUNS)
def test_jobs_2_prints_the_json_of_jobs_1(run: str) -> None:
    args = run.split()
    one = _json(*args, "--jobs", "1")
    assert json.loads(one)  # a report, not an empty line
    assert _json(*args, "--jobs", "2") == one


def _log(path: Path, what: str) -> None:
    with path.open("a") as f:
        f.write(what + "\n")


def _count_compiles(path: str) -> None:
    """Log every CompiledRules built from now on in this process (and those it forks)."""
    built = CompiledRules.__init__

    def counted(self: CompiledRules, rules: Any) -> None:
        _log(Path(path), "compiled")
        built(self, rules)

    CompiledRules.__init__ = counted  # type: ignore[method-assign]


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, log: Path) -> None:
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        _log(log, name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def _counted(log: Path, what: str) -> int:
    return log.read_text().split().count(what) if log.exists() else 0


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Nothing built yet in this process, nor kept by an earlier run: every compiled rule set
    and policy is built anew."""
    monkeypatch.setattr(cache, "_COMPILED", type(cache._COMPILED)())
    monkeypatch.setattr(calibrate, "_POLICIES", {})
    monkeypatch.setattr(stored, "user_cache", lambda environ=None: tmp_path / "kept")


def test_a_run_over_processes_compiles_its_rules_once_not_per_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """2,500 rounds are ten chunks: each reached a process as a rule set unpickled again, and
    compiled again (ten compiles); now the run's own process compiles the rules, and a process
    started by the run compiles them at most once."""
    log = tmp_path / "log"
    monkeypatch.setattr(CompiledRules, "__init__", CompiledRules.__init__)  # undone after
    _count_compiles(str(log))
    simulate(rules("koikoi"), bots=["random"], rounds=2500, seed=1, jobs=2, engine="scalar")
    assert 1 <= _counted(log, "compiled") <= 3
    log.unlink()
    cache._COMPILED.clear()
    variants = [rules("koikoi"), rules("koikoi/six-rounds")]
    compare(variants, ["a", "b"], bots=["random"], rounds=2000, seed=1, jobs=2, engine="scalar")
    assert 2 <= _counted(log, "compiled") <= 6


def test_the_batch_engine_makes_its_plan_once_per_process_not_per_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    log = tmp_path / "log"
    _counting(monkeypatch, batch, "make_plan", log)
    monkeypatch.setattr(batch, "_PLANS", {})
    r = rules("hachihachi")
    simulate(r, bots=["greedy"], rounds=40_000, seed=1, jobs=2, engine="batch")
    assert 1 <= _counted(log, "make_plan") <= 3


def test_the_calibration_is_computed_once_per_variant_not_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """At 4 seats Hachi-Hachi has a fold phase, which rulewise takes by a policy calibrated once
    per variant: computed before the run and handed to its processes, which compute none."""
    log = tmp_path / "log"
    _counting(monkeypatch, calibrate, "calibrate", log)
    variants = [rules("hachihachi"), rules("hachihachi/wikipedia-draft")]
    out = compare(variants, ["a", "b"], seats=4, rounds=800, seed=1, jobs=2)
    assert _counted(log, "calibrate") == 2
    assert all(v["choices"].get("fold offered") for v in out["variants"])


def test_spans_are_one_chunk_on_the_scalar_engine_and_a_few_large_ones_on_the_batch_engine() -> (
    None
):
    assert backends.task_size(100_000, 250, 2, fast=False) == 250
    assert backends.task_size(100_000, 250, 2, fast=True) == 6_250  # eight tasks a process
    assert backends.task_size(100_000, 200, 1, fast=True) == 12_600
    assert backends.task_size(10**9, 250, 2, fast=True) == 250 * backends.FAST_CHUNKS
    assert backends.task_size(300, 250, 2, fast=True) == 250  # a whole chunk, at the least


def test_a_dask_worker_compiles_a_rule_file_once_not_per_chunk(tmp_path: Path) -> None:
    """The plan is scattered to every worker once (it was sent with every chunk, and every
    chunk compiled its rules again)."""
    distributed = pytest.importorskip("dask.distributed")
    log = tmp_path / "log"
    r = rules("koikoi")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(_count_compiles, str(log))
        simulate(
            r, bots=["random"], rounds=2500, seed=1, engine="scalar", backend="dask",
            scheduler=cluster.scheduler_address,
        )  # fmt: skip
    assert 1 <= _counted(log, "compiled") <= 2


def _whose(plan: None, start: int, stop: int) -> tuple[int, int, int]:
    """Which process played the span (a worker must be a module's function)."""
    return os.getpid(), start, stop


def _played(jobs: int, count: int) -> list[tuple[int, int, int]]:
    return list(backends.run_chunks(_whose, None, count, chunk=1, jobs=jobs))


@pytest.mark.skipif(backends.usable_cpus() < 2, reason="one CPU: --jobs 2 plays in one process")
def test_the_run_s_own_process_plays_every_other_span_with_jobs_2() -> None:
    """It used to wait while two processes it started played: a process started, and a
    core's share of its waiting, for nothing."""
    played = _played(2, 8)
    assert [(a, b) for _, a, b in played] == [(k, k + 1) for k in range(8)]
    mine = [a for pid, a, _ in played if pid == os.getpid()]
    assert mine == [0, 2, 4, 6]
    assert len({pid for pid, _, _ in played}) == 2


def test_a_run_of_one_span_starts_no_process() -> None:
    assert _played(2, 1) == [(os.getpid(), 0, 1)]


def test_jobs_2_on_one_usable_cpu_plays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "usable_cpus", lambda: 1)
    assert {pid for pid, _, _ in _played(2, 5)} == {os.getpid()}


def test_the_last_spans_are_a_quarter_as_long_so_the_processes_end_together() -> None:
    spans = list(backends.tapered(100_000, 6_250, 250, 2))
    assert spans[0] == (0, 6_250)
    assert [b - a for a, b in spans[14:]] == [1_500] * 8 + [500]  # the last 12,500 rounds
    assert all(a % 250 == 0 for a, _ in spans)  # whole chunks: the totals of --jobs 1
    assert [b for _, b in spans[:-1]] == [a for a, _ in spans[1:]] and spans[-1][1] == 100_000
    whole = [(0, 250), (250, 500), (500, 750), (750, 1_000)]  # one chunk each: none shorter
    assert list(backends.tapered(1_000, 250, 250, 2)) == whole
