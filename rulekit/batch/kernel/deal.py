"""The deal (engine/deal.py): a new try at a deal, the shuffle from its seed, the restock after
the folds."""

from __future__ import annotations

from rulekit.batch.chance import entry, permutation, sha512_limbs, write_int
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)


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
