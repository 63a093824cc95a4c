"""Full rounds per second on one core, with random and with greedy bots, for each bundled file:
the scalar engine, and the batch engine (rulekit.batch) where it applies.

    python benchmarks/bench_rounds.py [--rounds N] [--batch-rounds M]

Each round is what `rulekit simulate` plays: deal, fold phase when more sit than play, teyaku,
every turn with its yaku check, the count and settlement, the tally. The two engines play the
same rounds (tests/test_batch_identity.py); each is timed through `simulate` with
`engine="scalar"` or `engine="batch"`, the batch engine's one-off compilation (cached) left out
by a warm-up run. One process, one core; the figure is the best of three runs, timed in CPU
time (the machine may be shared).

The last row, "reference", is ../shared/examples/bitmask_koikoi.py's fixed-rules Koi-Koi round
in plain Python (random, or its greedy policy, for both seats), timed the same way in the same
run, when that file is there.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from rulekit.lang import load_rules
from rulekit.sim.simulate import compiled_rules, simulate

try:
    from rulekit.batch.engine import why_not
except ImportError:  # the code of before the batch engine (PYTHONPATH on an old worktree)
    why_not = None
# the code of before the batch engine has no `engine` (it plays the scalar engine's rounds)
ENGINES = "engine" in inspect.signature(simulate).parameters

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "examples" / "bitmask_koikoi.py"

# (bundled file, table size)
FILES = [
    ("hachihachi/fudawiki", 3),
    ("hachihachi/fudawiki", 4),
    ("hachihachi/kirisame", 3),
    ("hachihachi/wikipedia-draft", 3),
    ("hachihachi/wikipedia-draft", 7),
    ("hachihachi/two-player", 2),
    ("koikoi/sloper", 2),
    ("sakura/hawaii", 2),
    ("sakura/hawaii", 3),
    ("sakura/hawaii", 4),
    ("sakura/hawaii", 7),
]


def best_rate(run: Callable[[int], object], rounds: int) -> float:
    """Rounds per CPU second of `run(rounds)`, the best of three after a warm-up."""
    run(min(rounds, 200))
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        run(rounds)
        best = max(best, rounds / max(time.process_time() - start, 1e-9))
    return best


def rounds_per_second(name: str, seats: int, bot: str, rounds: int, engine: str) -> float:
    rules = load_rules(name)
    chosen = {"engine": engine} if ENGINES else {}
    return best_rate(
        lambda n: simulate(rules, seats=seats, bots=[bot], seed=1, rounds=n, **chosen),
        rounds,
    )


def batch_rate(name: str, seats: int, bot: str, rounds: int) -> float | None:
    """The batch engine's rate, or None where it does not apply (or does not exist)."""
    rules = load_rules(name)
    if why_not is None or why_not(compiled_rules(rules), seats, [bot] * seats) is not None:
        return None
    return rounds_per_second(name, seats, bot, rounds, "batch")


def reference() -> ModuleType | None:
    """The reference round's module, if the file is there."""
    if not REFERENCE.is_file():
        return None
    spec = importlib.util.spec_from_file_location("bitmask_koikoi", REFERENCE)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per scalar run")
    parser.add_argument("--batch-rounds", type=int, default=50000, help="rounds per batch run")
    args = parser.parse_args()
    print(
        f"{'file':30} {'seats':>5} {'random':>10} {'greedy':>10} {'batch rnd':>10} "
        f"{'batch grd':>10}   (full rounds/s, one core)"
    )
    for name, seats in FILES:
        r = rounds_per_second(name, seats, "random", args.rounds, "scalar")
        g = rounds_per_second(name, seats, "greedy", args.rounds, "scalar")
        br = batch_rate(name, seats, "random", args.batch_rounds)
        bg = batch_rate(name, seats, "greedy", args.batch_rounds)
        cells = [f"{v:10.0f}" if v is not None else f"{'-':>10}" for v in (r, g, br, bg)]
        print(f"{name:30} {seats:5} {' '.join(cells)}")
    ref = reference()
    if ref is not None:
        r = best_rate(lambda n: ref.simulate(n, seed=1), args.rounds)
        g = best_rate(lambda n: ref.simulate(n, seed=1, greedy=[True, True]), args.rounds)
        print(f"{'reference':30} {2:5} {r:10.0f} {g:10.0f}")


if __name__ == "__main__":
    main()
