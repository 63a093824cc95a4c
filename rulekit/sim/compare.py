"""Comparing variants: every variant plays the same deals with the same bots (common random
numbers), and each figure is reported per variant and as a paired difference against the first,
with a 95% confidence interval and a significance flag.

Per-round figures (net by seat position, teyaku, turns, how the round ended, decisiveness) are
paired round by round. Figures of the whole run (fairness, spread) get their intervals from
batch means: the rounds are split into BATCHES groups by their number.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.engine.ledger import BANK, Payment
from rulekit.engine.round import Round, RoundResult
from rulekit.engine.tables import CompiledRules
from rulekit.errors import UsageError
from rulekit.sim.simulate import play_round
from rulekit.sim.tally import Z95

BATCHES = 20
CHUNK = 200
PER_ROUND = (
    "teyaku",
    "turns",
    "by_yaku",
    "by_count",
    "decisiveness",
    "swing",
    "continued",
    "paid_off",
)


@dataclass
class Moments:
    """Sum and sum of squares of a figure, to give its mean and confidence interval."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, o: Moments) -> None:
        self.n += o.n
        self.total += o.total
        self.squares += o.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        return math.sqrt(max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1)))

    @property
    def ci95(self) -> float:
        return Z95 * self.sd / math.sqrt(self.n) if self.n >= 2 else math.nan

    def report(self) -> dict[str, Any]:
        ci = self.ci95
        return {
            "mean": self.mean,
            "ci95": None if math.isnan(ci) else ci,
            "significant": bool(self.n >= 2 and abs(self.mean) > ci),
        }


@dataclass
class VariantTally:
    seats: int
    rounds: int = 0
    voids: int = 0
    position: list[Moments] = field(default_factory=list)  # net by seat position, 0 = dealer
    figures: dict[str, Moments] = field(default_factory=dict)
    batch_position: list[list[Moments]] = field(default_factory=list)
    ended: Counter[str] = field(default_factory=Counter)
    teyaku: Counter[str] = field(default_factory=Counter)
    teyaku_paid: dict[str, float] = field(default_factory=dict)
    yaku: Counter[str] = field(default_factory=Counter)
    yaku_paid: dict[str, float] = field(default_factory=dict)
    histogram: Counter[int] = field(default_factory=Counter)  # net per seat and round

    def __post_init__(self) -> None:
        self.position = self.position or [Moments() for _ in range(self.seats)]
        self.figures = self.figures or {k: Moments() for k in PER_ROUND}
        self.batch_position = self.batch_position or [
            [Moments() for _ in range(self.seats)] for _ in range(BATCHES)
        ]

    def merge(self, o: VariantTally) -> None:
        self.rounds += o.rounds
        self.voids += o.voids
        for a, b in zip(self.position, o.position, strict=True):
            a.merge(b)
        for k, m in o.figures.items():
            self.figures[k].merge(m)
        for batch, other in zip(self.batch_position, o.batch_position, strict=True):
            for a, b in zip(batch, other, strict=True):
                a.merge(b)
        for c in ("ended", "teyaku", "yaku", "histogram"):
            getattr(self, c).update(getattr(o, c))
        for d in ("teyaku_paid", "yaku_paid"):
            mine = getattr(self, d)
            for k, v in getattr(o, d).items():
                mine[k] = mine.get(k, 0.0) + v


def round_figures(result: RoundResult) -> dict[str, float]:
    """The per-round figures that are paired across variants."""
    payments = [float(p.amount) for p in result.ledger]
    total = sum(payments)
    return {
        "teyaku": 1.0 if result.teyaku else 0.0,
        "turns": float(result.turns),
        "by_yaku": 1.0 if result.ended_by == "yaku" else 0.0,
        "by_count": 1.0 if result.ended_by == "count" else 0.0,
        "decisiveness": max(payments) / total if total else 0.0,
        "swing": sum(abs(float(v)) for v in result.net) / max(1, len(result.net)),
        "continued": float(result.continued),
        "paid_off": float(result.continued_paid_off),
    }


def _paid(ledger: list[Payment], reasons: tuple[str, ...]) -> dict[str, float]:
    """What was paid for each named teyaku or yaku (an entry for several is shared evenly)."""
    out: dict[str, float] = {}
    for p in ledger:
        if p.reason in reasons and p.detail and p.payee != BANK:
            names = [n.strip() for n in p.detail.split(",")]
            for n in names:
                out[n] = out.get(n, 0.0) + float(p.amount) / len(names)
    return out


