"""How strong is the search bot? It plays against greedy and against random bots.

    python benchmarks/bench_strength.py [--rounds 2000] [--rollouts 400] [--think-ms 190] [--jobs 2]

Each deal is played once with the search bot in every seat in turn (the other seats all
greedy, or all random): the same deals both ways. A round's figure for the search bot is its
result minus the average of the others' (for zero-sum games this is proportional to its net);
the figure per deal is the average over the rotations, and the 95% confidence interval is over
deals. Also reported: the search bot's mean net score per round, and its time per decision.
A void deal is redealt (rulekit.engine.playout.play_deal), as in `rulekit simulate`.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

from rulekit.agents import make_agent
from rulekit.agents.search import SearchAgent, outcome
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from rulekit.sim.tally import Moments

GAMES = [("hachihachi/fudawiki", 3), ("koikoi/sloper", 2), ("sakura/hawaii", 3)]


class TimedSearch(SearchAgent):
    """The search bot, timing each decision it makes."""

    def __init__(self, seed: str, rollouts: int, think_ms: float) -> None:
        super().__init__(seed, rollouts=rollouts, think_ms=think_ms)
        self.times: list[float] = []

    def act(self, view: PlayerView) -> int:
        start = time.perf_counter()
        action = super().act(view)
        self.times.append(time.perf_counter() - start)
        return action


@lru_cache(maxsize=8)
def compiled(name: str) -> CompiledRules:
    """Loaded and compiled once per process, not once per deal."""
    return CompiledRules(load_rules(name))


def rotate(args: tuple[str, int, str, int, int, float]) -> tuple[float, float, list[float]]:
    """One deal, the search bot in each seat in turn: (advantage, search net, decision times)."""
    name, seats, opponent, deal, rollouts, think_ms = args
    c = compiled(name)
    advantages, nets, times = [], [], []
    for k in range(seats):
        agents = [make_agent(opponent) for _ in range(seats)]
        search = TimedSearch("", rollouts, think_ms)  # play_deal seeds every bot per deal
        agents[k] = search
        rnd, result, _ = play_deal(c, seats, deal, agents, seed="strength")
        advantages.append(outcome(rnd, k))
        nets.append(float(result.net[k]))
        times.extend(search.times)
    return statistics.mean(advantages), statistics.mean(nets), times


def _moments(values: list[float]) -> Moments:
    m = Moments()
    for x in values:
        m.add(x)
    return m


def measure(
    name: str, seats: int, opponent: str, rounds: int, rollouts: int, think_ms: float, jobs: int
) -> dict[str, object]:
    deals = math.ceil(rounds / seats)
    work = [(name, seats, opponent, d, rollouts, think_ms) for d in range(deals)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(rotate, work, chunksize=4))
    advantage = _moments([r[0] for r in results])
    net = _moments([r[1] for r in results])
    times = [t for r in results for t in r[2]]
    return {
        "game": name,
        "seats": seats,
        "opponents": opponent,
        "rounds": deals * seats,
        "advantage": advantage.mean,
        "advantage_ci95": advantage.ci95,
        "net": net.mean,
        "net_ci95": net.ci95,
        "ms_per_decision": 1000 * statistics.mean(times),
        "ms_per_decision_max": 1000 * max(times),
        "seconds": time.perf_counter() - started,
    }


def _plus_minus(mean: object, ci: object) -> str:
    assert isinstance(mean, float)
    return f"{mean:+.2f}" + (f" ± {ci:.2f}" if isinstance(ci, float) else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--rollouts", type=int, default=400)
    parser.add_argument("--think-ms", type=float, default=190, help="the time cap per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    rows = []
    columns = ["game", "seats", "against", "rounds", "search advantage per round"]
    columns += ["search net per round", "ms per decision"]
    print("| " + " | ".join(columns) + " |")
    print("|---|---|---|---|---|---|---|")
    for name, seats in GAMES:
        for opponent in ("greedy", "random"):
            r = measure(name, seats, opponent, args.rounds, args.rollouts, args.think_ms, args.jobs)
            rows.append(r)
            cells = [name, str(seats), opponent, str(r["rounds"])]
            cells.append(_plus_minus(r["advantage"], r["advantage_ci95"]))
            cells.append(_plus_minus(r["net"], r["net_ci95"]))
            cells.append(f"{r['ms_per_decision']:.0f} (max {r['ms_per_decision_max']:.0f})")
            print("| " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
