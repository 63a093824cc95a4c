"""The round's end (engine/scoring.py): the count (count-time entries, par, difference), the fold
fees, the winner."""

from __future__ import annotations

from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import pay, pay_parts, points_of, record, share
from rulekit.batch.tables import DEALT_SLOT
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value


@entry
def finish(S: Array, Q: Array, T: Array, F: Floats, winner: int, counted: bool) -> None:
    """scoring.finish: the count when counted (its winner if none yet), then the fold fees."""
    if counted:
        cw = count(S, Q, T, F)
        if winner < 0:
            winner = cw
    S[SC, I_WINNER] = winner
    if S[SC, I_NWINNERS] == 0 and winner >= 0:
        S[P_WINNERS, 0] = winner
        S[SC, I_NWINNERS] = 1
    scale = Q[CFG, C_SCALE]
    payees = S[TMP]
    for k in range(S[SC, I_NFEES]):
        payer = S[FEES + 0, k]
        base = S[FEES + 1, k] * scale
        reason = R_FOLD_FEE if S[FEES + 2, k] else R_FORCED_FOLD
        mult = S[SC, I_MULT] if Q[CFG, C_FOLD_TIMES] else 1
        n = 0
        how = Q[CFG, C_FOLD_PAYEE]
        if how == 0:
            if winner >= 0 and winner != payer:
                payees[0] = winner
                n = 1
        elif how == 1:
            for j in range(S[SC, I_NORDER]):
                q = S[P_ORDER, j]
                if q != payer:
                    payees[n] = q
                    n += 1
        elif how == 2:
            if S[SC, I_DEALER] != payer:
                payees[0] = S[SC, I_DEALER]
                n = 1
        else:
            payees[0] = -1
            n = 1
        for j in range(n):
            each = share(S, base, n)
            record(S, payer, payees[j], each * mult, reason, -1, mult, each)
    S[SC, I_PHASE] = PH_DONE


@entry
def count(S: Array, Q: Array, T: Array, F: Floats) -> int:
    """scoring.count: the count-time entries, then the card count; the winner (-1: none)."""
    n = S[SC, I_NORDER]
    points = S[POINTS_ROW]
    for k in range(n):
        points[k] = points_of(Q, S[P_CAPTURED, S[P_ORDER, k]])
    cancelled, special = count_entries(S, Q, T, F)
    if cancelled:
        upto = S[SC, I_NLEDGER]
        for e in range(upto):
            if S[LEDGER + 3, e] == R_TEYAKU:  # returned: the payee pays it back
                payer, payee, amount = S[LEDGER + 1, e], S[LEDGER, e], S[LEDGER + 2, e]
                detail, mult, base = S[LEDGER + 4, e], S[LEDGER + 5, e], S[LEDGER + 6, e]
                record(S, payer, payee, amount, R_TEYAKU_RETURNED, detail, mult, base)
        return int(special)
    method = Q[CFG, C_METHOD]
    if method == 0:
        return count_par(S, Q, T, F, points)
    if method == 1:
        return count_difference(S, Q, T, F, points)
    return -1


