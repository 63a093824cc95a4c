"""benchmarks/bench_compare.py (issue 22, item 6) measures a command with the processes it
starts, runs the rulekit that PYTHONPATH names whatever the folder it is started from, and
lists the issue's commands."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_compare", ROOT / "benchmarks" / "bench_compare.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_compare"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_a_command_is_measured_with_the_processes_it_starts(
    bench: ModuleType, tmp_path: Path
) -> None:
    """The peak is the process tree's: a child of the command holds 120 MB, the command little."""
    child = "x = bytearray(120 * 2**20); x[::4096] = b'1' * len(x[::4096])"
    command = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}]); print(1)"
    m = bench.run([sys.executable, "-c", command], str(tmp_path))
    assert m.peak_mb >= 120 and m.cpu > 0 and m.output == b"1\n"


def test_a_failed_command_stops_the_benchmark_with_its_message(
    bench: ModuleType, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit, match=r"failed \(1\): .*no such rule"):
        bench.run([sys.executable, "-c", "import sys; sys.exit('no such rule')"], str(tmp_path))


def test_it_runs_the_rulekit_of_pythonpath_not_the_folders(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    (other / "rulekit").mkdir(parents=True)
    (other / "rulekit" / "__init__.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", str(other))
    monkeypatch.chdir(ROOT)  # where `python -m` would find this checkout's rulekit first
    folder = tmp_path / "empty"
    folder.mkdir()
    assert bench.which_code(str(folder)) == str(other)


def test_it_lists_the_issues_commands_and_finds_the_reference(bench: ModuleType) -> None:
    lines = [" ".join(args) for _, args, _ in bench.COMMANDS]
    assert lines == [
        "compare hachihachi hachihachi/kirisame",
        "compare koikoi koikoi/house/seven-or-more-doubled",
        "compare sakura sakura/round-wins",
        "compare hachihachi hachihachi/kirisame --bots greedy",
        "compare koikoi koikoi/house/seven-or-more-doubled --bots greedy",
        "compare sakura sakura/round-wins --bots greedy",
        "simulate hachihachi --bots greedy",
        "compare hachihachi hachihachi/kirisame --bots greedy",  # how --jobs scales
    ]
    assert [times for *_, times in bench.COMMANDS] == [1, 1, 1, 1, 1, 1, 10, 10]
    found = bench.reference()
    assert found is None or found.name == "bitmask_koikoi.py"


def test_a_command_runs_in_the_environment_it_is_given(bench: ModuleType, tmp_path: Path) -> None:
    """The first compile is measured in a numba cache of its own, named by the environment."""
    command = "import os; print(os.environ['NUMBA_CACHE_DIR'])"
    m = bench.run([sys.executable, "-c", command], str(tmp_path), {"NUMBA_CACHE_DIR": "/x"})
    assert m.output == b"/x\n"


@pytest.mark.parametrize("bad", [["--jobs", "1,x"], ["--jobs", "0"], ["--rounds", "0"]])
def test_a_bad_option_is_a_usage_message_not_a_traceback(bad: list[str]) -> None:
    import subprocess

    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_compare.py"), *bad],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--jobs" in out.stderr or "--rounds" in out.stderr


def test_a_cell_is_the_median_run_by_cpu(bench: ModuleType) -> None:
    runs = [bench.Measured(cpu, 1.0, 1.0, b"") for cpu in (4.8, 3.7, 4.1)]
    assert bench.median_of(runs).cpu == 4.1
    assert bench.median_of(runs[:2]).cpu == 3.7  # an even count: the lower middle
