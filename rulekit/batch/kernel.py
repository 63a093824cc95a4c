"""The batch engine's round: one numba kernel plays many deals of a plain round (no hiki, no
wild card) between random and greedy bots, move for move and payment for payment what the
scalar engine plays (rulekit.engine: deal.py, setup.py, capture.py, continuation.py,
scoring.py, ledger.py; the bots in rulekit.agents). Each function below names the scalar
function it mirrors; tests/test_batch_identity.py holds the two to the same rounds.

The kernel is generic: one compilation serves every rule file. A rule file is data: `cfg`
(the options, indices below), the deck's months and points, and the tables as programs
(rulekit.batch.tables). A round's state is a few int64 arrays: `I` (scalars, indices below),
`P[field, seat]` (per seat), the stock, the ledger. Amounts are ints scaled by cfg[C_SCALE]
(a multiple of every share's divisor): exact, as the scalar's Fractions are. A deal the kernel
cannot play exactly (a share finer than the scale, a full buffer) is marked and played again
by the scalar engine, so the totals are always the scalar engine's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import below as chance_below
from rulekit.batch.chance import entry, inline, permutation, sha512_limbs, write_int
from rulekit.batch.tables import (
    DEALT_SLOT,
    field_multiplier,
    first_instant_win,
    holds,
    instant_value,
)
from rulekit.batch.tables import counted as t_counted
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import value as t_value

Array = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# ---------------------------------------------------------------- cfg: the rule file's options
C_SEATED = 0
C_PLAYING = 1
C_HAND = 2
C_FIELD = 3
C_NCARDS = 4  # cards dealt: the deck, plus the joker at its table size
C_JOKER = 5  # the joker's bit, or -1
C_SIT_OUT = 6  # 0 each chooses (fold phase), 1 after the dealer, 2 from the dealer
C_FOLD_FEE = 7
C_FORCED_FEE = 8
C_FOLD_TIMES = 9
C_FOLD_START = 10  # 0 dealer, 1 after the dealer
C_FOLD_PAYEE = 11  # 0 winner, 1 active, 2 dealer, 3 bank
C_DEALER_CAPTURES = 12
C_HAS_TEYAKU = 13
C_TEYAKU_HIGHEST = 14
C_TEYAKU_SPLIT = 15
C_TEYAKU_ANY_FLAT = 16
C_HAS_YAKU = 17
C_YAKU_SPLIT = 18
C_YAKU_ANY_FLAT = 19
C_YAKU_BONUS = 20
C_YAKU_COUNT_BITS = 21
C_ALLOWED = 22
C_ENDS_ROUND = 23
C_PAID_STOP = 24
C_PAID_IN_PLAY = 25
C_REFUND_HALF = 26
C_PAY_FOR_ALL = 27
C_BEATEN_FORFEIT = 28
C_OTHER_STOPS = 29  # -1 as if unfinished, 0 keep, 1 forfeit
C_UNFINISHED = 30  # 0 keep, 1 pay half, 2 earn half, 3 forfeit
C_PER_YAKU = 31
C_METHOD = 32  # 0 par, 1 difference, 2 none
C_PAR = 33
C_ONLY_WITHOUT_YAKU = 34
C_HAS_VOID = 35
C_N_INSTANT = 36
C_LIABLE_MIN = 37  # liability's minimum hand, or -1: no liability
C_NSTEPS = 38
C_STEPS = 39  # .. C_STEPS + 8: the setup steps (codes below)
C_SCALE = 48
C_SEED = 49
C_TRACE = 50
C_NMONTHS = 51
C_T_TEYAKU = 52  # each table's start in T, then its end
C_T_YAKU = 54
C_T_MULT = 56
C_T_VOID = 58
C_T_INSTANT = 60
C_NYAKU = 62  # the yaku table's entries
C_SIZE = 63

# setup step codes
ST_HANDS = 0
ST_SWAP = 1
ST_FIELD = 2
ST_FOLD = 3
ST_JOKER = 4
ST_TEYAKU = 5
ST_INSTANT = 6

# bots
BOT_RANDOM = 0
BOT_GREEDY = 1

# actions (engine/actions.py)
CARD_MASK = 63
SHIFT = 6
TAKE = 4096
JOIN = 8192
FOLD = 8193
STOP = 8194
CONTINUE = 8195
SWAP = 8196
KEEP = 8197

# phases
PH_PLAY = 0
PH_TAKE = 1
PH_DECIDE = 2
PH_FOLD = 3
PH_SWAP = 4
PH_DONE = 5

# how a round ended (RoundResult.ended_by)
END_NONE = 0
END_YAKU = 1
END_COUNT = 2
END_DRAW = 3
END_INSTANT = 4
ENDINGS = ("", "yaku", "count", "draw", "instant")

# payment reasons (the ledger's words)
R_TEYAKU = 0
R_YAKU = 1
R_SPECIAL = 2
R_REFUND = 3
R_PENALTY = 4
R_LIABILITY = 5
R_HALF = 6
R_COUNT = 7
R_FOLD_FEE = 8
R_FORCED_FOLD = 9
R_INSTANT = 10
R_TEYAKU_RETURNED = 11
REASONS = (
    "teyaku",
    "yaku",
    "special",
    "refund",
    "penalty",
    "liability",
    "half",
    "count",
    "fold fee",
    "forced fold",
    "instant win",
    "teyaku returned",
)

# a payment's detail (the ledger's words): an entry's index, or one of these
D_NONE = -1  # ""
D_UNFINISHED = -2  # "continued without a new yaku"
D_BEATEN = -3  # "beaten after continuing"
D_YAKU = -4  # "yaku" (a payment for no entry: a bonus grown)
D_ENTRIES = -16  # D_ENTRIES - mask: the entries' names, joined by ", "
D_POINTS = 1 << 32  # D_POINTS + 4096 * the payer's points + the payee's: "a/b points"


# ---------------------------------------------------------------- I: the round's scalars
I_DEALER = 0
I_CURRENT = 1
I_PHASE = 2
I_POS = 3
I_TURN = 4
I_NORDER = 5
I_NSTOCK = 6
I_FIELD = 7
I_MULT = 8
I_LAST_MAKER = 9
I_DRAWN = 10
I_TURN_GOT = 11
I_FED = 12
I_WINNER = 13
I_ENDED = 14
I_NLEDGER = 15
I_BAIL = 16
I_FIELD_LAID = 17
I_VOID = 18
I_JOINED = 19
I_FOLD_AT = 20
I_NQUEUE = 21
I_STEP = 22
I_NFEES = 23
I_NUMBER = 24
I_NPENDING = 25
I_NWINNERS = 26
I_NMOVES = 27
I_SIZE = 32

# ---------------------------------------------------------------- P[field, seat]
P_HAND = 0
P_CAPTURED = 1
P_FOLDED = 2
P_HITS = 3
P_MADE_VALUE = 4
P_DECLARED = 5
P_MADE_ENTRIES = 6
P_STAKE = 7
P_STAKE_FLAT = 8
P_CONTINUING = 9
P_CONTINUES = 10
P_CONTINUE_WINS = 11
P_FORFEITED = 12
P_PREPAID_DONE = 13
P_PREPAID_BASE = 14
P_DEALT = 15
P_TEYAKU = 16  # the teyaku counted (entry bits)
P_ORDER = 17  # the seats in play, in order (P[P_ORDER, k])
P_QUEUE = 18  # the fold phase's queue
P_CHANCE_READY = 19
P_WINNERS = 20
P_SIZE = 21

SEATS = 8
STOCK = 64
LEDGER = 256
MOVES = 256
ENTRIES = 64

BAIL_SHARE = 1  # a share finer than the scale
BAIL_FULL = 2  # a buffer full
BAIL_VOIDS = 3  # too many void deals in a row: the scalar engine names the fault


@inline
def share(S: Array, v: int, n: int) -> int:
    """ledger.share on scaled amounts: exact, or the deal is played by the scalar engine."""
    if v % n != 0:
        S[SC, I_BAIL] = BAIL_SHARE
        return 0
    return v // n


@inline
def points_of(Q: Array, x: int) -> int:
    total = 0
    while x:
        total += Q[POINTS, low_bit(x)]
        x &= x - 1
    return total


# ---------------------------------------------------------------- the ledger (engine/ledger.py)
@inline
def record(
    S: Array, payer: int, payee: int, amount: int, reason: int, detail: int, mult: int, base: int
) -> None:
    """ledger.record: an entry as given (amounts scaled). Row LEDGER + 7 says whether the
    scalar's amount is a Fraction (its base is not whole, or a caller said so in I_FORCE: a
    half times a factor is a Fraction even when whole), so that a seat's net is one too."""
    n = S[SC, I_NLEDGER]
    if n >= LEDGER:
        S[SC, I_BAIL] = BAIL_FULL
        return
    S[LEDGER, n] = payer
    S[LEDGER + 1, n] = payee
    S[LEDGER + 2, n] = amount
    S[LEDGER + 3, n] = reason
    S[LEDGER + 4, n] = detail
    S[LEDGER + 5, n] = mult
    S[LEDGER + 6, n] = base
    S[LEDGER + 7, n] = 1 if S[SC, I_FORCE] or base % S[SC, I_SCALE] != 0 else 0
    S[SC, I_NLEDGER] = n + 1


