"""Setup (engine/setup.py): the rule file's steps in order: swap, field, fold phase, joker, teyaku,
instant win; then play begins."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.context import look_as_player
from rulekit.batch.kernel.continuation import end_of_hands
from rulekit.batch.kernel.deal import restock
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import flat_value, full_mask, pay_parts, record
from rulekit.batch.kernel.offers import BOTH, SECOND, is_offered, offered
from rulekit.batch.kernel.scoring import declarer, finish
from rulekit.batch.tables import (
    OFFER_OPTIONS,
    field_multiplier,
    first_instant_win,
    holds,
    instant_value,
    shown_cards,
)
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value

JOIN_CODE = OFFER_OPTIONS["join"]  # the join-or-fold choice's offers (fold: + 1)
SWAP_CODE = OFFER_OPTIONS["swap"]  # the swap's and the declaration's offers
DECLARE_CODE = OFFER_OPTIONS["declare"]


@entry
def run_setup(S: Array, Q: Array, T: Array, F: Floats) -> None:
    while S[SC, I_STEP] < Q[CFG, C_NSTEPS]:
        code = Q[CFG, C_STEPS + S[SC, I_STEP]]
        if code == ST_SWAP:  # setup._swap: if offered (his hand unseen: tested on no card)
            seat = swap_pair(S, Q)[1]
            if is_offered(S, Q, T, seat, 0, SWAP_CODE):
                S[SC, I_PHASE] = PH_SWAP
                S[SC, I_CURRENT] = seat
                return
        # setup._declare (idle where nobody folds and it is about the fold: setup_plan)
        asks = not Q[DQ, DQ_FOLD_ONLY] or Q[CFG, C_SEATED] > Q[CFG, C_PLAYING]
        if code == ST_DECLARE and asks and next_declarer(S, Q, T):
            return
        if code == ST_SHOW and next_shower(S, Q, T):  # setup._show: a holder asked
            return
        if code == ST_CLAIM and claim_cards(S, Q):  # setup._claim: the dealer asked
            S[SC, I_PHASE] = PH_CLAIM
            S[SC, I_CURRENT] = swap_pair(S, Q)[0]
            return
        if code == ST_FIELD:
            lay_field(S, Q, T, F)
            if S[SC, I_VOID]:
                return
        elif code == ST_FOLD:
            if fold_phase(S, Q, T, F):
                return
        elif code == ST_JOKER:
            joker(S, Q, T, F)
        elif code == ST_BONUS:
            bonus(S, Q, T, F)
        elif code == ST_TEYAKU:
            teyaku(S, Q, T, F)
        elif code == ST_INSTANT and instant_win(S, Q, T, F):
            return
        if S[SC, I_BAIL]:
            return
        S[SC, I_STEP] += 1
    begin_play(S, Q, T, F)


@entry
def lay_field(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """deal.lay_field: the top stock cards; the multiplier; a void field; teyaku waiting for
    the multiplier; the dealer's whole month."""
    laid = Q[CFG, C_FIELD]
    n = S[SC, I_NSTOCK]
    if n < laid:
        S[SC, I_BAIL] = BAIL_FULL
        return
    field = S[SC, I_FIELD]
    for k in range(laid):
        field |= 1 << S[STOCK, n - 1 - k]
    S[SC, I_NSTOCK] = n - laid
    S[SC, I_FIELD] = field
    S[SC, I_FIELD_LAID] = 1
    S[SC, I_LAID] = field
    # the field's tests see the round from no seat (RoundView(r)) when one asks about it
    npiles = look_as_player(S, Q, -1) if Q[STAGE, G_FIELD_SEES] else 0
    marr = T[Q[CFG, C_T_MULT] : Q[CFG, C_T_MULT + 1]]
    factor, carry = field_multiplier(marr, field, S[PILES], npiles)
    S[SC, I_MULT] = max(factor, S[SC, I_CARRY_IN])  # (a game's carry-over; 1 in a single round)
    S[SC, I_CARRY_OUT] = carry
    if (
        Q[CFG, C_HAS_VOID]
        and holds(T[Q[CFG, C_T_VOID] : Q[CFG, C_T_VOID + 1]], 0, field, S[PILES], npiles)
    ) or (Q[STAGE, G_VOID_HAND_AT] >= 0 and void_hand(S, Q, T)):
        S[SC, I_VOID] = 1
        S[SC, I_NLEDGER] = 0
        S[SC, I_PHASE] = PH_DONE
        return
    if S[SC, I_NPENDING]:
        pay_teyaku(S, Q, T, F)
    size = Q[CFG, C_DEALER_CAPTURES]
    if size:
        d = S[SC, I_DEALER]
        for j in range(Q[CFG, C_NMONTHS]):
            mm = Q[MONTH_MASKS, j]
            if popcount(S[SC, I_FIELD] & mm) == size:
                S[P_CAPTURED, d] |= S[SC, I_FIELD] & mm
                S[SC, I_FIELD] &= ~mm


