"""Comparing variants: every variant plays the same deals with the same bots (common random
numbers), and each figure is reported per variant and as a paired difference against the first,
with a 95% confidence interval and a significance flag.

Per-round figures (net by seat position, teyaku, turns, how the round ended, decisiveness) are
paired round by round. Figures of the whole run (fairness, spread) are reported for the whole
run, with intervals from a delete-one-batch jackknife: the rounds are split into BATCHES groups
by their number, the figure is recomputed with each group left out, and the spread of those
values gives the interval (Student's t with batches - 1 degrees of freedom). A difference of
such figures is jackknifed as a difference, batch by batch: paired, so a variant compared with
itself differs by exactly 0 +- 0.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulekit import ir
from rulekit.agents import DEFAULT_BOT, BotOptions, calibrate, make_agent
from rulekit.engine.playout import play_deal
from rulekit.engine.tables import CompiledRules
from rulekit.errors import UsageError
from rulekit.sim.backends import run_chunks
from rulekit.sim.cache import compiled_rules
from rulekit.sim.columns import (
    BATCHES,
    PER_ROUND,
    Rows,
    VariantTally,
    differences,
    from_deals,
    named_figures,
    part_differences,
    part_tallies,
)
from rulekit.sim.exercise import Counting, count_events, count_readings, exercised
from rulekit.sim.packed import PackedSpan
from rulekit.sim.simulate import MAX_COUNT, Policies, choose_engine, prepare
from rulekit.sim.summary import summary
from rulekit.stats.moments import Moments, t95
from rulekit.stats.significance import ALPHA, METHOD, holm, p_value

__all__ = ["BATCHES", "PER_ROUND", "ComparePlan", "VariantTally", "compare", "jackknife"]

CHUNK = 200  # rounds per part: the parts are added up in order, so a run's floats are the same
SPAN = 5  # parts whose rounds are played and held in columns at once (their arrays stay small)
NAMED = ("teyaku:", "teyaku paid:", "yaku:", "yaku paid:")  # per-entry paired rows, by prefix


@dataclass(frozen=True)
class ComparePlan:
    variants: tuple[ir.Ruleset, ...]
    seats: int
    bots: tuple[str, ...]
    seed: int
    rounds: int
    options: BotOptions = field(default_factory=BotOptions)  # the search bots' budget
    # per variant, the engine that plays it ("batch": rulekit.batch; none given: all scalar)
    engines: tuple[str, ...] = ()
    # per variant, its entries renamed alike from the first variant's: ("yaku", its name, the
    # first's name), so that their paired rows compare the one rule (rulekit.diff.renamed)
    renamed: tuple[tuple[tuple[str, str, str], ...], ...] = ()
    # the bots' pre-play policies, computed once before the run (rulekit.agents.calibrate)
    policies: Policies = ()


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


def run_parts(plan: ComparePlan, start: int, stop: int, chunk: int = CHUNK) -> list[ComparePart]:
    """Rounds start..stop-1 of every variant as parts of `chunk` rounds (the last may end
    short), each summed as a loop adding its rounds in order sums them: a few parts' rounds
    at a time held in columns (rulekit.sim.columns), the batch engine's without an object per
    round."""
    compiled = [compiled_rules(r) for r in plan.variants]
    agents = [Counting(make_agent(plan.bots[s], 0, plan.options)) for s in range(plan.seats)]
    as_first = [
        {(kind, name): first for kind, name, first in renames}
        for renames in plan.renamed or [() for _ in compiled]
    ]
    parts = []
    for a in range(start, stop, chunk * SPAN):
        b = min(stop, a + chunk * SPAN)
        rows = [_rows(plan, v, c, a, b, agents) for v, c in enumerate(compiled)]
        named = [named_figures(r, as_first[v]) for v, r in enumerate(rows)]
        paired = [differences(rows[v], rows[0], named[v], named[0]) for v in range(1, len(rows))]
        tallies = [part_tallies(r, chunk) for r in rows]
        diffs = [part_differences(d, chunk) for d in paired]
        for p in range(len(tallies[0])):
            parts.append(ComparePart([t[p] for t in tallies], [d[p] for d in diffs]))
    return parts


def _rows(
    plan: ComparePlan, v: int, c: CompiledRules, start: int, stop: int, agents: list[Counting]
) -> Rows:
    """Variant v's rounds start..stop-1 in columns: from the batch engine's arrays when it
    plays the variant, the deals it hands over (and every deal of a variant it does not play)
    played by the scalar engine, round by round."""
    if plan.engines and plan.engines[v] == "batch":
        from rulekit.batch.engine import deals, plan_for

        batch = deals(plan_for(c, plan.seats, plan.bots, plan.seed), start, stop)
        rows = from_deals(batch)
        scalar = np.flatnonzero(batch.handed).tolist()
    else:
        rows = Rows.empty(start, stop - start, plan.seats)
        scalar = list(range(stop - start))
    played = []
    for k in scalar:
        choices: Counter[str] = Counter()
        for agent in agents:
            agent.counts = choices
        rnd, result, voids = play_deal(c, plan.seats, start + k, agents, seed=plan.seed)
        count_readings(c, rnd.captured, choices)
        count_events(rnd, choices)
        played.append((k, result, voids, choices))
    rows.put(played)
    return rows


def _worker(plan: ComparePlan, start: int, stop: int) -> PackedSpan:
    """A span of the run, in whichever process plays it: its parts of CHUNK rounds, each as a
    one-process run makes it (the span starts at a multiple of CHUNK), packed to be added in
    order (rulekit.sim.packed)."""
    calibrate.remember(plan.policies)
    return PackedSpan.of(run_parts(plan, start, stop))


def fairness(positions: list[Moments]) -> float:
    """How far the seats' mean results are from equal: the best position's mean minus the
    worst's (0 is perfectly fair)."""
    means = [m.mean for m in positions]
    return max(means) - min(means) if means else 0.0