@dataclass(frozen=True)
class ComparePlan:
    variants: tuple[ir.Ruleset, ...]
    seats: int
    bots: tuple[str, ...]
    seed: int
    rounds: int


@dataclass
class ComparePart:
    """A slice of the rounds: each variant's tally, and the paired differences."""

    tallies: list[VariantTally]
    diffs: list[dict[str, Moments]]  # for variants 1.., against variant 0

    def merge(self, o: ComparePart) -> None:
        for tally, other in zip(self.tallies, o.tallies, strict=True):
            tally.merge(other)
        for mine, theirs in zip(self.diffs, o.diffs, strict=True):
            for k, m in theirs.items():
                mine.setdefault(k, Moments()).merge(m)


def _play(
    c: CompiledRules, plan: ComparePlan, i: int, agents: list[Any]
) -> tuple[RoundResult, int]:
    voids = 0
    deal_no: int | str = i
    while True:
        for s, a in enumerate(agents):
            a.start(f"{plan.seed}:{i}:{s}")
        rnd = Round(c, plan.seats, i % plan.seats, seed=plan.seed, deal_no=deal_no, round_no=i)
        result = play_round(rnd, agents)
        if not result.void:
            return result, voids
        voids += 1
        deal_no = f"{i}.{voids}"


def run_part(plan: ComparePlan, start: int, stop: int) -> ComparePart:
    compiled = [CompiledRules(r) for r in plan.variants]
    agents = [make_agent(plan.bots[s]) for s in range(plan.seats)]
    part = ComparePart([VariantTally(plan.seats) for _ in compiled], [{} for _ in compiled[1:]])
    n = plan.seats
    for i in range(start, stop):
        figures = []
        for v, c in enumerate(compiled):
            result, voids = _play(c, plan, i, agents)
            t = part.tallies[v]
            t.rounds += 1
            t.voids += voids
            dealer = result.dealer
            by_position = [float(result.net[(dealer + k) % n]) for k in range(n)]
            for pos, x in enumerate(by_position):
                t.position[pos].add(x)
                t.batch_position[i % BATCHES][pos].add(x)
            for amount in result.net:
                t.histogram[round(float(amount))] += 1
            f = round_figures(result)
            for key, value in f.items():
                t.figures[key].add(value)
            t.ended[result.ended_by] += 1
            for names in result.teyaku.values():
                t.teyaku.update(names)
            for names in result.yaku.values():
                t.yaku.update(names)
            for name, paid in _paid(result.ledger, ("teyaku",)).items():
                t.teyaku_paid[name] = t.teyaku_paid.get(name, 0.0) + paid
            for name, paid in _paid(
                result.ledger, ("yaku", "special", "penalty", "liability")
            ).items():
                t.yaku_paid[name] = t.yaku_paid.get(name, 0.0) + paid
            figures.append((by_position, f))
        base_position, base = figures[0]
        for v in range(1, len(compiled)):
            position, f = figures[v]
            d = part.diffs[v - 1]
            for pos in range(n):
                d.setdefault(f"position {pos}", Moments()).add(position[pos] - base_position[pos])
            for key in PER_ROUND:
                d.setdefault(key, Moments()).add(f[key] - base[key])
    return part


def _chunks(count: int) -> Iterator[tuple[int, int]]:
    for a in range(0, count, CHUNK):
        yield a, min(count, a + CHUNK)


def _worker(args: tuple[ComparePlan, int, int]) -> ComparePart:
    return run_part(*args)


def fairness(positions: list[Moments]) -> float:
    """How far the seats' mean results are from equal: the best position's mean minus the
    worst's (0 is perfectly fair)."""
    means = [m.mean for m in positions]
    return max(means) - min(means) if means else 0.0


def spread(positions: list[Moments]) -> float:
    """How swingy a round is: the standard deviation of a seat's net, averaged over seats."""
    return sum(m.sd for m in positions) / len(positions) if positions else 0.0


def batch_stat(batches: list[list[Moments]], stat: Callable[[list[Moments]], float]) -> Moments:
    out = Moments()
    for b in batches:
        if all(m.n for m in b):
            out.add(stat(b))
    return out


