"""The round's end (engine/scoring.py): the count (count-time entries, par, difference, the
score-style counts by points and round wins, with teams), the fold fees, the awards, the
winner."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.context import look_as_player
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import (
    bits_sum,
    others_of,
    pay,
    pay_parts,
    points_of,
    record,
    share,
)
from rulekit.batch.kernel.stage import step_hits
from rulekit.batch.tables import STEP_AWARD, STEP_WORDS, holds
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value


@entry
def best_net(S: Array, Q: Array, winner: int) -> int:
    """scoring._best_net: the best net of the round so far (the first in play order from the
    dealer on a tie) wins it, the only winner; when every player's net is the same, `winner`."""
    seated = Q[CFG, C_SEATED]
    nets = S[TMP]
    for s in range(seated):
        nets[s] = 0
    for e in range(S[SC, I_NLEDGER]):
        if S[LEDGER + 0, e] >= 0:
            nets[S[LEDGER + 0, e]] -= S[LEDGER + 2, e]
        if S[LEDGER + 1, e] >= 0:
            nets[S[LEDGER + 1, e]] += S[LEDGER + 2, e]
    d = S[SC, I_DEALER]
    best = -1
    same = True
    for i in range(seated):
        s = (d + i) % seated
        if S[P_FOLDED, s]:
            continue
        if best >= 0 and nets[s] != nets[best]:
            same = False
        if best < 0 or nets[s] > nets[best]:
            best = s
    if same or best < 0:
        return winner
    S[P_WINNERS, 0] = best
    S[SC, I_NWINNERS] = 1
    return int(best)


@entry
def finish(S: Array, Q: Array, T: Array, F: Floats, winner: int, counted: bool) -> None:
    """scoring.finish: the count when counted (its winner if none yet), the fold fees, then
    the rule file's awards (its factors are applied by the ledger)."""
    if counted and Q[STAGE, G_DRAW_AT] >= 0 and drawn_at_count(S, Q, T):
        S[SC, I_NLEDGER] = 0  # every payment of the round undone; no count, nobody wins
        winner = -1
    elif counted:
        cw = count(S, Q, T, F)
        if winner < 0:
            winner = cw
    if Q[STAGE, G_WINNER_BY_NET]:
        winner = best_net(S, Q, winner)
    S[SC, I_WINNER] = winner
    if S[SC, I_NWINNERS] == 0 and winner >= 0:
        S[P_WINNERS, 0] = winner
        S[SC, I_NWINNERS] = 1
    scale = Q[CFG, C_SCALE]
    payees = S[TMP]
    if Q[DQ, DQ_HAS]:
        pay_declaration(S, Q, T)
        if Q[DQ, DQ_WIN_AWARD] or Q[DQ, DQ_PENALTY]:
            declaration_stakes(S, Q, T)
    for k in range(S[SC, I_NFEES]):
        if S[FEES + 2, k] == FEE_DECLARED or S[FEES + 2, k] == FEE_COMPENSATION:
            continue
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
            record(S, Q, T, payer, payees[j], each * mult, reason, -1, mult, each)
    if Q[CQ, CQ_HAS]:
        pay_compensations(S, Q, T)
    if Q[STAGE, G_NAWARDS]:
        awards(S, Q, T, F)
    S[SC, I_PHASE] = PH_DONE


@entry
def pay_compensations(S: Array, Q: Array, T: Array) -> None:
    """scoring._compensations: each forced folder, in the order they folded, is paid his
    compensation by each player of the round (but the dealer, with CQ_NON_DEALERS), flat."""
    for k in range(S[SC, I_NFEES]):
        if S[FEES + 2, k] != FEE_COMPENSATION:
            continue
        base = S[FEES + 1, k] * Q[CFG, C_SCALE]
        for j in range(S[SC, I_NORDER]):
            q = S[P_ORDER, j]
            if Q[CQ, CQ_NON_DEALERS] and q == S[SC, I_DEALER]:
                continue
            record(S, Q, T, q, S[FEES + 0, k], base, R_COMPENSATION, -1, 1, base)


@entry
def drawn_at_count(S: Array, Q: Array, T: Array) -> bool:
    """scoring.drawn_at_count: whether a player of the round, on his captured pile and with the
    round as he sees it, in play order, makes the round a draw."""
    varr = T[Q[CFG, C_T_VOID] : Q[CFG, C_T_VOID + 1]]
    at = Q[STAGE, G_DRAW_AT]
    for k in range(S[SC, I_NORDER]):
        s = S[P_ORDER, k]
        npiles = look_as_player(S, Q, s)
        if holds(varr, at, S[P_CAPTURED, s], S[PILES], npiles):
            return True
    return False


