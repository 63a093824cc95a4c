"""Compile a variant's tables into fast predicates over card masks.

Each table becomes one generated function `match(x, ctx) -> hits` whose body is a chain of
mask tests and popcounts with the constants inlined: one call checks every entry. The tests are
grouped under the number of cards each entry needs at least (`cards_needed`), so that a small
pile skips the entries it cannot make; on a deck of four cards a month in consecutive bits,
month shapes count each month in a 4-bit lane of one int. Generated code only ever contains
integers and operators taken from the IR, never text from a file. (The turn's own generated
code is in engine/specialise.py.)
"""

from __future__ import annotations

import copy
import itertools
import math
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rulekit import ir
from rulekit.cards import CardIndex, bits
from rulekit.engine.shown import compile_shown
from rulekit.engine.specialise import (
    SLICE,
    Deal,
    compile_pairs,
    compile_plays,
    compile_points,
    nibble_layout,
)
from rulekit.hands import compare, shape_demands

# ir.YakuTable.policy -> whether only the best entry counts
POLICIES: dict[str, bool] = {"best": True, "all": False}

_PY_OP = {">=": ">=", "<=": "<=", "=": "==", "!=": "!=", ">": ">", "<": "<"}


class CountContext(Protocol):
    """What an entry checked at the count may ask about the rest of the round."""

    piles: Sequence[int]

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool: ...


class RoundContext(Protocol):
    """What a condition that sees the round may ask, for the player it is tested for: the
    round's number (the first is 1) and its month's cards, whether he deals, the continues he
    and his opponents called, his score so far, the field as laid at the deal, and whether the
    round ended with no winner."""

    round: int
    month_mask: int
    is_dealer: bool
    place: int  # his place in play order from the dealer (the dealer 1; 0: not in play)
    continued: int
    opponent_continued: int
    score: int
    field_at_deal: int
    nobody_won: bool
    draws_before: int
    declared: bool  # the rule file's declaration was made this round (`declared NAME`)
    payer: int  # the pile of who makes the payment a scoring factor tests (-1: no payer)


_ROUND_KINDS = (
    ir.RoundCmp,
    ir.RoundMonth,
    ir.IsDealer,
    ir.SeatFromDealer,
    ir.Continued,
    ir.ScoreCmp,
    ir.OnField,
    ir.PayerHas,
    ir.NobodyWon,
    ir.DrawnBefore,
    ir.Declared,
)


def sees_round(cond: ir.Condition) -> bool:
    """Whether a condition asks about the round (then it is tested with a RoundContext)."""
    return any(isinstance(c, _ROUND_KINDS) for c in ir.parts_of(cond))


def guarded(cond: ir.Condition, expr: str) -> str:
    """The code of a condition, false without a RoundContext when it sees the round (even under
    a `not`: `not dealer` does not hold where there is no round to ask); a card-only condition
    is left exactly as it was."""
    return f"(ctx is not None and {expr})" if sees_round(cond) else expr


# ir.Continued.who -> the RoundContext attribute that counts those continues
CONTINUED_WHO: dict[str, str] = {"self": "continued", "opponent": "opponent_continued"}


# a lane of `c` holds 0 to 4 (binary 000 to 100): the lanes that hold k have these set at
# their lowest bit (the other bits of the value are to be masked off)
_LANE_IS = {
    0: "~(c | (c >> 1) | (c >> 2))",
    1: "c & ~((c >> 1) | (c >> 2))",
    2: "(c >> 1) & ~(c | (c >> 2))",
    3: "c & (c >> 1)",
    4: "c >> 2",
}


# a table's entries read from packed counts only while their count states are at most this many
# (the states' hits are worked out in advance: one per state)
PACK_STATES = 1 << 14
# ... and only when at least this many entries are (fewer are cheaper tested one by one)
PACK_ENTRIES = 1


def thresholds(c: ir.Condition, index: CardIndex, out: dict[int, set[int]]) -> bool:
    """Whether a condition is only tests of how many cards of some sets a mask holds (`all of`,
    `any of`, counts, and `and`, `or`, `not` of them); if so, each such test as a threshold,
    `count(mask) >= k`, added to out[mask] (thresholds that always or never hold left out)."""
    if isinstance(c, ir.And | ir.Or):
        return all([thresholds(i, index, out) for i in c.items])
    if isinstance(c, ir.Not):
        return thresholds(c.item, index, out)
    if not isinstance(c, ir.AllOf | ir.AnyOf | ir.Count):
        return False
    m = index.mask(c.cards)
    if isinstance(c, ir.AllOf):
        ks = [m.bit_count()]
    elif isinstance(c, ir.AnyOf):
        ks = [1]
    else:  # >= n, > n (n + 1), = and != n (both), <= n (n + 1), < n (n)
        ks = {">=": [c.n], ">": [c.n + 1], "<": [c.n], "<=": [c.n + 1]}.get(c.op, [c.n, c.n + 1])
    out.setdefault(m, set()).update(k for k in ks if 0 < k <= m.bit_count())
    return True


def holds_on_counts(c: ir.Condition, index: CardIndex, count: dict[int, int]) -> bool:
    """A condition that `thresholds` reads, for a mask holding count[m] cards of each set m."""
    if isinstance(c, ir.And):
        return all(holds_on_counts(i, index, count) for i in c.items)
    if isinstance(c, ir.Or):
        return any(holds_on_counts(i, index, count) for i in c.items)
    if isinstance(c, ir.Not):
        return not holds_on_counts(c.item, index, count)
    assert isinstance(c, ir.AllOf | ir.AnyOf | ir.Count)
    m = index.mask(c.cards)
    n = count.get(m, 0)
    if isinstance(c, ir.AllOf):
        return n >= m.bit_count()
    if isinstance(c, ir.AnyOf):
        return n >= 1
    return compare(c.op, n, c.n)


