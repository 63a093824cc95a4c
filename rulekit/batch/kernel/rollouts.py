"""The rule-weighing bot's rollouts (agents/rollouts.py's weigh, agents/rulewise.py): a choice
weighed by playing each option out, with the greedy policy for every seat, in worlds sampled
from what the decider sees (engine/observation.py), the best mean outcome taken.

The kernel is not recursive: a round's loop (rounds.play_round) returns at a choice a rulewise
bot weighs (bots.rulewise_choice set it up), and rounds.play_weighed drives the weighing one
play-out at a time: next_rollout samples a world into the copy WORLD of S's rows (or copies
it into PLAYOUT), with the option pending, and play_round plays that copy out as a rollout
(every seat greedy, the decider's rollout chance, nothing traced); end_rollout adds its
outcome. When every world is played, the choice is pending in the round, which plays on.
Nothing of a rollout reaches the round's outputs: the copies are rows of their own.
"""

from __future__ import annotations

import numpy as np

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, sha512_limbs, shuffle
from rulekit.batch.kernel.bots import bot_below, bot_chance, seat_key
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.ledger import full_mask
from rulekit.batch.kernel.turn import legal_plays
from rulekit.batch.tables import shown_cards

# how much of each row of the round a copy takes: a width, or one of these (a count in the
# round); the scratch rows, the traced moves, the rule choices counted and the bots' chances
# nothing (a rollout neither reads nor reports them); a row not named here (a new part's
# state) is copied whole
BY_STOCK = -1
BY_LEDGER = -2
BY_FEES = -3
BY_PENDING = -4
BY_YAKU = -5  # the yaku table's entries
BY_LIABLE = -6  # the yaku table's entries, with liability only
BY_FEEDERS = -7  # the deck, with liability only


def _row_widths() -> Array:
    widths = np.full(S_ROWS, S_WIDTH, dtype=np.int64)
    widths[:P_SIZE] = SEATS
    widths[P_EVENT_FACTOR] = SEATS
    widths[P_FIRST_GO] = SEATS
    widths[P_EVENT_TIMES] = SEATS * MAX_EVENTS
    widths[P_SKIPS] = SEATS
    widths[RIDES] = 64  # (a card's bit)
    for row, width in (
        (STOCK, BY_STOCK),
        (FEED, BY_FEEDERS),
        (FEED + 1, BY_FEEDERS),
        *((LEDGER + f, BY_LEDGER) for f in range(8)),
        *((FEES + f, BY_FEES) for f in range(3)),
        *((PEND + f, BY_PENDING) for f in range(5)),
        *((YC + s, BY_YAKU) for s in range(SEATS)),
        *((LIAB + s, BY_LIABLE) for s in range(SEATS)),
    ):
        widths[row] = width
    scratch = [BUF, XL, ORDER, SEL, PILES, SCRATCH, MOVES, MOVES + 1, *range(TMP, TMP + 5)]
    scratch += [IDX, VALS, REST_IDX, REST_VALS, OTHERS, CLOSE_OTHERS, CLOSE_ORDER, POINTS_ROW]
    scratch += [COUNT_ORDER, COUNT_SEL, LEGAL, SHA, CHOICES, RW]
    scratch += [*range(CH, CH + SEATS), *range(RCH, RCH + SEATS)]
    widths[scratch] = 0
    return widths


ROW_WIDTHS = _row_widths()


@entry
def copy_round(dst: Array, src: Array, Q: Array) -> None:
    """Round.copy: the round's state from src's rows into dst's (element by element: a slice
    copy within one array would allocate)."""
    liable = Q[CFG, C_LIABLE_MIN] >= 0
    for r in range(S_ROWS):
        width = ROW_WIDTHS[r]
        if width == BY_STOCK:
            width = src[SC, I_NSTOCK]
        elif width == BY_LEDGER:
            width = src[SC, I_NLEDGER]
        elif width == BY_FEES:
            width = src[SC, I_NFEES]
        elif width == BY_PENDING:
            width = src[SC, I_NPENDING]
        elif width == BY_YAKU:
            width = Q[CFG, C_NYAKU]
        elif width == BY_LIABLE:
            width = Q[CFG, C_NYAKU] if liable else 0
        elif width == BY_FEEDERS:
            width = 64 if liable else 0
        for c in range(width):
            dst[r, c] = src[r, c]


@entry
def reset_weighing(S: Array) -> None:
    """A new try at a deal: no choice weighed, no rollout chance hashed (in a game, hashed
    once per game: a bot starts once per game), no teyaku cards read."""
    ready = S[RW, RW_READY] if S[SC, I_GAME] else 0
    for c in range(RW_PLAYING + 1):
        S[RW, c] = 0
    S[RW, RW_READY] = ready


