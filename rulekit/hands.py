"""The space of hands, month by month: can any hand make a condition, and how many hands do.

A condition only looks at a few quantities: how many cards of some sets are present, how many
months hold exactly k cards, the card points. Walking the deck one month at a time and keeping
just those quantities (capped where larger values change nothing) covers every hand without
listing them: the search is exact, and small enough to run for every entry of a file.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from rulekit import ir

_OPS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
}


def compare(op: str, a: int, b: int) -> bool:
    return _OPS[op](a, b)


def shape_demands(
    shape: ir.Shape, all_months: Iterable[int]
) -> list[tuple[int, frozenset[int], int]]:
    """Hall's condition for month shapes: for every set of groups of the same size, the months
    they may use must hold enough months of exactly that size. Returns (size, months, demand)."""
    every = frozenset(all_months)
    demands = []
    sizes = sorted({g.size for g in shape.groups})
    for size in sizes:
        groups = [g for g in shape.groups if g.size == size]
        for r in range(1, len(groups) + 1):
            for subset in combinations(groups, r):
                months: frozenset[int] = frozenset()
                for g in subset:
                    months |= frozenset(g.months) if g.months else every
                demands.append((size, months, sum(g.count for g in subset)))
    return demands


@dataclass
class _Terms:
    """The quantities a list of conditions depends on; a search state is a tuple of them."""

    masks: list[tuple[frozenset[int], int]] = field(default_factory=list)
    shapes: list[tuple[int, frozenset[int], int]] = field(default_factory=list)
    points_cap: int = -1
    # where each mask and shape is in its list (a condition of many terms looks them up often)
    mask_at: dict[frozenset[int], int] = field(default_factory=dict)
    shape_at: dict[tuple[int, frozenset[int]], int] = field(default_factory=dict)

    def mask(self, cards: Iterable[int], cap: int) -> None:
        key = frozenset(cards)
        i = self.mask_at.get(key)
        if i is None:
            self.mask_at[key] = len(self.masks)
            self.masks.append((key, cap))
        else:
            self.masks[i] = (key, max(self.masks[i][1], cap))

    def shape(self, size: int, months: frozenset[int], cap: int) -> None:
        i = self.shape_at.get((size, months))
        if i is None:
            self.shape_at[(size, months)] = len(self.shapes)
            self.shapes.append((size, months, cap))
        else:
            self.shapes[i] = (size, months, max(self.shapes[i][2], cap))

    def index_mask(self, cards: Iterable[int]) -> int:
        return self.mask_at[frozenset(cards)]

    def index_shape(self, size: int, months: frozenset[int]) -> int:
        return self.shape_at[(size, months)]


# the most steps (a state's quantities, one by one) one search may take: a condition beyond
# it is too large to decide exactly, and a check gives it the benefit of the doubt (the
# bundled files' largest take a few ten thousand; this is about a second)
SEARCH_BUDGET = 3_000_000
# the most conjunctive branches a condition is split into for find (more: one search, which
# may run out of budget)
BRANCHES = 512


class TooLarge(Exception):
    """A count past its budget of steps."""


class _TooLarge(Exception):
    """A search past SEARCH_BUDGET states."""


def _branches(cond: ir.Condition, cap: int) -> list[list[ir.Condition]] | None:
    """The condition as an `or` of `and`s of parts without an `or` at their top (None: more than
    `cap` of them, or nothing to split)."""
    if isinstance(cond, ir.Or):
        out: list[list[ir.Condition]] = []
        for item in cond.items:
            sub = _branches(item, cap)
            out += sub if sub is not None else [[item]]
            if len(out) > cap:
                return None
        return out
    if isinstance(cond, ir.And):
        acc: list[list[ir.Condition]] = [[]]
        for item in cond.items:
            sub = _branches(item, cap) or [[item]]
            if len(acc) * len(sub) > cap:
                return None
            acc = [a + b for a in acc for b in sub]
        return acc
    return [[cond]]


# HandSpace.find's answers (a bounded table: the oldest goes first)
_FOUND: dict[tuple[object, ...], tuple[int, ...] | None] = {}
_FOUND_MAX = 4096
_FOUND_LOCK = threading.Lock()


class HandSpace:
    """Hands drawn from a deck: find one satisfying conditions, or count them."""

    def __init__(self, deck: ir.Deck, points: dict[str, int]) -> None:
        self.deck = deck
        self.points = points
        self.months = [m.number for m in deck.months]
        self.cards_by_month = {m: [c for c in deck.cards if c.month == m] for m in self.months}
        self.card_points = {c.id: points.get(c.classes[0], 0) for c in deck.cards}

    # ------------------------------------------------------------ terms
    def _collect(self, cond: ir.Condition, t: _Terms) -> None:
        if isinstance(cond, ir.AllOf):
            t.mask(cond.cards, len(cond.cards))
        elif isinstance(cond, ir.AnyOf):
            t.mask(cond.cards, 1)
        elif isinstance(cond, ir.Count):
            t.mask(cond.cards, cond.n + 1)
        elif isinstance(cond, ir.Shape):
            for size, months, demand in shape_demands(cond, self.months):
                t.shape(size, months, demand)
        elif isinstance(cond, ir.PointsCmp):
            t.points_cap = max(t.points_cap, cond.n + 1)
        elif isinstance(cond, ir.And | ir.Or):
            for item in cond.items:
                self._collect(item, t)
        elif isinstance(cond, ir.Not | ir.Everyone):
            self._collect(cond.item, t)

    def _holds(
        self, cond: ir.Condition, state: tuple[int, ...], t: _Terms, want: bool = True
    ) -> bool:
        """Whether `cond` can come out `want` for these cards: a test of the round (or of what
        was dealt) can come out either way, so `not (a month of 4 and round = 2)` can hold for
        a hand with a month of 4 (in another round)."""
        base = 1
        if isinstance(cond, ir.AllOf):
            return (state[base + t.index_mask(cond.cards)] >= len(cond.cards)) is want
        if isinstance(cond, ir.AnyOf):
            return (state[base + t.index_mask(cond.cards)] >= 1) is want
        if isinstance(cond, ir.Count):
            return compare(cond.op, state[base + t.index_mask(cond.cards)], cond.n) is want
        shapes_base = base + len(t.masks)
        if isinstance(cond, ir.Shape):
            return (
                all(
                    state[shapes_base + t.index_shape(size, months)] >= demand
                    for size, months, demand in shape_demands(cond, self.months)
                )
                is want
            )
        if isinstance(cond, ir.PointsCmp):
            return compare(cond.op, state[-1], cond.n) is want
        if isinstance(cond, ir.And | ir.Or):
            every = isinstance(cond, ir.And) is want  # an `and` true, or an `or` false
            items = (self._holds(i, state, t, want) for i in cond.items)
            return all(items) if every else any(items)
        if isinstance(cond, ir.Not):
            return self._holds(cond.item, state, t, not want)
        if isinstance(cond, ir.Everyone):  # one hand stands for every player
            return self._holds(cond.item, state, t, want)
        return True  # Dealt, and the tests of the round: the round decides, not the cards

    # ------------------------------------------------------------ search
    def _transitions(
        self, t: _Terms, size: int | None
    ) -> list[list[tuple[tuple[int, ...], tuple[int, ...]]]]:
        """For each month, every subset of its cards as (cards, contribution to the state)."""
        result = []
        for month in self.months:
            cards = self.cards_by_month[month]
            options = []
            for r in range(len(cards) + 1):
                if size is not None and r > size:
                    break
                for subset in combinations(cards, r):
                    ids = frozenset(c.id for c in subset)
                    delta = [r]
                    delta += [len(ids & m) for m, _ in t.masks]
                    delta += [int(r == s and month in ms) for s, ms, _ in t.shapes]
                    delta.append(sum(self.card_points[i] for i in ids))
                    options.append((tuple(sorted(ids)), tuple(delta)))
            result.append(options)
        return result

    def _caps(self, t: _Terms, size: int | None) -> tuple[int, ...]:
        total_cap = size + 1 if size is not None else 0
        return (
            total_cap,
            *(c for _, c in t.masks),
            *(c for _, _, c in t.shapes),
            max(t.points_cap, 0),
        )

    def count(
        self,
        conditions: Sequence[ir.Condition],
        size: int,
        extra: Sequence[Iterable[int]] = (),
        budget: int | None = None,
    ) -> tuple[_Terms, dict[tuple[int, ...], int]]:
        """Every hand of `size` cards, grouped by the quantities the conditions look at (and
        the count of each `extra` set held): state -> number of hands. TooLarge past `budget`
        steps (a state and a month's cards each), when given: a check that must not take
        long gives one."""
        work = budget if budget is not None else -1
        t = _Terms()
        for cond in conditions:
            self._collect(cond, t)
        for cards in extra:
            cards = frozenset(cards)
            t.mask(cards, len(cards))
        caps = self._caps(t, size)
        n = len(self.months)
        after = [sum(len(self.cards_by_month[m]) for m in self.months[i + 1 :]) for i in range(n)]
        states: dict[tuple[int, ...], int] = {tuple(0 for _ in caps): 1}
        for i, options in enumerate(self._transitions(t, size)):
            grouped: dict[tuple[int, ...], int] = {}
            for _, delta in options:
                grouped[delta] = grouped.get(delta, 0) + 1
            nxt: dict[tuple[int, ...], int] = {}
            if budget is not None:
                work -= len(states) * len(grouped) * len(caps)
                if work < 0:
                    raise TooLarge(f"more than {budget:,} steps to count the hands")
            for state, ways in states.items():
                for delta, mult in grouped.items():
                    new = tuple(
                        min(a + b, cap) for a, b, cap in zip(state, delta, caps, strict=True)
                    )
                    if new[0] > size or new[0] + after[i] < size:
                        continue
                    nxt[new] = nxt.get(new, 0) + ways * mult
            states = nxt
        return t, {s: w for s, w in states.items() if s[0] == size}

    def holds(self, cond: ir.Condition, state: tuple[int, ...], t: _Terms) -> bool:
        return self._holds(cond, state, t)

    def terms(self, conditions: Sequence[ir.Condition]) -> _Terms:
        """The quantities `conditions` look at, for `state_of`."""
        t = _Terms()
        for cond in conditions:
            self._collect(cond, t)
        return t

    def state_of(self, cards: Iterable[int], t: _Terms) -> tuple[int, ...]:
        """The state of one hand (card ids), as `count` groups the hands: its size, the cards
        of each mask held, the months of each shape, its points, each capped where `count`
        caps it."""
        ids = frozenset(cards)
        caps = self._caps(t, None)
        held = {m: sum(1 for c in self.cards_by_month[m] if c.id in ids) for m in self.months}
        values = [
            len(ids),
            *(len(ids & m) for m, _ in t.masks),
            *(sum(1 for m in ms if held.get(m) == s) for s, ms, _ in t.shapes),
            sum(self.card_points.get(i, 0) for i in ids),
        ]
        return (values[0], *(min(v, c) for v, c in zip(values[1:], caps[1:], strict=True)))

    def find(self, conditions: Sequence[ir.Condition], size: int | None = None) -> list[int] | None:
        """Card ids of one hand (of exactly `size` cards, or any size) satisfying every
        condition, or None if no hand can. A condition too large to search in full (more than
        SEARCH_BUDGET states in some branch) counts as made by some hand: an empty list, no
        hand shown. Kept per deck, points and conditions: a house rule checks its parent's
        entries again, and the editor checks the same file as one types."""
        key = (self.deck, tuple(sorted(self.points.items())), tuple(conditions), size)
        with _FOUND_LOCK:
            known = key in _FOUND
            found = _FOUND.get(key)
        if not known:
            found = self._find_any(conditions, size)
            with _FOUND_LOCK:  # (the web app checks texts in threads)
                if len(_FOUND) >= _FOUND_MAX:
                    _FOUND.pop(next(iter(_FOUND)))  # the oldest
                _FOUND[key] = found
        return None if found is None else list(found)

    def _find_any(
        self, conditions: Sequence[ir.Condition], size: int | None
    ) -> tuple[int, ...] | None:
        """find, branch by branch: `a or b` is made if `a` or `b` is, each searched with only
        its own terms (a condition of many `or` terms is many small searches, not one whose
        states are the product of them all)."""
        branches = _branches(ir.And(items=tuple(conditions)), BRANCHES)
        undecided = False
        for branch in branches or [list(conditions)]:
            try:
                found = self._find(branch, size)
            except _TooLarge:
                undecided = True
                continue
            if found is not None:
                return found
        return () if undecided else None

    def _find(self, conditions: Sequence[ir.Condition], size: int | None) -> tuple[int, ...] | None:
        t = _Terms()
        for cond in conditions:
            self._collect(cond, t)
        moves = self._transitions(t, size)
        caps = self._caps(t, size)
        n = len(self.months)
        after = [sum(len(self.cards_by_month[m]) for m in self.months[i + 1 :]) for i in range(n)]
        budget = [SEARCH_BUDGET]
        step = len(caps) * len(moves[0]) if moves else 1

        @cache
        def search(i: int, state: tuple[int, ...]) -> tuple[int, ...] | None:
            budget[0] -= step
            if budget[0] < 0:
                raise _TooLarge
            if i == n:
                if size is not None and state[0] != size:
                    return None
                return () if all(self._holds(c, state, t) for c in conditions) else None
            for ids, delta in moves[i]:
                nxt = tuple(min(a + b, cap) for a, b, cap in zip(state, delta, caps, strict=True))
                if size is not None and nxt[0] > size:
                    continue
                if size is not None and nxt[0] + after[i] < size:
                    continue
                rest = search(i + 1, nxt)
                if rest is not None:
                    return ids + rest
            return None

        try:
            return search(0, tuple(0 for _ in caps))
        finally:
            search.cache_clear()