@entry
def pay_declaration(S: Array, Q: Array, T: Array) -> None:
    """scoring._declaration_payments: each who folded by choice after the declaration pays
    the declarer (unless he folded himself), in the order they folded."""
    d = declarer(S, Q)
    if d < 0 or S[P_FOLDED, d]:
        return
    mult = S[SC, I_MULT] if Q[DQ, DQ_TIMES] else 1
    for k in range(S[SC, I_NFEES]):
        if S[FEES + 2, k] == FEE_DECLARED:
            base = S[FEES + 1, k] * Q[CFG, C_SCALE]
            record(S, Q, T, S[FEES + 0, k], d, base * mult, R_DECLARATION, 0, mult, base)


@entry
def declaration_stakes(S: Array, Q: Array, T: Array) -> None:
    """scoring._declaration_stakes: each who made the declaration, in play order, paid its
    award by each other player of the round if he did what it asks, or paying each of them
    its penalty if not."""
    mult = S[SC, I_MULT] if Q[DQ, DQ_TIMES] else 1
    scale = Q[CFG, C_SCALE]
    for k in range(S[SC, I_NORDER]):
        s = S[P_ORDER, k]
        if not S[P_DECLARER, s]:
            continue
        ok = succeeded(S, Q, s)
        amount = (Q[DQ, DQ_WIN_AWARD] if ok else Q[DQ, DQ_PENALTY]) * scale
        if amount == 0:
            continue
        for j in range(S[SC, I_NORDER]):
            q = S[P_ORDER, j]
            if q == s:
                continue
            if ok:
                record(S, Q, T, q, s, amount * mult, R_DECLARATION, 0, mult, amount)
            else:
                record(S, Q, T, s, q, amount * mult, R_DECLARATION, 0, mult, amount)


@inline
def succeeded(S: Array, Q: Array, s: int) -> bool:
    """scoring.SUCCESS: whether s did what the declaration asks (DQ_SUCCESS): nothing, win the
    round (among its winners), or make a yaku (one listed as made)."""
    how = Q[DQ, DQ_SUCCESS]
    found = how == 0
    if how == 1:
        for k in range(S[SC, I_NWINNERS]):
            found = found or S[P_WINNERS, k] == s
    elif how == 2:
        for e in range(Q[CFG, C_NYAKU]):
            found = found or S[YC + s, e] != 0
    return bool(found)


@inline
def declarer(S: Array, Q: Array) -> int:
    """The seat that made the declaration, or -1."""
    for s in range(Q[CFG, C_SEATED]):
        if S[P_DECLARER, s]:
            return s
    return -1