def _sets_read(c: ir.Condition, index: CardIndex) -> tuple[int, ...]:
    """The card sets whose counts a condition that `thresholds` reads depends on, in order."""
    if isinstance(c, ir.And | ir.Or):
        return tuple(dict.fromkeys(m for i in c.items for m in _sets_read(i, index)))
    if isinstance(c, ir.Not):
        return _sets_read(c.item, index)
    assert isinstance(c, ir.AllOf | ir.AnyOf | ir.Count)
    return (index.mask(c.cards),)


# Packed.of's tables, by deck and entries (bounded: the oldest goes first)
_PACKED: dict[tuple[object, ...], Packed] = {}
_PACKED_MAX = 64
_PACKED_LOCK = threading.Lock()


class Packed:
    """Entries that only count cards of some sets, all tested at once: each threshold
    `count(m) >= k` is a lane of bits of one int, holding 2**(w-1) - k + count(m), whose top
    bit is set exactly when the threshold holds (the lane never overflows); the lanes are
    summed from one table per 12-bit slice of the mask (the bias in the first), so the
    thresholds held are `flags = sum & TOP`, and the hits are read from a dict of every
    combination of thresholds the sets' counts can give."""

    def __init__(self, index: CardIndex, entries: dict[int, ir.Condition]) -> None:
        wanted: dict[int, set[int]] = {}
        for cond in entries.values():
            thresholds(cond, index, wanted)
        self.lanes: list[tuple[int, int, int, int]] = []  # (mask, k, shift, width)
        shift = 0
        for m, ks in wanted.items():
            for k in sorted(ks):
                width = 1 + (max(k, m.bit_count() - k + 1) - 1).bit_length()
                self.lanes.append((m, k, shift, width))
                shift += width
        self.top = sum(1 << (s + w - 1) for _, _, s, w in self.lanes)
        bias = sum(((1 << (w - 1)) - k) << s for _, k, s, w in self.lanes)
        n = (len(index.ids) + SLICE - 1) // SLICE
        self.tables = [self._slice(j, bias if j == 0 else 0) for j in range(n)]
        self.hits = self._hits(index, entries, wanted)

    def _slice(self, j: int, start: int) -> list[int]:
        """The sums of slice j's 12 bits: each value adds its lowest bit's lanes to the value
        without that bit (one addition a value, not a popcount a lane)."""
        bit_lanes = [
            sum(1 << s for m, _, s, _ in self.lanes if m >> (SLICE * j + b) & 1)
            for b in range(SLICE)
        ]
        table = [start] * (1 << SLICE)
        for v in range(1, 1 << SLICE):
            low = v & -v
            table[v] = table[v ^ low] + bit_lanes[low.bit_length() - 1]
        return table

    def _hits(
        self, index: CardIndex, entries: dict[int, ir.Condition], wanted: dict[int, set[int]]
    ) -> dict[int, int]:
        """The hits for each combination of the sets' counts, keyed by its flags (a count
        stands for every count up to its set's next threshold). Each entry is worked out once
        per combination of the counts it reads, not once per combination of them all."""
        states = [(m, [0, *sorted(ks)]) for m, ks in wanted.items()]
        reads = {i: _sets_read(cond, index) for i, cond in entries.items()}
        known: dict[tuple[int, tuple[int, ...]], bool] = {}
        out: dict[int, int] = {}
        for combo in itertools.product(*(counts for _, counts in states)):
            count = {m: n for (m, _), n in zip(states, combo, strict=True)}
            flags = sum(1 << (s + w - 1) for m, k, s, w in self.lanes if count[m] >= k)
            hits = 0
            for i, cond in entries.items():
                key = (i, tuple(count[m] for m in reads[i]))
                held = known.get(key)
                if held is None:
                    held = known[key] = holds_on_counts(cond, index, count)
                if held:
                    hits |= 1 << i
            out[flags] = hits
        return out

    @classmethod
    def of(cls, index: CardIndex, entries: dict[int, ir.Condition]) -> Packed:
        """A Packed for these entries on this deck, built once per content: a house rule's
        table shares its parent's count-only entries, and so do the variants of a comparison
        (read-only once built)."""
        key = (tuple(index.ids), tuple(sorted(entries.items(), key=lambda e: e[0])))
        with _PACKED_LOCK:
            pack = _PACKED.get(key)
        if pack is None:
            pack = cls(index, entries)
            with _PACKED_LOCK:
                if len(_PACKED) >= _PACKED_MAX:
                    _PACKED.pop(next(iter(_PACKED)))  # the oldest
                _PACKED[key] = pack
        return pack

    @staticmethod
    def states(index: CardIndex, entries: Sequence[ir.Condition]) -> int | None:
        """How many combinations of counts the entries' thresholds give (None: some entry is
        not only counts)."""
        wanted: dict[int, set[int]] = {}
        if not all(thresholds(c, index, wanted) for c in entries):
            return None
        return math.prod(len(ks) + 1 for ks in wanted.values())


