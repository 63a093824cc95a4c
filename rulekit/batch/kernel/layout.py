"""The batch kernel's layout: what each index of its arrays holds, and the codes it writes.

The kernel is generic: one compilation serves every rule file. A rule file is data: Q (its
options, cfg, and per-card and per-entry rows), T (its tables as programs for the condition VM,
rulekit.batch.tables) and F (the greedy bot's floats). A round's state is S, one int64 array of
rows: per-seat fields, the scalars, the stock, the ledger and scratch rows (the kernel allocates
nothing, so it runs without numba's reference counting). Amounts are ints scaled by cfg[C_SCALE]
(a multiple of every share's divisor): exact, as the scalar engine's Fractions are.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rulekit.engine import actions

Array = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# ---------------------------------------------------------------- cfg: the rule file's options
C_SEATED = 0
C_PLAYING = 1
C_HAND = 2
C_FIELD = 3
C_NCARDS = 4  # cards dealt: the deck, plus the joker at its table size
C_JOKER = 5  # the joker's bit, or -1
C_SIT_OUT = 6  # 0 each chooses (fold phase), 1 after the dealer, 2 from the dealer, 3 the
# loser of the last round, 4 its winner, 5 each seat in turn (SIT_BY_RESULT on: I_SITTERS)
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
C_METHOD = 32  # the count's method: M_PAR ... M_ROUND_WINS below
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
ST_BONUS = 8  # (7 is ST_DECLARE, below)

# bots
BOT_RANDOM = 0
BOT_GREEDY = 1

# actions: the scalar engine's codes (engine/actions.py), the same numbers
CARD_MASK = actions.CARD_MASK
SHIFT = actions.TARGET_SHIFT
TAKE = actions.TAKE
JOIN = actions.JOIN
FOLD = actions.FOLD
STOP = actions.STOP
CONTINUE = actions.CONTINUE
SWAP = actions.SWAP
KEEP = actions.KEEP

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
REASONS: tuple[str, ...] = (
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
P_DECLARER = 21  # 1: the seat made the rule file's declaration
P_SIZE = 22

SEATS = 8
STOCK = 64
LEDGER = 256
MOVES = 256
ENTRIES = 64

BAIL_SHARE = 1  # a share finer than the scale
BAIL_FULL = 2  # a buffer full
BAIL_VOIDS = 3  # too many void deals in a row: the scalar engine names the fault


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
FSCRATCH = 72  # greedy's scores of a turn's plays (as many as a LEGAL row holds: hikis and
F_SIZE = FSCRATCH + S_WIDTH  # the wild card's targets make more plays than the hand has cards)
I_VOIDS = 28
I_SCALE = 29  # cfg's scale, for the ledger
I_FORCE = 30  # 1: the next entries' amounts are Fractions in the scalar engine, whole or not

# part B: hiki and the wild card
HIKI = actions.HIKI  # HIKI + a month's index: every card of that month (the scalar's code)
HW = Q_ROWS  # Q row: the hiki and the wild card's options (W_ columns)
Q_ROWS = HW + 1
W_HIKI = 0  # 1: a player who sees a whole month may take it as his play
W_WILD = 1  # the wild card's bit when it captures any field card from the hand, or -1
W_CARD = 2  # the wild card's bit (its plays are counted as rule choices), or -1: none
W_COLLECTS = 3  # it collects its target's month at the end of the hands
W_RESPECTS = 4  # it may not take a card that completes another player's hiki
W_LAY = 5  # it may be laid on the field when a hiki blocks one of its targets
W_LONE = 6  # the mask of the cards that go to whoever plays or draws them (`lone`, bonus cards)
W_BONUS = 7  # the mask of the bonus cards (drawn, one is replaced; dealt: setup's ST_BONUS)
W_OWN = 8  # 1: the wild card may not take a card of its own month
W_TAKEN = 9  # 1: on the field, the next card drawn not of its month takes the wild card
W_SWEEPS = 10  # 1: drawn last, the wild card takes the whole field
W_DRAWN = 11  # 1: drawn, the wild card takes a card it could take from the hand (PH_TAKE: which)
W_LAST = 12  # 1: at the end, the last card of its month goes to the holder of the other two
# the round's scalars (SC row) past I_SIZE: reset by play_deals for each try at a deal
I_WILD_OWNER = I_SIZE  # who took a field card with the wild card, or -1
I_WILD_MONTH = I_SIZE + 1  # the month mask of the card it took
# rule choices offered and taken in the play phase (Counting._count_play), after the CH_ ones
CH_HIKI_OFFERED = 6
CH_HIKI = 7
CH_WILD_OFFERED = 8
CH_WILD = 9
CH_N = 10

# ---------------------------------------------------------------- rulewise
# The rule-weighing bot (agents/rulewise.py): greedy's card play; stop or continue and a hiki
# weighed by rollouts (kernel/rollouts.py), played out in copies of the round that S holds
# after it (S has S_COPIES * S_ROWS rows: the round, the world sampled, one option's play-out);
# join or fold and swap or keep by the variant's calibrated policy (Q's RQ row, F's F_JOIN_AT).
BOT_RULEWISE = 2
RCH = S_ROWS  # RCH + s: seat s's rollout chance ("{seed}:{number}:{s}:rollouts"), as CH + s
RW = RCH + SEATS  # the weighing's state (RW_ columns)
S_ROWS = RW + 1
S_COPIES = 3
WORLD = 1  # S[WORLD * S_ROWS : (WORLD + 1) * S_ROWS]: the world sampled for the decider
PLAYOUT = 2  # S[PLAYOUT * S_ROWS : ...]: an option played out in a copy of the world
MAX_OPTIONS = 64  # the best ordinary play and a hiki per month: at most one per hand card, + 1
RW_ROLLOUT = 0  # 1 in a copy playing a rollout: every seat greedy, the decider's rollout chance
RW_WANT = 1  # 1: the current seat's choice waits to be weighed (play_deals weighs it)
RW_PENDING = 2  # 1: RW_ACTION is the action to play (weighed, or a rollout's option)
RW_ACTION = 3
RW_SEAT = 4  # the seat whose choice is weighed
RW_READY = 5  # bit s: seat s's rollout chance is hashed (this try at the deal)
RW_SHOWN = 6  # 1: RW_REVEALED holds the teyaku cards each seat showed (this try)
RW_NOPT = 7  # the options weighed, then per option (RW_OPT + k, RW_COUNT + k)
RW_WORLD = 8  # the world being played (-1: none yet)
RW_NEXT = 9  # the next option to play in it
RW_STOPPED = 10  # 1: a stop's outcome is known (F_STOPPED), counted in each world
RW_PLAYING = 11  # the option whose play-out runs
RW_REVEALED = 16  # RW_REVEALED + s: the cards seat s showed for his teyaku
RW_OPT = RW_REVEALED + SEATS
RW_COUNT = RW_OPT + MAX_OPTIONS  # play-outs made of each option
RQ = Q_ROWS  # Q row: the bot's options (RQ_ columns)
Q_ROWS = RQ + 1
RQ_WORLDS = 0  # sampled worlds per weighed choice
RQ_CANNOT_GAIN = 1  # rulewise.continuing_cannot_gain: an empty hand stops without rollouts
RQ_JOIN = 2  # 1: join at a hand strength of F[F_JOIN_AT] or more (0: never by choice)
RQ_SWAP = 3  # 1: swap
RQ_FOLD_BLIND = 4  # the fold is declared before the deal: the hand is not seen
RQ_T_SHOWN = 5  # the teyaku's shown-cards programs in T (batch.tables.shown_array), then its end
RQ_NTEAMS = 7  # teams (0: each plays for himself), then each seat's team
RQ_TEAM = 8
F_JOIN_AT = F_SIZE  # F: the join threshold, a stop's outcome, each option's summed outcomes
F_STOPPED = F_JOIN_AT + 1
F_TOTALS = F_STOPPED + 1
F_SIZE = F_TOTALS + MAX_OPTIONS

# ------------------------------------------------ part A: scoring stage, round conditions, teams
# the scoring stage's payments and a score-style count's (the ledger's words, after the others)
R_AWARD = 12
R_CARDS = 13
R_ROUND_WON = 14
REASONS = (*REASONS, "award", "cards", "round won")
BANK = -1  # the other side of a score (engine.payments.BANK)
# a round's scalar (under I_SIZE: reset for each try at a deal): the field as laid at the deal
# (RoundView.field_at_deal; 0: not laid yet)
I_LAID = 31
# Q rows: the scoring stage's and the round conditions' options (G_ columns); per factor kind
# (batch.tables.FACTOR_ON's codes), the payment reasons it multiplies as bits (R_ codes). (The
# teams and a fold before the deal: the RQ row's RQ_NTEAMS, RQ_TEAM and RQ_FOLD_BLIND.)
STAGE = Q_ROWS
FACTOR_ON = Q_ROWS + 1
Q_ROWS += 2
G_NFACTORS = 0
G_NAWARDS = 1
G_T_STAGE = 2  # the stage's steps in T (batch.tables.stage_array), to G_T_STAGE + 1
G_T_STEPS = 4  # their conditions' table (batch.tables.stage_conditions), to G_T_STEPS + 1
G_TEYAKU_SEES = 6  # the teyaku, yaku, field (multiplier, void), instant wins see the round:
G_YAKU_SEES = 7  # their tests are given a context (engine.tables' sees_round flags)
G_FIELD_SEES = 8
G_INSTANT_SEES = 9
G_OPPONENTS_LOSE = 10
G_POOLED = 11  # teams pool their cards (Settlement.team_cards "pooled")
G_TIE_DRAW = 12  # a tie for the best score is a draw (Settlement.tie "draw")
G_SIZE = 13
# count methods (cfg C_METHOD): by par, by difference, none, then the score-style counts
M_PAR = 0
M_DIFFERENCE = 1
M_NONE = 2
M_POINTS = 3
M_ROUND_WINS = 4
M_PER_POINTS = 5  # steps of card points (`1 per 10 points`), each player alone

# ---------------------------------------------------------------- whole games (engine/game.py)
# The round's scalars (SC row) past I_SIZE that a game sets for each deal (rounds.play_games;
# play_deals sets them for single rounds): kept across the tries, read by the deal, the bots'
# chances and the round's conditions.
I_GAME = I_SIZE + 2  # 1: a deal of a game: "{seed}:{number}:{deal_no}", the bots' chances kept
I_DEAL_NO = I_SIZE + 3  # the game's deal number (void deals counted)
I_ROUND_NO = I_SIZE + 4  # the round's number from 0 (a single round: its deal's number)
I_CARRY_IN = I_SIZE + 5  # the multiplier carried over from the last round (1: none)
I_CARRY_OUT = I_SIZE + 6  # the multiplier the next round carries over (lay_field's)
# the STAGE row's columns past G_SIZE: a game's length (ir.Length)
G_ROUNDS = G_SIZE
G_HAS_TARGET = G_SIZE + 1
G_TARGET = G_SIZE + 2  # scaled
G_START = G_SIZE + 3  # scaled
G_ROTATE = G_SIZE + 4
G_WINNER_DEALS = G_SIZE + 5
G_DRAWN_KEEPS = G_SIZE + 6
# the hand's void rule (`void if a hand has`): its program's start in the void field's piece of
# T (batch.tables.void_program; -1: none), and whether it sees the round
G_VOID_HAND_AT = G_SIZE + 7
G_VOID_HAND_SEES = G_SIZE + 8
# the STAGE row's columns for the stop-or-continue choice (ir.Continuation): the bar a new
# yaku must beat after one was lost (0: the value declared; 1: what is left), the offers in T
# (batch.tables.offer_array), to G_T_OFFERS + 1, and their conditions' table, to + 1
G_AFTER_LOSS = G_SIZE + 9
G_T_OFFERS = G_SIZE + 10
G_T_OFFER_CONDS = G_SIZE + 12
# state across rounds (issue 23, the rounds slice): set by play_games from the rounds before
# (play_deals: a single round follows none), kept across the tries at a deal
I_DRAWS_BEFORE = I_SIZE + 16  # drawn rounds in a row just before this one (RoundState's)
I_SITTERS = I_SIZE + 17  # the seats that sit this round out, as bits (-1: the first round)
SIT_BY_RESULT = 3  # C_SIT_OUT from here on: who sits out is chosen from the last round
SIT_LOSER = 3
SIT_WINNER = 4
SIT_IN_TURN = 5
G_WINNER_BY_NET = G_SIZE + 14  # the STAGE row: 1, the round's best net wins it (Settlement)
# a round that is a draw at the count (`the round is a draw if a player has`): its program's
# start in the void field's piece of T (batch.tables.draw_at_count_at; -1: none)
G_DRAW_AT = G_SIZE + 15
G_STAGE_END = G_DRAW_AT + 1  # the STAGE row's columns in use
# play_games' per-game columns, and its counts' rows (each [game, row, entry or ending code])
GM_BAILED = 0
GM_ROUNDS = 1
GM_VOIDS = 2
GM_TURNS = 3
GM_CONTINUED = 4
GM_FRACTIONS = 5  # the seats whose net is a Fraction in the scalar engine, as bits
GM_LAST_DEALER = 6  # the dealer of the game's last round (a game's tie break)
GM_WINS = 7  # GM_WINS + s: the rounds seat s won (with his team: its wins)
GM_SIZE = GM_WINS + SEATS
GC_ENDED = 0  # rounds ended by each way (ENDINGS' codes)
GC_TEYAKU = 1  # teyaku counted, by entry
GC_YAKU = 2  # yaku listed as made, by entry
GC_FIRST = 3  # GC_FIRST + row: the first round of the game that counted it (-1: none)
GC_ROWS = 6

# ---------------------------------------------------------------- declarations (ir.Declaration)
# The rule file's declaration: a setup step first of all (engine.round.setup_steps), its
# chooser's phase and moves, its payment, its choices counted, its options (Q row DQ) and the
# rulewise bot's calibrated choice (RQ_DECLARE). A folder who pays it is a FEES column with
# FEES + 2 = FEE_DECLARED (paid before the fold fees, as scoring._fold_step does).
ST_DECLARE = 7
PH_DECLARE = 6
DECLARE = actions.DECLARE
PASS = actions.PASS
R_DECLARATION = 15
REASONS = (*REASONS, "declaration")
FEE_DECLARED = 2
CH_DECLARE_OFFERED = CH_N  # info's columns 19, 20 (after the play phase's)
CH_DECLARE = CH_N + 1
CH_N += 2
DQ = Q_ROWS
Q_ROWS += 1
DQ_HAS = 0  # 1: the rule file has a declaration
DQ_BY = 1  # who may make it: 0 the dealer, 1 any player in play order (engine.DECLARERS)
DQ_MUST_JOIN = 2  # the declarer is not asked to join or fold
DQ_AWARD = 3  # paid him by each who folds by choice after it
DQ_TIMES = 4  # its payments are multiplied by the field
DQ_SEEN = 5  # 1: made with the hand seen (its condition tested on his hand; 0: on no card)
DQ_FACTOR = 6  # the factor on the winnings of each who made it (1: none)
# (P_DECLARER holds the times it counts for him: 1, or his months of DQ_PER_MONTH cards)
DQ_PER_MONTH = 14  # ir.Declaration.factor_per_month (0: once)
DQ_WIN_AWARD = 7  # paid him by each other player if he succeeds (scaled at use)
DQ_PENALTY = 8  # paid by him to each other player if he fails
DQ_SUCCESS = 9  # what he must do: 0 nothing, 1 win the round, 2 make a yaku (engine.SUCCESS)
DQ_FOLD_ONLY = 10  # 1: its stakes are all about the fold (idle where nobody folds)
DQ_FREE = 11  # 1: made with the hand seen and no penalty: it cannot cost him (the bots make it)
I_DECLARE_AT = I_SIZE + 18  # SC row: the next of those who may make it to be asked
RQ_DECLARE = 16  # RQ row: 1: rulewise declares (the variant's calibrated policy)

# ---------------------------------------------------------------- the owner's choice
# Counted at the end of each deal (sim.exercise.count_readings): the piles holding the choice's
# cards whose two readings are worth differently (offered), and those read the second way (taken).
CH_OWNER_OFFERED = CH_N  # info's columns 21, 22 (after the declaration's)
CH_OWNER = CH_N + 1
CH_N += 2

# ---------------------------------------------------------------- events during play (ir.Event)
# engine/events.py: what the turn's two cards did (SC row past I_SIZE, written by each turn),
# the events' options (Q rows EV + k, EV_ columns; the EVQ row), each seat's events' factor on
# his winnings (P row P_EVENT_FACTOR, 1 from the reset), and the payment of a steal (R_EVENT,
# its detail the event's index).
R_EVENT = 16
REASONS = (*REASONS, "event")
I_TURN_LAID = I_SIZE + 24  # the hand card laid alone on the field (its bit), or 0
I_PLAYED_TOOK = I_SIZE + 25  # the field cards the hand card took
I_DRAWN_TOOK = I_SIZE + 26  # the field cards the drawn card took
I_STACKED = I_SIZE + 27  # the three cards the draw stacked on the field, or 0
P_EVENT_FACTOR = S_ROWS  # (a row of its own, a column per seat, after the others)
S_ROWS += 1
MAX_EVENTS = 8
EVQ = Q_ROWS  # EVQ_N events, EVQ_STACKS: the draw stacks on the pair just made, EVQ_FACTOR:
EV = Q_ROWS + 1  # an event has a factor; EV + k: event k's options
Q_ROWS += 1 + MAX_EVENTS
EVQ_N = 0
EVQ_STACKS = 1
EVQ_FACTOR = 2
EV_KIND = 0  # batch.engine.EVENT_KINDS' code
EV_FIRST = 1  # only on his first turn
EV_NOT_LAST = 2  # not on the round's last turn
EV_GIVE = 3  # the cards of the class each opponent gives (a mask), or 0
EV_STEAL = 4  # paid by each opponent (unscaled)
EV_FACTOR = 5  # on his winnings, per time
# (issue 25, `only the third time`, `on his first turns in a row`) the times each event
# happened to each seat (the P_EVENT_TIMES row, column seat * MAX_EVENTS + k; 0 from the reset)
EV_TIME = 6  # only the time-th time it happens to him (0: every time)
EV_IN_A_ROW = 7  # only on his first turns in a row
EV_DOUBLING = 8  # the steal doubled per time it happened to him before
EV_WINS = 9  # he wins the round at once
EV_ROW_WITH = 10  # the events (a bit each) whose turns count in its row (ir.Event.row_with)
P_EVENT_TIMES = S_ROWS
S_ROWS += 1
EK_SWEEP = 0
EK_STACK_LEFT = 1
EK_STACK_TAKEN = 2
EK_PAIR_TWICE = 3
EK_DRAW_TAKES_PLAY = 4
EK_BOMB = 5
# the bomb (ir.Bomb): a play like a hiki (HIKI + month) of exactly EVQ_BOMB_HAND cards of the
# month from the hand (0: no bomb), then EVQ_BOMB_SKIPS plays the bomber may skip (SKIP: draw
# only), counted down in P_SKIPS; the month the play took whole (the event's), I_TURN_WHOLE
EVQ_BOMB_HAND = 3
EVQ_BOMB_SKIPS = 4
SKIP = actions.SKIP
P_SKIPS = S_ROWS
S_ROWS += 1
I_TURN_WHOLE = I_SIZE + 28
# rule choices counted (sim.exercise.Counting): a bomb offered and made, a skip offered and
# made, an event (offered: as often as made); info's columns 23..28
CH_BOMB_OFFERED = CH_N
CH_BOMB = CH_N + 1
CH_SKIP_OFFERED = CH_N + 2
CH_SKIP = CH_N + 3
CH_EVENT_OFFERED = CH_N + 4
CH_EVENT = CH_N + 5
CH_N += 6
# ---------------------------------------------------------------- payments (issue 25)
# Who pays and what is added to a payment: the Q row PQ (PQ_ columns), filled by
# batch/engine.py's payments_row.
PQ = Q_ROWS
Q_ROWS += 1
PQ_ROUND_PAID = 0  # a round won is paid by: 0 the bank, 1 each other player (Settlement)
PQ_PER_CONTINUE = 1  # added to the yaku paid at a stop per continue (Continuation.per_continue)
PQ_WINS_ROUND = 2  # the yaku entries that win the round at once (Yaku.wins_round), as bits
PQ_CANCEL_ALL = 3  # the entries that cancel every yaku at the count (Yaku.cancels_yaku), bits
PQ_CANCEL_OTHERS = 4  # ... that cancel the other players' yaku at the count, as bits
PQ_PLAY_OUT = 5  # 1: the stock is played out when nobody holds a card (Ruleset.play_out_stock)
# ---------------------------------------------------------------- round wins by criteria (issue 25)
# `count: round wins by yaku points, then plains, then points`: the criteria in the PQ row,
# from PQ_KEYS, KEY_WORDS each (its RK_ kind, then the masks of its cards: the n-th holds the
# cards listed more than n times); a yaku that wins the round at once where yaku do not end it
PQ_NKEYS = 6  # the criteria written (Settlement.round_by), at most MAX_KEYS
PQ_KEYS = 7
KEY_WORDS = 5
MAX_KEYS = 4
RK_YAKU = 0  # RoundKey.key: the side's yaku points at the count
RK_POINTS = 1  # its card points
RK_CARDS = 2  # how many of the criterion's cards it holds
I_WON_AT_ONCE = I_SIZE + 29  # SC row: 1 + the maker of a yaku that won the round at once, or 0
# (after the criteria's words)
PQ_INSTANT_DRAW = PQ_KEYS + MAX_KEYS * KEY_WORDS  # 1: every hand winning at once: a draw
PQ_OUTSTOPPED_PAYS = PQ_INSTANT_DRAW + 1  # 1: the first other continuer pays a stop for all
PQ_MAKERS_SCORE = PQ_OUTSTOPPED_PAYS + 1  # 1: each yaku scores for its maker (Settlement)
PQ_STEP_VALUE = PQ_MAKERS_SCORE + 1  # a count by steps: what a step is worth (step_value)
PQ_STEP_POINTS = PQ_STEP_VALUE + 1  # ... and its card points (Settlement.step_points)
# the turn of each seat's first continue in the round, plus 1 (0: none), for go-bak (P row)
P_FIRST_GO = S_ROWS
S_ROWS += 1
# ---------------------------------------------------------------- compensation (issue 25)
# What a player forced to fold is paid for his hand (ir.Compensation; setup.compensation): the
# fold records it as a FEES column with FEES + 2 = FEE_COMPENSATION (its amount, unscaled),
# paid after the fold fees by each payer (scoring._compensations). The CQ row holds its options.
FEE_COMPENSATION = 3
R_COMPENSATION = 17
REASONS = (*REASONS, "compensation")
CQ = Q_ROWS
Q_ROWS += 1
CQ_HAS = 0  # 1: the rule file pays a forced folder compensation
CQ_PER_CARD = 1  # per card of CQ_MASK in the hand he folds
CQ_MASK = 2
CQ_FACTOR = 3  # times this when its condition holds for his hand
CQ_HAS_COND = 4
CQ_NON_DEALERS = 5  # 1: the dealer does not pay it (Compensation.payers "non_dealers")
CQ_T = 6  # its condition's program in T, to CQ_T + 1
# ---------------------------------------------------------------- the dealer's claim (issue 25)
# ir.DealerClaim (`the dealer may take 2 of a month of 3 on the field and play second`): a
# setup step last of all (engine.round.setup_steps), its chooser's phase and moves, its options
# (the CLQ row), whether he took it (the SC row: play starts with the next player), its choices
# counted (info's columns 29, 30)
ST_CLAIM = 9
PH_CLAIM = 7
CLAIM = actions.CLAIM
CLQ = Q_ROWS
Q_ROWS += 1
CLQ_TAKE = 0  # the cards of the month he takes (0: no claim in the rule file)
CLQ_SIZE = 1  # the cards of a month on the field that offer it
I_CLAIMED = I_SIZE + 40  # SC row: 1, the dealer took his claim (reset for each try)
CH_CLAIM_OFFERED = CH_N
CH_CLAIM = CH_N + 1
CH_N += 2
# ---------------------------------------------------------------- bonus cards riding a stack
# (issue 25, ir.Ruleset.bonus_on_pair; engine/riders.py) EVQ_RIDES: 1, the bonus cards drawn onto
# the pair just made stay with it when the draw stacks on it; row RIDES, column b: the stack's
# cards that bonus card b rides (read only while b is on the field; 0 from the reset)
EVQ_RIDES = 16
RIDES = S_ROWS
S_ROWS += 1
# stacks bonus cards were left riding, counted as rule choices (offered as often as made:
# sim.exercise's "ride"), info's columns 31, 32
CH_RIDE_OFFERED = CH_N
CH_RIDE = CH_N + 1
CH_N += 2
# ---------------------------------------------------------------- a teyaku shown (issue 25)
# ir.Yaku.shown (`; shown: the others may capture its cards`): a setup step just before the
# teyaku's (engine.round.setup_steps), its chooser's phase and moves, the SHQ row (the entries,
# `the player with no hand card still draws`), the SC row's next to be asked, the seats that
# showed (bits) and the shown cards still in a hand; its choices counted (info's columns 33, 34)
ST_SHOW = 12
PH_SHOW = 11
SHOW = actions.SHOW
SHQ = Q_ROWS
Q_ROWS += 1
SHQ_ENTRIES = 0  # the teyaku entries shown or kept hidden, as bits (0: none)
SHQ_STILL_DRAWS = 1  # 1: the player with no hand card still draws (Ruleset.still_draws)
I_SHOW_AT = I_SIZE + 50  # SC row: the next of those who may show one to be asked
I_SHOWED = I_SIZE + 51  # SC row: the seats that showed theirs, as bits
I_EXPOSED = I_SIZE + 52  # SC row: the shown cards still in a hand (capture.shown_to)
CH_SHOW_OFFERED = CH_N
CH_SHOW = CH_N + 1
CH_N += 2
# ---------------------------------------------------------------- a draw offered (issue 25)
# ir.DrawOffer (`offer a draw: when he has no safe play`; engine/draw_offer.py): OFFER last
# among the plays, then the others' ANSWER phase (ACCEPT, REFUSE); its options (the OQ row);
# who offered (bits: their hands shown), the offerer, the refuser (the SC row); its
# choices counted (info's columns 35..38: an offer offered and made, an answer asked and a
# refusal)
PH_ANSWER = 8
OFFER = actions.OFFER
ACCEPT = actions.ACCEPT
REFUSE = actions.REFUSE
OQ = Q_ROWS
Q_ROWS += 1
OQ_HAS = 0  # 1: the rule file has a draw offered
OQ_MIN = 1  # the yaku value a draw must reach to be a safe play (ir.DrawOffer.minimum)
OQ_REFUSER_PAYS = 2  # 1: the refuser pays a stop of another's for all (refuser_pays)
I_OFFERED = I_SIZE + 45  # SC row: the seats who offered a draw this round, as bits
I_OFFERER = I_SIZE + 46  # the last who offered one (-1: none)
I_REFUSER = I_SIZE + 47  # who refused it (-1: none)
CH_OFFER_OFFERED = CH_N
CH_OFFER = CH_N + 1
CH_REFUSE_OFFERED = CH_N + 2
CH_REFUSE = CH_N + 3
CH_N += 4