@inline
def pay(S: Array, payer: int, payee: int, base: int, reason: int, detail: int, flat: bool) -> None:
    """ledger.pay: base times the field's multiplier (not when flat); nothing to oneself or
    of 0 (no factors: the kernel serves files without them)."""
    if payer == payee or base == 0:
        return
    mult = 1 if flat else S[SC, I_MULT]
    record(S, payer, payee, base * mult, reason, detail, mult, base)


@entry
def pay_parts(
    S: Array,
    payers: Array,
    npayers: int,
    payee: int,
    base: int,
    flat: int,
    reason: int,
    detail: int,
    split: bool,
    fractions: int = 0,
) -> None:
    """ledger.pay_parts: from each payer (but the payee), or the total shared between them.
    `fractions`: bit 0, the base is a Fraction in the scalar engine; bit 1, the flat part is
    (then so is the rest: a Fraction minus anything is one); a share makes them exact again."""
    n = 0
    for k in range(npayers):
        if payers[k] != payee:
            n += 1
    if n == 0:
        return
    field = base - flat
    field_fraction = fractions != 0
    flat_fraction = fractions & 2 != 0
    if split:
        field = share(S, field, n)
        flat = share(S, flat, n)
        field_fraction = flat_fraction = False
    for k in range(npayers):
        q = payers[k]
        if q == payee:
            continue
        S[SC, I_FORCE] = field_fraction
        pay(S, q, payee, field, reason, detail, False)
        S[SC, I_FORCE] = flat_fraction
        pay(S, q, payee, flat, reason, detail, True)
    S[SC, I_FORCE] = 0


