"""What users wait for: the CPU seconds and peak memory of whole commands, as a user runs them.

    python benchmarks/bench_compare.py [--rounds N] [--jobs 1,2] [--repeat 3]

Each command (the comparisons of issue 22, with the default bots and with `--bots greedy`, and a
simulation of ten times as many rounds) runs as `python -m rulekit ... --seed 1 --json
--no-timings` in a process of its own, once per `--jobs`, and is measured from its rusage as its
parent reads it: user plus system CPU seconds, and the peak resident memory, of it and of every
process it started (its --jobs processes). A run with --jobs 2 is checked to print the JSON of
--jobs 1, and the last two columns say what --jobs 2 costs in CPU against --jobs 1 and how much
sooner it finished. The batch engine's kernel is compiled (a warm-up command) before anything is
measured, and each command runs once on 2 rounds before it is measured (so that what rulekit
keeps between runs, the bots' calibration of each variant, is kept, as after a user's first
run); the kernel's compile, in an empty cache of its own, is measured first (`--compile-only`:
only it). Each cell is the median run of `--repeat` (3) by CPU: a 4-second command's CPU varies
by a tenth from run to run here. The last command, a comparison of ten times the rounds, shows
how --jobs scales where the rounds outweigh a command's start (about a second: Python, the
imports, the rule files, the kernel read from its cache), which no number of processes shortens.
The commands run as a user's do, with Python's byte code kept (COMMAND_ENV).

It drives the command line only, so it runs unchanged on older code: from this checkout,
`git worktree add --detach /tmp/old f72d69a`, then `PYTHONPATH=/tmp/old python
benchmarks/bench_compare.py` measures that code (the header says which code ran).

The last rows, "reference", are ../shared/examples/bitmask_koikoi.py's fixed-rules Koi-Koi
rounds in plain Python (random, or its greedy policy, for both seats), as many as a comparison
plays of each variant, measured the same way in the same run, when that file is there.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# (what the table calls it, the arguments after `rulekit`, rounds as a multiple of --rounds)
COMMANDS = [
    ("compare hachihachi hachihachi/kirisame", ["compare", "hachihachi", "hachihachi/kirisame"], 1),
    ("compare koikoi koikoi/house/seven-or-more-doubled",
     ["compare", "koikoi", "koikoi/house/seven-or-more-doubled"], 1),
    ("compare sakura sakura/round-wins", ["compare", "sakura", "sakura/round-wins"], 1),
    ("the same, --bots greedy: hachihachi",
     ["compare", "hachihachi", "hachihachi/kirisame", "--bots", "greedy"], 1),
    ("the same, --bots greedy: koikoi",
     ["compare", "koikoi", "koikoi/house/seven-or-more-doubled", "--bots", "greedy"], 1),
    ("the same, --bots greedy: sakura",
     ["compare", "sakura", "sakura/round-wins", "--bots", "greedy"], 1),
    ("simulate hachihachi --bots greedy", ["simulate", "hachihachi", "--bots", "greedy"], 10),
    ("compare hachihachi hachihachi/kirisame --bots greedy",
     ["compare", "hachihachi", "hachihachi/kirisame", "--bots", "greedy"], 10),
]  # fmt: skip
WARM_UP = ["simulate", "hachihachi", "--bots", "greedy", "--rounds", "50", "--engine", "batch"]
REFERENCE_NAME = Path("shared") / "examples" / "bitmask_koikoi.py"
REFERENCE_RUN = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('bitmask_koikoi', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(module)\n"
    "module.simulate(int(sys.argv[2]), seed=1, greedy=[True, True] if sys.argv[3] == 'greedy'"
    " else None)\n"
)


# the commands' environment: as a user's, where Python keeps the byte code of what it imported
# (PYTHONDONTWRITEBYTECODE, which some sandboxes set, is left out: under it every command would
# compile rulekit's hundred modules from their sources again, about 0.2 s that no user waits for)
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Measured:
    cpu: float  # user + system seconds, the process and the processes it waited for
    peak_mb: float  # the largest resident set among them
    wall: float
    output: bytes  # what it printed (the JSON)


def run(args: list[str], folder: str, env: dict[str, str] | None = None) -> Measured:
    """Run a command in a process of its own, in `folder` (empty: `python -m` and `-c` put the
    current folder first on the path, where a checkout's own rulekit would hide the one
    PYTHONPATH names), measured by its own rusage (os.wait4: the process and every process it
    started and waited for). Exits on a failed command."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(
            args, stdout=out, stderr=err, cwd=folder, env=COMMAND_ENV if env is None else env
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            sys.exit(f"failed ({child.returncode}): {' '.join(args)}\n{err.read().decode()}")
        return Measured(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, out.read())


def rulekit(*args: str) -> list[str]:
    return [sys.executable, "-m", "rulekit", *args]