@entry
def void_hand(S: Array, Q: Array, T: Array) -> bool:
    """deal.void_hand: whether a hand of the round (the joker is not a card of it) makes the
    hand's void rule."""
    seated = Q[CFG, C_SEATED]
    full = full_mask(Q)
    varr = T[Q[CFG, C_T_VOID] : Q[CFG, C_T_VOID + 1]]
    at = Q[STAGE, G_VOID_HAND_AT]
    for s in range(seated):
        if S[P_FOLDED, s]:
            continue
        npiles = look_as_player(S, Q, s) if Q[STAGE, G_VOID_HAND_SEES] else 0
        if holds(varr, at, S[P_HAND, s] & full, S[PILES], npiles):
            return True
    return False


@entry
def fold_phase(S: Array, Q: Array, T: Array, F: Floats) -> bool:
    """setup._fold_phase: when more sit than play, each in turn joins or folds."""
    seated = Q[CFG, C_SEATED]
    out = seated - Q[CFG, C_PLAYING]
    if out <= 0:
        return False
    mode = Q[CFG, C_SIT_OUT]
    if mode >= SIT_BY_RESULT and S[SC, I_SITTERS] >= 0:  # (setup._by_the_last_round)
        for s in range(seated):
            S[P_FOLDED, s] = S[SC, I_SITTERS] >> s & 1
        end_fold(S, Q, T, F)
        return False
    if mode != 0:
        first = S[SC, I_DEALER] + 1 if mode == 1 else S[SC, I_DEALER]
        if mode >= SIT_BY_RESULT:  # the first round: the last in play order sit out
            first = S[SC, I_DEALER] + seated - out
        for i in range(out):
            S[P_FOLDED, (first + i) % seated] = 1
        end_fold(S, Q, T, F)
        return False
    start = S[SC, I_DEALER] if Q[CFG, C_FOLD_START] == 0 else (S[SC, I_DEALER] + 1) % seated
    n = 0
    joined = 0
    for i in range(seated):
        seat = (start + i) % seated
        if S[P_DECLARER, seat] and Q[DQ, DQ_MUST_JOIN]:  # he joined when he declared
            joined = 1
        else:
            S[P_QUEUE, n] = seat
            n += 1
    S[SC, I_NQUEUE] = n
    S[SC, I_FOLD_AT] = 0
    S[SC, I_JOINED] = joined
    next_fold(S, Q, T, F)
    return bool(S[SC, I_PHASE] == PH_FOLD)


@entry
def next_fold(S: Array, Q: Array, T: Array, F: Floats) -> None:
    need_total = Q[CFG, C_PLAYING]
    while S[SC, I_FOLD_AT] < S[SC, I_NQUEUE]:
        seat = S[P_QUEUE, S[SC, I_FOLD_AT]]
        remaining = S[SC, I_NQUEUE] - S[SC, I_FOLD_AT]
        need = need_total - S[SC, I_JOINED]
        if need == 0:
            fold(S, Q, T, F, seat, False)
        elif remaining == need:
            S[SC, I_JOINED] += 1
        else:
            left = offered(S, Q, T, seat, S[P_HAND, seat], JOIN_CODE)
            if left == BOTH:
                S[SC, I_PHASE] = PH_FOLD
                S[SC, I_CURRENT] = seat
                return
            if left == SECOND:  # folding alone is offered: a fold the rules force
                fold(S, Q, T, F, seat, False)
            else:  # joining alone (or neither)
                S[SC, I_JOINED] += 1
        S[SC, I_FOLD_AT] += 1
    end_fold(S, Q, T, F)