# ---------------------------------------------------------------- bots (rulekit/agents)
@entry
def draw_below(S: Array, Q: Array, s: int, n: int) -> int:
    """agents.chance.Chance(f"{seed}:{number}:{s}").below(n): the bot's number is hashed on its
    first draw of the round (a draw of one choice spends nothing)."""
    if n <= 1:
        return 0
    if S[P_CHANCE_READY, s] == 0:
        buf = S[BUF]
        at = write_int(buf, 0, Q[CFG, C_SEED])
        buf[at] = 58
        at = write_int(buf, at + 1, S[SC, I_NUMBER])
        buf[at] = 58
        at = write_int(buf, at + 1, s)
        sha512_limbs(buf, at, S[CH + s], S[SHA])
        for i in range(16):
            S[CH + s, 16 + i] = S[CH + s, i]
        S[P_CHANCE_READY, s] = 1
    return chance_below(S[CH + s], S[SCRATCH], n)


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


# ---------------------------------------------------------------- the deal (engine/deal.py)
@entry
def deal_string(S: Array, Q: Array) -> int:
    """ "{seed}:{deal_no}" in S[BUF] (deal_no: the number, "{number}.{k}" for the k-th
    redeal); its length."""
    buf = S[BUF]
    at = write_int(buf, 0, Q[CFG, C_SEED])
    buf[at] = 58
    at = write_int(buf, at + 1, S[SC, I_NUMBER])
    if S[SC, I_VOIDS]:
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