def reference() -> Path | None:
    """bitmask_koikoi.py in ../shared/examples of this checkout, or of a folder above it."""
    here = Path(__file__).resolve().parent
    for folder in here.parents:
        if (folder / REFERENCE_NAME).is_file():
            return folder / REFERENCE_NAME
    return None


def which_code(folder: str) -> str:
    """The rulekit the commands run (PYTHONPATH may point at another checkout)."""
    found = subprocess.run(
        [sys.executable, "-c", "import rulekit; print(rulekit.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder,
    )
    return str(Path(found.stdout.strip()).parent.parent)


def cells(m: Measured) -> list[str]:
    return [f"{m.cpu:.1f}" if m.cpu >= 10 else f"{m.cpu:.2f}", f"{m.peak_mb:.0f}", f"{m.wall:.1f}"]


def first_compile(folder: str) -> None:
    """The warm-up command in an empty numba cache: the kernel's first compile, as a user's
    first batch run pays it (the cache of the runs below is left alone)."""
    with tempfile.TemporaryDirectory() as cache:
        m = run(rulekit(*WARM_UP), folder, {**COMMAND_ENV, "NUMBA_CACHE_DIR": cache})
    print(f"the kernel's first compile (`rulekit {' '.join(WARM_UP)}`, an empty cache): "
          f"{m.cpu:.1f} s of CPU, peak {m.peak_mb:.0f} MB, {m.wall:.1f} s wall")  # fmt: skip


def median_of(runs: list[Measured]) -> Measured:
    """The run of median CPU (of an odd count; the lower middle of an even one): one command's
    CPU seconds vary by a tenth from run to run on a 2-core machine, as much as the --jobs 2 /
    --jobs 1 difference they are to show."""
    ranked = sorted(runs, key=lambda m: m.cpu)
    return ranked[(len(ranked) - 1) // 2]


def table(rounds_each: int, jobs: list[int], folder: str, repeat: int = 1) -> None:
    """Measure every command with every --jobs, and print the table as it goes."""
    print(f"code: {which_code(folder)}; {rounds_each:,} rounds of each variant, seed 1; the "
          f"median of {repeat} runs of each command (one of the longest)")  # fmt: skip
    first_compile(folder)
    run(rulekit(*WARM_UP), folder)  # the batch engine's kernel compiled (and cached) first
    print(f"load average at the start: {os.getloadavg()[0]:.2f}\n")
    head = ["command", "rounds"]
    for j in jobs:
        head += [f"--jobs {j}: CPU s", "peak MB", "wall s"]
    head.append("same JSON")
    paired = 1 in jobs and 2 in jobs
    if paired:
        head += ["CPU, --jobs 2 / 1", "sooner with --jobs 2"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, command, times in COMMANDS:
        rounds = rounds_each * times
        run(rulekit(*command, "--rounds", "2", "--json"), folder)  # the bots' calibration kept
        row = [name, f"{rounds:,}"]
        printed = set()
        measured = {}
        for j in jobs:
            args = rulekit(*command, "--rounds", str(rounds), "--seed", "1", "--jobs", str(j),
                           "--json", "--no-timings")  # fmt: skip
            runs = [run(args, folder) for _ in range(1 if times > 1 else repeat)]
            m = measured[j] = median_of(runs)
            printed.update(r.output for r in runs)
            row += cells(m)
        row.append("yes" if len(printed) == 1 else "NO")  # every --jobs printed the same JSON
        if paired:
            one, two = measured[1], measured[2]
            row += [f"{two.cpu / one.cpu:.2f}", f"{one.wall / two.wall:.2f}x"]
        print("| " + " | ".join(row) + " |", flush=True)
    path = reference()
    if path is not None:
        for policy in ("random", "greedy"):
            m = run([sys.executable, "-c", REFERENCE_RUN, str(path), str(rounds_each), policy],
                    folder)  # fmt: skip
            row = [f"reference (bitmask_koikoi.py, {policy})", f"{rounds_each:,}", *cells(m)]
            row += ["", "", ""] * (len(jobs) - 1) + [""] + ["", ""] * (1 in jobs and 2 in jobs)
            print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", type=int, default=100_000, help="rounds of each variant (default 100,000)"
    )
    parser.add_argument("--jobs", default="1,2", help="the --jobs to run each command with")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs of each command, the median shown (default 3; the longest rows run once)",
    )
    parser.add_argument(
        "--compile-only", action="store_true", help="measure the kernel's first compile only"
    )
    args = parser.parse_args()
    try:
        jobs = [int(j) for j in args.jobs.split(",")]
    except ValueError:
        parser.error(f"--jobs: whole numbers separated by commas, like 1,2 (not {args.jobs!r})")
    if min(jobs) < 1 or args.rounds < 1 or args.repeat < 1:
        parser.error("--jobs, --rounds and --repeat must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        if args.compile_only:
            print(f"code: {which_code(folder)}")
            first_compile(folder)
        else:
            table(args.rounds, jobs, folder, args.repeat)


if __name__ == "__main__":
    main()
