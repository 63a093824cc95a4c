"""The yaku of a rule set with an owner's choice (`treat sake as animal or 2 plains, owner's
choice`): a pile is read the way its owner's counted yaku are worth more.

Two compiled tables, the same entries read the first way and the second (ir.OwnersChoice.yaku);
a pile that holds none of the choice's cards reads the same both ways. The reading is a function
of the pile alone (the yaku of such a file read only the cards: lang/resolve.py checks it), so
every question the engine asks of a pile (its hits in play and at the count, an entry's value,
which entries count) gets the same reading, and the batch kernel makes the same choice
(batch/tables.py: `_reading`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rulekit import ir
from rulekit.cards import CardIndex
from rulekit.engine.tables import CompiledTable, CountContext

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
