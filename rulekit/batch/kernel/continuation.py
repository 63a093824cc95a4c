"""A yaku made, and what follows (engine/continuation.py): stop or continue, beaten and
unfinished continuers, liability, the hands running out."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.context import look_as_player
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import flat_value, others_of, pay, pay_parts, share
from rulekit.batch.kernel.offers import BOTH, SECOND, is_offered, offered
from rulekit.batch.kernel.scoring import finish
from rulekit.batch.tables import OFFER_OPTIONS
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value

STOP_CODE = OFFER_OPTIONS["stop"]  # the stop-or-continue choice's offers (continue: + 1)
CHOICE_CODE = OFFER_OPTIONS["choice"]  # the choice as a whole (`choice only if`)


@inline
def entry_values(ytab: Array, mask: int, x: int, idx: Array, vals: Array) -> int:
    """The entries of a mask, lowest first, with their values on the pile x."""
    n = 0
    while mask:
        i = low_bit(mask)
        mask &= mask - 1
        idx[n] = i
        vals[n] = t_value(ytab, i, x)
        n += 1
    return n


@entry
def yaku_hits(S: Array, Q: Array, T: Array, p: int, x: int) -> int:
    """capture.end_turn's match: the yaku table's play entries on p's pile x, with the round as
    he sees it (RoundView(r, p)) when the table asks about it."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    npiles = look_as_player(S, Q, p) if Q[STAGE, G_YAKU_SEES] else 0
    return t_match(ytab, x, False, S[PILES], npiles)


@entry
def yaku_check(S: Array, Q: Array, T: Array, F: Floats, p: int, hits: int, x: int) -> None:
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    sel = S[SEL]
    sel = S[SEL]
    S[P_HITS, p] = hits
    n = t_counted(ytab, hits, x, sel)
    mask = 0
    value = 0
    for k in range(n):
        mask |= 1 << sel[k]
        value += t_value(ytab, sel[k], x)
    bar = S[P_MADE_VALUE, p] if Q[STAGE, G_AFTER_LOSS] else S[P_DECLARED, p]
    if value > bar:  # a real rise (ir.Continuation.after_loss: over what)
        made(S, Q, T, F, p, mask, value)
    elif mask != S[P_MADE_ENTRIES, p]:
        S[P_MADE_VALUE, p] = value
        S[P_MADE_ENTRIES, p] = mask
        if Q[CFG, C_PAID_STOP]:
            list_counted(S, p, mask)


@inline
def list_counted(S: Array, p: int, mask: int) -> None:
    """_list_stop_pays: what a stop would be paid for."""
    S[YC + p, :] = 0
    while mask:
        S[YC + p, low_bit(mask)] = 1
        mask &= mask - 1