# ---------------------------------------------------------------- the world of a round
# Every function takes (S, Q, T, F): few arrays, so a call copies little.
# S: the round's state, int64 [rows, 256] (rows below). P_* fields are rows 0..P_SIZE-1, a
# column per seat.
SC = P_SIZE  # the scalars (I_* columns)
STOCK = SC + 1  # the stock, drawn from its end
FEED = STOCK + 1  # who laid each card on the field (row FEED), holding how many (FEED + 1)
LIAB = FEED + 2  # LIAB + p, column i: who is liable for p's yaku entry i (-1: nobody)
YC = LIAB + SEATS  # YC + p, column i: how often p's yaku entry i is listed as made
FEES = YC + SEATS  # FEES + (0 payer, 1 fee, 2 voluntary), column: the k-th fold fee
PEND = FEES + 3  # PEND + (0 seat, 1 payers, 2 value, 3 flat, 4 entry), column: a teyaku waiting
CH = PEND + 5  # CH + s: seat s's chance (its number's 16 limbs, then its block's)
BUF = CH + SEATS  # a seed string's bytes
XL = BUF + 1  # a deal's number
ORDER = XL + 1  # a permutation
SEL = ORDER + 1  # counted entries
PILES = SEL + 1  # the piles in play order
SCRATCH = PILES + 1  # a block's bytes
MOVES = SCRATCH + 1  # MOVES + (0 seat, 1 action), column: the k-th move (when traced)
# LEDGER + (payer, payee, amount, reason, detail, multiplier, base, a Fraction)
LEDGER = MOVES + 2
# scratch rows (the kernel allocates nothing: it runs without numba's reference counting), one
# per use that may be live while another function runs
TMP = LEDGER + 8  # TMP .. TMP + 4: a function's own, calling nothing that uses them
IDX = TMP + 5  # entries and their values: made, pay_made
VALS = IDX + 1
REST_IDX = VALS + 1  # pay_yaku
REST_VALS = REST_IDX + 1
OTHERS = REST_VALS + 1  # pay_yaku
CLOSE_OTHERS = OTHERS + 1  # close_continuations
CLOSE_ORDER = CLOSE_OTHERS + 1
POINTS_ROW = CLOSE_ORDER + 1  # count
COUNT_ORDER = POINTS_ROW + 1  # count_entries
COUNT_SEL = COUNT_ORDER + 1
LEGAL = COUNT_SEL + 1  # play_round
SHA = LEGAL + 1  # sha512's message schedule
CHOICES = SHA + 1  # a deal's rule choices over its tries (void ones too): the CH_ columns
S_ROWS = CHOICES + 1
# rule choices offered and taken (rulekit.sim.exercise.Counting)
CH_CONTINUE_OFFERED = 0
CH_CONTINUE = 1
CH_FOLD_OFFERED = 2
CH_FOLD = 3
CH_SWAP_OFFERED = 4
CH_SWAP = 5
S_WIDTH = 256

# Q: the rule file, int64 [rows, 64]
CFG = 0  # the options (C_* columns)
MONTHS = 1  # each card's month's cards
POINTS = 2  # each card's points
MONTH_MASKS = 3
TFLAT = 4  # per teyaku entry: paid flat
YFLAT = 5  # per yaku entry: paid flat, its cards, liable, paid to the dealer, cancels
YCARDS = 6
YLIABLE = 7
YDEALER = 8
YCANCELS = 9
BOTS = 10  # each seat's bot
Q_ROWS = 11
# T: the tables (batch/tables.py) one after another, each from cfg[C_T_x] to cfg[C_T_x + 1]
# (sliced where used: a function without reference counting cannot return a view)
# F: float64: the greedy bot's worth of each card, then its constants
FPARAMS = 64  # complete bonus, discard cost, points per card
FSCRATCH = 72  # greedy's scores of a turn's plays
F_SIZE = FSCRATCH + 64
I_VOIDS = 28
I_SCALE = 29  # cfg's scale, for the ledger
I_FORCE = 30  # 1: the next entries' amounts are Fractions in the scalar engine, whole or not


