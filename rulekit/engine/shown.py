"""The cards a player shows for a teyaku: only those that make it (the branch of an `or` his
hand did not make shows nothing; a `none of` holds by absence and shows nothing).

Each teyaku's condition is compiled once into a closure `hand -> (holds, cards shown)`:
teyaku are shown at every deal, so this is on the path of every simulated round.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable

from rulekit import ir
from rulekit.cards import CardIndex
from rulekit.engine.specialise import nibble_layout
from rulekit.hands import compare, shape_demands

Shown = Callable[[int], tuple[bool, int]]

# a count's comparison (hands.compare's, as the operator module's functions: no call of a
# Python function per test)
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "=": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}


def compile_shown(cond: ir.Condition, ix: CardIndex) -> Shown:
    """`hand -> (whether the hand's cards alone make cond, the cards that make it)`; a test of
    the round never holds here."""
    if isinstance(cond, ir.AllOf):
        m = ix.mask(cond.cards)
        return lambda h: (True, h & m) if h & m == m else (False, 0)
    if isinstance(cond, ir.AnyOf):
        m = ix.mask(cond.cards)
        return lambda h: (True, h & m) if h & m else (False, 0)
    if isinstance(cond, ir.Count):
        m, test, n = ix.mask(cond.cards), _COMPARE[cond.op], cond.n
        return lambda h: (True, h & m) if test((h & m).bit_count(), n) else (False, 0)
    if isinstance(cond, ir.Shape):
        return _shape(cond, ix)
    if isinstance(cond, ir.PointsCmp):
        op, n = cond.op, cond.n
        return lambda h: (True, h) if compare(op, ix.points(h), n) else (False, 0)
    if isinstance(cond, ir.And | ir.Or):
        return _junction([compile_shown(i, ix) for i in cond.items], isinstance(cond, ir.And))
    if isinstance(cond, ir.Not):
        inner = compile_shown(cond.item, ix)
        return lambda h: (not inner(h)[0], 0)
    return lambda h: (False, 0)


def _shape(cond: ir.Shape, ix: CardIndex) -> Shown:
    if nibble_layout(ix):
        return _shape_lanes(cond, ix)
    month_mask = {m: ix.month_masks[ix.months.index(m)] for m in ix.months}
    demands = [
        (size, [month_mask[m] for m in months], demand)
        for size, months, demand in shape_demands(cond, ix.months)
    ]
    groups = [(g.size, [month_mask[m] for m in g.months or ix.months]) for g in cond.groups]

    def shown(h: int) -> tuple[bool, int]:
        for size, masks, demand in demands:
            if sum((h & mm).bit_count() == size for mm in masks) < demand:
                return False, 0
        cards = 0
        for size, masks in groups:
            for mm in masks:
                if (h & mm).bit_count() == size:
                    cards |= h & mm
        return True, cards

    return shown


def _shape_lanes(cond: ir.Shape, ix: CardIndex) -> Shown:
    """_shape on a deck laid out four cards a month (month i: bits 4i..4i+3): each month's
    count is a 4-bit lane of one int (as the compiled tables count them), so a group's months
    of its size are found for the whole hand at once, not month by month."""
    n = len(ix.month_masks)
    m5, m3, m1 = (int(digit * n, 16) for digit in "531")

    def lanes(months: Iterable[int]) -> int:
        return sum(1 << (4 * ix.months.index(m)) for m in set(months))

    demands = [
        (size, lanes(months), demand) for size, months, demand in shape_demands(cond, ix.months)
    ]
    groups = [(g.size, lanes(g.months or ix.months)) for g in cond.groups]

    def of_size(c: int, size: int) -> int:
        """The lanes (their lowest bit) of the months holding exactly `size` cards."""
        if size == 0:
            return ~(c | (c >> 1) | (c >> 2)) & m1
        if size == 1:
            return c & ~((c >> 1) | (c >> 2)) & m1
        if size == 2:
            return (c >> 1) & ~(c | (c >> 2)) & m1
        if size == 3:
            return c & (c >> 1) & m1
        return (c >> 2) & m1 if size == 4 else 0

    def shown(h: int) -> tuple[bool, int]:
        a = h - ((h >> 1) & m5)
        c = (a & m3) + ((a >> 2) & m3)
        for size, months, demand in demands:
            if (of_size(c, size) & months).bit_count() < demand:
                return False, 0
        cards = 0
        for size, months in groups:
            cards |= h & ((of_size(c, size) & months) * 15)
        return True, cards

    return shown


def _junction(items: list[Shown], every: bool) -> Shown:
    """An `and` (each item holds: stop at the first that does not) or an `or` (some item
    holds: every item is asked, for the cards of each that holds); an item that does not hold
    shows no cards."""

    def each(h: int) -> tuple[bool, int]:
        cards = 0
        for item in items:
            holds, c = item(h)
            if not holds:
                return False, 0
            cards |= c
        return True, cards

    def some(h: int) -> tuple[bool, int]:
        held = False
        cards = 0
        for item in items:
            holds, c = item(h)
            if holds:
                held = True
                cards |= c
        return (True, cards) if held else (False, 0)

    return each if every else some
