"""Card ids, names and bit masks for one deck.

Internally a set of cards is an int whose bit i is the deck's i-th card (in id order). Every
command accepts cards by id (`113`) or by name (`lightning`), case-insensitively.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulekit import ir
from rulekit.errors import UsageError, did_you_mean


def bits(mask: int) -> list[int]:
    """The positions of a mask's set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class CardIndex:
    """A deck's cards as bits, with their months, points and names."""

    def __init__(self, rules: ir.Ruleset) -> None:
        deck = rules.deck
        self.deck = deck
        self.cards = deck.cards
        self.ids: list[int] = [c.id for c in deck.cards]
        self.bit: dict[int, int] = {cid: i for i, cid in enumerate(self.ids)}
        self.by_id: dict[int, ir.Card] = {c.id: c for c in deck.cards}
        self.by_name: dict[str, int] = {c.name.lower(): c.id for c in deck.cards}
        self.months: list[int] = [m.number for m in deck.months]
        self.month_masks: list[int] = [
            self.mask(c.id for c in deck.cards if c.month == m) for m in self.months
        ]
        self.month_mask_of_bit: list[int] = [  # a bonus card (month 0) matches no card
            self.month_masks[self.months.index(c.month)] if c.month else 0 for c in deck.cards
        ]
        self.points_of_bit: list[int] = [rules.card_points(c.id) for c in deck.cards]
        self.full: int = (1 << len(self.ids)) - 1
        # points of every 8-bit slice of a mask, so that a pile's points take a few lookups
        self._point_bytes = [
            [
                sum(
                    self.points_of_bit[8 * k + j]
                    for j in range(8)
                    if v >> j & 1 and 8 * k + j < len(self.ids)
                )
                for v in range(256)
            ]
            for k in range((len(self.ids) + 7) // 8)
        ]

    # ------------------------------------------------------------ masks
    def mask(self, ids: Iterable[int]) -> int:
        m = 0
        for cid in ids:
            m |= 1 << self.bit[cid]
        return m

    def ids_of(self, mask: int) -> list[int]:
        ids = self.ids
        return [ids[b] for b in bits(mask)]

    def points(self, mask: int) -> int:
        total = 0
        for table in self._point_bytes:
            total += table[mask & 255]
            mask >>= 8
        return total

    # ------------------------------------------------------------ names
    def card(self, cid: int) -> ir.Card:
        return self.by_id[cid]

    def short(self, cid: int) -> str:
        """`10 crane`: how a card is shown wherever a person reads it."""
        return f"{cid} {self.by_id[cid].name}"

    def parse(self, token: str) -> int:
        """A card by id or name; a UsageError with a suggestion otherwise."""
        word = token.strip().lower()
        if len(word) > 40:
            raise UsageError(f"unknown card '{word[:20]}...': no card has so long a name")
        if word.isascii() and word.isdigit():  # not '²', which is a digit int() refuses
            cid = int(word)
            if cid in self.by_id:
                return cid
            month = cid // 10
            same = [i for i in self.ids if i // 10 == month]
            hint = f"month {month} has cards {', '.join(map(str, same))}" if same else None
            raise UsageError(
                f"no card {token}: a card id is its month then 0-3, like 10 or 113", hint=hint
            )
        if word in self.by_name:
            return self.by_name[word]
        raise UsageError(f"unknown card '{token}'", hint=did_you_mean(word, self.by_name))

    def parse_many(self, tokens: Sequence[str], what: str = "cards") -> list[int]:
        """Cards from a command line: space or comma separated, no duplicates."""
        words = [w for t in tokens for w in t.replace(",", " ").split()]
        ids = [self.parse(w) for w in words]
        seen: set[int] = set()
        for w, cid in zip(words, ids, strict=True):
            if cid in seen:
                raise UsageError(f"card {self.short(cid)} is given twice in {what} ('{w}')")
            seen.add(cid)
        return ids
