"""Events during play (engine/events.py): what the turn's two cards did, told apart at the
turn's end, and each event's effects on the other players of the round."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import record


@inline
def happened(S: Array, Q: Array, kind: int) -> int:
    """events.HAPPENED: how many times the event of this kind happened in the turn."""
    if kind == EK_SWEEP:
        return 1 if S[SC, I_FIELD] == 0 else 0
    if kind == EK_STACK_LEFT:
        return 1 if S[SC, I_STACKED] else 0
    if kind == EK_BOMB:
        return 1 if S[SC, I_TURN_WHOLE] else 0
    pt = S[SC, I_PLAYED_TOOK]
    dt = S[SC, I_DRAWN_TOOK]
    if kind == EK_STACK_TAKEN:
        return (1 if popcount(pt) == 3 else 0) + (1 if popcount(dt) == 3 else 0)
    if kind == EK_PAIR_TWICE:
        if popcount(pt) != 1 or popcount(dt) != 1:
            return 0
        return 1 if Q[MONTHS, low_bit(pt)] & dt else 0
    laid = S[SC, I_TURN_LAID]  # EK_DRAW_TAKES_PLAY
    return 1 if laid and dt == laid else 0


@inline
def lowest(Q: Array, pile: int) -> int:
    """events.lowest: the card with the fewest points, the first in the deck's order."""
    best = -1
    while pile:
        b = low_bit(pile)
        pile &= pile - 1
        if best < 0 or Q[POINTS, b] < Q[POINTS, best]:
            best = b
    return 1 << best


@entry
def at_turn_end(S: Array, Q: Array, T: Array, p: int) -> int:
    """events.at_turn_end: the events of p's turn in the rule file's order, each applied as
    often as it happened (each other player, in play order, gives him a card of the class and
    pays him the steal; his winnings take the factor); the cards he was given."""
    gained = 0
    n = S[SC, I_NORDER]
    first = S[SC, I_TURN] < n
    last = True
    for k in range(n):
        q = S[P_ORDER, k]
        if S[P_HAND, q] or S[P_SKIPS, q]:
            last = False
    for i in range(Q[EVQ, EVQ_N]):
        row = EV + i
        times = happened(S, Q, Q[row, EV_KIND])
        if times == 0 or (Q[row, EV_FIRST] and not first) or (Q[row, EV_NOT_LAST] and last):
            continue
        S[CHOICES, CH_EVENT_OFFERED] += times  # (sim.exercise.count_events)
        S[CHOICES, CH_EVENT] += times
        for _ in range(times):
            for k in range(n):
                q = S[P_ORDER, k]
                if q == p:
                    continue
                pile = S[P_CAPTURED, q] & Q[row, EV_GIVE]
                if pile:
                    card = lowest(Q, pile)
                    S[P_CAPTURED, q] ^= card
                    S[P_CAPTURED, p] |= card
                    gained |= card
                if Q[row, EV_STEAL]:
                    amount = Q[row, EV_STEAL] * S[SC, I_SCALE]
                    record(S, Q, T, q, p, amount, R_EVENT, i, 1, amount)
            S[P_EVENT_FACTOR, p] *= Q[row, EV_FACTOR]
    return gained
