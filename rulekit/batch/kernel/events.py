"""Events during play (engine/events.py): what the turn's two cards did, told apart at the
turn's end, and each event's effects on the other players of the round."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import record
from rulekit.batch.kernel.scoring import finish


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
def at_turn_end(S: Array, Q: Array, T: Array, F: Floats, p: int) -> int:
    """events.at_turn_end: the events of p's turn in the rule file's order, each applied as
    often as it happened and its time and streak allow (each other player, in play order,
    gives him a card of the class and pays him the steal; his winnings take the factor); the
    cards he was given. An event that wins the round ends it here."""
    gained = 0
    applied = 0  # the events applied to him this turn (a bit each, for the rows they join)
    n = S[SC, I_NORDER]
    first = S[SC, I_TURN] < n
    his_turn = S[SC, I_TURN] // n  # (his turns before this one)
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
        time = Q[row, EV_TIME]
        in_a_row = Q[row, EV_IN_A_ROW]
        counted = time or in_a_row or Q[row, EV_DOUBLING]
        col = p * MAX_EVENTS + i
        for _ in range(times):
            before = 0
            if counted:  # the times it happened to him before, in the round
                before = S[P_EVENT_TIMES, col]
                S[P_EVENT_TIMES, col] = before + 1
                if (time and before + 1 != time) or (in_a_row and before != his_turn):
                    continue
            S[CHOICES, CH_EVENT_OFFERED] += 1  # (sim.exercise.count_events)
            S[CHOICES, CH_EVENT] += 1
            applied |= 1 << i
            steal = Q[row, EV_STEAL] << before if Q[row, EV_DOUBLING] else Q[row, EV_STEAL]
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
                if steal:
                    amount = steal * S[SC, I_SCALE]
                    record(S, Q, T, q, p, amount, R_EVENT, i, 1, amount)
            S[P_EVENT_FACTOR, p] *= Q[row, EV_FACTOR]
            if Q[row, EV_WINS]:  # events._wins_round: an instant win, nothing else paid
                S[SC, I_ENDED] = END_INSTANT
                finish(S, Q, T, F, p, False)
                return gained
    if applied:  # events._join_rows: a joined event's turn counts once in each row it joins
        for i in range(Q[EVQ, EVQ_N]):
            col = p * MAX_EVENTS + i
            if Q[EV + i, EV_ROW_WITH] & applied and S[P_EVENT_TIMES, col] == his_turn:
                S[P_EVENT_TIMES, col] = his_turn + 1
    return gained