@entry
def made(S: Array, Q: Array, T: Array, F: Floats, p: int, counted: int, value: int) -> None:
    """continuation.made: p's yaku grew; listed and paid as the rules say; then stop or not."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    new = counted & ~S[P_MADE_ENTRIES, p]
    declared = S[P_DECLARED, p]
    delta = value - declared if value > declared else 0  # over what was made or paid
    S[P_MADE_VALUE, p] = value
    if value > declared:
        S[P_DECLARED, p] = value
    S[P_MADE_ENTRIES, p] = counted
    if Q[CFG, C_PAID_STOP]:
        list_counted(S, p, counted)
    else:
        m = new
        while m:
            S[YC + p, low_bit(m)] += 1
            m &= m - 1
    maker = S[SC, I_LAST_MAKER]
    S[SC, I_LAST_MAKER] = p
    if S[P_CONTINUING, p]:
        S[P_CONTINUE_WINS, p] += 1
    S[P_CONTINUING, p] = 0
    idx = S[IDX]
    vals = S[VALS]
    if not Q[CFG, C_ENDS_ROUND]:
        if Q[CFG, C_PAID_IN_PLAY]:
            n = entry_values(ytab, new, S[P_CAPTURED, p], idx, vals)
            pay_yaku(S, Q, T, F, p, idx, vals, n, delta, 1, -1)
        if counted & Q[PQ, PQ_WINS_ROUND]:  # a yaku that wins the round at once: counted now
            S[SC, I_WON_AT_ONCE] = p + 1
            end_of_hands(S, Q, T, F)
        return
    cover = beaten(S, Q, T, F, p)
    if Q[CFG, C_LIABLE_MIN] >= 0:
        m = new
        while m:
            i = low_bit(m)
            m &= m - 1
            feeder = liable_feeder(S, Q, T, F, p, i)
            if feeder >= 0:
                S[LIAB + p, i] = feeder
    n = entry_values(ytab, new, S[P_CAPTURED, p], idx, vals)
    if cover >= 0:
        pay_yaku(S, Q, T, F, p, idx, vals, n, delta, 1, cover)
        if Q[CFG, C_PAID_STOP]:
            S[P_PREPAID_DONE, p] |= new
            S[P_PREPAID_BASE, p] += delta
    elif not Q[CFG, C_PAID_STOP]:
        pay_yaku(S, Q, T, F, p, idx, vals, n, delta, 1, -1)
    holding = False
    for k in range(S[SC, I_NORDER]):
        q = S[P_ORDER, k]
        if S[P_HAND, q] or S[P_SKIPS, q]:  # (a play to skip after a bomb: a turn to come)
            holding = True
    left = offered(S, Q, T, p, S[P_CAPTURED, p], STOP_CODE) if Q[CFG, C_ALLOWED] and holding else 0
    if counted & Q[PQ, PQ_WINS_ROUND]:  # a yaku that wins the round at once: he stops
        left = 0
    elif not is_offered(S, Q, T, p, S[P_CAPTURED, p], CHOICE_CODE):
        S[SC, I_LAST_MAKER] = maker  # below the choice's condition: no stop, no continue,
        return  # and no win when the hands run out (as continuation.made)
    if left == BOTH:
        S[SC, I_PHASE] = PH_DECIDE
        S[SC, I_CURRENT] = p
    elif left == SECOND:  # continuing alone is offered: he continues
        S[P_CONTINUING, p] = 1
        S[P_CONTINUES, p] += 1
        if S[P_FIRST_GO, p] == 0:
            S[P_FIRST_GO, p] = S[SC, I_TURN] + 1
    else:
        stop(S, Q, T, F, p)


@entry
def beaten(S: Array, Q: Array, T: Array, F: Floats, p: int) -> int:
    """continuation._beaten: the continuers p beat, settled; the one who covers, or -1."""
    if not (Q[CFG, C_REFUND_HALF] or Q[CFG, C_PAY_FOR_ALL] or Q[CFG, C_BEATEN_FORFEIT]):
        return -1
    cover = -1
    n = S[SC, I_NORDER]
    for k in range(n):
        q = S[P_ORDER, k]
        if q == p or not S[P_CONTINUING, q]:
            continue
        S[P_CONTINUING, q] = 0
        if Q[CFG, C_REFUND_HALF] and S[P_STAKE, q]:
            flat = S[P_STAKE_FLAT, q]
            for j in range(n):
                o = S[P_ORDER, j]
                if o != q:
                    back = share(S, S[P_STAKE, q] - flat, 2)
                    pay(S, Q, T, q, o, back, R_REFUND, D_BEATEN, False, back)
                    back = share(S, flat, 2)
                    pay(S, Q, T, q, o, back, R_REFUND, D_BEATEN, True, back)
        if Q[CFG, C_PAY_FOR_ALL]:
            cover = q
        if Q[CFG, C_BEATEN_FORFEIT]:
            S[P_FORFEITED, q] = 1
    return cover


@entry
def liable_feeder(S: Array, Q: Array, T: Array, F: Floats, p: int, i: int) -> int:
    if not Q[YLIABLE, i]:
        return -1
    relevant = S[SC, I_FED] & Q[YCARDS, i]
    feeder = -1
    while relevant:
        b = low_bit(relevant)
        relevant &= relevant - 1
        seat = S[FEED + 0, b]
        held = S[FEED + 1, b]
        if seat < 0:
            seat = p
            held = 0
        if seat != p and held >= Q[CFG, C_LIABLE_MIN]:
            feeder = seat
    return feeder


@entry
def pay_yaku(
    S: Array,
    Q: Array,
    T: Array,
    F: Floats,
    p: int,
    idx: Array,
    vals: Array,
    n: int,
    total: int,
    factor: int,
    cover: int,
) -> None:
    """continuation.pay_yaku: by a beaten continuer for every payer, by a liable feeder for
    what he fed, else by each other player; then the stake a continue bets."""
    scale = Q[CFG, C_SCALE]
    split = Q[CFG, C_YAKU_SPLIT] != 0
    others = S[OTHERS]
    nothers = others_of(S, p, others)
    payers = 1 if split else nothers
    remaining = total
    rest_idx = S[REST_IDX]
    rest_vals = S[REST_VALS]
    nrest = 0
    for k in range(n):
        i = idx[k]
        value = vals[k]
        payer = cover
        if cover < 0 and Q[CFG, C_LIABLE_MIN] >= 0:  # (LIAB is kept only with liability)
            payer = S[LIAB + p, i]
        if payer < 0:
            rest_idx[nrest] = i
            rest_vals[nrest] = value
            nrest += 1
        else:
            reason = R_PENALTY if cover >= 0 else R_LIABILITY
            part = min(value, remaining)
            amount = part * payers * factor * scale
            pay(S, Q, T, payer, p, amount, reason, i, Q[YFLAT, i] != 0, part * scale)
            remaining -= part
    if remaining > 0:
        detail = D_YAKU  # the names of every entry paid for, or "yaku"
        if n:
            mask = 0
            for k in range(n):
                mask |= 1 << idx[k]
            detail = D_ENTRIES - mask
        flat = 0
        if Q[CFG, C_YAKU_ANY_FLAT]:
            flat = flat_part(S, Q, T, F, p, rest_idx, rest_vals, nrest, remaining)
        if cover >= 0:
            amount = (remaining - flat) * payers * factor * scale
            pay(S, Q, T, cover, p, amount, R_PENALTY, detail, False, remaining * scale)
            amount = flat * payers * factor * scale
            pay(S, Q, T, cover, p, amount, R_PENALTY, detail, True, remaining * scale)
        else:
            pay_parts(
                S,
                Q,
                T,
                others,
                nothers,
                p,
                remaining * factor * scale,
                flat * factor * scale,
                R_YAKU,
                detail,
                split,
                remaining * scale,
                0,
            )
    # the stake a continue bets, also when a beaten continuer covered these yaku
    ways = nothers if split and nothers else 1
    S[P_STAKE, p] = share(S, total * factor * scale, ways)
    flat = 0
    if Q[CFG, C_YAKU_ANY_FLAT]:
        flat = flat_part(S, Q, T, F, p, idx, vals, n, total)
    S[P_STAKE_FLAT, p] = share(S, flat * factor * scale, ways)


@entry
def flat_part(
    S: Array, Q: Array, T: Array, F: Floats, p: int, idx: Array, vals: Array, n: int, remaining: int
) -> int:
    """continuation._flat_part (unscaled values)."""
    flat = 0
    left = remaining
    for k in range(n):
        part = min(vals[k], left)
        left -= part
        if Q[YFLAT, idx[k]]:
            flat += part
    if left:
        every = True
        m = S[P_MADE_ENTRIES, p]
        while m:
            if not Q[YFLAT, low_bit(m)]:
                every = False
            m &= m - 1
        if every:
            flat += left
    return flat


@entry
def made_flat(S: Array, Q: Array, T: Array, F: Floats, q: int) -> int:
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    if not Q[CFG, C_YAKU_ANY_FLAT]:
        return 0
    return flat_value(Q, YFLAT, ytab, S[P_MADE_ENTRIES, q], S[P_CAPTURED, q])


@entry
def pay_made(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    """continuation.pay_made: what p made and was not paid yet (and `+N per continue`)."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    x = S[P_CAPTURED, p]
    factor = S[P_CONTINUES, p] + 1 if Q[CFG, C_PER_YAKU] else 1
    idx = S[IDX]
    vals = S[VALS]
    n = entry_values(ytab, S[P_MADE_ENTRIES, p] & ~S[P_PREPAID_DONE, p], x, idx, vals)
    base = S[P_PREPAID_BASE, p]
    if S[P_MADE_VALUE, p] > base:
        bonus = Q[PQ, PQ_PER_CONTINUE] * S[P_CONTINUES, p]
        pay_yaku(S, Q, T, F, p, idx, vals, n, S[P_MADE_VALUE, p] - base + bonus, factor, -1)


