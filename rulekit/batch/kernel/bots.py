"""The bots' choices (rulekit/agents: random, greedy, rulewise), from the round's state, and
their chance."""

from __future__ import annotations

import numpy as np

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import below as chance_below
from rulekit.batch.chance import entry, inline, sha512_limbs, write_int
from rulekit.batch.kernel.events import lowest
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import full_mask, points_of
from rulekit.batch.kernel.offer import draw_reaches
from rulekit.batch.kernel.turn import riding, wild_drawn
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value


@entry
def draw_below(S: Array, Q: Array, s: int, n: int) -> int:
    """agents.chance.Chance(f"{seed}:{number}:{s}").below(n): the bot's number is hashed on its
    first draw of the round (a draw of one choice spends nothing). In a rulewise rollout, every
    seat draws from the decider's rollout chance (its GreedyAgent "{seed}:rollouts")."""
    if n <= 1:
        return 0
    if S[RW, RW_ROLLOUT]:  # rulewise: a rollout's draw (kernel/rollouts.py put it in RCH)
        return chance_below(S[RCH], S[SCRATCH], n)
    return bot_below(S, Q, s, n)


@entry
def bot_below(S: Array, Q: Array, s: int, n: int) -> int:
    """Chance.below(n) of seat s's own chance, hashed on its first draw: a draw of one choice
    too (it may hash the next block, as Chance.below(1) does: a rulewise world's joker)."""
    bot_chance(S, Q, s)
    return chance_below(S[CH + s], S[SCRATCH], n)


@inline
def seat_key(S: Array, Q: Array, buf: Array, s: int) -> int:
    """Writes "{seed}:{number}:{s}" into buf (a seat's chance, and its rollouts' after it);
    returns its length."""
    at = write_int(buf, 0, Q[CFG, C_SEED])
    buf[at] = 58
    at = write_int(buf, at + 1, S[SC, I_NUMBER])
    buf[at] = 58
    return write_int(buf, at + 1, s)


@entry
def bot_chance(S: Array, Q: Array, s: int) -> None:
    """Seat s's chance, Chance(f"{seed}:{number}:{s}"), hashed in CH + s if not yet this try."""
    if S[P_CHANCE_READY, s] == 0:
        buf = S[BUF]
        at = seat_key(S, Q, buf, s)
        sha512_limbs(buf, at, S[CH + s], S[SHA])
        for i in range(16):
            S[CH + s, 16 + i] = S[CH + s, i]
        S[P_CHANCE_READY, s] = 1


@inline
def mask_worth(F: Floats, x: int) -> float:
    """agents.greedy.mask_worth: lowest card first, from 0.0."""
    total = 0.0
    while x:
        total += F[low_bit(x)]
        x &= x - 1
    return total


@entry
def yaku_value(S: Array, ytab: Array, x: int) -> float:
    """agents.greedy.yaku_value: the pile's yaku worth (-inf: none)."""
    sel = S[SEL]
    n = t_counted(ytab, t_match(ytab, x, False, S[PILES], 0), x, sel)
    if n == 0:
        return -np.inf
    total = 0
    for k in range(n):
        total += t_value(ytab, sel[k], x)
    return float(total)


@entry
def choose(S: Array, Q: Array, T: Array, F: Floats, legal: Array, n: int) -> int:
    """The current seat's bot's action among legal[:n] (agents/random_agent.py, greedy.py)."""
    s = S[SC, I_CURRENT]
    phase = S[SC, I_PHASE]
    # rulewise: a weighed choice, or a rollout's option, is played as given; in a rollout every
    # seat plays greedy; -1: a choice for play_deals to weigh
    if S[RW, RW_PENDING]:
        S[RW, RW_PENDING] = 0
        return int(S[RW, RW_ACTION])
    bot = BOT_GREEDY if S[RW, RW_ROLLOUT] else Q[BOTS, s]
    weighed = phase >= PH_DECIDE or (
        phase == PH_PLAY and (legal[0] >= HIKI or legal[n - 1] == OFFER)
    )
    if phase == PH_TAKE and wild_drawn(S, Q):  # which card the drawn wild card takes
        weighed = True
    if bot == BOT_RULEWISE and weighed:
        return rulewise_choice(S, Q, T, F, legal, n)
    if bot == BOT_RANDOM:
        return int(legal[draw_below(S, Q, s, n)])
    if phase == PH_PLAY:
        if legal[n - 1] == OFFER:  # greedy._play: a draw, whenever he may offer one
            return OFFER
        return greedy_play(S, Q, T, F, legal, n)
    if phase == PH_ANSWER:  # greedy.refuses_draw
        return REFUSE if greedy_refuses(S, Q, T, s) else ACCEPT
    if phase == PH_TAKE:
        best = 0
        for k in range(1, n):
            if F[legal[k] - TAKE] > F[legal[best] - TAKE]:
                best = k
        return int(legal[best])
    if phase == PH_DECIDE:
        return STOP if greedy_ahead(S, Q, T, F, s) else CONTINUE
    if phase == PH_FOLD:
        return JOIN if greedy_strong(S, Q, T, F, s) else FOLD
    if phase == PH_SWAP:
        return KEEP
    if phase == PH_DECLARE:  # greedy.act: one that cannot cost him (greedy.cannot_cost)
        return DECLARE if Q[DQ, DQ_FREE] else PASS
    if phase == PH_CLAIM:  # greedy.act: the dealer's claim of the field, always
        return CLAIM
    if phase == PH_SHOW:  # greedy.act: a teyaku the others may capture, always shown
        return SHOW
    return int(legal[0])


