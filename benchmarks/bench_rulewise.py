"""How fast are the default bots (`rulewise`)? Rounds per CPU second on one core, by game.

    nice -n 10 python benchmarks/bench_rulewise.py --rounds 3000

Each figure is what `rulekit simulate` plays with its default bots: greedy card play, and the
rules' choices (stop or continue, hiki) weighed by short rollouts at the table. The variant's
calibrated fold and swap policy is computed once per process before the clock starts (its
cost is given apart): a long run pays it once. CPU time, so other work on the machine does not
inflate the figures; best of --repeat runs.
"""

from __future__ import annotations

import argparse
import time

from rulekit.agents.calibrate import deal_policy
from rulekit.engine.tables import CompiledRules
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate

# (bundled file, table size)
FILES = [
    ("hachihachi/fudawiki", 3),
    ("hachihachi/fudawiki", 4),
    ("koikoi/sloper", 2),
    ("sakura/hawaii", 3),
    ("sakura/hawaii", 4),
]


def measure(name: str, seats: int, rounds: int, repeat: int) -> tuple[float, float, float]:
    """(calibration CPU seconds, rounds per CPU second, continues per round)."""
    rules = load_rules(name)
    begun = time.process_time()
    deal_policy(CompiledRules(rules), seats)
    calibration = time.process_time() - begun
    best, continued = 0.0, 0.0
    for _ in range(repeat):
        begun = time.process_time()
        report = simulate(rules, seats=seats, seed=1, rounds=rounds)
        best = max(best, rounds / (time.process_time() - begun))
        continued = report["continued"] / rounds
    return calibration, best, continued


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print("| file | seats | rounds/s (one core) | continues per round | calibration (s) |")
    print("|---|---|---|---|---|")
    for name, seats in FILES:
        calibration, speed, continued = measure(name, seats, args.rounds, args.repeat)
        print(f"| {name} | {seats} | {speed:,.0f} | {continued:.3f} | {calibration:.1f} |",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
