"""How strong is the search bot? It plays against greedy and against random bots.

    python benchmarks/bench_strength.py [--rounds 2000] [--rollouts 400] [--think-ms 190] [--jobs 2]

Each deal is played once with the search bot in every seat in turn (the other seats all
greedy, or all random): the same deals both ways. A round's figure for the search bot is its
result minus the average of the others' (for zero-sum games this is proportional to its net);
the figure per deal is the average over the rotations, and the 95% confidence interval is over
deals. Also reported: the search bot's mean net score per round, and its time per decision.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rulekit.agents import make_agent
from rulekit.agents.search import SearchAgent, outcome
from rulekit.engine.round import DONE, Round
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules

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


def play_deal(args: tuple[str, int, str, int, int, float]) -> tuple[float, float, list[float]]:
    """One deal, the search bot in each seat in turn: (advantage, search net, decision times)."""
    name, seats, opponent, deal, rollouts, think_ms = args
    c = CompiledRules(load_rules(name))
    advantages, nets, times = [], [], []
    for k in range(seats):
        agents = [make_agent(opponent, f"{deal}:{s}") for s in range(seats)]
        search = TimedSearch(f"{deal}:{k}", rollouts, think_ms)
        agents[k] = search
        rnd = Round(c, seats, deal % seats, seed="strength", deal_no=deal)
        views = [PlayerView(rnd, s) for s in range(seats)]
        while rnd.phase != DONE:
            rnd.apply(agents[rnd.current].act(views[rnd.current]))
        advantages.append(outcome(rnd, k))
        nets.append(float(rnd.result().net[k]))
        times.extend(search.times)
    return statistics.mean(advantages), statistics.mean(nets), times


def measure(
    name: str, seats: int, opponent: str, rounds: int, rollouts: int, think_ms: float, jobs: int
) -> dict[str, object]:
    deals = math.ceil(rounds / seats)
    work = [(name, seats, opponent, d, rollouts, think_ms) for d in range(deals)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(play_deal, work, chunksize=4))
    advantage = [r[0] for r in results]
    net = [r[1] for r in results]
    times = [t for r in results for t in r[2]]
    ci = 1.96 * statistics.stdev(advantage) / math.sqrt(len(advantage))
    ci_net = 1.96 * statistics.stdev(net) / math.sqrt(len(net))
    return {
        "game": name,
        "seats": seats,
        "opponents": opponent,
        "rounds": deals * seats,
        "advantage": statistics.mean(advantage),
        "advantage_ci95": ci,
        "net": statistics.mean(net),
        "net_ci95": ci_net,
        "ms_per_decision": 1000 * statistics.mean(times),
        "ms_per_decision_max": 1000 * max(times),
        "seconds": time.perf_counter() - started,
    }


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
            cells.append(f"{r['advantage']:+.2f} ± {r['advantage_ci95']:.2f}")
            cells.append(f"{r['net']:+.2f} ± {r['net_ci95']:.2f}")
            cells.append(f"{r['ms_per_decision']:.0f} (max {r['ms_per_decision_max']:.0f})")
            print("| " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