class _Codegen:
    def __init__(self, index: CardIndex) -> None:
        self.index = index
        self.helpers: dict[str, Any] = {"_pts": compile_points(index)}
        self.uses_months = False
        self.sizes: set[int] = set()
        # four cards a month in consecutive bits: a month's count is a 4-bit lane of `c`
        self.lanes = len(index.month_masks) if nibble_layout(index) else 0

    def mask(self, cards: Sequence[int]) -> int:
        return self.index.mask(cards)

    def expr(self, c: ir.Condition, x: str = "x") -> str:
        if isinstance(c, ir.AllOf):
            m = self.mask(c.cards)
            return f"({x} & {m}) == {m}"
        if isinstance(c, ir.AnyOf):
            return f"({x} & {self.mask(c.cards)}) != 0"
        if isinstance(c, ir.Count):
            m = self.mask(c.cards)
            if c.op == "=" and c.n == 0:
                return f"({x} & {m}) == 0"
            if c.op == ">=" and c.n == 1:
                return f"({x} & {m}) != 0"
            return f"({x} & {m}).bit_count() {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.Shape):
            self.uses_months = True
            tests = []
            every = set(self.index.months)
            for size, months, demand in shape_demands(c, self.index.months):
                if set(months) == every:  # any month: how many months hold exactly `size`
                    self.sizes.add(size)
                    tests.append(f"n{size} >= {demand}")
                    continue
                slots = [self.index.months.index(m) for m in sorted(months)]
                if self.lanes:  # the months' lanes that hold `size`, counted at once
                    test = _LANE_IS.get(size)
                    lanes = sum(1 << (4 * i) for i in slots)
                    total = f"(({test}) & {lanes}).bit_count()" if test else "0"
                else:
                    total = " + ".join(f"(mc[{i}] == {size})" for i in slots)
                tests.append(f"({total}) >= {demand}")
            return "(" + " and ".join(tests) + ")"
        if isinstance(c, ir.PointsCmp):
            return f"_pts({x}) {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.Everyone):
            name = f"_every{len(self.helpers)}"
            self.helpers[name] = self.function(c.item)
            return f"(ctx is not None and all({name}(y, ctx) for y in ctx.piles))"
        if isinstance(c, ir.Dealt):
            return f"(ctx is not None and ctx.dealt_holds({c.names!r}, {c.captured}, {x}))"
        if isinstance(c, ir.And):
            return "(" + " and ".join(self.expr(i, x) for i in c.items) + ")"
        if isinstance(c, ir.Or):
            return "(" + " or ".join(self.expr(i, x) for i in c.items) + ")"
        if isinstance(c, ir.Not):
            return f"(not {self.expr(c.item, x)})"
        return f"({self.round_expr(c, x)})"

    def round_expr(self, c: ir.Condition, x: str) -> str:
        """A condition that sees the round, read from the context (`guarded` makes the whole
        condition false without one)."""
        if isinstance(c, ir.RoundCmp):
            return f"ctx.round {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.RoundMonth):
            if c.all:
                return f"({x} & ctx.month_mask) == ctx.month_mask"
            return f"({x} & ctx.month_mask).bit_count() {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.IsDealer):
            return "ctx.is_dealer"
        if isinstance(c, ir.SeatFromDealer):
            return f"ctx.place == {c.place}"
        if isinstance(c, ir.Continued):
            return f"ctx.{CONTINUED_WHO[c.who]} {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.ScoreCmp):
            return f"ctx.score {_PY_OP[c.op]} {c.n}"
        if isinstance(c, ir.OnField):
            name = f"_field{len(self.helpers)}"
            self.helpers[name] = self.function(c.item)
            return f"{name}(ctx.field_at_deal, ctx)"
        if isinstance(c, ir.PayerHas):
            name = f"_payer{len(self.helpers)}"
            self.helpers[name] = self.function(c.item)
            return f"ctx.payer >= 0 and {name}(ctx.payer, ctx)"
        if isinstance(c, ir.NobodyWon):
            return "ctx.nobody_won"
        if isinstance(c, ir.DrawnBefore):
            return f"ctx.draws_before >= {c.n}"
        if isinstance(c, ir.Declared):
            return "ctx.declared"
        raise AssertionError(f"unhandled condition {c!r}")

    def packed(self, entries: dict[int, ir.Condition]) -> str:
        """The hits of entries that only count cards (Packed), as one expression of `x`."""
        pack = Packed.of(self.index, entries)
        tag = len(self.helpers)
        self.helpers[f"_H{tag}"] = pack.hits
        terms = []
        last = len(pack.tables) - 1
        for j, table in enumerate(pack.tables):
            self.helpers[f"_Q{tag}_{j}"] = table
            part = f"(x >> {SLICE * j})" if j else "x"
            part = part if j == last else f"({part} & {(1 << SLICE) - 1})"
            terms.append(f"_Q{tag}_{j}[{part}]")
        return f"_H{tag}[({' + '.join(terms)}) & {pack.top}]"

    def prologue(self) -> list[str]:
        if not self.uses_months:
            return []
        if self.lanes:
            return self.lane_prologue()
        counts = ", ".join(f"(x & {m}).bit_count()" for m in self.index.month_masks)
        lines = [f"    mc = ({counts},)"]
        lines += [f"    n{k} = mc.count({k})" for k in sorted(self.sizes)]
        return lines

    def lane_prologue(self) -> list[str]:
        """Each month's count as a 4-bit lane of `c` (a popcount per lane, in three steps),
        and how many months hold exactly k cards (`n{k}`) from a test per lane: the same
        figures as `mc` and `mc.count(k)`, with a few operations on the whole mask."""
        n = self.lanes
        m5, m3, m1 = (int(digit * n, 16) for digit in "531")
        lines = [
            f"    a = x - ((x >> 1) & {m5})",
            f"    c = (a & {m3}) + ((a >> 2) & {m3})",
        ]
        for k in sorted(self.sizes):
            test = _LANE_IS.get(k)
            lines.append(f"    n{k} = (({test}) & {m1}).bit_count()" if test else f"    n{k} = 0")
        return lines

    def inline(self, body: list[str]) -> list[str]:
        """The statements of a function of `body` (without its return), indented one level:
        they read `x` (and `ctx`) and leave the result where the body puts it."""
        return [*self.prologue(), *body]

    def compile(self, name: str, body: list[str]) -> Callable[..., Any]:
        source = "\n".join([f"def {name}(x, ctx=None):", *self.prologue(), *body])
        namespace: dict[str, Any] = dict(self.helpers)
        exec(compile(source, f"<rulekit {name}>", "exec"), namespace)
        return namespace[name]  # type: ignore[no-any-return]

    def function(self, c: ir.Condition) -> Callable[..., bool]:
        sub = _Codegen(self.index)
        sub.helpers = self.helpers
        sub.sizes = set()
        expr = guarded(c, sub.expr(c))
        return sub.compile("cond", [f"    return {expr}"])


