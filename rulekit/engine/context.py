"""The round as a condition that sees it reads it (engine.tables.RoundContext): its number and
month, and, for the player tested, whether he deals, the continues called, his score so far,
what he was dealt; the field as laid at the deal; every player's pile; whether the round ended
with no winner.

Only tables that see the round are given one (`CompiledTable.sees_round`,
`CompiledMultiplier.sees_round`): a card-only table is tested as fast as ever, without it.
"""

from __future__ import annotations

from rulekit.engine.state import RoundState


def month_of_round(month_masks: list[int], round_no: int) -> int:
    """The cards of a round's month (round_no from 0): the deck's first month in the first
    round, its second in the second, ... and the first again after the last."""
    return month_masks[round_no % len(month_masks)]


class RoundView:
    """The round seen from one seat (-1: from no seat, as the field and the multiplier are)."""

    def __init__(self, r: RoundState, seat: int = -1, *, nobody_won: bool = False) -> None:
        self.r = r
        # the rulebook counts rounds from 1; round_no counts them from 0
        self.round = r.round_no + 1
        self.month_mask = month_of_round(r.ix.month_masks, r.round_no)
        self.field_at_deal = r.laid_field  # 0 while the field is not laid yet
        self.nobody_won = nobody_won
        self.draws_before = r.draws_before  # drawn rounds in a row just before this one
        self.payer = -1  # the payer's pile, for a scoring factor's `the payer has` (stage.holds)
        self.look_from(seat)

    def look_from(self, seat: int) -> None:
        """Test for another player: his dealer role, his continues and his opponents', his
        score (the base value of the yaku he has made)."""
        r = self.r
        self.seat = seat
        self.is_dealer = seat >= 0 and seat == self.leader()
        order = r.order
        self.place = order.index(seat) + 1 if seat in order else 0  # (`second`, `third`)
        continues = r.continues
        self.continued = continues[seat] if 0 <= seat < len(continues) else 0
        self.opponent_continued = max(
            (n for q, n in enumerate(continues) if q != seat and not r.folded[q]), default=0
        )
        made = r.made_value
        self.score = made[seat] if 0 <= seat < len(made) else 0

    @property
    def declared(self) -> bool:
        """The rule file's declaration was made this round, by anyone (`declared NAME`)."""
        return self.r.declared != 0

    @property
    def piles(self) -> list[int]:
        """The captured piles of the round's players (`everyone has`)."""
        r = self.r
        return [r.captured[s] for s in r.order]

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool:
        """Whether the player tested counted one of these teyaku (or a combination holding
        one) and, for `captured dealt`, captured every card of one of its dealt groups."""
        r = self.r
        table = r.c.teyaku
        seat = self.seat
        if table is None or seat < 0:
            return False
        hand = r.dealt_hands.get(seat, 0)
        for i in r.teyaku_counted[seat]:
            entry = table.entries[i]
            for candidate in (entry, *(table.entries[table.position[n]] for n in entry.parts)):
                if candidate.name not in names:
                    continue
                if not captured:
                    return True
                if any(m & pile == m for m in r.c.made_masks(candidate.condition, hand)):
                    return True
        return False

    def leader(self) -> int:
        """The dealer, or who leads in his place when he sits the round out: the first seat
        after him who plays (as the scoring stage's `dealer` reads it)."""
        r = self.r
        for i in range(r.seated):
            s = (r.dealer + i) % r.seated
            if not r.folded[s]:
                return s
        return r.dealer