@entry
def rollout_chance(S: Array, Q: Array, d: int) -> None:
    """The decider's GreedyAgent("{seed}:{number}:{d}:rollouts"), hashed on first use in the
    round (as bots.draw_below hashes a bot's own): RCH + d holds its number, then its block."""
    if S[RW, RW_READY] >> d & 1:
        return
    buf = S[BUF]
    at = seat_key(S, Q, buf, d)
    for ch in (58, 114, 111, 108, 108, 111, 117, 116, 115):  # ":rollouts"
        buf[at] = ch
        at += 1
    sha512_limbs(buf, at, S[RCH + d], S[SHA])
    for i in range(16):
        S[RCH + d, 16 + i] = S[RCH + d, i]
    S[RW, RW_READY] |= 1 << d


@entry
def reveal(S: Array, Q: Array, T: Array) -> None:
    """Round.teyaku_revealed, once per try: the cards each seat showed for the teyaku he
    counts (engine/shown.py), from his dealt hand."""
    if S[RW, RW_SHOWN]:
        return
    shown = T[Q[RQ, RQ_T_SHOWN] : Q[RQ, RQ_T_SHOWN + 1]]
    for s in range(Q[CFG, C_SEATED]):
        cards = 0
        m = S[P_TEYAKU, s]
        while m:
            cards |= shown_cards(shown, low_bit(m), S[P_DEALT, s], S[TMP])
            m &= m - 1
        S[RW, RW_REVEALED + s] = cards
    if S[SC, I_PHASE] != PH_SHOW:  # (asked before the teyaku step: none are counted yet)
        S[RW, RW_SHOWN] = 1


@entry
def sample(S: Array, Q: Array, T: Array, d: int) -> None:
    """Observation(round, d).sample(the decider's chance) into the copy WORLD: the cards d
    cannot see (observation.known_cards), lowest first, shuffled by Fisher and Yates from the
    last place down; dealt to each other seat (in seat order) to his hand's size beside the
    teyaku cards he showed, the rest to the stock in that order (the stock is drawn from its
    end, in both engines); a joker in the stock traded with a card dealt to a hand. Each other
    seat's dealt hand is only what he showed."""
    W = S[WORLD * S_ROWS : (WORLD + 1) * S_ROWS]
    copy_round(W, S, Q)
    reveal(S, Q, T)
    seated = Q[CFG, C_SEATED]
    full = full_mask(Q)
    joker = Q[CFG, C_JOKER]
    jbit = 1 << joker if joker >= 0 else 0
    known = S[SC, I_FIELD]
    for s in range(seated):
        known |= S[P_CAPTURED, s]
        if s == d:
            known |= S[P_HAND, s]  # (never blind: no choice before the deal is weighed)
        elif S[SC, I_OFFERED] >> s & 1:  # his hand shown to offer a draw (kernel/offer.py)
            known |= S[P_HAND, s]
        else:
            known |= S[RW, RW_REVEALED + s] & S[P_HAND, s]
    if S[SC, I_DRAWN] >= 0:
        known |= 1 << S[SC, I_DRAWN]
    known &= full
    unknown = full & ~known
    for s in range(seated):
        if s != d:
            unknown |= S[P_HAND, s] & jbit
    pool = W[TMP]
    n = 0
    m = unknown
    while m:
        pool[n] = low_bit(m)
        n += 1
        m &= m - 1
    bot_chance(S, Q, d)
    shuffle(S[CH + d], S[SCRATCH], pool, n)
    needs = W[TMP + 1]
    dealt = 0
    for s in range(seated):
        if s != d:
            W[P_HAND, s] = S[P_HAND, s] & known
            needs[s] = popcount(S[P_HAND, s] & (full | jbit)) - popcount(W[P_HAND, s])
            dealt += needs[s]
            W[P_DEALT, s] = S[RW, RW_REVEALED + s]
    if jbit:
        for j in range(dealt, n):
            if pool[j] == joker:
                k = bot_below(S, Q, d, dealt)
                pool[j] = pool[k]
                pool[k] = joker
                break
    bonus = Q[HW, W_BONUS]
    if bonus:  # an unseen bonus card is in the stock, never in a hand (Observation.sample)
        for k in range(dealt):
            if bonus >> pool[k] & 1:
                for j in range(dealt, n):
                    if not bonus >> pool[j] & 1:
                        b = pool[k]
                        pool[k] = pool[j]
                        pool[j] = b
                        break
    i = 0
    for s in range(seated):
        if s != d:
            for k in range(i, i + needs[s]):
                W[P_HAND, s] |= 1 << pool[k]
            i += needs[s]
    W[SC, I_NSTOCK] = n - i
    for k in range(n - i):
        W[STOCK, k] = pool[i + k]


@entry
def legal_in(X: Array, Q: Array, T: Array, action: int) -> bool:
    """Whether a play is legal in this world (rollouts.play_options: an option the world
    refuses, a wild card's target completing a hiki someone holds in it, skips the world)."""
    legal = X[LEGAL]
    n = legal_plays(X, Q, T, legal)
    k = 0
    while k < n and legal[k] != action:
        k += 1
    return k < n