@entry
def reset(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """A new try at a deal: every field of the round as a new RoundState has it."""
    number, dealer, voids = S[SC, I_NUMBER], S[SC, I_DEALER], S[SC, I_VOIDS]
    S[:SC, :SEATS] = 0
    S[SC, :I_SIZE] = 0
    S[SC, I_NUMBER] = number
    S[SC, I_DEALER] = dealer
    S[SC, I_VOIDS] = voids
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


@inline
def others_of(S: Array, p: int, out: Array) -> int:
    """The seats in play but p, in order."""
    n = 0
    for k in range(S[SC, I_NORDER]):
        q = S[P_ORDER, k]
        if q != p:
            out[n] = q
            n += 1
    return n


# ---------------------------------------------------------------- setup (engine/setup.py)
@entry
def run_setup(S: Array, Q: Array, T: Array, F: Floats) -> None:
    while S[SC, I_STEP] < Q[CFG, C_NSTEPS]:
        code = Q[CFG, C_STEPS + S[SC, I_STEP]]
        if code == ST_SWAP:
            S[SC, I_PHASE] = PH_SWAP
            S[SC, I_CURRENT] = (S[SC, I_DEALER] + 1) % Q[CFG, C_SEATED]
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
    factor, _carry = field_multiplier(T[Q[CFG, C_T_MULT] : Q[CFG, C_T_MULT + 1]], field)
    S[SC, I_MULT] = max(factor, 1)
    if Q[CFG, C_HAS_VOID] and holds(
        T[Q[CFG, C_T_VOID] : Q[CFG, C_T_VOID + 1]], 0, field, S[PILES], 0
    ):
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
def fold_phase(S: Array, Q: Array, T: Array, F: Floats) -> bool:
    """setup._fold_phase: when more sit than play, each in turn joins or folds."""
    seated = Q[CFG, C_SEATED]
    out = seated - Q[CFG, C_PLAYING]
    if out <= 0:
        return False
    mode = Q[CFG, C_SIT_OUT]
    if mode != 0:
        first = S[SC, I_DEALER] + 1 if mode == 1 else S[SC, I_DEALER]
        for i in range(out):
            S[P_FOLDED, (first + i) % seated] = 1
        end_fold(S, Q, T, F)
        return False
    start = S[SC, I_DEALER] if Q[CFG, C_FOLD_START] == 0 else (S[SC, I_DEALER] + 1) % seated
    for i in range(seated):
        S[P_QUEUE, i] = (start + i) % seated
    S[SC, I_NQUEUE] = seated
    S[SC, I_FOLD_AT] = 0
    S[SC, I_JOINED] = 0
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
            S[SC, I_PHASE] = PH_FOLD
            S[SC, I_CURRENT] = seat
            return
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
    fee = Q[CFG, C_FOLD_FEE] if voluntary else Q[CFG, C_FORCED_FEE]
    if fee:
        n = S[SC, I_NFEES]
        S[FEES + 0, n] = seat
        S[FEES + 1, n] = fee
        S[FEES + 2, n] = 1 if voluntary else 0
        S[SC, I_NFEES] = n + 1


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


@inline
def full_mask(Q: Array) -> int:
    """The deck's cards (the joker's bit, past them, is not one)."""
    n = Q[CFG, C_NCARDS] - (1 if Q[CFG, C_JOKER] >= 0 else 0)
    return int((1 << n) - 1)


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
        n = t_counted(ttab, t_match(ttab, hand, False, S[PILES], 0), hand, sel)
        mask = 0
        total = 0
        for k in range(n):
            mask |= 1 << sel[k]
            total += t_value(ttab, sel[k], hand)
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
            hand = S[P_DEALT, s]
            m = S[P_TEYAKU, s]
            while m:
                i = low_bit(m)
                m &= m - 1
                if Q[TFLAT, i]:
                    flat += t_value(ttab, i, hand)
        k = S[SC, I_NPENDING]
        S[PEND + 0, k] = s
        S[PEND + 1, k] = active
        S[PEND + 2, k] = values[s]
        S[PEND + 3, k] = flat
        S[PEND + 4, k] = firsts[s]
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
            payers,
            n,
            S[PEND + 0, k],
            S[PEND + 2, k] * scale,
            S[PEND + 3, k] * scale,
            R_TEYAKU,
            S[PEND + 4, k],
            Q[CFG, C_TEYAKU_SPLIT] != 0,
        )
    S[SC, I_NPENDING] = 0


@entry
def instant_win(S: Array, Q: Array, T: Array, F: Floats) -> bool:
    """setup._instant_win: the first dealt hand from the dealer that wins at once."""
    nwins = Q[CFG, C_N_INSTANT]
    if nwins == 0:
        return False
    seated = Q[CFG, C_SEATED]
    full = full_mask(Q)
    dealer = S[SC, I_DEALER]
    scale = Q[CFG, C_SCALE]
    for i in range(seated):
        s = (dealer + i) % seated
        if S[P_FOLDED, s]:
            continue
        hand = S[P_HAND, s] & full
        won = first_instant_win(T[Q[CFG, C_T_INSTANT] : Q[CFG, C_T_INSTANT + 1]], hand)
        if won < 0:
            continue
        for j in range(seated):
            q = (dealer + j) % seated
            if q != s and not S[P_FOLDED, q]:
                v = instant_value(T[Q[CFG, C_T_INSTANT] : Q[CFG, C_T_INSTANT + 1]], won) * scale
                record(S, q, s, v, R_INSTANT, won, 1, v)
        n = 0
        for j in range(seated):
            q = (dealer + j) % seated
            if not S[P_FOLDED, q]:
                S[P_ORDER, n] = q
                n += 1
        S[SC, I_NORDER] = n
        S[SC, I_ENDED] = END_INSTANT
        finish(S, Q, T, F, s, False)
        return True
    return False


@entry
def begin_play(S: Array, Q: Array, T: Array, F: Floats) -> None:
    seated = Q[CFG, C_SEATED]
    n = 0
    total = 0
    for k in range(seated):
        s = (S[SC, I_DEALER] + k) % seated
        if not S[P_FOLDED, s]:
            S[P_ORDER, n] = s
            n += 1
            total += popcount(S[P_HAND, s])
    S[SC, I_NORDER] = n
    S[SC, I_TURN] = 0
    S[SC, I_POS] = 0
    S[SC, I_PHASE] = PH_PLAY
    S[SC, I_CURRENT] = S[P_ORDER, 0]
    if total == 0:
        end_of_hands(S, Q, T, F)