@entry
def awards(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """scoring._award_step, each award in the stage's order, once the round's winner is final:
    to its payee (the dealer, or who leads in his place; the winner, if any) when its condition
    holds for him (`score`: the award's value), from each other player of the round or split
    between them; flat unless multiplied by the field."""
    steps = T[Q[STAGE, G_T_STAGE] : Q[STAGE, G_T_STAGE + 1]]
    scale = Q[CFG, C_SCALE]
    others = S[TMP]
    j = 0  # the award's place among the awards (its name, for the ledger)
    for i in range(steps[0]):
        at = 1 + STEP_WORDS * i
        if steps[at] != STEP_AWARD:
            continue
        j += 1
        code = steps[at + 1]  # (batch.tables.AWARD_PAYEES)
        if code == 1:  # the winner
            payee = S[SC, I_WINNER]
        else:  # the dealer (or who leads in his place), the second, the third in play order
            k = 0 if code == 0 else code - 1
            payee = S[P_ORDER, k] if k < S[SC, I_NORDER] else -1
        value = steps[at + 2] * scale
        if payee < 0:
            continue
        if steps[at + 5] and not step_hits(S, Q, T, payee, value, True, BANK) >> i & 1:
            continue
        n = others_of(S, payee, others)
        mult = S[SC, I_MULT] if steps[at + 4] else 1
        each = value * mult
        if steps[at + 3] and n:
            each = share(S, each, n)
        S[SC, I_FORCE] = each % scale != 0  # a share not whole: a Fraction (its base is not)
        for k in range(n):
            record(S, Q, T, others[k], payee, each, R_AWARD, j - 1, mult, value)
        S[SC, I_FORCE] = 0


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
                record(S, Q, T, payer, payee, amount, R_TEYAKU_RETURNED, detail, mult, base)
        return int(special)
    method = Q[CFG, C_METHOD]
    if method == M_PAR:
        return count_par(S, Q, T, F, points)
    if method == M_DIFFERENCE:
        return count_difference(S, Q, T, F, points)
    if method == M_NONE:
        return -1
    if method == M_PER_POINTS:
        return count_per_points(S, Q, T, F, points)
    return count_score(S, Q, T, F, points, method == M_ROUND_WINS)


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
    sel = S[COUNT_SEL]
    scale = Q[CFG, C_SCALE]
    to_dealer = 0
    best = -1
    special = -1
    cancelled = False
    # (scoring._yaku_cancelled) a yaku that cancels every yaku (mode 2) or the others' (1)
    mode = 0
    holders = 0
    if Q[PQ, PQ_CANCEL_ALL] or Q[PQ, PQ_CANCEL_OTHERS]:
        for k in range(n):
            s = order[k]
            x = S[P_CAPTURED, s]
            npiles = look_as_player(S, Q, s)
            hits = t_match(ytab, x, True, piles, npiles)
            for j in range(t_counted(ytab, hits, x, sel) if hits else 0):
                i = sel[j]
                if Q[PQ, PQ_CANCEL_ALL] >> i & 1:
                    mode = 2
                elif Q[PQ, PQ_CANCEL_OTHERS] >> i & 1:
                    holders |= 1 << s
                    mode = max(mode, 1)
    for k in range(n):
        s = order[k]
        x = S[P_CAPTURED, s]
        npiles = look_as_player(S, Q, s)  # the count's context, from s (a payment overwrites it)
        hits = t_match(ytab, x, True, piles, npiles)
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
            unpaid = mode == 2 or (mode == 1 and not holders >> s & 1)
            if not unpaid:
                split = Q[CFG, C_YAKU_SPLIT] != 0
                pay_parts(
                    S, Q, T, order, n, payee, value * scale, flat * scale, R_SPECIAL, i, split,
                    value * scale, 0,
                )  # fmt: skip
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
                v = scores[k] * scale
                pay(S, Q, T, S[P_ORDER, loser], S[P_ORDER, k], v, R_COUNT, said, False, v)
    elif npos == 1:
        for k in range(n):
            if scores[k] < 0:
                said = D_POINTS + 4096 * points[k] + points[top]
                v = -scores[k] * scale
                pay(S, Q, T, S[P_ORDER, k], S[P_ORDER, top], v, R_COUNT, said, False, v)
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
        v = amount * scale
        pay(S, Q, T, ds[di], cs[ci], v, R_COUNT, said, False, v)
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
        said = D_POINTS + 4096 * points[n - 1] + points[0]
        pay(S, Q, T, b, a, diff * scale, R_COUNT, said, False, diff * scale)
    elif diff < 0:
        said = D_POINTS + 4096 * points[0] + points[n - 1]
        pay(S, Q, T, a, b, -diff * scale, R_COUNT, said, False, -diff * scale)
    best = 0
    for k in range(1, n):
        if points[k] > points[best]:
            best = k
    return int(S[P_ORDER, best])


@entry
def count_per_points(S: Array, Q: Array, T: Array, F: Floats, points: Array) -> int:
    """scoring._per_points: each player's card points in full steps (by position in play
    order), scored against the bank or settled between each two, the one behind paying the
    difference; the most card points win, the first in play order on a tie."""
    scale = Q[CFG, C_SCALE]
    n = S[SC, I_NORDER]
    steps = S[TMP]
    for k in range(n):
        steps[k] = Q[PQ, PQ_STEP_VALUE] * (points[k] // Q[PQ, PQ_STEP_POINTS])
    if Q[PQ, PQ_ROUND_PAID]:
        for i in range(n):
            for j in range(i + 1, n):
                a = i
                b = j
                if steps[i] <= steps[j]:  # (the one behind pays; equal steps: nothing paid)
                    a = j
                    b = i
                v = (steps[a] - steps[b]) * scale
                said = D_POINTS + 4096 * points[b] + points[a]
                pay(S, Q, T, S[P_ORDER, b], S[P_ORDER, a], v, R_COUNT, said, False, v)
    else:
        for k in range(n):
            if steps[k]:
                v = steps[k] * scale
                record(S, Q, T, BANK, S[P_ORDER, k], v, R_CARDS, D_NONE, 1, v)
    best = 0
    for k in range(1, n):
        if points[k] > points[best]:
            best = k
    return int(S[P_ORDER, best])


@entry
def count_score(S: Array, Q: Array, T: Array, F: Floats, points: Array, round_wins: bool) -> int:
    """scoring._score: each seat scores its card points (by position in play order in
    `points`); each yaku a side made costs every opposing side its value (opponents lose each
    yaku: a side's share split between its members). The best side wins (a tie: the first in
    play order, or a draw); with round wins only the winners score, one round each. The winner
    (-1: none). Its sides are teams, or each player alone (unit_masks)."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    scale = Q[CFG, C_SCALE]
    n = S[SC, I_NORDER]
    units = S[TMP]
    net = S[TMP + 1]  # by seat, scaled
    charged = S[TMP + 2]  # the charges: (seat, amount, entry), in the scalar's order
    amounts = S[TMP + 3]
    entries = S[TMP + 4]
    nunits = unit_masks(S, Q, units)
    for k in range(n):
        net[S[P_ORDER, k]] = points[k] * scale
    ncharges = 0
    split = Q[CFG, C_YAKU_SPLIT] != 0
    sel = S[COUNT_SEL]
    nkeys = Q[PQ, PQ_NKEYS] if round_wins else 0
    made = S[COUNT_ORDER]  # each side's yaku points (count_entries is done with the row)
    for u in range(nunits):
        made[u] = 0
    for u in range(nunits if Q[CFG, C_HAS_YAKU] else 0):
        members = units[u]
        pooled = Q[STAGE, G_POOLED] and popcount(members) > 1
        rest = members
        while rest:  # (scoring._unit_yaku) each member's pile, or the side's piles together
            if pooled:
                seat = -1
                x = side_pile(S, members)
                rest = 0
            else:
                seat = low_bit(rest)
                rest &= rest - 1
                x = S[P_CAPTURED, seat]
            npiles = 0
            if Q[STAGE, G_YAKU_SEES]:  # a pooled side is seen from its first member
                npiles = look_as_player(S, Q, seat if seat >= 0 else low_bit(members))
            hits = t_match(ytab, x, False, S[PILES], npiles)
            for j in range(t_counted(ytab, hits, x, sel)):
                i = sel[j]
                maker = seat if seat >= 0 else holder(S, Q, members, i)
                if S[YC + maker, i] == 0:  # listed, unless made already
                    S[YC + maker, i] = 1
                if nkeys:
                    made[u] += t_value(ytab, i, x)
                if Q[PQ, PQ_MAKERS_SCORE]:  # scored for its maker: a charge of seat -1 - maker
                    if ncharges == S_WIDTH:
                        S[SC, I_BAIL] = BAIL_FULL
                        return -1
                    charged[ncharges] = -1 - maker
                    amounts[ncharges] = t_value(ytab, i, x) * scale
                    entries[ncharges] = i
                    ncharges += 1
                    net[maker] += t_value(ytab, i, x) * scale
                if not Q[STAGE, G_OPPONENTS_LOSE]:
                    continue
                if nunits == 1:  # (no opposing side: nothing to charge)
                    continue
                value = t_value(ytab, i, x) * scale
                per_side = share(S, value, nunits - 1) if split else value
                for v in range(nunits):
                    if v == u:
                        continue
                    each = share(S, per_side, popcount(units[v]))
                    m = units[v]
                    while m:
                        q = low_bit(m)
                        m &= m - 1
                        if ncharges == S_WIDTH:
                            S[SC, I_BAIL] = BAIL_FULL
                            return -1
                        charged[ncharges] = q
                        amounts[ncharges] = each
                        entries[ncharges] = i
                        ncharges += 1
                        net[q] -= each
    best = 0
    for u in range(1, nunits):
        if nkeys:
            c = compare_sides(S, Q, units, made, points, u, best)
            if c > 0 or (c == 0 and first_at(S, units[u]) < first_at(S, units[best])):
                best = u
            continue
        total = bits_sum(net, units[u])
        top = bits_sum(net, units[best])
        if total > top or (total == top and first_at(S, units[u]) < first_at(S, units[best])):
            best = u
    top = bits_sum(net, units[best])
    tied = 0
    for u in range(nunits):
        if nkeys:
            tied += compare_sides(S, Q, units, made, points, u, best) == 0
        elif bits_sum(net, units[u]) == top:
            tied += 1
    at_once = S[SC, I_WON_AT_ONCE] - 1
    if at_once >= 0:  # a yaku won the round at once: its maker's side has it
        tied = 1
        for u in range(nunits):
            if units[u] >> at_once & 1:
                best = u
    if Q[STAGE, G_TIE_DRAW] and tied > 1:
        if not round_wins:
            score_cards(S, Q, T, points, charged, amounts, entries, ncharges)
        return -1
    nw = 0
    for k in range(n):  # the winning side, in play order
        s = S[P_ORDER, k]
        if units[best] >> s & 1:
            S[P_WINNERS, nw] = s
            nw += 1
    S[SC, I_NWINNERS] = nw
    if round_wins:
        for w in range(nw):
            m = S[P_WINNERS, w]
            if not Q[PQ, PQ_ROUND_PAID]:
                record(S, Q, T, BANK, m, scale, R_ROUND_WON, D_NONE, 1, scale)
                continue
            for k in range(n):  # (scoring._round_won_of_others) each player not of his side
                q = S[P_ORDER, k]
                if not units[best] >> q & 1:
                    record(S, Q, T, q, m, scale, R_ROUND_WON, D_NONE, 1, scale)
    else:
        score_cards(S, Q, T, points, charged, amounts, entries, ncharges)
    return int(S[P_WINNERS, 0])


@entry
def compare_sides(
    S: Array, Q: Array, units: Array, made: Array, points: Array, a: int, b: int
) -> int:
    """scoring._ranking: side a against side b by the criteria of `count: round wins by ...`
    in turn: 1 a is ahead, -1 behind, 0 tied on all of them."""
    for j in range(Q[PQ, PQ_NKEYS]):
        va = key_value(S, Q, units[a], made[a], points, j)
        vb = key_value(S, Q, units[b], made[b], points, j)
        if va != vb:
            return 1 if va > vb else -1
    return 0


@entry
def key_value(S: Array, Q: Array, members: int, made: int, points: Array, j: int) -> int:
    """A side's value for criterion j (scoring.ROUND_KEYS)."""
    at = PQ_KEYS + j * KEY_WORDS
    kind = Q[PQ, at]
    if kind == RK_YAKU:
        return made
    if kind == RK_POINTS:
        total = 0
        for k in range(S[SC, I_NORDER]):
            if members >> S[P_ORDER, k] & 1:
                total += points[k]
        return total
    pile = side_pile(S, members)
    held = 0
    for w in range(1, KEY_WORDS):
        held += popcount(pile & Q[PQ, at + w])
    return held


@entry
def score_cards(
    S: Array,
    Q: Array,
    T: Array,
    points: Array,
    charged: Array,
    amounts: Array,
    entries: Array,
    ncharges: int,
) -> None:
    """scoring._score_cards: each player's card points from the bank, then each yaku scored
    for its maker, from the bank, and each charge for a yaku an opposing side made, to it."""
    scale = Q[CFG, C_SCALE]
    for k in range(S[SC, I_NORDER]):
        if points[k]:
            v = points[k] * scale
            record(S, Q, T, BANK, S[P_ORDER, k], v, R_CARDS, D_NONE, 1, v)
    for c in range(ncharges):  # (charged < 0: a yaku scored for its maker, -1 - charged)
        if charged[c] < 0:
            m = -1 - charged[c]
            record(S, Q, T, BANK, m, amounts[c], R_YAKU, entries[c], 1, amounts[c])
        else:
            record(S, Q, T, charged[c], BANK, amounts[c], R_YAKU, entries[c], 1, amounts[c])


@inline
def side_pile(S: Array, members: int) -> int:
    """The cards the members of a side captured, together (their piles pooled)."""
    pile = 0
    m = members
    while m:
        pile |= S[P_CAPTURED, low_bit(m)]
        m &= m - 1
    return pile


@inline
def unit_masks(S: Array, Q: Array, units: Array) -> int:
    """The sides of a score-style count as masks of seats (units[u]), and how many: the teams
    at this table (rulekit.ir.Ruleset.teams_for), or each player of the round alone, in play
    order."""
    nteams = Q[RQ, RQ_NTEAMS]
    if nteams:
        for u in range(nteams):
            units[u] = 0
        for s in range(Q[CFG, C_SEATED]):
            units[Q[RQ, RQ_TEAM + s]] |= 1 << s
        return int(nteams)
    for k in range(S[SC, I_NORDER]):
        units[k] = 1 << S[P_ORDER, k]
    return int(S[SC, I_NORDER])


@inline
def first_at(S: Array, members: int) -> int:
    """The place in play order of a side's first member."""
    for k in range(S[SC, I_NORDER]):
        if members >> S[P_ORDER, k] & 1:
            return k
    return S_WIDTH


@inline
def holder(S: Array, Q: Array, members: int, i: int) -> int:
    """The maker of a pooled side's yaku entry i: the member who holds most of its cards, the
    first in play order on a tie."""
    best = -1
    most = -1
    for k in range(S[SC, I_NORDER]):
        s = S[P_ORDER, k]
        if members >> s & 1:
            held = popcount(S[P_CAPTURED, s] & Q[YCARDS, i])
            if held > most:
                best = s
                most = held
    return best
