"""Bonus cards riding a stack (ir.Ruleset.bonus_on_pair): a bonus card drawn after the hand
card took a pair waits on the pair; when the next card drawn stacks on it (`stacks`), the bonus
card stays on the field with the three, and leaves with them to whoever takes them.

A rider is in the field's mask like any field card (the cards are conserved, the field is
drawn with it), and RoundState.rides says which stack it rides: (its bit, the stack's three
cards). It has no month, so no card matches it: it leaves only when its stack does, by a play,
a draw, a take or a month taken whole (capture.draw_card and take), or the wild card's month
collected at the end (continuation.end_of_hands); what the turn's events read of the cards
taken (a stack taken is three field cards of a month) leaves riders out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.cards import bits

if TYPE_CHECKING:
    from rulekit.engine.state import RoundState


def _captured(r: RoundState, stack: int, bonus: int) -> int:
    """`captured` (the default): the bonus cards drawn go to the drawer's pile; none stay."""
    return 0


def _stays(r: RoundState, stack: int, bonus: int) -> int:
    """`stays`: the bonus cards drawn this turn stay with the stack just made."""
    if bonus:
        r.rides = (*r.rides, *((b, stack) for b in bits(bonus)))
        r.rides_made += 1
    return bonus


# ir.Ruleset.bonus_on_pair -> the bonus cards drawn this turn that stay on the field with the
# stack just made (r, the stack's three cards, the bonus cards he drew this turn)
ON_PAIR: dict[str, Callable[[RoundState, int, int], int]] = {
    "captured": _captured,
    "stays": _stays,
}


def follow(r: RoundState, field_: int) -> tuple[int, int]:
    """The riders whose stack is no longer whole on `field_` leave it with their stack: (the
    field without them, the riders that left)."""
    gone = 0
    kept = []
    for b, stack in r.rides:
        if field_ & stack == stack:
            kept.append((b, stack))
        else:
            gone |= 1 << b
    if gone:
        r.rides = tuple(kept)
    return field_ & ~gone, gone


def riding(r: RoundState, taken: int) -> int:
    """The riders a capture of the field cards `taken` would take with them (the bots'
    preview of a play)."""
    out = 0
    for b, stack in r.rides:
        if taken & stack:
            out |= 1 << b
    return out