# ---------------------------------------------------------------- the turn (engine/capture.py)
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
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    if not Q[CFG, C_HAS_YAKU] or S[P_FORFEITED, p]:
        return
    x = S[P_CAPTURED, p]
    hits = t_match(ytab, x, False, S[PILES], 0)
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


# ---------------------------------------------------------------- yaku (engine/continuation.py)
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
    if value > S[P_DECLARED, p]:
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
    delta = value - S[P_DECLARED, p]
    S[P_MADE_VALUE, p] = value
    S[P_DECLARED, p] = value
    S[P_MADE_ENTRIES, p] = counted
    if Q[CFG, C_PAID_STOP]:
        list_counted(S, p, counted)
    else:
        m = new
        while m:
            S[YC + p, low_bit(m)] += 1
            m &= m - 1
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
        if S[P_HAND, S[P_ORDER, k]]:
            holding = True
    if Q[CFG, C_ALLOWED] and holding:
        S[SC, I_PHASE] = PH_DECIDE
        S[SC, I_CURRENT] = p
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
                    pay(S, q, o, share(S, S[P_STAKE, q] - flat, 2), R_REFUND, D_BEATEN, False)
                    pay(S, q, o, share(S, flat, 2), R_REFUND, D_BEATEN, True)
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
            pay(S, payer, p, part * payers * factor * scale, reason, i, Q[YFLAT, i] != 0)
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
            pay(S, cover, p, amount, R_PENALTY, detail, False)
            pay(S, cover, p, flat * payers * factor * scale, R_PENALTY, detail, True)
        else:
            pay_parts(
                S,
                others,
                nothers,
                p,
                remaining * factor * scale,
                flat * factor * scale,
                R_YAKU,
                detail,
                split,
            )
    if cover < 0:
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
    x = S[P_CAPTURED, q]
    total = 0
    m = S[P_MADE_ENTRIES, q]
    while m:
        i = low_bit(m)
        m &= m - 1
        if Q[YFLAT, i]:
            total += t_value(ytab, i, x)
    return total