def condition_test(c: ir.Condition, index: CardIndex) -> Callable[..., bool]:
    """One condition as `test(x, ctx=None) -> bool`, compiled as a table compiles its entries
    (for a caller that tests the parts of a condition one by one)."""
    return _Codegen(index).function(c)


def cards_needed(c: ir.Condition, index: CardIndex) -> int:
    """How many cards a mask holds at least when the condition holds for it (0: no bound):
    a bound that is only ever low, so a test skipped under it would have failed."""
    if isinstance(c, ir.AllOf):
        return index.mask(c.cards).bit_count()
    if isinstance(c, ir.AnyOf):
        return 1
    if isinstance(c, ir.Count):
        return {">=": c.n, ">": c.n + 1, "=": c.n}.get(c.op, 0)
    if isinstance(c, ir.And):
        return max((cards_needed(i, index) for i in c.items), default=0)
    if isinstance(c, ir.Or):
        return min((cards_needed(i, index) for i in c.items), default=0)
    return 0  # a shape, points, a `not`, a test of the round or of every pile: no bound


class CompiledTable:
    """A teyaku or yaku table: which entries hold for a mask, and which of them count."""

    def __init__(self, table: ir.YakuTable, index: CardIndex) -> None:
        self.table = table
        self.entries = table.entries
        self.names = [e.name for e in table.entries]
        self.position = {n: i for i, n in enumerate(self.names)}
        self.values = [e.value for e in table.entries]
        self.best_only = POLICIES[table.policy]
        self.count_bits = sum(1 << i for i, e in enumerate(self.entries) if e.at_count)
        # some entry asks about the round: its callers pass a RoundContext (the others need none)
        self.sees_round = any(sees_round(e.condition) for e in self.entries)
        play, play_gen = self._body(
            index, [i for i, e in enumerate(self.entries) if not e.at_count]
        )
        self.match_play: Callable[..., int] = play_gen.compile("match", [*play, "    return h"])
        # match_play's statements, `x` to `h`, and the names they use, for generated code to
        # write in (the plain turns: specialise.compile_turns)
        self.match_play_inline = (play_gen.inline(play), play_gen.helpers)
        count, count_gen = self._body(index, [i for i, e in enumerate(self.entries) if e.at_count])
        self.match_count: Callable[..., int] = count_gen.compile("match", [*count, "    return h"])
        # (amount, cards, over, the cards counted once more: one mask per time listed)
        self._bonus = [
            (
                e.bonus.amount,
                index.mask(e.bonus.cards),
                e.bonus.over,
                tuple(index.mask((c,)) for c in e.bonus.extra),
            )
            if e.bonus
            else None
            for e in self.entries
        ]
        self._unless = [sum(1 << self.position[n] for n in e.unless) for e in self.entries]
        self._groups = [sum(1 << self.position[n] for n in g) for g in table.exclusive]
        self._memo: dict[int, tuple[int, ...]] = {}
        self._value_memo: dict[int, tuple[tuple[int, ...], int]] = {}
        self.has_bonus = any(self._bonus)
        # no exclusive group and not only the best: which entries count never depends on
        # their values (so not on a bonus either), only on the hits
        self._value_free = not self._groups and not self.best_only
        # paid as written, not multiplied by the field (`; flat`); a value shared by its payers
        self.flat = [e.flat for e in table.entries]
        self.any_flat = any(self.flat)
        self.split = table.split
        # whose teyaku are paid (engine.setup.BETWEEN_PLAYERS)
        self.between_players = table.between_players

    def _body(self, index: CardIndex, which: list[int]) -> tuple[list[str], _Codegen]:
        """The entries' tests (setting `h`, the hits), grouped under the number of cards each
        needs at least, each group inside the one before (a pile of three cards skips every
        entry that needs four or more with one test: the same hits, fewer tests)."""
        gen = _Codegen(index)
        body = ["    h = 0"]
        counts = [i for i in which if thresholds(self.entries[i].condition, index, {})]
        states = Packed.states(index, [self.entries[i].condition for i in counts])
        if len(counts) >= PACK_ENTRIES and states is not None and states <= PACK_STATES:
            body = [f"    h = {gen.packed({i: self.entries[i].condition for i in counts})}"]
            which = [i for i in which if i not in counts]
            if not which:
                return body, gen
        body.append("    xc = x.bit_count()")
        needs = {i: cards_needed(self.entries[i].condition, index) for i in which}
        pad = "    "
        for need in sorted(set(needs.values())):
            if need:
                body.append(f"{pad}if xc >= {need}:")
                pad += "    "
            for i in which:
                if needs[i] == need:
                    cond = self.entries[i].condition
                    body.append(f"{pad}if {guarded(cond, gen.expr(cond))}:")
                    body.append(f"{pad}    h |= {1 << i}")
        return body, gen

    def value(self, i: int, x: int) -> int:
        bonus = self._bonus[i]
        if bonus is None:
            return self.values[i]
        amount, mask, over, extra = bonus
        held = (x & mask).bit_count() + sum(1 for m in extra if x & m)
        return self.values[i] + amount * max(0, held - over)

    def counted(self, hits: int, x: int = 0) -> tuple[int, ...]:
        """Entry indices that count among `hits` (bonuses valued on the cards `x`)."""
        if not self.has_bonus or self._value_free:
            memo = self._memo.get(hits)
            if memo is None:
                memo = self._memo[hits] = self.select(hits, self.values.__getitem__)
            return memo
        return self.select(hits, lambda i: self.value(i, x))

    def counted_value(self, hits: int, x: int) -> tuple[tuple[int, ...], int]:
        """counted(hits, x) and the sum of their values on `x`, kept per hits when no entry has
        a bonus (the values then do not depend on the cards)."""
        if not self.has_bonus:
            memo = self._value_memo.get(hits)
            if memo is None:
                counted = self.counted(hits, x)
                memo = self._value_memo[hits] = (counted, sum(self.values[i] for i in counted))
            return memo
        counted = self.counted(hits, x)
        return counted, self.value_of(counted, x)

    def value_of(self, counted: Sequence[int], x: int) -> int:
        """sum(value(i, x) for i in counted), the same sum with value() written in."""
        values = self.values
        bonuses = self._bonus
        total = 0
        for i in counted:
            bonus = bonuses[i]
            if bonus is None:
                total += values[i]
            else:
                amount, mask, over, heavy = bonus
                extra = (x & mask).bit_count() - over
                for m in heavy:
                    if x & m:
                        extra += 1
                total += values[i] + amount * (extra if extra > 0 else 0)
        return total

    def select(self, hits: int, value: Callable[[int], int]) -> tuple[int, ...]:
        """Entry indices that count among `hits`: `unless` and exclusive groups applied, then
        only the best one if the table counts only the best; `value(i)` is entry i's value."""
        keep = hits
        for i in bits(hits):
            if self._unless[i] & hits:
                keep &= ~(1 << i)
        for group in self._groups:
            members = keep & group
            if members & (members - 1):
                best = max(bits(members), key=lambda i: (value(i), -i))
                keep &= ~(members & ~(1 << best))
        result = tuple(bits(keep))
        if self.best_only and len(result) > 1:
            result = (max(result, key=lambda i: (value(i), -i)),)
        return result

    def hits(self, x: int, ctx: CountContext | None = None, at_count: bool = False) -> int:
        """The entries that hold for a mask, as a bit mask of entry indices (`counted` takes
        it); those checked at the count too when `at_count`."""
        return self.match_play(x, ctx) | (self.match_count(x, ctx) if at_count else 0)

    def matching(
        self, x: int, ctx: CountContext | None = None, at_count: bool = False
    ) -> list[int]:
        """The indices of the entries that hold for a mask."""
        return bits(self.hits(x, ctx, at_count))


