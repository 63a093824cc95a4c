"""The fuzzer's short profile: mutants of every bundled rule file, its JSON IR and the bundled
scenario files, house files drawn from every kind of statement, and `tune --vary` specs load
cleanly or fail with a located RulekitError, and play whole games if they load. A hang is a
mutant still running after a bound far above any mutant's time (no test depends on the
machine's speed). The long profile is `python scripts/fuzz.py --minutes N`."""

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
BOUND = 300.0  # seconds: a hang, whatever the machine's load
SHORT = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("kind", ["rk", "json", "scenario", "house", "vary"])
@SHORT
@given(data=st.data())
def test_mutants_load_or_fail_located(kind: str, data: st.DataObject, tmp_path: Path) -> None:
    pool = [s for s in SEEDS if s.kind == kind]
    seed = data.draw(st.sampled_from(pool))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    verdict = fuzz.check(seed, fuzz.mutant(seed, rng), tmp_path, bound=BOUND)
    assert verdict is None, f"{seed.name}: {verdict}"


def test_every_kind_of_input_has_seeds() -> None:
    kinds = {s.kind for s in SEEDS}
    assert kinds == {"rk", "json", "scenario", "house", "vary"}
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
        verdict = fuzz.check(fuzz.Seed("crash", "c.rk", ""), b"", tmp_path, bound=BOUND)
    finally:
        del fuzz.CHECKS["crash"]
    assert verdict is not None and verdict.startswith("crash") and "KeyError" in verdict


def test_the_script_ends_with_the_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    fuzz.main(["--minutes", "0.02", "--seed", "1"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    files, crashes, hangs = (int(w) for w in last.replace(",", "").split()[::2])
    assert last == f"{files} files, {crashes} crashes, {hangs} hangs"
    assert files > 0 and crashes == 0 and hangs == 0


def test_the_mutants_use_every_kind_of_statement() -> None:
    """House files and scenarios' inline house rules are drawn from the newer statements too
    (issue 21, item 8): the scoring stage, round conditions, sit-outs, removals, units and
    targets."""
    rng = random.Random(0)
    houses = "\n".join(fuzz.house_file(rng) for _ in range(400))
    for words in ("scoring", "round", "sit out", "remove", "unit kan", "until a score of",
                  "start at", "the field had", "everyone has", " kan",
                  "declare", "the payer has", "the payer pays nothing", "per continue",
                  "paid by each other player", "second", "the third takes",
                  "cancels every yaku", "wins the round", "play out the stock",
                  "the round is a draw if"):  # fmt: skip
        assert words in houses, words
    scenario = next(s for s in SEEDS if s.kind == "scenario" and "house_rules" not in s.text)
    mutants = [fuzz.mutant(scenario, rng) for _ in range(60)]
    assert any(
        b"house_rules" in m and b"house_rules" not in scenario.text.encode() for m in mutants
    )
    specs = [fuzz.mutant(fuzz.Seed("vary", "vary.txt", ""), rng).decode() for _ in range(60)]
    assert any(".." in spec for spec in specs) and any("," in spec for spec in specs)
