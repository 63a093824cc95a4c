"""The turn (engine/capture.py): the plays of a hand, a card played, the draw, a take, the yaku
check, the next player."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.continuation import end_of_hands, yaku_check, yaku_hits
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)


@entry
def plays(hand: int, field: int, Q: Array, out: Array) -> int:
    """specialise.compile_plays: each hand card lowest first; a card matching two field cards
    is two plays, one per target (the lower first)."""
    n = 0
    while hand:
        b = low_bit(hand)
        hand &= hand - 1
        m = field & Q[MONTHS, b]
        if m and popcount(m) == 2:
            lo = low_bit(m)
            hi = low_bit(m & (m - 1))
            out[n] = b | ((lo + 1) << SHIFT)
            out[n + 1] = b | ((hi + 1) << SHIFT)
            n += 2
        else:
            out[n] = b
            n += 1
    return n


@entry
def play_card(S: Array, Q: Array, T: Array, F: Floats, action: int) -> None:
    """capture.play_plain: the play, the draw, the yaku check, the next player."""
    p = S[SC, I_CURRENT]
    hand = S[P_HAND, p]
    b = action & CARD_MASK
    bit = 1 << b
    field = S[SC, I_FIELD]
    m = field & Q[MONTHS, b]
    if m:
        if popcount(m) == 2:
            m = 1 << ((action >> SHIFT) - 1)
        field &= ~m
        got = m | bit
        fed = m
    else:
        if Q[CFG, C_LIABLE_MIN] >= 0:
            S[FEED + 0, b] = p
            S[FEED + 1, b] = popcount(hand)
        field |= bit
        got = 0
        fed = 0
    S[P_HAND, p] = hand ^ bit
    n = S[SC, I_NSTOCK]
    if n:
        n -= 1
        S[SC, I_NSTOCK] = n
        d = S[STOCK, n]
        m2 = field & Q[MONTHS, d]
        if not m2:
            field |= 1 << d
        elif popcount(m2) == 2:
            S[SC, I_DRAWN] = d
            S[SC, I_PHASE] = PH_TAKE
        else:
            field &= ~m2
            got |= m2 | (1 << d)
            fed |= m2
    S[SC, I_FIELD] = field
    S[SC, I_TURN_GOT] = got
    S[SC, I_FED] = fed
    if got:
        S[P_CAPTURED, p] |= got
        if S[SC, I_PHASE] != PH_PLAY:
            return
        check_yaku(S, Q, T, F, p)
        if S[SC, I_PHASE] != PH_PLAY:
            return
    elif S[SC, I_PHASE] != PH_PLAY:
        return
    pass_turn(S, Q, T, F)


@entry
def check_yaku(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    """end_turn's yaku check: the table matches differently, or a bonus may have grown."""
    if not Q[CFG, C_HAS_YAKU] or S[P_FORFEITED, p]:
        return
    x = S[P_CAPTURED, p]
    hits = yaku_hits(S, Q, T, p, x)
    seen = S[P_HITS, p]
    if (hits or seen) and (hits != seen or Q[CFG, C_YAKU_BONUS]):
        yaku_check(S, Q, T, F, p, hits, x)


@inline
def pass_turn(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """The next player in order, when he holds cards (else next_turn)."""
    pos = S[SC, I_POS] + 1
    if pos == S[SC, I_NORDER]:
        pos = 0
    s = S[P_ORDER, pos]
    if S[P_HAND, s]:
        S[SC, I_TURN] += 1
        S[SC, I_POS] = pos
        S[SC, I_CURRENT] = s
        return
    next_turn(S, Q, T, F)


@entry
def take(S: Array, Q: Array, T: Array, F: Floats, action: int) -> None:
    """capture.take: one of the two field cards the drawn card matches."""
    t = action - TAKE
    S[SC, I_FIELD] &= ~(1 << t)
    got = (1 << t) | (1 << S[SC, I_DRAWN])
    p = S[SC, I_CURRENT]
    S[P_CAPTURED, p] |= got
    S[SC, I_TURN_GOT] |= got
    S[SC, I_FED] |= 1 << t
    S[SC, I_DRAWN] = -1
    S[SC, I_PHASE] = PH_PLAY
    if S[SC, I_TURN_GOT]:
        check_yaku(S, Q, T, F, p)
        if S[SC, I_PHASE] != PH_PLAY:
            return
    pass_turn(S, Q, T, F)


@entry
def next_turn(S: Array, Q: Array, T: Array, F: Floats) -> None:
    S[SC, I_TURN] += 1
    n = S[SC, I_NORDER]
    pos = S[SC, I_POS]
    for k in range(1, n + 1):
        s = S[P_ORDER, (pos + k) % n]
        if S[P_HAND, s]:
            S[SC, I_POS] = (pos + k) % n
            S[SC, I_CURRENT] = s
            S[SC, I_PHASE] = PH_PLAY
            return
    end_of_hands(S, Q, T, F)