@entry
def choose_fold(S: Array, Q: Array, T: Array, F: Floats, join: bool) -> None:
    if join:
        S[SC, I_JOINED] += 1
    else:
        fold(S, Q, T, F, S[SC, I_CURRENT], True)
    S[SC, I_FOLD_AT] += 1
    next_fold(S, Q, T, F)
    # when nobody else must choose, setup goes on: play_round calls run_setup (a call from here
    # would make the two functions recursive, which numba types slowly)


@entry
def fold(S: Array, Q: Array, T: Array, F: Floats, seat: int, voluntary: bool) -> None:
    S[P_FOLDED, seat] = 1
    if voluntary and Q[DQ, DQ_AWARD] and declarer(S, Q) >= 0:  # he pays the declarer
        n = S[SC, I_NFEES]
        S[FEES + 0, n] = seat
        S[FEES + 1, n] = Q[DQ, DQ_AWARD]
        S[FEES + 2, n] = FEE_DECLARED
        S[SC, I_NFEES] = n + 1
    fee = Q[CFG, C_FOLD_FEE] if voluntary else Q[CFG, C_FORCED_FEE]
    if fee:
        n = S[SC, I_NFEES]
        S[FEES + 0, n] = seat
        S[FEES + 1, n] = fee
        S[FEES + 2, n] = 1 if voluntary else 0
        S[SC, I_NFEES] = n + 1
    if not voluntary and Q[CQ, CQ_HAS]:
        amount = compensation(S, Q, T, seat)
        if amount:
            n = S[SC, I_NFEES]
            S[FEES + 0, n] = seat
            S[FEES + 1, n] = amount
            S[FEES + 2, n] = FEE_COMPENSATION
            S[SC, I_NFEES] = n + 1


@entry
def compensation(S: Array, Q: Array, T: Array, seat: int) -> int:
    """setup.compensation: what `seat`, forced to fold, is paid by each payer for his hand."""
    hand = S[P_HAND, seat]
    amount = Q[CQ, CQ_PER_CARD] * popcount(hand & Q[CQ, CQ_MASK])
    if amount and Q[CQ, CQ_HAS_COND]:
        npiles = look_as_player(S, Q, seat)
        prog = T[Q[CQ, CQ_T] : Q[CQ, CQ_T + 1]]
        if holds(prog, 0, hand & full_mask(Q), S[PILES], npiles):
            amount *= Q[CQ, CQ_FACTOR]
    return int(amount)