@entry
def count_entries(S: Array, Q: Array, T: Array, F: Floats) -> tuple[bool, int]:
    """scoring._count_entries: the entries checked at the count, paid; (cancelled, winner)."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    piles = S[PILES]
    if not Q[CFG, C_HAS_YAKU] or not Q[CFG, C_YAKU_COUNT_BITS]:
        return False, -1
    n = S[SC, I_NORDER]
    order = S[COUNT_ORDER]
    for k in range(n):
        order[k] = S[P_ORDER, k]
        piles[k] = S[P_CAPTURED, order[k]]
    sel = S[COUNT_SEL]
    scale = Q[CFG, C_SCALE]
    to_dealer = 0
    best = -1
    special = -1
    cancelled = False
    for k in range(n):
        s = order[k]
        x = S[P_CAPTURED, s]
        piles[DEALT_SLOT] = S[P_TEYAKU, s]  # the player tested, for a `dealt` condition
        piles[DEALT_SLOT + 1] = S[P_DEALT, s]
        hits = t_match(ytab, x, True, piles, n)
        if not hits:
            continue
        m = t_counted(ytab, hits, x, sel)
        for j in range(m):
            i = sel[j]
            value = t_value(ytab, i, x)
            payee = order[0] if Q[YDEALER, i] else s
            if Q[YDEALER, i]:
                if to_dealer >> i & 1:
                    continue
                to_dealer |= 1 << i
            S[YC + payee, i] += 1
            flat = value if Q[YFLAT, i] else 0
            pay_parts(
                S,
                order,
                n,
                payee,
                value * scale,
                flat * scale,
                R_SPECIAL,
                i,
                Q[CFG, C_YAKU_SPLIT] != 0,
            )
            if Q[YCANCELS, i]:
                cancelled = True
                if value > best:
                    best = value
                    special = payee
    return cancelled, special


@entry
def count_par(S: Array, Q: Array, T: Array, F: Floats, points: Array) -> int:
    """scoring._par: points over par, paid between the players."""
    scale = Q[CFG, C_SCALE]
    n = S[SC, I_NORDER]
    scores = S[TMP]
    nneg = 0
    npos = 0
    loser = -1
    top = -1
    for k in range(n):
        scores[k] = points[k] - Q[CFG, C_PAR]
        if scores[k] < 0:
            nneg += 1
            loser = k
        elif scores[k] > 0:
            npos += 1
            top = k
    if nneg == 1:
        for k in range(n):
            if scores[k] > 0:
                said = D_POINTS + 4096 * points[loser] + points[k]
                pay(S, S[P_ORDER, loser], S[P_ORDER, k], scores[k] * scale, R_COUNT, said, False)
    elif npos == 1:
        for k in range(n):
            if scores[k] < 0:
                said = D_POINTS + 4096 * points[k] + points[top]
                pay(S, S[P_ORDER, k], S[P_ORDER, top], -scores[k] * scale, R_COUNT, said, False)
    else:
        settle_greedy(S, Q, T, F, scores, n)
    best = 0
    for k in range(1, n):
        if scores[k] > scores[best]:
            best = k
    return int(S[P_ORDER, best])


@entry
def settle_greedy(S: Array, Q: Array, T: Array, F: Floats, scores: Array, n: int) -> None:
    """scoring._settle_greedy: largest debts to largest credits (ties: the higher seat first,
    as sorted((amount, seat), reverse=True) has them)."""
    scale = Q[CFG, C_SCALE]
    dv = S[TMP + 1]
    ds = S[TMP + 2]
    cv = S[TMP + 3]
    cs = S[TMP + 4]
    nd = 0
    nc = 0
    for k in range(n):
        s = S[P_ORDER, k]
        if scores[k] < 0:
            dv[nd] = -scores[k]
            ds[nd] = s
            nd += 1
        elif scores[k] > 0:
            cv[nc] = scores[k]
            cs[nc] = s
            nc += 1
    sort_pairs_desc(dv, ds, nd)
    sort_pairs_desc(cv, cs, nc)
    di = 0
    ci = 0
    while di < nd and ci < nc:
        amount = min(dv[di], cv[ci])
        par = Q[CFG, C_PAR]
        said = D_POINTS + 4096 * (score_of(S, scores, n, ds[di]) + par)
        said += score_of(S, scores, n, cs[ci]) + par
        pay(S, ds[di], cs[ci], amount * scale, R_COUNT, said, False)
        dv[di] -= amount
        cv[ci] -= amount
        if dv[di] == 0:
            di += 1
        if cv[ci] == 0:
            ci += 1


@inline
def score_of(S: Array, scores: Array, n: int, seat: int) -> int:
    """The score of a seat in play (scores are by position in play order)."""
    for k in range(n):
        if S[P_ORDER, k] == seat:
            return int(scores[k])
    return 0


@entry
def sort_pairs_desc(v: Array, s: Array, n: int) -> None:
    """(v, s) pairs sorted descending, as tuples compare."""
    for a in range(1, n):
        va = v[a]
        sa = s[a]
        b = a - 1
        while b >= 0 and (v[b] < va or (v[b] == va and s[b] < sa)):
            v[b + 1] = v[b]
            s[b + 1] = s[b]
            b -= 1
        v[b + 1] = va
        s[b + 1] = sa


@entry
def count_difference(S: Array, Q: Array, T: Array, F: Floats, points: Array) -> int:
    """scoring._difference: two players; the one behind pays the difference."""
    scale = Q[CFG, C_SCALE]
    n = S[SC, I_NORDER]
    a = S[P_ORDER, 0]
    b = S[P_ORDER, n - 1]
    diff = points[0] - points[n - 1]
    if diff > 0:
        pay(S, b, a, diff * scale, R_COUNT, D_POINTS + 4096 * points[n - 1] + points[0], False)
    elif diff < 0:
        pay(S, a, b, -diff * scale, R_COUNT, D_POINTS + 4096 * points[0] + points[n - 1], False)
    best = 0
    for k in range(1, n):
        if points[k] > points[best]:
            best = k
    return int(S[P_ORDER, best])