def spread(positions: list[Moments]) -> float:
    """How swingy a round is: the standard deviation of a seat's net, averaged over seats."""
    return sum(m.sd for m in positions) / len(positions) if positions else 0.0


Stat = Callable[[list[Moments]], float]


def _merged(
    batches: list[list[Moments]], seats: int, leave_out: int | None = None
) -> list[Moments]:
    out = [Moments() for _ in range(seats)]
    for j, batch in enumerate(batches):
        if j != leave_out:
            for total, m in zip(out, batch, strict=True):
                total.merge(m)
    return out


def jackknife(
    stat: Stat, a: list[list[Moments]], b: list[list[Moments]] | None = None
) -> dict[str, Any]:
    """stat of the whole run (or stat(a) - stat(b), paired batch by batch) with the half-width
    of its 95% interval from the delete-one-batch jackknife, centred on that value. Batches
    without rounds (a run shorter than BATCHES) are left out; fewer than two: no interval."""
    seats = len(a[0])
    used = [j for j, batch in enumerate(a) if all(m.n for m in batch)]

    def value(leave_out: int | None) -> float:
        x = stat(_merged(a, seats, leave_out))
        return x - stat(_merged(b, seats, leave_out)) if b is not None else x

    whole = value(None)
    k = len(used)
    if k < 2:
        return {"mean": whole, "ci95": None, "significant": False, "p_value": 1.0}
    left = [value(j) for j in used]
    centre = sum(left) / k
    se = math.sqrt((k - 1) / k * sum((x - centre) ** 2 for x in left))
    ci = t95(k - 1) * se
    return {
        "mean": whole,
        "ci95": ci,
        "significant": abs(whole) > ci,
        "p_value": p_value(whole, ci, k - 1),
    }


