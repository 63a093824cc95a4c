"""A draw offered (engine/draw_offer.py, ir.DrawOffer): OFFER among the plays of a player with
no safe play, the others' answers in turn, the round drawn when all accept, and the first
refuser paying a stop of another's for all (continuation.refuser_pays)."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.continuation import close_continuations, yaku_hits
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import full_mask
from rulekit.batch.kernel.scoring import finish
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import value as t_value


@inline
def captures(S: Array, Q: Array, a: int) -> int:
    """capture.preview of a play: the cards it would capture before the draw."""
    if a == SKIP:
        return 0
    b = a & CARD_MASK
    if a >= HIKI:
        return int(Q[MONTH_MASKS, a - HIKI])
    if a >> SHIFT:
        return (1 << ((a >> SHIFT) - 1)) | (1 << b)
    if Q[HW, W_LONE] >> b & 1:
        return 1 << b
    m: int = S[SC, I_FIELD] & Q[MONTHS, b]
    return m | (1 << b) if m else 0


@entry
def may_offer(S: Array, Q: Array, T: Array, p: int, legal: Array, n: int) -> bool:
    """draw_offer.may_offer: the round's one offer, holding a card, no play captures, and no
    draw reaches the minimum."""
    if S[SC, I_OFFERED] or not S[P_HAND, p]:
        return False
    for k in range(n):
        if captures(S, Q, legal[k]):
            return False
    return not draw_reaches(S, Q, T, p)


@entry
def draw_reaches(S: Array, Q: Array, T: Array, p: int) -> bool:
    """draw_offer.draw_reaches: a card unseen by p whose capture (a field card of its month,
    each in turn, or a stack of three, or a hand card of its month laid, each in turn) raises
    his yaku over the bar (the minimum less one, or what he made)."""
    if not Q[CFG, C_HAS_YAKU]:
        return False
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    hand = S[P_HAND, p]
    field = S[SC, I_FIELD]
    known = hand | field
    for s in range(Q[CFG, C_SEATED]):
        known |= S[P_CAPTURED, s]
        if s != p and S[SC, I_OFFERED] >> s & 1:
            known |= S[P_HAND, s]
    unseen = full_mask(Q) & ~known
    pile = S[P_CAPTURED, p]
    bar = S[P_MADE_VALUE, p] if Q[STAGE, G_AFTER_LOSS] else S[P_DECLARED, p]
    bar = max(Q[OQ, OQ_MIN] - 1, bar)
    sel = S[SEL]
    while unseen:
        d = low_bit(unseen)
        unseen &= unseen - 1
        month = Q[MONTHS, d]
        on_field = field & month
        gains = on_field | (hand & month)
        whole = popcount(on_field) == 3
        while gains:
            gain = on_field if whole else 1 << low_bit(gains)
            gains = 0 if whole else gains & (gains - 1)
            x = pile | gain | (1 << d)
            hits = yaku_hits(S, Q, T, p, x)
            if hits:
                k = t_counted(ytab, hits, x, sel)
                value = 0
                for j in range(k):
                    value += t_value(ytab, sel[j], x)
                if value > bar:
                    return True
    return False


@entry
def offer(S: Array) -> None:
    """draw_offer.offer: his hand shown, the next player in order answers."""
    p = S[SC, I_CURRENT]
    S[SC, I_OFFERED] |= 1 << p
    S[SC, I_OFFERER] = p
    S[SC, I_PHASE] = PH_ANSWER
    S[SC, I_CURRENT] = after(S, p)


@entry
def answer(S: Array, Q: Array, T: Array, F: Floats, accept: bool) -> None:
    """draw_offer.answer: a refusal (the first kept) gives the offerer his turn back; an
    acceptance asks the next, and the last one ends the round as a draw."""
    s = S[SC, I_CURRENT]
    if not accept:
        if S[SC, I_REFUSER] < 0:
            S[SC, I_REFUSER] = s
        S[SC, I_CURRENT] = S[SC, I_OFFERER]
        S[SC, I_PHASE] = PH_PLAY
        return
    nxt = after(S, s)
    if nxt != S[SC, I_OFFERER]:
        S[SC, I_CURRENT] = nxt
        return
    S[SC, I_CURRENT] = S[SC, I_OFFERER]
    close_continuations(S, Q, T, F, -1)
    finish(S, Q, T, F, -1, False)
    S[SC, I_ENDED] = END_DRAW


@inline
def after(S: Array, s: int) -> int:
    """The player after s in play order."""
    n = S[SC, I_NORDER]
    for k in range(n):
        if S[P_ORDER, k] == s:
            return int(S[P_ORDER, (k + 1) % n])
    return s