@entry
def end_fold(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """setup._end_fold: the folded hands back into the stock, shuffled."""
    full = full_mask(Q)
    n = S[SC, I_NSTOCK]
    returned = False
    for s in range(Q[CFG, C_SEATED]):
        if S[P_FOLDED, s]:
            h = S[P_HAND, s] & full
            while h:
                S[STOCK, n] = low_bit(h)
                n += 1
                h &= h - 1
                returned = True
            S[P_HAND, s] = 0
    S[SC, I_NSTOCK] = n
    if returned:
        restock(S, Q)
    S[SC, I_PHASE] = PH_PLAY


@entry
def joker(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """setup._joker: the joker swapped for the top stock card (a folder's is out)."""
    if Q[CFG, C_JOKER] < 0:
        return
    jbit = 1 << Q[CFG, C_JOKER]
    for s in range(Q[CFG, C_SEATED]):
        if S[P_HAND, s] & jbit:
            S[P_HAND, s] &= ~jbit
            if not S[P_FOLDED, s] and S[SC, I_NSTOCK]:
                S[SC, I_NSTOCK] -= 1
                S[P_HAND, s] |= 1 << S[STOCK, S[SC, I_NSTOCK]]


@entry
def bonus(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """setup._bonus: each player of the round (from the dealer) captures his bonus cards, each
    replaced from the stock into his hand; then the first of them those of the field, each
    replaced from the stock onto it."""
    mask = Q[HW, W_BONUS]
    seated = Q[CFG, C_SEATED]
    lead = -1
    for k in range(seated):
        s = (S[SC, I_DEALER] + k) % seated
        if S[P_FOLDED, s]:
            continue
        if lead < 0:
            lead = s
        S[P_CAPTURED, s] |= replace_bonus(S, P_HAND, s, mask)
    S[P_CAPTURED, lead] |= replace_bonus(S, SC, I_FIELD, mask)


@inline
def replace_bonus(S: Array, row: int, col: int, mask: int) -> int:
    """setup._replace_bonus: the bonus cards of S[row, col] (a hand, the field) taken out,
    lowest first, each replaced from the stock (a replacement that is one goes out in turn);
    returns those taken out."""
    out = 0
    while S[row, col] & mask:
        low = S[row, col] & mask & -(S[row, col] & mask)
        S[row, col] ^= low
        out |= low
        if S[SC, I_NSTOCK]:
            S[SC, I_NSTOCK] -= 1
            S[row, col] |= 1 << S[STOCK, S[SC, I_NSTOCK]]
    return out


@entry
def teyaku(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """setup._teyaku: each dealt hand checked; the teyaku paid once the multiplier is known."""
    ttab = T[Q[CFG, C_T_TEYAKU] : Q[CFG, C_T_TEYAKU + 1]]
    sel = S[SEL]
    if not Q[CFG, C_HAS_TEYAKU]:
        return
    seated = Q[CFG, C_SEATED]
    active = 0
    for s in range(seated):
        if not S[P_FOLDED, s]:
            active |= 1 << s
    values = S[TMP]
    firsts = S[TMP + 1]
    values[:SEATS] = 0
    firsts[:SEATS] = -1
    for s in range(seated):
        if not active >> s & 1:
            continue
        hand = S[P_HAND, s]
        S[P_DEALT, s] = hand
        npiles = look_as_player(S, Q, s) if Q[STAGE, G_TEYAKU_SEES] else 0
        hits = t_match(ttab, hand, False, S[PILES], npiles)
        shown = Q[SHQ, SHQ_ENTRIES]
        if shown and not S[SC, I_SHOWED] >> s & 1:  # kept hidden (next_shower): not counted
            hits &= ~shown
        n = t_counted(ttab, hits, hand, sel)
        mask = 0
        total = 0
        for k in range(n):
            mask |= 1 << sel[k]
            total += t_value(ttab, sel[k], hand)
            if shown >> sel[k] & 1:  # its cards stay face up in his hand, capturable
                programs = T[Q[RQ, RQ_T_SHOWN] : Q[RQ, RQ_T_SHOWN + 1]]
                S[SC, I_EXPOSED] |= shown_cards(programs, sel[k], hand, S[TMP + 2])
        S[P_TEYAKU, s] = mask
        if n:
            values[s] = total
            firsts[s] = sel[0]
    if Q[CFG, C_TEYAKU_HIGHEST]:
        top = -(1 << 62)
        for s in range(seated):
            if firsts[s] >= 0 and values[s] > top:
                top = values[s]
        for s in range(seated):
            if firsts[s] >= 0 and values[s] != top:
                firsts[s] = -1
    for s in range(seated):
        if firsts[s] < 0:
            continue
        flat = 0
        if Q[CFG, C_TEYAKU_ANY_FLAT]:
            flat = flat_value(Q, TFLAT, ttab, S[P_TEYAKU, s], S[P_DEALT, s])
        k = S[SC, I_NPENDING]
        S[PEND + 0, k] = s
        S[PEND + 1, k] = active
        S[PEND + 2, k] = values[s]
        S[PEND + 3, k] = flat
        S[PEND + 4, k] = D_ENTRIES - S[P_TEYAKU, s]  # every teyaku counted, named
        S[SC, I_NPENDING] = k + 1
    if S[SC, I_FIELD_LAID]:
        pay_teyaku(S, Q, T, F)


@entry
def pay_teyaku(S: Array, Q: Array, T: Array, F: Floats) -> None:
    scale = Q[CFG, C_SCALE]
    payers = S[TMP]
    for k in range(S[SC, I_NPENDING]):
        n = 0
        for s in range(Q[CFG, C_SEATED]):
            if S[PEND + 1, k] >> s & 1:
                payers[n] = s
                n += 1
        pay_parts(
            S,
            Q,
            T,
            payers,
            n,
            S[PEND + 0, k],
            S[PEND + 2, k] * scale,
            S[PEND + 3, k] * scale,
            R_TEYAKU,
            S[PEND + 4, k],
            Q[CFG, C_TEYAKU_SPLIT] != 0,
            S[PEND + 2, k] * scale,
            0,
        )
    S[SC, I_NPENDING] = 0


@entry
def instant_win(S: Array, Q: Array, T: Array, F: Floats) -> bool:
    """setup._instant_win: the first dealt hand from the dealer that wins at once (every hand
    of the round winning: a draw, where the rules say so)."""
    nwins = Q[CFG, C_N_INSTANT]
    if nwins == 0:
        return False
    seated = Q[CFG, C_SEATED]
    full = full_mask(Q)
    dealer = S[SC, I_DEALER]
    scale = Q[CFG, C_SCALE]
    iarr = T[Q[CFG, C_T_INSTANT] : Q[CFG, C_T_INSTANT + 1]]
    draws = Q[PQ, PQ_INSTANT_DRAW] != 0
    s = -1  # the first hand from the dealer that wins at once, its entry, and whether every
    won = -1  # hand of the round does (setup.INSTANT_ALL)
    every = True
    for i in range(seated):
        q = (dealer + i) % seated
        if S[P_FOLDED, q]:
            continue
        hand = S[P_HAND, q] & full
        npiles = look_as_player(S, Q, q) if Q[STAGE, G_INSTANT_SEES] else 0
        w = first_instant_win(iarr, hand, S[PILES], npiles)
        if w < 0:
            every = False
        elif s < 0:
            s = q
            won = w
        if s >= 0 and not (every and draws):
            break
    if s < 0:
        return False
    if not (every and draws):  # setup._first_wins: each other player pays him
        for j in range(seated):
            q = (dealer + j) % seated
            if q != s and not S[P_FOLDED, q]:
                v = instant_value(iarr, won) * scale
                record(S, Q, T, q, s, v, R_INSTANT, won, 1, v)
    n = 0
    for j in range(seated):
        q = (dealer + j) % seated
        if not S[P_FOLDED, q]:
            S[P_ORDER, n] = q
            n += 1
    S[SC, I_NORDER] = n
    if every and draws:  # setup._all_draw: a draw, nobody paid
        S[SC, I_ENDED] = END_DRAW
        finish(S, Q, T, F, -1, False)
    else:
        S[SC, I_ENDED] = END_INSTANT
        finish(S, Q, T, F, s, False)
    return True


@entry
def declared_times(S: Array, Q: Array, s: int) -> int:
    """setup.choose_declare: the times the declaration's factor counts for s (once, or once
    for each month of DQ_PER_MONTH cards in his hand, at least once)."""
    per = Q[DQ, DQ_PER_MONTH]
    if per == 0:
        return 1
    hand = S[P_HAND, s]
    count = 0
    rest = hand
    while rest:
        b = low_bit(rest)
        month = Q[MONTHS, b] | (1 << b)
        rest &= ~month
        if popcount(hand & month) == per:
            count += 1
    return max(1, count)


@entry
def next_declarer(S: Array, Q: Array, T: Array) -> bool:
    """setup._declare: wait for the next who may make the declaration (the dealer, or each
    player of the round from him, from I_DECLARE_AT) and is offered it; False when none is."""
    seated = Q[CFG, C_SEATED]
    dealer = S[SC, I_DEALER]
    k = 0  # the place among those who may of the seat looked at
    for j in range(seated if Q[DQ, DQ_BY] else 1):
        seat = (dealer + j) % seated
        if S[P_FOLDED, seat]:
            continue
        if k >= S[SC, I_DECLARE_AT]:
            hand = S[P_HAND, seat] if Q[DQ, DQ_SEEN] else 0
            if is_offered(S, Q, T, seat, hand, DECLARE_CODE):
                S[SC, I_PHASE] = PH_DECLARE
                S[SC, I_CURRENT] = seat
                return True
            S[SC, I_DECLARE_AT] += 1  # not offered: he passes, unasked
        k += 1
    return False


@entry
def next_shower(S: Array, Q: Array, T: Array) -> bool:
    """setup._show: wait for the next player of the round, from the dealer (from I_SHOW_AT),
    whose dealt hand makes a teyaku he may show or keep hidden; False when none is left."""
    ttab = T[Q[CFG, C_T_TEYAKU] : Q[CFG, C_T_TEYAKU + 1]]
    seated = Q[CFG, C_SEATED]
    dealer = S[SC, I_DEALER]
    k = 0  # the place among the players of the round of the seat looked at
    for j in range(seated):
        seat = (dealer + j) % seated
        if S[P_FOLDED, seat]:
            continue
        if k >= S[SC, I_SHOW_AT]:
            npiles = look_as_player(S, Q, seat) if Q[STAGE, G_TEYAKU_SEES] else 0
            hits = t_match(ttab, S[P_HAND, seat], False, S[PILES], npiles)
            if hits & Q[SHQ, SHQ_ENTRIES]:
                S[SC, I_PHASE] = PH_SHOW
                S[SC, I_CURRENT] = seat
                return True
            S[SC, I_SHOW_AT] += 1  # none to show: not asked
        k += 1
    return False


@inline
def swap_pair(S: Array, Q: Array) -> tuple[int, int]:
    """setup.swap_pair: the dealer (or the first after him who plays) and the next who plays."""
    seated = Q[CFG, C_SEATED]
    first = -1
    for k in range(seated):
        s = (S[SC, I_DEALER] + k) % seated
        if not S[P_FOLDED, s]:
            if first >= 0:
                return first, s
            first = s
    return first, first


@entry
def claim_cards(S: Array, Q: Array) -> int:
    """setup.claim_cards: of each month with exactly CLQ_SIZE cards on the field, its first
    CLQ_TAKE (the lowest bits: the deck's order); 0: none, or no claim in the rule file."""
    take = Q[CLQ, CLQ_TAKE]
    out = 0
    if take == 0:
        return out
    for j in range(Q[CFG, C_NMONTHS]):
        month = S[SC, I_FIELD] & Q[MONTH_MASKS, j]
        if popcount(month) == Q[CLQ, CLQ_SIZE]:
            for _ in range(take):
                low = month & -month
                out |= low
                month ^= low
    return out


@entry
def choose_claim(S: Array, Q: Array, s: int, claim: bool) -> None:
    """setup.choose_claim (the caller runs the next steps): the cards into his pile."""
    if claim:
        cards = claim_cards(S, Q)
        S[P_CAPTURED, s] |= cards
        S[SC, I_FIELD] &= ~cards
        S[SC, I_CLAIMED] = 1


@entry
def begin_play(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """setup.begin_play: from the dealer (or the first after him who plays); after his claim
    of the field, from the next player, he last."""
    seated = Q[CFG, C_SEATED]
    n = 0
    total = 0
    for k in range(seated):
        s = (S[SC, I_DEALER] + k) % seated
        if not S[P_FOLDED, s]:
            S[P_ORDER, n] = s
            n += 1
            total += popcount(S[P_HAND, s])
    if S[SC, I_CLAIMED] and n > 1:
        first = S[P_ORDER, 0]
        for k in range(n - 1):
            S[P_ORDER, k] = S[P_ORDER, k + 1]
        S[P_ORDER, n - 1] = first
    S[SC, I_NORDER] = n
    S[SC, I_TURN] = 0
    S[SC, I_POS] = 0
    S[SC, I_PHASE] = PH_PLAY
    S[SC, I_CURRENT] = S[P_ORDER, 0]
    if total == 0:
        end_of_hands(S, Q, T, F)