def compare(
    variants: list[ir.Ruleset],
    names: list[str],
    *,
    rounds: int = 10000,
    seats: int | None = None,
    bots: list[str] | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play `rounds` rounds of every variant on the same deals; the report as one dict."""
    if len(variants) < 2:
        raise UsageError("compare needs two variants or more")
    seats = seats or max(v.seats.min for v in variants)
    for v, name in zip(variants, names, strict=True):
        if not v.seats.min <= seats <= v.seats.max:
            raise UsageError(
                f"{name} ({v.title}) cannot seat {seats} players", hint="choose one with --seats"
            )
    if rounds < 2:
        raise UsageError("compare needs at least 2 rounds")
    chosen = bots or ["greedy"]
    for b in chosen:
        make_agent(b)
    plan = ComparePlan(
        tuple(variants), seats, tuple(chosen[s % len(chosen)] for s in range(seats)), seed, rounds
    )
    work = [(plan, a, b) for a, b in _chunks(rounds)]
    started = time.perf_counter()
    total = ComparePart([VariantTally(seats) for _ in variants], [{} for _ in variants[1:]])
    done = 0
    if backend == "dask":
        from rulekit.sim.backends import dask_map

        parts = dask_map(_worker, work, scheduler)
    elif jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
        parts = pool.map(_worker, work)
    else:
        parts = (run_part(*w) for w in work)
    for (_, first, last), part in zip(work, parts, strict=True):
        total.merge(part)
        done += last - first
        if progress:
            progress(done, rounds)
    if backend != "dask" and jobs > 1:
        pool.shutdown()
    return _report(total, plan, names, time.perf_counter() - started)


def _named(
    counts: Counter[str], paid: dict[str, float], rounds: int
) -> dict[str, dict[str, float]]:
    return {
        name: {"count": n, "per_round": n / rounds, "average_payment": paid.get(name, 0.0) / n}
        for name, n in counts.most_common()
    }


def _report(
    total: ComparePart, plan: ComparePlan, names: list[str], seconds: float
) -> dict[str, Any]:
    variants = []
    for v, t in enumerate(total.tallies):
        rules = plan.variants[v]
        continued = t.figures["continued"].total
        variants.append(
            {
                "rules": names[v],
                "title": rules.title,
                "rounds": t.rounds,
                "voids": t.voids,
                "position": [
                    {"position": k, **m.report(), "sd": m.sd} for k, m in enumerate(t.position)
                ],
                "spread": {
                    "value": spread(t.position),
                    **_ci(batch_stat(t.batch_position, spread)),
                },
                "fairness": {
                    "value": fairness(t.position),
                    **_ci(batch_stat(t.batch_position, fairness)),
                },
                "decisiveness": t.figures["decisiveness"].report(),
                "ended_by": {k: n / t.rounds for k, n in t.ended.most_common()},
                "rounds_with_teyaku": t.figures["teyaku"].mean,
                "turns": t.figures["turns"].mean,
                "continuation": {
                    "continued": int(continued),
                    "per_round": continued / t.rounds,
                    "paid_off": int(t.figures["paid_off"].total),
                    "paid_off_rate": t.figures["paid_off"].total / continued if continued else None,
                },
                "teyaku": _named(t.teyaku, t.teyaku_paid, t.rounds),
                "yaku": _named(t.yaku, t.yaku_paid, t.rounds),
                "histogram": {str(k): n for k, n in sorted(t.histogram.items())},
            }
        )
    differences = []
    for v, d in enumerate(total.diffs, start=1):
        a, b = total.tallies[v], total.tallies[0]
        composite = {
            "fairness": _diff(
                batch_stat(a.batch_position, fairness), batch_stat(b.batch_position, fairness)
            ),
            "spread": _diff(
                batch_stat(a.batch_position, spread), batch_stat(b.batch_position, spread)
            ),
        }
        differences.append(
            {
                "rules": names[v],
                "against": names[0],
                "figures": {k: m.report() for k, m in d.items()},
                **composite,
            }
        )
    return {
        "rounds": plan.rounds,
        "seats": plan.seats,
        "bots": list(plan.bots),
        "seed": plan.seed,
        "seconds": round(seconds, 3),
        "variants": variants,
        "differences": differences,
    }


def _ci(m: Moments) -> dict[str, Any]:
    ci = m.ci95
    return {"ci95": None if math.isnan(ci) else ci}


def _diff(a: Moments, b: Moments) -> dict[str, Any]:
    """The difference of two batch-means figures (batches are independent across variants'
    figures only approximately: the deals are shared, which makes this interval conservative)."""
    mean = a.mean - b.mean
    if a.n < 2 or b.n < 2:
        return {"mean": mean, "ci95": None, "significant": False}
    ci = Z95 * math.sqrt(a.sd**2 / a.n + b.sd**2 / b.n)
    return {"mean": mean, "ci95": ci, "significant": abs(mean) > ci}