# ---------------------------------------------------------------- an owner's choice
# The yaku of a rule set with an owner's choice (`treat CARDS as CLASS or N CLASSES, owner's
# choice`): two compiled tables, the same entries read the first way and the second
# (ir.OwnersChoice.yaku); a pile that holds none of the choice's cards reads the same both
# ways. The reading is a function of the pile alone (the yaku of such a file read only the
# cards: lang/resolve.py checks it), so every question the engine asks of a pile (its hits in
# play and at the count, an entry's value, which entries count) gets the same reading, and the
# batch kernel makes the same choice (batch/tables.py: `_reading`).

MEMO = 4096  # piles whose reading is kept (then forgotten at once: a round's piles repeat)


class ChoiceTable(CompiledTable):
    """A yaku table that reads each pile the way worth more to its owner: the first reading
    unless the second's counted yaku are worth more."""

    def __init__(self, table: ir.YakuTable, choice: ir.OwnersChoice, index: CardIndex) -> None:
        super().__init__(table, index)
        self.first = CompiledTable(table, index)
        self.second = CompiledTable(choice.yaku, index)
        self.choice = index.mask(choice.cards)
        self._read: dict[int, CompiledTable] = {}
        self.match_play = self._match_play
        self.match_count = self._match_count
        self.match_play_inline = (["    h = _owners_match(x)"], {"_owners_match": self._match_play})
        self.has_bonus = self.first.has_bonus or self.second.has_bonus

    def reading(self, x: int) -> CompiledTable:
        """The table that reads the pile `x`: the second if its counted yaku are worth more."""
        if not x & self.choice:
            return self.first
        table = self._read.get(x)
        if table is None:
            if len(self._read) >= MEMO:
                self._read.clear()
            first, second = self.worths(x)
            table = self._read[x] = self.second if second > first else self.first
        return table

    def worths(self, x: int) -> tuple[int, int]:
        """What the pile `x`'s counted yaku are worth read the first way and the second."""
        if not x & self.choice:
            return (0, 0)
        first = self.first.counted_value(self.first.match_play(x), x)[1]
        second = self.second.counted_value(self.second.match_play(x), x)[1]
        return first, second

    def second_reading(self, x: int) -> bool:
        """Whether the pile `x` is read the second way (the count says so)."""
        return self.reading(x) is self.second

    def _match_play(self, x: int, ctx: CountContext | None = None) -> int:
        hits: int = self.reading(x).match_play(x, ctx)
        return hits

    def _match_count(self, x: int, ctx: CountContext | None = None) -> int:
        hits: int = self.reading(x).match_count(x, ctx)
        return hits

    def value(self, i: int, x: int) -> int:
        return self.reading(x).value(i, x)

    def counted(self, hits: int, x: int = 0) -> tuple[int, ...]:
        return self.reading(x).counted(hits, x)

    def counted_value(self, hits: int, x: int) -> tuple[tuple[int, ...], int]:
        return self.reading(x).counted_value(hits, x)

    def value_of(self, counted: Sequence[int], x: int) -> int:
        return self.reading(x).value_of(counted, x)

    def pinned(self, answers: dict[int, bool]) -> ChoiceTable:
        """This table with the piles an asked owner answered for at the count (pile -> read
        the second way) read as he said; every other pile the way worth more
        (engine/asking.py)."""
        return _PinnedChoice(self, answers)


