"""Full rounds per second on one core, with random and with greedy bots, for each bundled file.

    python benchmarks/bench_rounds.py [--rounds N]

Each round is what `rulekit simulate` plays: deal, fold phase when more sit than play, teyaku,
every turn with its yaku check, the count and settlement, the tally. One process, one core.
"""

from __future__ import annotations

import argparse
import time

from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate

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


def rounds_per_second(name: str, seats: int, bot: str, rounds: int) -> float:
    rules = load_rules(name)
    simulate(rules, seats=seats, bots=[bot], seed=1, rounds=min(rounds, 200))  # warm up
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        simulate(rules, seats=seats, bots=[bot], seed=1, rounds=rounds)
        best = max(best, rounds / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'file':30} {'seats':>5} {'random':>10} {'greedy':>10}   (full rounds/s, one core)")
    for name, seats in FILES:
        r = rounds_per_second(name, seats, "random", args.rounds)
        g = rounds_per_second(name, seats, "greedy", args.rounds)
        print(f"{name:30} {seats:5} {r:10.0f} {g:10.0f}")


if __name__ == "__main__":
    main()