@inline
def at_stop(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    if Q[CFG, C_PAID_STOP]:
        pay_made(S, Q, T, F, p)


@entry
def stop(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    S[P_CONTINUING, p] = 0
    start = S[SC, I_NLEDGER]
    at_stop(S, Q, T, F, p)
    if Q[PQ, PQ_OUTSTOPPED_PAYS]:
        first_continuer_pays(S, p, start)
    if Q[OQ, OQ_REFUSER_PAYS] and S[SC, I_REFUSER] >= 0:  # (a draw offered and refused)
        refuser_pays(S, Q, p, start)
    close_continuations(S, Q, T, F, p)
    S[SC, I_ENDED] = END_YAKU
    finish(S, Q, T, F, p, False)


@entry
def first_continuer_pays(S: Array, p: int, start: int) -> None:
    """continuation._first_continuer_pays: the first of the others who continued in the round
    pays, for every payer, what p's stop was paid (the ledger from `start`): go-bak."""
    liable = -1
    for k in range(S[SC, I_NORDER]):
        q = S[P_ORDER, k]
        if q != p and S[P_FIRST_GO, q] and (liable < 0 or S[P_FIRST_GO, q] < S[P_FIRST_GO, liable]):
            liable = q
    if liable < 0:
        return
    for k in range(start, S[SC, I_NLEDGER]):
        if S[LEDGER + 1, k] == p and S[LEDGER, k] != liable and S[LEDGER + 3, k] == R_YAKU:
            S[LEDGER, k] = liable
            S[LEDGER + 3, k] = R_LIABILITY


@entry
def refuser_pays(S: Array, Q: Array, p: int, start: int) -> None:
    """draw_offer._refuser_pays (a draw offered: kernel/offer.py): the refuser pays what
    p's stop was paid (the ledger from `start`) for every payer, unless he is p or a continuer
    pays for all."""
    q = S[SC, I_REFUSER]
    if q < 0 or q == p:
        return
    if Q[PQ, PQ_OUTSTOPPED_PAYS]:
        for k in range(S[SC, I_NORDER]):
            c = S[P_ORDER, k]
            if c != p and S[P_FIRST_GO, c]:
                return
    for k in range(start, S[SC, I_NLEDGER]):
        if S[LEDGER + 1, k] == p and S[LEDGER, k] != q and S[LEDGER + 3, k] == R_YAKU:
            S[LEDGER, k] = q
            S[LEDGER + 3, k] = R_LIABILITY


@entry
def close_continuations(S: Array, Q: Array, T: Array, F: Floats, stopper: int) -> None:
    scale = Q[CFG, C_SCALE]
    split = Q[CFG, C_YAKU_SPLIT] != 0
    others = S[CLOSE_OTHERS]
    orders = S[CLOSE_ORDER]
    for k in range(S[SC, I_NORDER]):
        orders[k] = S[P_ORDER, k]
    for k in range(S[SC, I_NORDER]):
        q = S[P_ORDER, k]
        if not S[P_CONTINUING, q]:
            continue
        S[P_CONTINUING, q] = 0
        how = Q[CFG, C_UNFINISHED]
        if stopper >= 0 and Q[CFG, C_OTHER_STOPS] >= 0:
            how = 0 if Q[CFG, C_OTHER_STOPS] == 0 else 3
        if how == 0:  # keep
            at_stop(S, Q, T, F, q)
        elif how == 3:  # forfeit
            S[P_FORFEITED, q] = 1
        elif how == 1:  # pay half to each
            nothers = others_of(S, q, others)
            ways = nothers if split else 1
            mf = made_flat(S, Q, T, F, q)
            field = share(S, share(S, (S[P_MADE_VALUE, q] - mf) * scale, 2), ways)
            flat = share(S, share(S, mf * scale, 2), ways)
            for j in range(nothers):
                pay(S, Q, T, q, others[j], field, R_PENALTY, D_UNFINISHED, False, field)
                pay(S, Q, T, q, others[j], flat, R_PENALTY, D_UNFINISHED, True, flat)
        else:  # earn half
            factor = S[P_CONTINUES, q] + 1 if Q[CFG, C_PER_YAKU] else 1
            base = share(S, S[P_MADE_VALUE, q] * scale, 2) * factor
            mf = made_flat(S, Q, T, F, q)
            flat = share(S, mf * scale, 2) * factor
            # half an odd value is a Fraction, and stays one times the factor
            fractions = (S[P_MADE_VALUE, q] % 2) | ((mf % 2) << 1)
            orders_n = S[SC, I_NORDER]
            pay_parts(
                S, Q, T, orders, orders_n, q, base, flat, R_HALF, D_UNFINISHED, split, base,
                fractions,
            )  # fmt: skip


@inline
def last_to_holder(S: Array, Q: Array, w: int) -> None:
    """continuation.last_to_holder: the one card of the wild card's month left on the field
    goes to the player who captured the others."""
    others = Q[MONTHS, w] & ~(1 << w)
    left = S[SC, I_FIELD] & others
    if popcount(left) != 1:
        return
    for k in range(S[SC, I_NORDER]):
        q = S[P_ORDER, k]
        if S[P_CAPTURED, q] & others == others ^ left:
            S[SC, I_FIELD] ^= left
            S[P_CAPTURED, q] |= left
            return


@entry
def end_of_hands(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """continuation.end_of_hands: the wild card collects its month, the last card of its own
    month goes to the holder of the others, continuers settled, the last maker wins unless he
    forfeited, the hands counted when the rules say."""
    owner = S[SC, I_WILD_OWNER]
    if owner >= 0 and Q[HW, W_COLLECTS]:
        got = S[SC, I_FIELD] & S[SC, I_WILD_MONTH]
        S[SC, I_FIELD] &= ~got
        riders = S[SC, I_FIELD] & Q[HW, W_BONUS]  # (a stack of its month: its riders with it)
        while riders:
            b = low_bit(riders)
            riders &= riders - 1
            if got & S[RIDES, b]:
                S[SC, I_FIELD] &= ~(1 << b)
                got |= 1 << b
        S[P_CAPTURED, owner] |= got
    if Q[HW, W_LAST]:
        last_to_holder(S, Q, Q[HW, W_CARD])
    winner = S[SC, I_WON_AT_ONCE] - 1
    lm = S[SC, I_LAST_MAKER]
    ends = Q[CFG, C_ENDS_ROUND] != 0
    if lm >= 0 and ends:
        close_continuations(S, Q, T, F, -1)
        if not S[P_FORFEITED, lm] and S[P_MADE_VALUE, lm] > 0:
            winner = lm
    counted = lm < 0 or not Q[CFG, C_ONLY_WITHOUT_YAKU] or not ends
    finish(S, Q, T, F, winner, counted)
    if S[SC, I_WINNER] < 0:
        S[SC, I_ENDED] = END_DRAW
    elif S[SC, I_WINNER] == lm and (ends or S[SC, I_WON_AT_ONCE]):
        S[SC, I_ENDED] = END_YAKU
    else:
        S[SC, I_ENDED] = END_COUNT