class _PinnedChoice(ChoiceTable):
    """A ChoiceTable whose answered piles read as their owners said (ChoiceTable.pinned)."""

    def __init__(self, table: ChoiceTable, answers: dict[int, bool]) -> None:
        self.__dict__.update(table.__dict__)
        self._pins = {x: self.second if second else self.first for x, second in answers.items()}
        self._read = {}
        self.match_play = self._match_play
        self.match_count = self._match_count
        self.match_play_inline = (["    h = _owners_match(x)"], {"_owners_match": self._match_play})

    def reading(self, x: int) -> CompiledTable:
        pinned = self._pins.get(x)
        return pinned if pinned is not None else super().reading(x)


class CompiledMultiplier:
    """The field multiplier: the highest tier present, plus `step` per field card of a set;
    and the multiplier the next round carries over (at least), 1 if none."""

    def __init__(self, spec: ir.FieldMultiplier, index: CardIndex) -> None:
        self.tiers = [(t.factor, index.mask(t.cards), t.carry_at) for t in spec.tiers]
        # a tier with a condition applies when it holds for the field (its cards: the carry)
        self.tests: list[Callable[..., bool] | None] = [
            _Codegen(index).function(t.condition) if t.condition is not None else None
            for t in spec.tiers
        ]
        self.sees_round = any(
            t.condition is not None and sees_round(t.condition) for t in spec.tiers
        )
        self.per_mask = index.mask(spec.per_card)
        self.step = spec.step
        self.of_field: Callable[..., tuple[int, int]] = self._compile_of_field()

    def _compile_of_field(self) -> Callable[..., tuple[int, int]]:
        """`(field, ctx=None) -> (factor, carry)`: the highest tier that applies (its condition
        holds, or, without one, some of its cards lie on the field) plus `step` per card of the
        set; the carry, the highest tier with at least `carry at` of its cards on the field.
        Written out tier by tier, the constants inlined (integers only)."""
        namespace: dict[str, Any] = {}
        lines = ["def of_field(field, ctx=None):", "    factor = 1", "    carry = 1"]
        for k, ((factor, mask, carry_at), test) in enumerate(
            zip(self.tiers, self.tests, strict=True)
        ):
            tier_factor = int(factor)  # integers only in the code
            lines.append(f"    present = (field & {mask}).bit_count()")
            applies = "present"
            if test is not None:
                namespace[f"T{k}"] = test
                applies = f"T{k}(field, ctx)"
            lines.append(f"    if {applies} and {tier_factor} > factor:")
            lines.append(f"        factor = {tier_factor}")
            if carry_at is not None:
                lines.append(f"    if present >= {int(carry_at)} and {tier_factor} > carry:")
                lines.append(f"        carry = {tier_factor}")
        if self.step:
            step, per = int(self.step), int(self.per_mask)
            lines.append(f"    factor += {step} * (field & {per}).bit_count()")
        lines.append("    return factor, carry")
        exec(compile("\n".join(lines), "<rulekit of_field>", "exec"), namespace)
        return namespace["of_field"]  # type: ignore[no-any-return]


def referenced_cards(cond: ir.Condition) -> set[int]:
    """Every card a condition names (the cards a yaku is made of)."""
    if isinstance(cond, ir.AllOf | ir.AnyOf | ir.Count):
        return set(cond.cards)
    if isinstance(cond, ir.And | ir.Or):
        return set().union(*(referenced_cards(i) for i in cond.items))
    if isinstance(cond, ir.Not | ir.Everyone):
        return referenced_cards(cond.item)
    return set()


def _yaku_table(rules: ir.Ruleset, index: CardIndex) -> CompiledTable | None:
    """The yaku table; with an owner's choice, read the way his cards are worth more."""
    if rules.yaku is None:
        return None
    if rules.owners_choice is None:
        return CompiledTable(rules.yaku, index)
    return ChoiceTable(rules.yaku, rules.owners_choice, index)


def with_payer_of(cond: ir.Condition, payer: ir.Condition) -> ir.Condition:
    """`cond` with each `the payer has` part taken from `payer`, the same condition read
    another way (ir.OwnersChoice.steps): the payee's pile read one way, the payer's another."""
    parts: list[ir.Condition] = []

    def note(c: ir.Condition) -> ir.Condition | None:
        if isinstance(c, ir.PayerHas):
            parts.append(c)
            return c
        return None

    ir.rewrite(payer, note)
    taken = iter(parts)
    return ir.rewrite(cond, lambda c: next(taken) if isinstance(c, ir.PayerHas) else None)