@entry
def greedy_play(S: Array, Q: Array, T: Array, F: Floats, legal: Array, n: int) -> int:
    """greedy's plain chooser (GreedyAgent.rank and pick in any round): the worth of what a
    play captures (capture.preview: a hiki its month; the wild card its target, or laid, what
    its month would take), a bonus for a yaku it raises, a cost for a card laid down; the
    first best, a tie broken by the bot's chance."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    s = S[SC, I_CURRENT]
    field = S[SC, I_FIELD]
    mine = S[P_CAPTURED, s]
    made_now = S[P_MADE_VALUE, s]
    complete_bonus = F[FPARAMS + 0]
    discard_cost = F[FPARAMS + 1]
    scores = F[FSCRATCH:]
    for k in range(n):
        a = legal[k]
        b = a & CARD_MASK
        if a == SKIP:  # GreedyAgent.rank: a play skipped keeps the hand, lays nothing
            scores[k] = 0.0
            continue
        if a >= HIKI:
            got = Q[MONTH_MASKS, a - HIKI]
        elif a >> SHIFT:
            got = (1 << ((a >> SHIFT) - 1)) | (1 << b)
        elif Q[HW, W_LONE] >> b & 1:  # capture.preview: a lone card, itself
            got = 1 << b
        else:  # (the others' shown cards taken as field cards)
            m = (field | (S[SC, I_EXPOSED] & ~S[P_HAND, s])) & Q[MONTHS, b]
            if m and field & Q[HW, W_BONUS]:  # a stack's riders with it (riders.riding)
                m |= riding(S, Q, field, m)
            got = m | (1 << b) if m else 0
        if not got:
            score = -discard_cost * F[b]
        else:
            score = mask_worth(F, got)
            if Q[CFG, C_HAS_YAKU]:
                value = yaku_value(S, ytab, mine | got)
                if value > made_now:
                    score += complete_bonus * (value - made_now)
            if Q[EVQ, EVQ_N]:
                gives = sure_event_worth(S, Q, F, s, a, got)
                if gives:
                    score += gives
        scores[k] = score
    best = scores[0]
    for k in range(1, n):
        if scores[k] > best:
            best = scores[k]
    ties = S[TMP]
    nt = 0
    for k in range(n):
        if scores[k] == best:
            ties[nt] = legal[k]
            nt += 1
    if nt == 1:
        return int(ties[0])
    return int(ties[draw_below(S, Q, s, nt)])


@inline
def sure_event_worth(S: Array, Q: Array, F: Floats, s: int, a: int, got: int) -> float:
    """greedy.sure_event_worth: the worth of the card each opponent gives and each one's steal,
    for the events the play surely makes (a bomb; a stack taken by the hand card)."""
    bomb = a >= HIKI
    stack = not bomb and popcount(got & ~Q[HW, W_BONUS]) == 4  # (its riders left out)
    if not bomb and not stack:
        return 0.0
    n = S[SC, I_NORDER]
    first = S[SC, I_TURN] < n
    total = 0.0
    for i in range(Q[EVQ, EVQ_N]):
        row = EV + i
        kind = Q[row, EV_KIND]
        if kind == EK_BOMB:
            hit = bomb
        elif kind == EK_STACK_TAKEN:
            hit = stack
        else:
            continue
        if not hit or (Q[row, EV_FIRST] and not first):
            continue
        for k in range(n):
            q = S[P_ORDER, k]
            if q == s:
                continue
            pile = S[P_CAPTURED, q] & Q[row, EV_GIVE]
            if pile:
                total += F[low_bit(lowest(Q, pile))]
            if Q[row, EV_STEAL]:
                total += Q[row, EV_STEAL]
    return total


@entry
def greedy_ahead(S: Array, Q: Array, T: Array, F: Floats, s: int) -> bool:
    """greedy._ahead: stop when the round already pays (what was received, plus what stopping
    would pay), or the hands are nearly played out."""
    net = 0
    for e in range(S[SC, I_NLEDGER]):
        if S[LEDGER + 1, e] == s:
            net += S[LEDGER + 2, e]
        if S[LEDGER + 0, e] == s:
            net -= S[LEDGER + 2, e]
    if Q[CFG, C_PAID_STOP]:
        net += S[P_MADE_VALUE, s] * S[SC, I_MULT] * (S[SC, I_NORDER] - 1) * Q[CFG, C_SCALE]
    left = 0
    for k in range(S[SC, I_NORDER]):
        left += popcount(S[P_HAND, S[P_ORDER, k]])
    return net > 0 or left <= S[SC, I_NORDER]


@inline
def greedy_refuses(S: Array, Q: Array, T: Array, s: int) -> bool:
    """greedy.refuses_draw (draw_offer.safe_play): a hand card matching the field (or a lone
    card), or a flip reaching the minimum."""
    hand = S[P_HAND, s]
    if hand & Q[HW, W_LONE]:
        return True
    field = S[SC, I_FIELD]
    while hand:
        if field & Q[MONTHS, low_bit(hand)]:
            return True
        hand &= hand - 1
    return draw_reaches(S, Q, T, s)


@entry
def greedy_strong(S: Array, Q: Array, T: Array, F: Floats, s: int) -> bool:
    """greedy._strong: join with a teyaku, or a hand worth more than an average one."""
    ttab = T[Q[CFG, C_T_TEYAKU] : Q[CFG, C_T_TEYAKU + 1]]
    if S[P_TEYAKU, s]:
        return True
    hand = S[P_HAND, s] & full_mask(Q)  # view.hand: the joker is not a card of the deck
    if Q[RQ, RQ_FOLD_BLIND]:  # (view.hand: none while he declares before the deal)
        hand = 0
    if Q[CFG, C_HAS_TEYAKU]:
        hits = t_match(ttab, hand, False, S[PILES], 0)
        if t_counted(ttab, hits, hand, S[SEL]):
            return True
    return bool(points_of(Q, hand) > popcount(hand) * F[FPARAMS + 2])


# ---------------------------------------------------------------- rulewise
@entry
def rulewise_choice(S: Array, Q: Array, T: Array, F: Floats, legal: Array, n: int) -> int:
    """RulewiseAgent.act but for its greedy card play (and its greedy take): stop or continue
    (stop with an empty hand where continuing cannot gain), a hiki against the best
    ordinary play, the drawn wild card's targets, or the dealer's claim of the field (claim
    first, then pass), set up to be weighed by rollouts (-1:
    play_deals weighs it, then plays on); join or fold, swap or keep by the variant's
    calibrated policy."""
    s = S[SC, I_CURRENT]
    phase = S[SC, I_PHASE]
    if phase == PH_FOLD:
        if Q[RQ, RQ_JOIN] and rulewise_strength(S, Q, T, F, s) >= F[F_JOIN_AT]:
            return JOIN
        return FOLD
    if phase == PH_SWAP:
        return SWAP if Q[RQ, RQ_SWAP] else KEEP
    if phase == PH_DECLARE:
        return DECLARE if Q[RQ, RQ_DECLARE] or Q[DQ, DQ_FREE] else PASS
    if phase == PH_DECIDE and Q[RQ, RQ_CANNOT_GAIN] and not S[P_HAND, s] & full_mask(Q):
        return STOP
    if phase != PH_PLAY:  # each of the phase's answers, in legal's order: the drawn wild
        for k in range(n):  # card's targets, the dealer's claim, a teyaku shown, a draw
            S[RW, RW_OPT + k] = legal[k]  # offered's answer, stop or continue
        S[RW, RW_NOPT] = n
    else:  # hikis offered (first among the plays), a draw offered (last): each, and the best
        hikis = 0  # ordinary play
        while hikis < n and legal[hikis] >= HIKI:
            hikis += 1
        end = n - 1 if legal[n - 1] == OFFER else n
        k = 0
        if hikis < end:
            S[RW, RW_OPT] = greedy_play(S, Q, T, F, legal[hikis:end], end - hikis)
            k = 1
        for j in range(hikis):
            S[RW, RW_OPT + k] = legal[j]
            k += 1
        if end < n:
            S[RW, RW_OPT + k] = OFFER
            k += 1
        if k == 1:
            return int(S[RW, RW_OPT])
        S[RW, RW_NOPT] = k
    S[RW, RW_WANT] = 1
    S[RW, RW_SEAT] = s
    S[RW, RW_WORLD] = -1
    S[RW, RW_STOPPED] = 0
    for k in range(S[RW, RW_NOPT]):
        S[RW, RW_COUNT + k] = 0
        F[F_TOTALS + k] = 0.0
    return -1


@entry
def rulewise_strength(S: Array, Q: Array, T: Array, F: Floats, s: int) -> float:
    """calibrate.strength: the hand's cards' worth (lowest card first, from 0.0, as
    greedy.mask_worth adds them) plus the value of the teyaku it holds."""
    hand = 0 if Q[RQ, RQ_FOLD_BLIND] else S[P_HAND, s] & full_mask(Q)  # view.hand
    total = mask_worth(F, hand)
    if Q[CFG, C_HAS_TEYAKU]:
        ttab = T[Q[CFG, C_T_TEYAKU] : Q[CFG, C_T_TEYAKU + 1]]
        sel = S[SEL]
        k = t_counted(ttab, t_match(ttab, hand, False, S[PILES], 0), hand, sel)
        value = 0
        for j in range(k):
            value += t_value(ttab, sel[j], hand)
        total += value
    return total
