"""A comparison's rounds in columns: a variant's rounds of a span held in numpy arrays, a row
per round, and what a part of them counts (a VariantTally, and the paired differences between
two variants) summed from those columns.

The batch engine's rounds come as the kernel's arrays (rulekit.batch.engine.deals) and are read
without an object per round; the scalar engine's (a variant the kernel does not play, a deal it
hands over) fill their rows one round at a time. Every float is added as the loop over the
rounds added it before the columns (rulekit.stats.ordered), so a report is the same to the last
bit whichever engine played and however the rounds were held.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from rulekit.engine.payments import BANK, Payment
from rulekit.engine.state import RoundResult
from rulekit.sim.exercise import CHOICES, per_round_choices
from rulekit.stats.moments import Moments
from rulekit.stats.ordered import ordered_sums_by, ordered_sums_in_parts, row_sums

if TYPE_CHECKING:
    from rulekit.batch.engine import Deals, Plan

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

BATCHES = 20  # the groups of rounds (by number) whose figures the jackknife leaves out in turn
PER_ROUND = (
    "teyaku",
    "turns",
    "by_yaku",
    "by_count",
    "decisiveness",
    "swing",
    "continued",
    "paid_off",
    "folds",
    "swaps",
    "hikis",
)
KINDS = ("teyaku", "yaku")
# The ledger's reasons paid for a named teyaku, and for a named yaku.
TEYAKU_PAID = ("teyaku",)
YAKU_PAID = ("yaku", "special", "penalty", "liability")
PAID = {"teyaku": TEYAKU_PAID, "yaku": YAKU_PAID}
ABSENT = float(1 << 62)  # Rows.first where a round did not make the entry


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
    choices: Counter[str] = field(default_factory=Counter)  # rule choices offered and taken

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
        for c in ("ended", "teyaku", "yaku", "histogram", "choices"):
            getattr(self, c).update(getattr(o, c))
        for d in ("teyaku_paid", "yaku_paid"):
            mine = getattr(self, d)
            for k, v in getattr(o, d).items():
                mine[k] = mine.get(k, 0.0) + v


def round_figures(result: RoundResult, choices: Counter[str] | None = None) -> dict[str, float]:
    """The per-round figures that are paired across variants (`choices`: the rule choices
    the bots took in the round), of a round the scalar engine played."""
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
        **per_round_choices(choices or Counter()),
    }


def paid(ledger: list[Payment], reasons: tuple[str, ...]) -> dict[str, float]:
    """What was paid for each named teyaku or yaku (an entry for several is shared evenly)."""
    out: dict[str, float] = {}
    for p in ledger:
        if p.reason in reasons and p.detail and p.payee != BANK:
            names = [n.strip() for n in p.detail.split(",")]
            for n in names:
                out[n] = out.get(n, 0.0) + float(p.amount) / len(names)
    return out


class Named:
    """A float column per name (a teyaku, a yaku, what a payment's detail names) over the
    rounds, and where each was named at all; a name met for the first time gets its column
    then."""

    def __init__(self, rounds: int, names: Sequence[str] = (), fill: float = 0.0) -> None:
        self.names = list(names)
        self.at = {n: i for i, n in enumerate(self.names)}
        self.fill = fill
        self.values: Floats = np.full((rounds, len(self.names)), fill)
        self.named: Bools = np.zeros((rounds, len(self.names)), dtype=np.bool_)

    def column(self, name: str) -> int:
        at = self.at.get(name)
        if at is None:
            at = self.at[name] = len(self.names)
            self.names.append(name)
            rounds = len(self.values)
            self.values = np.concatenate([self.values, np.full((rounds, 1), self.fill)], axis=1)
            self.named = np.concatenate([self.named, np.zeros((rounds, 1), np.bool_)], axis=1)
        return at


@dataclass
class Rows:
    """One variant's rounds start..start+n-1, a row each: what its part's tally and its
    paired differences read."""

    start: int
    seats: int
    voids: Ints  # [round]
    position: Floats  # [round, k]: the net of the seat k places after the dealer
    figures: Floats  # [round, PER_ROUND]
    choices: Ints  # [round, CHOICES]: the rule choices offered and taken
    ended: Ints  # [round]: how it ended, an index in `endings`
    endings: list[str]
    made: dict[str, Named]  # per kind: how often each entry was made (by any seat)
    first: dict[str, Named]  # per kind: where in the round each was first made (the order seen)
    paid: dict[str, Named]  # per kind: what was paid for each name (named: a payment named it)

    @classmethod
    def empty(cls, start: int, rounds: int, seats: int, endings: Sequence[str] = ()) -> Rows:
        z = np.zeros
        return cls(
            start,
            seats,
            z(rounds, dtype=np.int64),
            z((rounds, seats)),
            z((rounds, len(PER_ROUND))),
            z((rounds, len(CHOICES)), dtype=np.int64),
            z(rounds, dtype=np.int64),
            list(endings),
            {k: Named(rounds) for k in KINDS},
            {k: Named(rounds, fill=ABSENT) for k in KINDS},
            {k: Named(rounds) for k in KINDS},
        )

    def __len__(self) -> int:
        return len(self.voids)

    def put(self, played: Sequence[tuple[int, RoundResult, int, Counter[str]]]) -> None:
        """Rounds the scalar engine played, each (row, result, void deals before it, the rule
        choices its bots took) into its row (whatever the row held before): read round by
        round, written column by column."""
        if not played:
            return
        rows = np.array([k for k, _, _, _ in played], dtype=np.int64)
        for named in (*self.made.values(), *self.first.values(), *self.paid.values()):
            named.values[rows] = named.fill
            named.named[rows] = False
        n = self.seats
        self.voids[rows] = [voids for _, _, voids, _ in played]
        self.position[rows] = [
            [float(r.net[(r.dealer + j) % n]) for j in range(n)] for _, r, _, _ in played
        ]
        self.figures[rows] = [
            [figures[key] for key in PER_ROUND]
            for figures in (round_figures(r, choices) for _, r, _, choices in played)
        ]
        self.choices[rows] = [[choices[key] for key in CHOICES] for _, _, _, choices in played]
        for _, r, _, _ in played:
            if r.ended_by not in self.endings:
                self.endings.append(r.ended_by)
        self.ended[rows] = [self.endings.index(r.ended_by) for _, r, _, _ in played]
        for kind in KINDS:
            made: dict[tuple[int, str], float] = {}  # (row, name): how often made
            first: dict[tuple[int, str], float] = {}  # (row, name): where first in the row
            spent: dict[tuple[int, str], float] = {}  # (row, name): what was paid for it
            for k, r, _, _ in played:
                place = 0
                for names in (r.teyaku if kind == "teyaku" else r.yaku).values():
                    for name in names:
                        made[k, name] = made.get((k, name), 0.0) + 1.0
                        first.setdefault((k, name), float(place))
                        place += 1
                for name, amount in paid(r.ledger, PAID[kind]).items():
                    spent[k, name] = amount
            for columns, cells in ((self.made, made), (self.first, first), (self.paid, spent)):
                to = columns[kind]
                at = [(k, to.column(name)) for k, name in cells]
                if at:
                    where = tuple(np.array(at, dtype=np.int64).T)
                    to.values[where] = list(cells.values())
                    to.named[where] = True


def from_deals(d: Deals) -> Rows:
    """The rows of deals the batch engine played, from its columns (a deal it handed to the
    scalar engine left for Rows.put)."""
    from rulekit.batch.engine import CHOICES as KERNEL_CHOICES
    from rulekit.batch.engine import ENDINGS

    plan = d.plan
    n, seats = d.net.shape
    rows = Rows.empty(d.start, n, seats, ENDINGS)
    rows.voids[:] = d.voids
    net = d.net / plan.scale  # each float(Fraction(net, scale)): the quotient, rounded once
    dealer = (d.start + np.arange(n)) % seats
    places = (dealer[:, None] + np.arange(seats)[None, :]) % seats
    rows.position[:] = np.take_along_axis(net, places, axis=1)
    entered = d.ledger[:, :, 0] != -9
    amounts = np.where(entered, d.ledger[:, :, 2] / plan.scale, 0.0)
    total = row_sums(amounts)  # round_figures' sum(payments), in ledger order
    top = np.where(entered, amounts, -np.inf).max(axis=1, initial=-np.inf)
    picked = [KERNEL_CHOICES.index(key) for key in CHOICES]
    rows.choices[:] = d.choices[:, picked]
    taken = dict(zip(CHOICES, rows.choices.T, strict=True))
    figures = {
        "teyaku": (d.teyaku != 0).any(axis=1),
        "turns": d.turns,
        "by_yaku": d.ended == ENDINGS.index("yaku"),
        "by_count": d.ended == ENDINGS.index("count"),
        "decisiveness": np.divide(top, total, out=np.zeros(n), where=total != 0),
        "swing": row_sums(np.abs(net)) / max(1, seats),
        "continued": d.continued,
        "paid_off": d.paid_off,
        "folds": taken["fold"],
        "swaps": taken["swap"],
        "hikis": taken["hiki"],
    }
    for j, key in enumerate(PER_ROUND):
        rows.figures[:, j] = figures[key]
    rows.ended[:] = d.ended
    _made_from_deals(rows, d)
    _paid_from_deals(rows, d, amounts)
    return rows


def _made_from_deals(rows: Rows, d: Deals) -> None:
    """How often each teyaku and yaku was made in each round, and where in the round first:
    seat by seat, entry by entry, as the scalar engine's RoundResult lists them."""
    plan = d.plan
    teyaku_names = plan.teyaku_names
    bits = (d.teyaku[:, :, None] >> np.arange(len(teyaku_names))) & 1
    for kind, names, made in (("teyaku", teyaku_names, bits), ("yaku", plan.yaku_names, d.yaku)):
        seats, entries = made.shape[1:]
        place = np.arange(seats)[:, None] * entries + np.arange(entries)[None, :]
        rows.made[kind] = counts = Named(len(rows), names)
        counts.values[:] = made.sum(axis=1)
        rows.first[kind] = first = Named(len(rows), names, fill=ABSENT)
        first.values[:] = np.where(made > 0, place, ABSENT).min(axis=1, initial=ABSENT)


def _paid_from_deals(rows: Rows, d: Deals, amounts: Floats) -> None:
    """paid() of each round's ledger: each entry's amount shared among the names of its
    detail, a name's shares in a round added in ledger order."""
    from rulekit.batch.engine import REASONS

    ledger = d.ledger
    entered = ledger[:, :, 0] != -9
    names_of = _detail_names(d.plan)
    for kind in KINDS:
        wanted = [i for i, r in enumerate(REASONS) if r in PAID[kind]]
        towards = entered & np.isin(ledger[:, :, 3], wanted) & (ledger[:, :, 1] != BANK)
        round_of, entry_of = np.nonzero(towards)  # round by round, in ledger order
        if not len(round_of):
            continue
        to = rows.paid[kind]
        reasons = ledger[round_of, entry_of, 3]
        codes = ledger[round_of, entry_of, 4]
        pair = np.empty(len(round_of), dtype=np.int64)  # each entry's (reason, detail)
        named: list[list[int]] = []  # per pair, the columns of the names its detail says
        for reason in np.unique(reasons).tolist():
            here = reasons == reason
            details, inverse = np.unique(codes[here], return_inverse=True)
            pair[here] = inverse.ravel() + len(named)
            named += [[to.column(n) for n in names_of(reason, c)] for c in details.tolist()]
        per_pair = np.array([len(x) for x in named], dtype=np.int64)
        flat = np.array([c for x in named for c in x], dtype=np.int64)
        shared = per_pair[pair]  # an entry per name it pays for
        entry = np.repeat(np.arange(len(pair)), shared)
        nth = np.arange(len(entry)) - np.repeat(np.cumsum(shared) - shared, shared)
        column = flat[(np.cumsum(per_pair) - per_pair)[pair[entry]] + nth]
        row = round_of[entry]
        share = amounts[row, entry_of[entry]] / shared[entry]
        order = np.lexsort((column, row))  # stable: a name's shares in a round in ledger order
        row, column, share = row[order], column[order], share[order]
        first = np.ones(len(row), dtype=np.bool_)
        first[1:] = (row[1:] != row[:-1]) | (column[1:] != column[:-1])
        rank = np.arange(len(row)) - np.maximum.accumulate(np.where(first, np.arange(len(row)), 0))
        for k in range(int(rank.max(initial=-1)) + 1):  # each first share, then each second...
            hit = rank == k
            to.values[row[hit], column[hit]] = to.values[row[hit], column[hit]] + share[hit]
            to.named[row[hit], column[hit]] = True


# the names a payment's detail gives (Plan.detail, split), per plan seen, by (reason, code)
_DETAIL_NAMES: dict[int, tuple[Plan, dict[tuple[int, int], list[str]]]] = {}


def _detail_names(plan: Plan) -> Callable[[int, int], list[str]]:
    """paid()'s reading of a payment's detail: the names it lists (none for no detail), for
    the batch engine's (reason, detail code), each worked out once per plan."""
    hit = _DETAIL_NAMES.get(id(plan))
    if hit is None or hit[0] is not plan:
        if len(_DETAIL_NAMES) >= 64:
            _DETAIL_NAMES.clear()
        hit = _DETAIL_NAMES[id(plan)] = (plan, {})
    known = hit[1]

    def names(reason: int, code: int) -> list[str]:
        said = known.get((reason, code))
        if said is None:
            detail = plan.detail(reason, code)
            said = known[reason, code] = [n.strip() for n in detail.split(",")] if detail else []
        return said

    return names


# ---------------------------------------------------------------- a part's sums


def part_tallies(rows: Rows, chunk: int) -> list[VariantTally]:
    """What each part of `chunk` rows counts (the last part may be shorter), as a loop adding
    its rounds one by one to a VariantTally counts: the sums of every part at once."""
    n, seats = len(rows), rows.seats
    starts = np.arange(0, n, chunk)
    parts = len(starts)
    part = np.arange(n) // chunk
    sizes = np.diff(np.append(starts, n)).tolist()
    position = rows.position
    batch = part * BATCHES + (rows.start + np.arange(n)) % BATCHES
    in_batch = np.bincount(batch, minlength=parts * BATCHES).reshape(parts, BATCHES).tolist()
    by_batch = [
        ordered_sums_by(x, batch, parts * BATCHES).reshape(parts, BATCHES, seats).tolist()
        for x in (position, position * position)
    ]
    at_seat = _part_moments(position, chunk, sizes)
    figures = _part_moments(rows.figures, chunk, sizes)
    voids = np.add.reduceat(rows.voids, starts).tolist()
    taken = np.add.reduceat(rows.choices, starts, axis=0).tolist()
    out = [
        VariantTally(
            seats,
            rounds=sizes[p],
            voids=voids[p],
            position=at_seat[p],
            figures=dict(zip(PER_ROUND, figures[p], strict=True)),
            batch_position=[
                [
                    Moments(in_batch[p][j], by_batch[0][p][j][s], by_batch[1][p][j][s])
                    for s in range(seats)
                ]
                for j in range(BATCHES)
            ],
            choices=Counter({k: c for k, c in zip(CHOICES, taken[p], strict=True) if c}),
        )
        for p in range(parts)
    ]
    _endings(rows, part, out)
    for kind in KINDS:
        _made(rows, kind, starts, out)
        to = rows.paid[kind]
        sums = ordered_sums_in_parts(to.values, chunk).tolist()
        named = np.logical_or.reduceat(to.named, starts, axis=0) if to.names else None
        for p, t in enumerate(out):
            spent = t.teyaku_paid if kind == "teyaku" else t.yaku_paid
            if named is not None:
                for at in np.flatnonzero(named[p]).tolist():
                    spent[to.names[at]] = sums[p][at]
    whole = np.rint(position).astype(np.int64)
    for p, t in enumerate(out):
        values, counts = np.unique(whole[starts[p] : starts[p] + sizes[p]], return_counts=True)
        t.histogram.update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
    return out


def _part_moments(x: Floats, chunk: int, sizes: list[int]) -> list[list[Moments]]:
    """Per part of `chunk` rows, a Moments per column of x, as Moments.add of the part's rows
    makes it."""
    totals = ordered_sums_in_parts(x, chunk).tolist()
    squares = ordered_sums_in_parts(x * x, chunk).tolist()
    return [
        [Moments(size, t, s) for t, s in zip(totals[p], squares[p], strict=True)]
        for p, size in enumerate(sizes)
    ]


def _endings(rows: Rows, part: Ints, out: list[VariantTally]) -> None:
    """Each part's endings, counted in the order first seen (as Counter.update lists them)."""
    kinds = len(rows.endings)
    keys, first, counts = np.unique(
        part * kinds + rows.ended, return_index=True, return_counts=True
    )
    for i in np.lexsort((first, keys // kinds)).tolist():
        p, code = divmod(int(keys[i]), kinds)
        out[p].ended[rows.endings[code]] = int(counts[i])


def _made(rows: Rows, kind: str, starts: Ints, out: list[VariantTally]) -> None:
    """Each part's teyaku or yaku made, counted in the order first seen: by round, then by
    place in the round (as Counter.update of each seat's list lists them)."""
    made = rows.made[kind]
    if not made.names:
        return
    has = made.values > 0
    counts = np.add.reduceat(made.values, starts, axis=0).tolist()
    never = len(rows)
    row = np.minimum.reduceat(np.where(has, np.arange(len(rows))[:, None], never), starts, axis=0)
    for p, t in enumerate(out):
        counter = t.teyaku if kind == "teyaku" else t.yaku
        seen = np.flatnonzero(row[p] < never)
        if not len(seen):
            continue
        place = rows.first[kind].values[row[p][seen], seen]
        for at in seen[np.lexsort((place, row[p][seen]))].tolist():
            counter[made.names[at]] = int(counts[p][at])


@dataclass
class NamedFigures:
    """A variant's per-entry figures over its rows, under the first variant's names: how often
    each teyaku and yaku was made ("yaku:NAME") and what was paid for it ("yaku paid:NAME"),
    and in which rounds each was named at all."""

    keys: list[str]
    values: Floats  # [round, key]
    named: Bools  # [round, key]


def named_figures(rows: Rows, as_first: dict[tuple[str, str], str]) -> NamedFigures:
    """The rows' per-entry figures, an entry renamed alike under the first variant's name
    (`as_first`: ("yaku", "blue_poems") -> "blue_ribbons"; rulekit.diff.renamed pairs only
    names the other variant lacks, so no two names share a key)."""
    keys: list[str] = []
    values: list[Floats] = []
    named: list[Bools] = []
    for kind in KINDS:
        for prefix, columns, marks in (
            (kind, rows.made[kind], rows.made[kind].values > 0),
            (f"{kind} paid", rows.paid[kind], rows.paid[kind].named),
        ):
            for at, name in enumerate(columns.names):
                keys.append(f"{prefix}:{as_first.get((kind, name), name)}")
                values.append(columns.values[:, at])
                named.append(marks[:, at])
    n = len(rows)
    return NamedFigures(
        keys,
        np.stack(values, axis=1) if values else np.zeros((n, 0)),
        np.stack(named, axis=1) if named else np.zeros((n, 0), dtype=np.bool_),
    )


@dataclass
class Differences:
    """One variant's rows against the first's: per-entry differences, round by round."""

    mine: Rows
    base: Rows
    keys: list[str]
    named: Floats  # [round, key]: the variant's figure minus the first's (0.0 where neither)
    seen: Bools  # [round, key]: where either named it


def differences(mine: Rows, base: Rows, a: NamedFigures, b: NamedFigures) -> Differences:
    keys = list(dict.fromkeys(a.keys + b.keys))
    at = {k: i for i, k in enumerate(keys)}
    n = len(mine)
    values = {side: np.zeros((n, len(keys))) for side in ("mine", "base")}
    seen = np.zeros((n, len(keys)), dtype=np.bool_)
    for side, figures in (("mine", a), ("base", b)):
        for j, key in enumerate(figures.keys):
            values[side][:, at[key]] += figures.values[:, j]
            seen[:, at[key]] |= figures.named[:, j]
    return Differences(mine, base, keys, values["mine"] - values["base"], seen)


def part_differences(d: Differences, chunk: int) -> list[dict[str, Moments]]:
    """Each part's paired differences (parts of `chunk` rows), as a loop adding each round's
    to Moments makes them: seat positions and per-round figures, then the per-entry ones, each
    only in a part where either variant named it (and only its non-zero differences counted)."""
    n = len(d.mine)
    starts = np.arange(0, n, chunk)
    parts = len(starts)
    sizes = np.diff(np.append(starts, n)).tolist()
    position = _part_moments(d.mine.position - d.base.position, chunk, sizes)
    figures = _part_moments(d.mine.figures - d.base.figures, chunk, sizes)
    out: list[dict[str, Moments]] = []
    for p in range(parts):
        paired = {f"position {k}": m for k, m in enumerate(position[p])}
        paired.update(zip(PER_ROUND, figures[p], strict=True))
        out.append(paired)
    if not d.keys:
        return out
    x = d.named
    totals = ordered_sums_in_parts(x, chunk).tolist()
    squares = ordered_sums_in_parts(x * x, chunk).tolist()
    counts = np.add.reduceat(x != 0, starts, axis=0).tolist()
    seen = np.logical_or.reduceat(d.seen, starts, axis=0)
    for p, paired in enumerate(out):
        for at in np.flatnonzero(seen[p]).tolist():
            paired[d.keys[at]] = Moments(counts[p][at], totals[p][at], squares[p][at])
    return out