@entry
def pay_made(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    """continuation.pay_made: what p made and was not paid yet."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    x = S[P_CAPTURED, p]
    factor = S[P_CONTINUES, p] + 1 if Q[CFG, C_PER_YAKU] else 1
    idx = S[IDX]
    vals = S[VALS]
    n = entry_values(ytab, S[P_MADE_ENTRIES, p] & ~S[P_PREPAID_DONE, p], x, idx, vals)
    base = S[P_PREPAID_BASE, p]
    if S[P_MADE_VALUE, p] > base:
        pay_yaku(S, Q, T, F, p, idx, vals, n, S[P_MADE_VALUE, p] - base, factor, -1)


@inline
def at_stop(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    if Q[CFG, C_PAID_STOP]:
        pay_made(S, Q, T, F, p)


@entry
def stop(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    S[P_CONTINUING, p] = 0
    at_stop(S, Q, T, F, p)
    close_continuations(S, Q, T, F, p)
    S[SC, I_ENDED] = END_YAKU
    finish(S, Q, T, F, p, False)


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
                pay(S, q, others[j], field, R_PENALTY, D_UNFINISHED, False)
                pay(S, q, others[j], flat, R_PENALTY, D_UNFINISHED, True)
        else:  # earn half
            factor = S[P_CONTINUES, q] + 1 if Q[CFG, C_PER_YAKU] else 1
            base = share(S, S[P_MADE_VALUE, q] * scale, 2) * factor
            mf = made_flat(S, Q, T, F, q)
            flat = share(S, mf * scale, 2) * factor
            # half an odd value is a Fraction, and stays one times the factor
            fractions = (S[P_MADE_VALUE, q] % 2) | ((mf % 2) << 1)
            orders_n = S[SC, I_NORDER]
            pay_parts(S, orders, orders_n, q, base, flat, R_HALF, D_UNFINISHED, split, fractions)


@entry
def end_of_hands(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """continuation.end_of_hands: continuers settled, the last maker wins unless he forfeited,
    the hands counted when the rules say."""
    winner = -1
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
    elif S[SC, I_WINNER] == lm and ends:
        S[SC, I_ENDED] = END_YAKU
    else:
        S[SC, I_ENDED] = END_COUNT


# ---------------------------------------------------------------- the end (engine/scoring.py)
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


# ---------------------------------------------------------------- the bots' choices
@entry
def choose(S: Array, Q: Array, T: Array, F: Floats, legal: Array, n: int) -> int:
    """The current seat's bot's action among legal[:n] (agents/random_agent.py, greedy.py)."""
    s = S[SC, I_CURRENT]
    phase = S[SC, I_PHASE]
    if Q[BOTS, s] == BOT_RANDOM:
        return int(legal[draw_below(S, Q, s, n)])
    if phase == PH_PLAY:
        return greedy_play(S, Q, T, F, legal, n)
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
    return int(legal[0])


@entry
def greedy_play(S: Array, Q: Array, T: Array, F: Floats, legal: Array, n: int) -> int:
    """greedy's plain chooser: the worth of what a play captures, a bonus for a yaku it
    raises, a cost for a card laid down; the first best, a tie broken by the bot's chance."""
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
        if a >> SHIFT:
            got = (1 << ((a >> SHIFT) - 1)) | (1 << b)
        else:
            m = field & Q[MONTHS, b]
            got = m | (1 << b) if m else 0
        if not got:
            score = -discard_cost * F[b]
        else:
            score = mask_worth(F, got)
            if Q[CFG, C_HAS_YAKU]:
                value = yaku_value(S, ytab, mine | got)
                if value > made_now:
                    score += complete_bonus * (value - made_now)
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


@entry
def greedy_strong(S: Array, Q: Array, T: Array, F: Floats, s: int) -> bool:
    """greedy._strong: join with a teyaku, or a hand worth more than an average one."""
    ttab = T[Q[CFG, C_T_TEYAKU] : Q[CFG, C_T_TEYAKU + 1]]
    if S[P_TEYAKU, s]:
        return True
    hand = S[P_HAND, s] & full_mask(Q)  # view.hand: the joker is not a card of the deck
    if Q[CFG, C_HAS_TEYAKU]:
        hits = t_match(ttab, hand, False, S[PILES], 0)
        if t_counted(ttab, hits, hand, S[SEL]):
            return True
    return bool(points_of(Q, hand) > popcount(hand) * F[FPARAMS + 2])


# ---------------------------------------------------------------- a round, many rounds
@entry
def play_round(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """playout.play_out: the bots act until the round is over."""
    legal = S[LEGAL]
    trace = Q[CFG, C_TRACE]
    while S[SC, I_PHASE] != PH_DONE and not S[SC, I_BAIL]:
        phase = S[SC, I_PHASE]
        s = S[SC, I_CURRENT]
        if phase == PH_PLAY:
            n = plays(S[P_HAND, s], S[SC, I_FIELD], Q, legal)
        elif phase == PH_TAKE:
            m = S[SC, I_FIELD] & Q[MONTHS, S[SC, I_DRAWN]]
            n = 0
            while m:
                legal[n] = TAKE + low_bit(m)
                m &= m - 1
                n += 1
        elif phase == PH_DECIDE:
            legal[0] = STOP
            legal[1] = CONTINUE
            n = 2
        elif phase == PH_FOLD:
            legal[0] = JOIN
            legal[1] = FOLD
            n = 2
        else:
            legal[0] = SWAP
            legal[1] = KEEP
            n = 2
        action = choose(S, Q, T, F, legal, n)
        if phase == PH_DECIDE:
            S[CHOICES, CH_CONTINUE_OFFERED] += 1
            S[CHOICES, CH_CONTINUE] += action == CONTINUE
        elif phase == PH_FOLD:
            S[CHOICES, CH_FOLD_OFFERED] += 1
            S[CHOICES, CH_FOLD] += action == FOLD
        elif phase == PH_SWAP:
            S[CHOICES, CH_SWAP_OFFERED] += 1
            S[CHOICES, CH_SWAP] += action == SWAP
        if trace:
            k = S[SC, I_NMOVES]
            if k >= MOVES:
                S[SC, I_BAIL] = BAIL_FULL
                return
            S[MOVES + 0, k] = s
            S[MOVES + 1, k] = action
            S[SC, I_NMOVES] = k + 1
        if phase == PH_PLAY:
            play_card(S, Q, T, F, action)
        elif phase == PH_TAKE:
            take(S, Q, T, F, action)
        elif phase == PH_DECIDE:
            if action == STOP:
                stop(S, Q, T, F, s)
            else:
                S[P_CONTINUING, s] = 1
                S[P_CONTINUES, s] += 1
                next_turn(S, Q, T, F)
        elif phase == PH_FOLD:
            choose_fold(S, Q, T, F, action == JOIN)
            if S[SC, I_PHASE] != PH_FOLD:
                S[SC, I_STEP] += 1
                run_setup(S, Q, T, F)
        else:
            if action == SWAP:
                d = S[SC, I_DEALER]
                h = S[P_HAND, d]
                S[P_HAND, d] = S[P_HAND, s]
                S[P_HAND, s] = h
            S[SC, I_STEP] += 1
            S[SC, I_PHASE] = PH_PLAY
            run_setup(S, Q, T, F)


MAX_VOIDS = 100  # engine.game.MAX_VOID_IN_A_ROW (checked equal by the driver)


@entry
def play_deals(
    S: Array,
    Q: Array,
    T: Array,
    F: Floats,
    start: int,
    stop: int,
    net: Array,
    info: Array,
    teyaku_counts: Array,
    yaku_counts: Array,
    max_voids: int,
    ledgers: Array,
    moves: Array,
    seat_teyaku: Array,
    seat_yaku: Array,
) -> None:
    """Deals start..stop-1, each redealt while void (playout.play_deal), dealt by number %
    seated. Per deal: net[k, seat] (scaled), info[k] = (bailed, voids, turns, continued,
    ended, nwinners, winner seats as bits, continues paid off, then the CH_ rule choices, the
    seats whose net is a Fraction in the scalar engine as bits);
    teyaku and yaku made counted by
    entry. With Q[CFG, C_TRACE], ledgers[k] and moves[k] hold the round's entries and moves (-9
    after them), seat_teyaku[k, seat] the teyaku each counts (entry bits) and seat_yaku[k, seat,
    entry] how often each yaku is listed as made for him."""
    seated = Q[CFG, C_SEATED]
    trace = Q[CFG, C_TRACE]
    for i in range(start, stop):
        k = i - start
        voids = 0
        S[CHOICES, :6] = 0
        while True:
            S[SC, I_NUMBER] = i
            S[SC, I_DEALER] = i % seated
            S[SC, I_VOIDS] = voids
            reset(S, Q, T, F)
            deal(S, Q)
            run_setup(S, Q, T, F)
            play_round(S, Q, T, F)
            if S[SC, I_BAIL] or not S[SC, I_VOID]:
                break
            voids += 1
            if voids > max_voids:
                S[SC, I_BAIL] = BAIL_VOIDS
                break
        info[k, 0] = S[SC, I_BAIL]
        info[k, 1] = voids
        if S[SC, I_BAIL]:
            continue
        for s in range(seated):
            net[k, s] = 0
        for e in range(S[SC, I_NLEDGER]):
            if S[LEDGER + 0, e] >= 0:
                net[k, S[LEDGER + 0, e]] -= S[LEDGER + 2, e]
            if S[LEDGER + 1, e] >= 0:
                net[k, S[LEDGER + 1, e]] += S[LEDGER + 2, e]
        info[k, 2] = S[SC, I_TURN]
        cont = 0
        for s in range(seated):
            cont += S[P_CONTINUES, s]
        info[k, 3] = cont
        info[k, 4] = S[SC, I_ENDED]
        info[k, 5] = S[SC, I_NWINNERS]
        bits = 0
        for w in range(S[SC, I_NWINNERS]):
            bits |= 1 << S[P_WINNERS, w]
        info[k, 6] = bits
        wins = 0
        for s in range(seated):
            wins += S[P_CONTINUE_WINS, s]
        info[k, 7] = wins
        for c in range(6):
            info[k, 8 + c] = S[CHOICES, c]
        fraction_seats = 0  # the seats whose net is a Fraction in the scalar engine
        for e in range(S[SC, I_NLEDGER]):
            if S[LEDGER + 7, e]:
                for who in (S[LEDGER, e], S[LEDGER + 1, e]):
                    if who >= 0:
                        fraction_seats |= 1 << who
        info[k, 14] = fraction_seats
        for s in range(seated):
            m = S[P_TEYAKU, s]
            while m:
                teyaku_counts[low_bit(m)] += 1
                m &= m - 1
            for e in range(Q[CFG, C_NYAKU]):
                yaku_counts[e] += S[YC + s, e]
        if trace:
            nl = S[SC, I_NLEDGER]
            for e in range(ledgers.shape[1]):
                for f in range(7):
                    ledgers[k, e, f] = S[LEDGER + f, e] if e < nl else -9
            for s in range(seated):
                seat_teyaku[k, s] = S[P_TEYAKU, s]
                for e in range(seat_yaku.shape[2]):
                    seat_yaku[k, s, e] = S[YC + s, e]
            nm = S[SC, I_NMOVES]
            for e in range(moves.shape[1]):
                moves[k, e, 0] = S[MOVES + 0, e] if e < nm else -9
                moves[k, e, 1] = S[MOVES + 1, e] if e < nm else -9
