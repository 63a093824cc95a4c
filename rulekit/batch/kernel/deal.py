"""The deal (engine/deal.py): a new try at a deal, the shuffle from its seed, the restock after
the folds."""

from __future__ import annotations

from rulekit.batch.chance import entry, permutation, sha512_limbs, write_int
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)


@entry
def deal_string(S: Array, Q: Array) -> int:
    """ "{seed}:{deal_no}" in S[BUF] (deal_no: the number, "{number}.{k}" for the k-th
    redeal; in a game, whose seed is "{seed}:{number}", its deal number); its length."""
    buf = S[BUF]
    at = write_int(buf, 0, Q[CFG, C_SEED])
    buf[at] = 58
    at = write_int(buf, at + 1, S[SC, I_NUMBER])
    if S[SC, I_GAME]:
        buf[at] = 58
        at = write_int(buf, at + 1, S[SC, I_DEAL_NO])
    elif S[SC, I_VOIDS]:
        buf[at] = 46
        at = write_int(buf, at + 1, S[SC, I_VOIDS])
    return at


@entry
def deal(S: Array, Q: Array) -> None:
    """deal.shuffle: the SHA-512 of "{seed}:{deal_no}" in the factorial base; hands, then the
    rest as the stock (drawn from its end), the joker out of it."""
    x = S[XL, :16]
    order = S[ORDER]
    sha512_limbs(S[BUF], deal_string(S, Q), x, S[SHA])
    n = Q[CFG, C_NCARDS]
    permutation(x, n, order)
    h = Q[CFG, C_HAND]
    seated = Q[CFG, C_SEATED]
    for s in range(seated):
        hand = 0
        for k in range(s * h, (s + 1) * h):
            hand |= 1 << order[k]
        S[P_HAND, s] = hand
    m = 0
    joker = Q[CFG, C_JOKER]
    for k in range(n - 1, seated * h - 1, -1):
        if order[k] != joker:
            S[STOCK, m] = order[k]
            m += 1
    S[SC, I_NSTOCK] = m


@entry
def restock(S: Array, Q: Array) -> None:
    """setup._end_fold's shuffle: the stock permuted by deal_order("{seed}:{deal_no}:setup")."""
    buf = S[BUF]
    at = deal_string(S, Q)
    for ch in (58, 115, 101, 116, 117, 112):  # ":setup"
        buf[at] = ch
        at += 1
    x = S[XL, :16]
    order = S[ORDER]
    sha512_limbs(buf, at, x, S[SHA])
    n = S[SC, I_NSTOCK]
    permutation(x, n, order)
    for j in range(n):
        S[TMP, j] = S[STOCK, j]
    for j in range(n):
        S[STOCK, j] = S[TMP, order[j]]


@entry
def reset(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """A new try at a deal: every field of the round as a new RoundState has it."""
    number, dealer, voids = S[SC, I_NUMBER], S[SC, I_DEALER], S[SC, I_VOIDS]
    S[:SC, :SEATS] = 0
    S[P_EVENT_FACTOR, :SEATS] = 1
    S[P_FIRST_GO, :SEATS] = 0
    S[P_EVENT_TIMES, : SEATS * MAX_EVENTS] = 0
    S[P_SKIPS, :SEATS] = 0
    S[RIDES, :64] = 0
    S[SC, :I_SIZE] = 0
    S[SC, I_NUMBER] = number
    S[SC, I_DEALER] = dealer
    S[SC, I_VOIDS] = voids
    S[SC, I_DECLARE_AT] = 0
    S[SC, I_WON_AT_ONCE] = 0
    S[SC, I_CLAIMED] = 0
    S[SC, I_SHOW_AT] = 0
    S[SC, I_SHOWED] = 0
    S[SC, I_EXPOSED] = 0
    S[SC, I_OFFERED] = 0  # (a draw offered: kernel/offer.py)
    S[SC, I_OFFERER] = -1
    S[SC, I_REFUSER] = -1
    S[SC, I_SCALE] = Q[CFG, C_SCALE]
    S[SC, I_CURRENT] = dealer
    S[SC, I_MULT] = 1
    S[SC, I_LAST_MAKER] = -1
    S[SC, I_DRAWN] = -1
    S[SC, I_WINNER] = -1
    seated = Q[CFG, C_SEATED]
    if Q[CFG, C_LIABLE_MIN] >= 0:  # only liability reads who laid a card, and who is liable
        S[FEED, :64] = -1
        S[LIAB : LIAB + seated, : Q[CFG, C_NYAKU]] = -1
    S[YC : YC + seated, : Q[CFG, C_NYAKU]] = 0