class StepReadings:
    """A scoring step's condition under the owner's choice: each pile is read there as its
    yaku `table` reads it (ChoiceTable.second_reading; pinned where an asked owner answered:
    CompiledRules.read_as), the payee's and a factor's payer's each its own way.
    `tests[2 * payee second + payer second]`."""

    def __init__(self, tests: tuple[Callable[..., bool], ...], table: ChoiceTable) -> None:
        self.tests = tests
        self.table = table

    def __call__(self, x: int, ctx: RoundContext) -> bool:
        table = self.table
        payer = ctx.payer > 0 and table.second_reading(ctx.payer)
        return self.tests[2 * table.second_reading(x) + payer](x, ctx)


class CompiledRules:
    """Everything the engine and the evaluators need from a variant, compiled once."""

    def __init__(self, rules: ir.Ruleset) -> None:
        self.rules = rules
        self.index = CardIndex(rules)
        # `count: round wins by ...`: each criterion's cards as masks (scoring.key_masks)
        self.round_key_masks: dict[tuple[int, ...], list[int]] = {}
        # no hiki and no wild card: a play is a hand card, on its month (engine/capture.py's
        # shorter road: play_plain, and the plays from generated tables)
        wild = rules.wild
        # cards that go to whoever plays or draws them (`lone`: capture.py's general road),
        # bonus cards among them (drawn, one is replaced: capture.draw; dealt: setup._bonus)
        self.bonus = self.index.mask(rules.deck.bonus)
        self.lone = (self.index.mask(rules.lone.cards) if rules.lone else 0) | self.bonus
        # the wild card's bit where its draws differ (taken from the field by the next card
        # drawn, taking the whole field when drawn last, or any card when drawn: capture.draw),
        # else -1
        drawn_wild = wild is not None and (
            wild.taken_by_draw or wild.sweeps_when_last or wild.drawn_any_target
        )
        self.wild_draw = self.index.bit[wild.card] if wild is not None and drawn_wild else -1
        self.plain = (
            not rules.hiki
            and not (wild is not None and wild.any_target)
            and not self.lone
            and self.wild_draw < 0
        )
        # events during play, and the draw stacking on the pair just made (engine/events.py):
        # the general road, which tells them apart (each event's class mask to give, or 0)
        self.events = rules.events
        self.stacks = rules.stacks
        self.bomb = rules.bomb  # a play like a hiki (capture.bomb_actions), then skips
        self.plain = self.plain and not rules.events and not rules.stacks and rules.bomb is None
        self.draw_offer = rules.draw_offer  # OFFER among the plays (engine/draw_offer.py)
        self.plain = self.plain and rules.draw_offer is None
        self.event_gives = [
            self.index.mask(c.id for c in rules.deck.cards if e.give in c.classes) if e.give else 0
            for e in rules.events
        ]
        self.event_factor = any(e.factor > 1 for e in rules.events)
        # the turn's generated code (engine/specialise.py)
        self.pairs = compile_pairs(self.index)
        self.plays = compile_plays(self.index)
        self.points = compile_points(self.index)
        # a new round's fields per table size (engine.round._prototype fills it)
        self.round_prototypes: dict[int, Callable[..., dict[str, Any]]] = {}
        # capture.plain_turns' loop, generated on first use (engine/specialise.py)
        self.plain_turns_code: Callable[[Any, Any], None] | None = None
        self.uniform_turns_code: Callable[[Any, Any], None] | None = None  # capture.uniform_turns
        # the setup steps that do something, per table size (engine.round._prototype fills it)
        self.setup_plans: dict[int, tuple[tuple[int, Callable[[Any], bool]], ...]] = {}
        # the deal at each table size (engine.deal.shuffle fills it)
        self.dealers: dict[int, Deal] = {}
        self.teyaku = CompiledTable(rules.teyaku, self.index) if rules.teyaku else None
        # the teyaku shown or kept hidden (ir.Yaku.shown), as bits of their entries: the shown
        # cards are captured as field cards, and a hand may run out (`still draws`): the
        # general road (capture.play)
        self.shown_teyaku = sum(
            1 << i for i, e in enumerate(rules.teyaku.entries if rules.teyaku else ()) if e.shown
        )
        self.plain = self.plain and not self.shown_teyaku and not rules.still_draws
        self.yaku = _yaku_table(rules, self.index)
        self.multiplier = CompiledMultiplier(rules.multiplier, self.index)
        self.void_field: Callable[..., bool] | None = (
            _Codegen(self.index).function(rules.void_field) if rules.void_field else None
        )
        # the instant wins, with their tests, highest value first (a hand is paid its highest)
        self.instant_wins: list[tuple[ir.InstantWin, Callable[..., bool]]] = sorted(
            ((w, _Codegen(self.index).function(w.condition)) for w in rules.instant_wins),
            key=lambda wt: -wt[0].value,
        )
        self.void_sees_round = rules.void_field is not None and sees_round(rules.void_field)
        # a dealt hand that voids the deal (`void if a hand has`), tested as an instant win is
        self.void_hand: Callable[..., bool] | None = (
            _Codegen(self.index).function(rules.void_hand) if rules.void_hand else None
        )
        self.void_hand_sees_round = rules.void_hand is not None and (
            sees_round(rules.void_hand)
            or any(isinstance(c, ir.Everyone | ir.Dealt) for c in ir.parts_of(rules.void_hand))
        )
        # a round that is a draw at the count (`the round is a draw if a player has`), tested
        # as an entry decided at the count is, from each player (always with a RoundView)
        self.draw_at_count: Callable[..., bool] | None = (
            _Codegen(self.index).function(rules.draw_at_count) if rules.draw_at_count else None
        )
        # the field's tests (multiplier, void) are given a RoundView
        self.field_sees_round = self.multiplier.sees_round or self.void_sees_round
        # an instant win's test is given a RoundView only if a condition reads one
        self.instant_sees_round = any(
            sees_round(w.condition)
            or any(isinstance(c, ir.Everyone | ir.Dealt) for c in ir.parts_of(w.condition))
            for w in rules.instant_wins
        )
        yaku_entries = rules.yaku.entries if rules.yaku else ()
        self.yaku_cards = [self.index.mask(referenced_cards(e.condition)) for e in yaku_entries]
        liable = set(rules.liability.yaku) if rules.liability else set()
        self.liable = {i for i, e in enumerate(yaku_entries) if e.name in liable}
        # what a player shows for each teyaku (engine/shown.py)
        self._teyaku_shown = [
            compile_shown(e.condition, self.index)
            for e in (rules.teyaku.entries if rules.teyaku else ())
        ]
        # the scoring stage's steps, each with its compiled condition (None: always), and the
        # whole stage in order: the count first, the fold fees, then the rule file's steps
        second = rules.owners_choice.steps if rules.owners_choice is not None else ()
        self.scoring: list[tuple[ir.ScoringStep, Callable[..., bool] | None]] = [
            (s, self._step_test(s.condition, second[i] if second else None))
            for i, s in enumerate(rules.scoring)
        ]
        self.factors = [(s, t) for s, t in self.scoring if isinstance(s, ir.Factor)]
        # a declaration's factor on its maker's winnings (ir.Declaration.factor; 1: none), and
        # whether the ledger looks a factor up at all (the stage's, or this one)
        d = rules.declarations[0] if rules.declarations else None
        self.declared_factor = d.factor if d is not None else 1
        self.any_factor = bool(self.factors) or self.declared_factor > 1 or self.event_factor
        # a yaku that cancels yaku at the count (`cancels every yaku`), one that wins the round
        # at once (`wins the round`)
        self.cancels_yaku = any(e.cancels_yaku != "none" for e in yaku_entries)
        self.wins_round = frozenset(i for i, e in enumerate(yaku_entries) if e.wins_round)
        self.declared_stakes = d is not None and bool(d.award or d.penalty)
        self.stage: tuple[ir.Settlement | ir.Fold | ir.ScoringStep, ...] = (
            rules.count,
            rules.fold,
            *rules.scoring,
        )
        # the stage's steps with their handlers (engine.scoring.finish fills it on first use)
        self.stage_run: list[tuple[Callable[[Any, Any, Any], None], Any]] | None = None
        self.continuation_plan: Any = None  # engine.continuation.plan fills it on first use
        self.fold_offers: Any = None  # engine.setup's fold phase fills it on first use
        comp = rules.compensation
        # what a forced folder's hand must hold for his compensation's factor (None: nothing)
        self.compensation_test: Callable[..., bool] | None = (
            condition_test(comp.condition, self.index)
            if comp is not None and comp.condition is not None
            else None
        )
        self.offer_tests: dict[str, Any] = {}  # engine.offers.is_offered's, by option

    def _step_test(
        self, cond: ir.Condition | None, second: ir.Condition | None
    ) -> Callable[..., bool] | None:
        """A scoring step's compiled condition (None: always); under an owner's choice whose
        second reading changes it, the StepReadings of its four readings."""
        if cond is None:
            return None
        if second is None or second == cond:
            return _Codegen(self.index).function(cond)
        assert isinstance(self.yaku, ChoiceTable)
        return StepReadings(
            tuple(
                _Codegen(self.index).function(with_payer_of(payee, payer))
                for payee in (cond, second)
                for payer in (cond, second)
            ),
            self.yaku,
        )

    def read_as(self, answers: dict[int, bool]) -> CompiledRules:
        """These rules with the piles that asked owners answered for at the count read as they
        said (pile -> read the second way): a copy whose yaku table is pinned to the answers,
        everything else shared (engine/asking.py gives it to the round it counts)."""
        assert isinstance(self.yaku, ChoiceTable)
        twin = copy.copy(self)
        twin.yaku = pinned = self.yaku.pinned(answers)
        twin.scoring = [
            (s, StepReadings(t.tests, pinned) if isinstance(t, StepReadings) else t)
            for s, t in self.scoring
        ]
        twin.factors = [(s, t) for s, t in twin.scoring if isinstance(s, ir.Factor)]
        return twin

    def teyaku_cards(self, hand: int, counted: Sequence[int]) -> int:
        """The cards a player shows for his counted teyaku: only those that make them."""
        mask = 0
        for i in counted:
            mask |= self._teyaku_shown[i](hand)[1]
        return mask

    def made_masks(self, cond: ir.Condition, hand: int) -> list[int]:
        """The groups of hand cards that make a teyaku's parts: each month of a month shape, and
        the listed cards of an `all of` (a `captured dealt` condition asks whether one such group
        was captured)."""
        ix = self.index
        if isinstance(cond, ir.Shape):
            out = []
            for g in cond.groups:
                for m in g.months or ix.months:
                    cards = hand & ix.month_masks[ix.months.index(m)]
                    if cards.bit_count() == g.size:
                        out.append(cards)
            return out
        if isinstance(cond, ir.AllOf):
            mask = ix.mask(cond.cards)
            return [mask] if hand & mask == mask else []
        if isinstance(cond, ir.And | ir.Or):
            return [m for i in cond.items for m in self.made_masks(i, hand)]
        return []
