"""How strong are the bots? Each pairing plays the same deals both ways, in all three games.

    nice -n 10 python benchmarks/bench_strength.py --rollouts 100 --seed 1 --jobs 2

Pairings (bot against opponents): strong against search (at the same rollout budget), search
against greedy, greedy against random (others with --pairings, e.g. strong:greedy). Each deal
is played once with the bot in every seat in turn (the other seats all the opponent): the same
deals both ways. A round's figure for the bot is its result minus the average of the others'
(for zero-sum games this is proportional to its net); the figure per deal is the average over
the rotations, and the 95% confidence interval is over deals. Also reported: the bot's mean net
per round and its CPU time per decision (one core: other work on the machine does not inflate
it). The search bots' budget is a number of rollouts (no time cap unless --think-ms is given),
so a seed gives the same table on any machine, timings apart. A void deal is redealt
(rulekit.engine.playout.play_deal), as in `rulekit simulate`.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from typing import Any

from rulekit.agents import Agent, BotOptions, make_agent
from rulekit.agents.rollouts import outcome
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.engine.view import PlayerView
from rulekit.lang import load_rules
from rulekit.stats.moments import Moments

# (rule file, seats, rounds by default): the rounds follow each game's spread per deal, so that
# a difference of a few points per round shows
GAMES = [("hachihachi/fudawiki", 3, 1800), ("koikoi/sloper", 2, 5000), ("sakura/hawaii", 3, 1200)]
PAIRINGS = [("strong", "search"), ("search", "greedy"), ("greedy", "random")]


class Timed:
    """A bot, timing each decision it makes."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.times: list[float] = []

    def start(self, seed: int | str) -> None:
        self.inner.start(seed)

    def act(self, view: PlayerView) -> int:
        begun = time.process_time()
        action = self.inner.act(view)
        self.times.append(time.process_time() - begun)
        return action


@lru_cache(maxsize=8)
def compiled(name: str) -> CompiledRules:
    """Loaded and compiled once per process, not once per deal."""
    return CompiledRules(load_rules(name))


# (rules, seats, opponent, deal, rollouts, think ms or 0 for none[, bot[, seed]]): the bot is
# the search bot unless named
Work = tuple[Any, ...]


def rotate(args: Work) -> tuple[float, float, list[float]]:
    """One deal, the bot in each seat in turn: (advantage, its net, its decision times)."""
    name, seats, opponent, deal, rollouts, think_ms, *rest = args
    bot = rest[0] if rest else "search"
    seed = rest[1] if len(rest) > 1 else 0
    options = BotOptions(rollouts, think_ms or None)
    c = compiled(name)
    advantages, nets, times = [], [], []
    for k in range(seats):
        agents: list[Agent | Timed] = [make_agent(opponent, 0, options) for _ in range(seats)]
        timed = Timed(make_agent(bot, 0, options))  # play_deal seeds every bot per deal
        agents[k] = timed
        rnd, result, _ = play_deal(c, seats, deal, agents, seed=f"strength:{seed}")
        advantages.append(outcome(rnd, k))
        nets.append(float(result.net[k]))
        times.extend(timed.times)
    return statistics.mean(advantages), statistics.mean(nets), times


def _moments(values: list[float]) -> Moments:
    m = Moments()
    for x in values:
        m.add(x)
    return m


def measure(
    name: str, seats: int, bot: str, opponent: str, rounds: int, options: BotOptions, seed: int,
    jobs: int,
) -> dict[str, object]:  # fmt: skip
    deals = math.ceil(rounds / seats)
    work = [
        (name, seats, opponent, d, options.rollouts, options.think_ms or 0, bot, seed)
        for d in range(deals)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(rotate, work, chunksize=4))
    advantage = _moments([r[0] for r in results])
    net = _moments([r[1] for r in results])
    times = [t for r in results for t in r[2]]
    return {
        "game": name,
        "seats": seats,
        "bot": bot,
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
    parser.add_argument("--rounds", type=int, help="per pairing (default: per game, see GAMES)")
    parser.add_argument("--rollouts", type=int, default=100, help="per decision, both searches")
    parser.add_argument("--think-ms", type=float, help="a time cap per decision (not reproducible)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", help="comma-separated rule files (default: all three)")
    parser.add_argument("--pairings", help="comma-separated bot:opponent (default: PAIRINGS)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    options = BotOptions(args.rollouts, args.think_ms)
    games = [g for g in GAMES if not args.games or g[0] in args.games.split(",")]
    pairings = PAIRINGS
    if args.pairings:
        pairings = [(p.split(":")[0], p.split(":")[1]) for p in args.pairings.split(",")]
    rows = []
    columns = ["game", "seats", "bot", "against", "rounds", "advantage per round"]
    columns += ["net per round", "ms per decision"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for name, seats, rounds in games:
        for bot, opponent in pairings:
            n = args.rounds or rounds
            r = measure(name, seats, bot, opponent, n, options, args.seed, args.jobs)
            rows.append(r)
            cells = [name, str(seats), bot, opponent, str(r["rounds"])]
            cells.append(_plus_minus(r["advantage"], r["advantage_ci95"]))
            cells.append(_plus_minus(r["net"], r["net_ci95"]))
            cells.append(f"{r['ms_per_decision']:.1f} (max {r['ms_per_decision_max']:.0f})")
            print("| " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
