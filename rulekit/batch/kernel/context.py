"""The round as a condition that sees it reads it (engine/context.py's RoundView), written into
the condition VM's context: the row S[PILES] (batch/tables.py's module docstring gives its
slots)."""

from __future__ import annotations

from rulekit.batch.chance import apart, entry
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.tables import (
    CTX_CONTINUED,
    CTX_DEALER,
    CTX_DECLARED,
    CTX_DRAWS,
    CTX_FIELD,
    CTX_MONTH,
    CTX_NOBODY_WON,
    CTX_PAYER,
    CTX_PLACE,
    CTX_ROUND,
    CTX_SCALE,
    CTX_SCORE,
    DEALT_SLOT,
    NO_PILES,
)


@apart
def look_from(S: Array, Q: Array, seat: int, score: int, nobody_won: bool) -> int:
    """RoundView(r, seat, nobody_won=...) with `score` (scaled) as his: the round's number and
    month, his dealer role and continues and his opponents', the field as laid, what he was
    dealt, and the piles of the round's players in play order; returns the VM's `npiles` for
    it (NO_PILES before play begins, when the round has no player in order yet)."""
    ctx = S[PILES]
    n = S[SC, I_NORDER]
    for k in range(n):
        ctx[k] = S[P_CAPTURED, S[P_ORDER, k]]
    number = S[SC, I_ROUND_NO]  # the round's number from 0 (a single deal: its number)
    ctx[CTX_ROUND] = number + 1
    ctx[CTX_MONTH] = Q[MONTH_MASKS, number % Q[CFG, C_NMONTHS]]
    ctx[CTX_DEALER] = 1 if seat >= 0 and seat == leader(S, Q) else 0
    ctx[CTX_CONTINUED] = S[P_CONTINUES, seat] if seat >= 0 else 0
    most = 0
    for q in range(Q[CFG, C_SEATED]):
        if q != seat and not S[P_FOLDED, q] and S[P_CONTINUES, q] > most:
            most = S[P_CONTINUES, q]
    ctx[CTX_CONTINUED + 1] = most
    ctx[CTX_SCORE] = score
    ctx[CTX_SCALE] = Q[CFG, C_SCALE]
    ctx[CTX_FIELD] = S[SC, I_LAID]
    ctx[CTX_NOBODY_WON] = 1 if nobody_won else 0
    ctx[CTX_DRAWS] = S[SC, I_DRAWS_BEFORE]
    ctx[CTX_PAYER] = -1  # (a scoring factor's step_hits gives its payer's pile)
    ctx[CTX_PLACE] = 0  # his place in play order from the dealer (`second`, `third`)
    for k in range(n):
        if S[P_ORDER, k] == seat:
            ctx[CTX_PLACE] = k + 1
    ctx[CTX_DECLARED] = 0  # the rule file's declaration made this round, by anyone
    for q in range(Q[CFG, C_SEATED]):
        if S[P_DECLARER, q]:
            ctx[CTX_DECLARED] = 1
    ctx[DEALT_SLOT] = S[P_TEYAKU, seat] if seat >= 0 else 0
    ctx[DEALT_SLOT + 1] = S[P_DEALT, seat] if seat >= 0 else 0
    return int(n) if n else NO_PILES


@entry
def look_as_player(S: Array, Q: Array, seat: int) -> int:
    """RoundView(r, seat): look_from with his score so far (the value of the yaku he made)."""
    score = S[P_MADE_VALUE, seat] * Q[CFG, C_SCALE] if seat >= 0 else 0
    return look_from(S, Q, seat, score, False)


@entry
def leader(S: Array, Q: Array) -> int:
    """RoundView.leader: the dealer, or who leads in his place when he sits the round out."""
    seated = Q[CFG, C_SEATED]
    d = S[SC, I_DEALER]
    for i in range(seated):
        s = (d + i) % seated
        if not S[P_FOLDED, s]:
            return int(s)
    return int(d)
