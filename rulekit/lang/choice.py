"""Counts in which a card weighs more than one (`treat sake as animal or 2 plains, owner's
choice`: read the second way, the sake cup is two plains in `plains >= 10`).

The engines count cards by mask: a count of a set is the number of its cards held. A card that
weighs `w` in a count is written out as the count without it, in two cases: the card held (the
rest must reach `n - w`) or not (the rest must reach `n`). So both engines play the weighted
count with the conditions they already have.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, product

from rulekit import ir

# a test that always holds, and one that never does (all of nothing; any of nothing)
ALWAYS = ir.AllOf(cards=())
NEVER = ir.AnyOf(cards=())

# what a card-only condition may hold: the yaku of a file with an owner's choice read only the
# captured cards, so each reading's worth depends on the cards alone
CARD_ONLY = (ir.AllOf, ir.AnyOf, ir.Count, ir.Shape, ir.PointsCmp, ir.And, ir.Or, ir.Not)


def weigh(
    cond: ir.Condition, weighted: Mapping[ir.Count, frozenset[int]], weights: Mapping[int, int]
) -> ir.Condition:
    """`cond` with each count of `weighted` counting its weighted cards `weights[card]` times."""

    def leaf(c: ir.Condition) -> ir.Condition | None:
        if isinstance(c, ir.Count) and c in weighted:
            return _split(c, sorted(weighted[c]), weights)
        return None

    return ir.rewrite(cond, leaf)


# more heavy cards than this in one count are written by how many of each weight are held,
# not by which: the Korean deck's jokers and double chaff (six) make 64 cases, too many for
# the batch kernel's stack, and 10 this way
MAX_HEAVY_BY_CARD = 4


def _split(count: ir.Count, heavy: list[int], weights: Mapping[int, int]) -> ir.Condition:
    """The count written case by case: which of the heavy cards are held (or, past
    MAX_HEAVY_BY_CARD of them, how many of each weight)."""
    light = tuple(c for c in count.cards if c not in heavy)
    if len(heavy) > MAX_HEAVY_BY_CARD:
        return _split_by_weight(count, light, heavy, weights)
    branches: list[ir.Condition] = []
    for k in range(len(heavy) + 1):
        for held in combinations(heavy, k):
            rest = _shifted(light, count.op, count.n - sum(weights[c] for c in held), count.label)
            if rest is NEVER:
                continue
            missing = tuple(c for c in heavy if c not in held)
            parts: list[ir.Condition] = []
            if held:
                parts.append(ir.AllOf(cards=held))
            if missing:
                parts.append(ir.Count(cards=missing, op="=", n=0))
            if rest is not ALWAYS:
                parts.append(rest)
            branches.append(_all(parts))
    return _any(branches)


def _split_by_weight(
    count: ir.Count, light: tuple[int, ...], heavy: list[int], weights: Mapping[int, int]
) -> ir.Condition:
    """_split's cases by how many cards of each weight are held: the cards of one weight are
    interchangeable in the count."""
    groups = [
        tuple(c for c in heavy if weights[c] == w) for w in sorted({weights[c] for c in heavy})
    ]
    branches: list[ir.Condition] = []
    for held in product(*(range(len(g) + 1) for g in groups)):
        extra = sum(weights[g[0]] * k for g, k in zip(groups, held, strict=True))
        rest = _shifted(light, count.op, count.n - extra, count.label)
        if rest is NEVER:
            continue
        parts: list[ir.Condition] = []
        for g, k in zip(groups, held, strict=True):
            if k == len(g):
                parts.append(ir.AllOf(cards=g))
            else:
                parts.append(ir.Count(cards=g, op="=", n=k))
        if rest is not ALWAYS:
            parts.append(rest)
        branches.append(_all(parts))
    return _any(branches)


def _all(parts: list[ir.Condition]) -> ir.Condition:
    """Every one of the parts (one part as it is)."""
    return parts[0] if len(parts) == 1 else ir.And(items=tuple(parts))


def _any(branches: list[ir.Condition]) -> ir.Condition:
    """Any one of the branches: NEVER for none, one branch as it is."""
    if not branches:
        return NEVER
    return branches[0] if len(branches) == 1 else ir.Or(items=tuple(branches))


def _shifted(cards: tuple[int, ...], op: ir.Op, n: int, label: str) -> ir.Condition:
    """How many of `cards` are held, compared with `n` (ALWAYS or NEVER below zero)."""
    if n < 0:
        return ALWAYS if op in (">=", ">", "!=") else NEVER
    return ir.Count(cards=cards, op=op, n=n, label=label)


def extra_cards(cards: frozenset[int], weights: Mapping[int, int]) -> tuple[int, ...]:
    """A bonus's extra cards: each weighted card once for each card it counts beyond one."""
    return tuple(c for c in sorted(cards) for _ in range(weights[c] - 1))
