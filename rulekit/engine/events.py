"""Events during play (ir.Event): what the turn's two cards did, told apart at the turn's end,
and each event's effects on the other players of the round: a card of a class each gives the
player from his pile, points each pays him at once, a factor on his winnings.

capture.py writes what the hand card and the drawn card did (RoundState.turn_laid ...); the
events run at the end of the turn, before the yaku check, so that a card given counts there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rulekit import ir
from rulekit.engine import ledger
from rulekit.engine.scoring import finish

if TYPE_CHECKING:
    from rulekit.engine.state import RoundState


def _swept(r: RoundState) -> int:
    return 1 if r.field == 0 else 0


def _stack_left(r: RoundState) -> int:
    return 1 if r.turn_stacked else 0


def _stack_taken(r: RoundState) -> int:
    """Each card of the turn that took three field cards of its month: a stack each."""
    return (r.turn_played_took.bit_count() == 3) + (r.turn_drawn_took.bit_count() == 3)


def _pair_twice(r: RoundState) -> int:
    """The hand card took one field card of a month, the drawn card the other."""
    pt, dt = r.turn_played_took, r.turn_drawn_took
    if pt.bit_count() != 1 or dt.bit_count() != 1:
        return 0
    return 1 if r.months[pt.bit_length() - 1] & dt else 0


def _bombed(r: RoundState) -> int:
    """His play took a month whole: a bomb (or a hiki)."""
    return 1 if r.turn_whole else 0


def _draw_takes_play(r: RoundState) -> int:
    """The hand card was laid alone on the field, and the drawn card took it (and only it)."""
    return 1 if r.turn_laid and r.turn_drawn_took == r.turn_laid else 0


# ir.Event.kind -> how many times it happened in the turn just played (a test checks that
# every kind has one)
HAPPENED: dict[str, Callable[[RoundState], int]] = {
    "sweep": _swept,
    "stack_left": _stack_left,
    "stack_taken": _stack_taken,
    "pair_twice": _pair_twice,
    "draw_takes_play": _draw_takes_play,
    "bomb": _bombed,
}


def at_turn_end(r: RoundState) -> int:
    """The events of the current player's turn, in the rule file's order, each applied as
    often as it happened (and its time, its streak allow: ir.Event.time, in_a_row); the cards
    he was given (for the yaku check). An event that wins the round ends it here."""
    p = r.current
    gained = 0
    applied = 0  # the events applied to him this turn (a bit each, for the rows they join)
    first = r.turn < len(r.order)
    his_turn = r.turn // len(r.order)  # (his turns before this one)
    for i, e in enumerate(r.c.events):
        times = HAPPENED[e.kind](r)
        if not times or (e.first_turn and not first):
            continue
        if e.not_last_turn and not any(r.hands[s] or r.skips[s] for s in r.order):
            continue  # the turn after which nobody has a turn left is the round's last
        counted = e.time or e.in_a_row or e.steal_grows != "flat"  # (row_with needs in_a_row)
        for _ in range(times):
            before = 0
            if counted:  # the times it happened to him before, in the round
                before = r.event_times.get((p, i), 0)
                r.event_times[(p, i)] = before + 1
                if (e.time and before + 1 != e.time) or (e.in_a_row and before != his_turn):
                    continue
            r.events_happened += 1
            applied |= 1 << i
            gained |= _apply(r, p, e, r.c.event_gives[i], STEALS[e.steal_grows](e.steal, before))
            if e.outcome != "plays_on":
                OUTCOMES[e.outcome](r, p)
                return gained
    if applied:
        _join_rows(r, p, his_turn, applied)
    return gained


def _join_rows(r: RoundState, p: int, his_turn: int, applied: int) -> None:
    """ir.Event.row_with: a turn on which a joined event happened to him counts in the row of
    each event that names it, if that row is whole so far and the event did not count the
    turn itself (a turn counts once)."""
    names = [e.name for e in r.c.events]
    for i, e in enumerate(r.c.events):
        joined = any(applied >> names.index(n) & 1 for n in e.row_with)
        if joined and r.event_times.get((p, i), 0) == his_turn:
            r.event_times[(p, i)] = his_turn + 1


def _wins_round(r: RoundState, p: int) -> None:
    """He wins the round at once, as an instant win: nothing else is paid (no yaku, no bet)."""
    r.ended_by = "instant"
    finish(r, p)


# ir.Event.outcome -> what follows its effects (plays_on: nothing, the turn goes on)
OUTCOMES: dict[str, Callable[[RoundState, int], None]] = {
    "plays_on": lambda r, p: None,
    "wins_round": _wins_round,
}
# ir.Event.steal_grows -> the steal paid, from the one written and the times it happened to
# him before in the round
STEALS: dict[str, Callable[[int, int], int]] = {
    "flat": lambda steal, before: steal,
    "doubling": lambda steal, before: steal << before,
}


def _apply(r: RoundState, p: int, e: ir.Event, give: int, steal: int) -> int:
    """One time of the event: each other player of the round, in play order, gives p the card
    of `give` with the fewest points (the first in the deck's order among them) and pays him
    `steal`; p's winnings take its factor. Returns the cards given."""
    gained = 0
    for q in r.order:
        if q == p:
            continue
        pile = r.captured[q] & give
        if pile:
            card = lowest(r, pile)
            r.captured[q] ^= card
            r.captured[p] |= card
            gained |= card
        if steal:
            ledger.record(r, q, p, steal, "event", e.label or e.name)
    r.event_factor[p] *= e.factor
    return gained


def lowest(r: RoundState, pile: int) -> int:
    """The card of `pile` with the fewest points, the first in the deck's order among them."""
    return 1 << lowest_bit(r.ix.points_of_bit, pile)


def lowest_bit(points: Sequence[int], pile: int) -> int:
    """lowest's card as its bit index, from the points of each bit (greedy weighs it too)."""
    best = -1
    while pile:
        low = pile & -pile
        b = low.bit_length() - 1
        pile ^= low
        if best < 0 or points[b] < points[best]:
            best = b
    return best