def table_size(variants: list[ir.Ruleset], names: list[str], seats: int | None) -> int:
    """The table size of a comparison: `seats` when every variant seats that many, else (not
    given) the most of the variants' minimums; a UsageError saying what suits each. Checked
    before any round is played (the page of `rulekit serve` checks it before it starts)."""
    low = max(v.seats.min for v in variants)
    high = min(v.seats.max for v in variants)
    sizes = "; ".join(
        f"{name} seats {_allowed(v.seats)}" for v, name in zip(variants, names, strict=True)
    )
    if seats is None and low > high:
        raise UsageError(f"no table size suits every variant: {sizes}")
    seats = low if seats is None else seats
    for v, name in zip(variants, names, strict=True):
        refusal = v.seats.refusal(v.title, seats)
        if refusal:
            if low > high:
                hint = f"no table size suits every variant: {sizes}"
            elif low == high:
                hint = f"the variants all seat {low} players: use --seats {low}"
            else:
                hint = f"the variants all seat {low} to {high} players: choose --seats among them"
            raise UsageError(f"{name} cannot seat {seats} players: {refusal}", hint=hint)
    return seats


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
    bot_options: BotOptions | None = None,
    engine: str = "auto",
    notice: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play `rounds` rounds of every variant on the same deals; the report as one dict.
    `engine` and `notice` as simulate's: "auto" plays each variant the batch engine serves
    with it."""
    if len(variants) < 2:
        raise UsageError("compare needs two variants or more")
    seats = table_size(variants, names, seats)
    if rounds < 2:
        raise UsageError("compare needs at least 2 rounds")
    if rounds > MAX_COUNT:
        raise UsageError(f"at most {MAX_COUNT:,} rounds: more would not end")
    chosen = bots or [DEFAULT_BOT]
    for b in chosen:
        make_agent(b)
    options = bot_options or BotOptions()
    options.check()
    bots_of_seats = tuple(chosen[s % len(chosen)] for s in range(seats))
    work = rounds * len(variants)  # the rounds the batch engine would play
    engines = [
        choose_engine(engine, r, seats, bots_of_seats, seed, False, None, work) for r in variants
    ]
    used = [e for e, _ in engines]
    compiled = [compiled_rules(r) for r in variants]
    started = time.perf_counter()  # the policies and the kernel's loading are the run's work
    policies, compiling = prepare(compiled, used, seats, bots_of_seats, seed, notice)
    plan = ComparePlan(
        tuple(variants),
        seats,
        bots_of_seats,
        seed,
        rounds,
        options,
        tuple(used),
        tuple(_renames(variants[0], v) for v in variants),
        policies,
    )
    total = ComparePart([VariantTally(seats) for _ in variants], [{} for _ in variants[1:]])
    spans = run_chunks(
        _worker,
        plan,
        rounds,
        chunk=CHUNK,
        fast=all(e == "batch" for e in used),
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
    )
    for packed in spans:
        packed.merge_into(total)
    report = _report(total, plan, names, time.perf_counter() - started - compiling)
    for row, (played_by, why) in zip(report["variants"], engines, strict=True):
        row["engine"] = played_by
        row["engine_note"] = why
    report["summary"] = summary(report)
    return report


def _renames(first: ir.Ruleset, other: ir.Ruleset) -> tuple[tuple[str, str, str], ...]:
    """The teyaku and yaku `other` names differently from `first` with the same condition:
    (kind, other's name, first's name)."""
    from rulekit.diff import renamed

    return tuple(
        (kind, now.name, was.name)
        for kind in ("teyaku", "yaku")
        for was, now in renamed(first, other, kind)
    )


def _allowed_range(low: int, high: int) -> str:
    return f"{low} players" if low == high else f"{low} to {high} players"


def _allowed(seats: ir.Seats) -> str:
    return _allowed_range(seats.min, seats.max)


def _named(
    counts: Counter[str], paid: dict[str, float], rounds: int, table: ir.YakuTable | None
) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "count": n,
            "per_round": n / rounds,
            "average_payment": paid.get(name, 0.0) / n,
            "label": _label_of(table, name),
        }
        for name, n in counts.most_common()
    }


def _label_of(table: ir.YakuTable | None, name: str) -> str:
    """An entry's label from the rule file (its name when the table does not have it)."""
    return next((e.label for e in table.entries if e.name == name), name) if table else name


def _tested(m: Moments, rounds: int | None = None) -> dict[str, Any]:
    """A paired difference with its p-value; `rounds`: the number of paired rounds when only
    the non-zero differences were added."""
    if rounds is not None:
        m = Moments(rounds, m.total, m.squares)
    return {**m.report(), "p_value": p_value(m.mean, m.ci95, m.n - 1)}


def _named_differences(
    d: dict[str, Moments], kind: str, labels: dict[str, str], rounds: int
) -> dict[str, dict[str, Any]]:
    """Per teyaku or yaku: the paired difference in how often it is made, and in what is paid
    for it, per round."""
    names = sorted({k.split(":", 1)[1] for k in d if k.startswith((f"{kind}:", f"{kind} paid:"))})
    return {
        name: {
            "label": labels.get(name, name),
            "per_round": _tested(d.get(f"{kind}:{name}", Moments()), rounds),
            "paid_per_round": _tested(d.get(f"{kind} paid:{name}", Moments()), rounds),
        }
        for name in names
    }


def _correct(difference: dict[str, Any]) -> None:
    """Holm's correction over every figure tested in one paired comparison: each gets its
    adjusted p-value and a corrected verdict, and the comparison notes the family (figures
    identical in every round, or with too few rounds for an interval, are not tested)."""
    tested = [*difference["figures"].values(), difference["fairness"], difference["spread"]]
    for kind in ("teyaku", "yaku"):
        for row in difference[kind].values():
            tested += [row["per_round"], row["paid_per_round"]]
    for entry in tested:  # a figure equal in every paired round, or untestable: not a test
        entry["p_adjusted"] = 1.0
        entry["significant_corrected"] = False
    family = [t for t in tested if t["ci95"] is not None and (t["ci95"] > 0 or t["mean"] != 0)]
    for entry, adjusted in zip(family, holm([t["p_value"] for t in family]), strict=True):
        entry["p_adjusted"] = adjusted
        entry["significant_corrected"] = adjusted < ALPHA
    difference["correction"] = {
        "method": METHOD,
        "alpha": ALPHA,
        "figures": len(family),
        "identical": len(tested) - len(family),
    }