@entry
def outcome(X: Array, Q: Array, d: int) -> float:
    """rollouts.outcome of a played-out copy: the decider's (or his team's) net minus the mean
    of the other sides' (floats of the exact nets, summed in the same order)."""
    seated = Q[CFG, C_SEATED]
    scale = float(Q[CFG, C_SCALE])
    net = X[TMP]
    for s in range(seated):
        net[s] = 0
    for e in range(X[SC, I_NLEDGER]):
        if X[LEDGER + 0, e] >= 0:
            net[X[LEDGER + 0, e]] -= X[LEDGER + 2, e]
        if X[LEDGER + 1, e] >= 0:
            net[X[LEDGER + 1, e]] += X[LEDGER + 2, e]
    own = 0.0
    others = 0.0
    n = 0
    teams = Q[RQ, RQ_NTEAMS]
    if teams:
        mine = Q[RQ, RQ_TEAM + d]
        for t in range(teams):
            total = 0
            for s in range(seated):
                if Q[RQ, RQ_TEAM + s] == t:
                    total += net[s]
            if t == mine:
                own = total / scale
            else:
                others += total / scale
                n += 1
    else:
        own = net[d] / scale
        for k in range(X[SC, I_NORDER]):
            q = X[P_ORDER, k]
            if q != d:
                others += net[q] / scale
                n += 1
    if n == 0:
        return own
    return own - others / n


@entry
def next_rollout(S: Array, Q: Array, T: Array, F: Floats) -> int:
    """rollouts.weigh's next play-out: the copy of the round that plays it (WORLD or PLAYOUT),
    its option pending and the decider's rollout chance in it; each world sampled in turn and
    every option played in it (the last one in the world itself, the others in copies of it);
    a stop played out in the first world only, its outcome counted in each. 0 when every world
    is played: the option with the best mean (the first given on a tie) is pending in S."""
    d = S[RW, RW_SEAT]
    options = S[RW, RW_NOPT]
    W = S[WORLD * S_ROWS : (WORLD + 1) * S_ROWS]
    while True:
        if S[SC, I_BAIL]:  # a rollout the kernel could not play exactly: the scalar engine will
            S[RW, RW_WANT] = 0
            return 0
        if S[RW, RW_WORLD] < 0 or S[RW, RW_NEXT] >= options:
            world = S[RW, RW_WORLD] + 1
            if world >= max(1, Q[RQ, RQ_WORLDS]):
                decide(S, F)
                return 0
            S[RW, RW_WORLD] = world
            S[RW, RW_NEXT] = 0
            sample(S, Q, T, d)
        k = S[RW, RW_NEXT]
        S[RW, RW_NEXT] = k + 1
        action = S[RW, RW_OPT + k]
        if action == STOP and S[RW, RW_STOPPED]:
            F[F_TOTALS + k] += F[F_STOPPED]
            S[RW, RW_COUNT + k] += 1
            continue
        if S[SC, I_PHASE] == PH_PLAY and not legal_in(W, Q, T, action):
            continue
        copy = WORLD
        if action == STOP or k < options - 1:
            copy = PLAYOUT
            copy_round(S[PLAYOUT * S_ROWS : (PLAYOUT + 1) * S_ROWS], W, Q)
        X = S[copy * S_ROWS : (copy + 1) * S_ROWS]
        X[RW, RW_ROLLOUT] = 1
        X[RW, RW_PENDING] = 1
        X[RW, RW_ACTION] = action
        rollout_chance(S, Q, d)
        for i in range(32):
            X[RCH, i] = S[RCH + d, i]
        S[RW, RW_PLAYING] = k
        return copy


@entry
def end_rollout(S: Array, Q: Array, T: Array, F: Floats, copy: int) -> None:
    """A play-out over: the rollout chance it spent back to the decider, its outcome added to
    its option's (a stop's kept for the other worlds)."""
    X = S[copy * S_ROWS : (copy + 1) * S_ROWS]
    d = S[RW, RW_SEAT]
    for i in range(32):
        S[RCH + d, i] = X[RCH, i]
    if X[SC, I_BAIL]:
        S[SC, I_BAIL] = X[SC, I_BAIL]
        return
    value = outcome(X, Q, d)
    k = S[RW, RW_PLAYING]
    if S[RW, RW_OPT + k] == STOP:
        F[F_STOPPED] = value
        S[RW, RW_STOPPED] = 1
    F[F_TOTALS + k] += value
    S[RW, RW_COUNT + k] += 1


@entry
def decide(S: Array, F: Floats) -> None:
    """rollouts.Tally.estimates' best: the highest mean, the first given among equals (an
    option no world could play: -inf)."""
    best = 0
    top = -np.inf
    for k in range(S[RW, RW_NOPT]):
        count = S[RW, RW_COUNT + k]
        mean = F[F_TOTALS + k] / count if count else -np.inf
        if k == 0 or mean > top:
            best = k
            top = mean
    S[RW, RW_ACTION] = S[RW, RW_OPT + best]
    S[RW, RW_PENDING] = 1
    S[RW, RW_WANT] = 0
