"""The fuzzer's short profile: mutants of every bundled rule file, its JSON IR and the bundled
scenario files load cleanly or fail with a located RulekitError, in time, and play if they load.
The long profile is `python scripts/fuzz.py --minutes N`."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _load_fuzz() -> ModuleType:
    path = Path(__file__).parent.parent / "scripts" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("rulekit_fuzz", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rulekit_fuzz"] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
SEEDS = fuzz.seeds()
SHORT = settings(
    max_examples=40,
    deadline=None,  # each case has its own time bound (fuzz.TIME_BOUND)
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("kind", ["rk", "json", "scenario"])
@SHORT
@given(data=st.data())
def test_mutants_load_or_fail_located(kind: str, data: st.DataObject, tmp_path: Path) -> None:
    pool = [s for s in SEEDS if s.kind == kind]
    seed = data.draw(st.sampled_from(pool))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    verdict = fuzz.check(seed, fuzz.mutant(seed, rng), tmp_path)
    assert verdict is None, f"{seed.name}: {verdict}"


def test_every_kind_of_input_has_seeds() -> None:
    kinds = {s.kind for s in SEEDS}
    assert kinds == {"rk", "json", "scenario"}
    assert sum(s.kind == "rk" for s in SEEDS) >= 9


def test_the_oracle_reports_a_hang(tmp_path: Path) -> None:
    def slow(path: Path) -> None:
        while True:
            pass

    fuzz.CHECKS["slow"] = (".rk", slow)
    try:
        verdict = fuzz.check(fuzz.Seed("slow", "slow.rk", ""), b"", tmp_path, bound=0.2)
    finally:
        del fuzz.CHECKS["slow"]
    assert verdict is not None and verdict.startswith("hang")


def test_the_oracle_reports_a_crash(tmp_path: Path) -> None:
    def crash(path: Path) -> None:
        raise KeyError(0)

    fuzz.CHECKS["crash"] = (".rk", crash)
    try:
        verdict = fuzz.check(fuzz.Seed("crash", "c.rk", ""), b"", tmp_path)
    finally:
        del fuzz.CHECKS["crash"]
    assert verdict is not None and verdict.startswith("crash") and "KeyError" in verdict


def test_the_script_ends_with_the_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    fuzz.main(["--minutes", "0.02", "--seed", "1"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    files, crashes, hangs = (int(w) for w in last.replace(",", "").split()[::2])
    assert last == f"{files} files, {crashes} crashes, {hangs} hangs"
    assert files > 0 and crashes == 0 and hangs == 0