def _changes(a: ir.Ruleset, b: ir.Ruleset) -> dict[str, Any]:
    """What differs in the rules, from rulekit.diff, in words: an entry renamed with the same
    condition is one rule renamed; and how many rules change (names are not rules)."""
    from rulekit.diff import diff, rules_changed

    changes = diff(a, b, pair_renamed=True)
    return {
        "changes": [
            {
                "section": c.section,
                "what": c.what,
                "before": c.before,
                "after": c.after,
                "text": c.sentence(),
                "rule": c.rule,
                "naming": c.naming,
            }
            for c in changes
        ],
        "rules_changed": rules_changed(changes),
    }


def _renamed_rows(plan: ComparePlan, v: int) -> list[dict[str, str]]:
    """Variant v's entries renamed alike from the first variant's, with both labels."""
    first, other = plan.variants[0], plan.variants[v]
    return [
        {
            "kind": kind,
            "name": was,
            "label": _label_of(getattr(first, kind), was),
            "as": now,
            "as_label": _label_of(getattr(other, kind), now),
        }
        for kind, now, was in plan.renamed[v]
    ]


def _report(
    total: ComparePart, plan: ComparePlan, names: list[str], seconds: float
) -> dict[str, Any]:
    variants: list[dict[str, Any]] = []
    for v, t in enumerate(total.tallies):
        rules = plan.variants[v]
        continued = t.figures["continued"].total
        variants.append(
            {
                "rules": names[v],
                "title": rules.title,
                "seats_allowed": [rules.seats.min, rules.seats.max],
                "game_length": {"rounds": rules.length.rounds, "target": rules.length.target},
                "rounds": t.rounds,
                "voids": t.voids,
                "position": [
                    {"position": k, **m.report(), "sd": m.sd} for k, m in enumerate(t.position)
                ],
                "spread": _whole_run(spread, t),
                "fairness": _whole_run(fairness, t),
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
                "teyaku": _named(t.teyaku, t.teyaku_paid, t.rounds, rules.teyaku),
                "yaku": _named(t.yaku, t.yaku_paid, t.rounds, rules.yaku),
                "histogram": {str(k): n for k, n in sorted(t.histogram.items())},
                "choices": dict(sorted(t.choices.items())),
                "figures": {k: m.report() for k, m in t.figures.items()},  # per-round, with CIs
            }
        )
    differences = []
    for v, d in enumerate(total.diffs, start=1):
        a, b = total.tallies[v], total.tallies[0]
        composite = {
            "fairness": jackknife(fairness, a.batch_position, b.batch_position),
            "spread": jackknife(spread, a.batch_position, b.batch_position),
        }
        labels = {kind: _labels(variants, kind) for kind in ("teyaku", "yaku")}
        renamed = _renamed_rows(plan, v) if plan.renamed else []
        for r in renamed:  # one row for the rule, under the first variant's name
            labels[r["kind"]][r["name"]] = f"{r['label']} / {r['as_label']}"
        paired = d.get("turns", Moments()).n
        difference: dict[str, Any] = {
            "rules": names[v],
            "against": names[0],
            "figures": {k: _tested(m) for k, m in d.items() if not k.startswith(NAMED)},
            **composite,
            "teyaku": _named_differences(d, "teyaku", labels["teyaku"], paired),
            "yaku": _named_differences(d, "yaku", labels["yaku"], paired),
            **_changes(plan.variants[0], plan.variants[v]),
            "renamed": renamed,
            "mechanics": exercised(
                plan.variants[0], plan.variants[v], total.tallies[0].choices, a.choices
            ),
        }
        _correct(difference)
        differences.append(difference)
    return {
        "rounds": plan.rounds,
        "seats": plan.seats,
        "bots": list(plan.bots),
        "seed": plan.seed,
        "seconds": round(seconds, 3),
        "variants": variants,
        "differences": differences,
    }


def _labels(variants: list[dict[str, Any]], kind: str) -> dict[str, str]:
    """Each entry's label; one the variants label differently, by each of its labels."""
    said: dict[str, dict[str, None]] = {}
    for v in variants:
        for name, e in v[kind].items():
            said.setdefault(name, {})[e["label"]] = None
    return {name: " / ".join(labels) for name, labels in said.items()}


def _whole_run(stat: Stat, t: VariantTally) -> dict[str, Any]:
    """A figure of the whole run: its value and the jackknife interval around it."""
    j = jackknife(stat, t.batch_position)
    return {"value": j["mean"], "ci95": j["ci95"]}
