"""A round played out by the bots, and many deals in a row: the kernel's entry point."""

from __future__ import annotations

from rulekit.batch.bits import low_bit
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.bots import choose
from rulekit.batch.kernel.continuation import stop
from rulekit.batch.kernel.deal import deal, reset
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.offer import answer, offer
from rulekit.batch.kernel.rollouts import end_rollout, next_rollout, reset_weighing
from rulekit.batch.kernel.setup import (
    choose_claim,
    choose_fold,
    declared_times,
    next_declarer,
    next_shower,
    run_setup,
    swap_pair,
)
from rulekit.batch.kernel.turn import (
    legal_plays,
    next_turn,
    play_card,
    take,
    take_targets,
    wild_drawn,
)
from rulekit.batch.tables import readings as t_readings


@entry
def play_round(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """playout.play_out: the bots act until the round is over (or until a rulewise bot's
    choice is to be weighed: play_weighed weighs it and calls again)."""
    legal = S[LEGAL]
    trace = Q[CFG, C_TRACE] != 0 and S[RW, RW_ROLLOUT] == 0  # (rulewise: a rollout is not)
    while S[SC, I_PHASE] != PH_DONE and not S[SC, I_BAIL]:
        phase = S[SC, I_PHASE]
        s = S[SC, I_CURRENT]
        if phase == PH_PLAY:
            n = legal_plays(S, Q, T, legal)
        elif phase == PH_TAKE:
            m = take_targets(S, Q, T)
            n = 0
            while m:
                legal[n] = TAKE + low_bit(m)
                m &= m - 1
                n += 1
        else:
            n = two_answers(phase, legal)
        action = choose(S, Q, T, F, legal, n)
        if action < 0:  # rulewise: a choice to weigh by rollouts first (play_weighed)
            return
        if phase == PH_DECIDE:
            S[CHOICES, CH_CONTINUE_OFFERED] += 1
            S[CHOICES, CH_CONTINUE] += action == CONTINUE
        elif phase == PH_FOLD:
            S[CHOICES, CH_FOLD_OFFERED] += 1
            S[CHOICES, CH_FOLD] += action == FOLD
        elif phase == PH_SWAP:
            S[CHOICES, CH_SWAP_OFFERED] += 1
            S[CHOICES, CH_SWAP] += action == SWAP
        elif phase == PH_DECLARE:
            S[CHOICES, CH_DECLARE_OFFERED] += 1
            S[CHOICES, CH_DECLARE] += action == DECLARE
        elif phase == PH_CLAIM:
            S[CHOICES, CH_CLAIM_OFFERED] += 1
            S[CHOICES, CH_CLAIM] += action == CLAIM
        elif phase == PH_SHOW:
            S[CHOICES, CH_SHOW_OFFERED] += 1
            S[CHOICES, CH_SHOW] += action == SHOW
        elif phase == PH_TAKE and wild_drawn(S, Q):  # the drawn wild card's target: a play
            S[CHOICES, CH_WILD_OFFERED] += 1
            S[CHOICES, CH_WILD] += 1
        elif phase == PH_ANSWER:
            S[CHOICES, CH_REFUSE_OFFERED] += 1
            S[CHOICES, CH_REFUSE] += action == REFUSE
        elif phase == PH_PLAY:
            count_play(S, Q, s, action, legal[0] >= HIKI)
            if Q[EVQ, EVQ_BOMB_HAND]:
                count_bomb(S, action, legal, n)
            if n and legal[n - 1] == OFFER:  # sim.exercise.Counting: a draw offered
                S[CHOICES, CH_OFFER_OFFERED] += 1
                S[CHOICES, CH_OFFER] += action == OFFER
        if trace:
            k = S[SC, I_NMOVES]
            if k >= MOVES:
                S[SC, I_BAIL] = BAIL_FULL
                return
            S[MOVES + 0, k] = s
            S[MOVES + 1, k] = action
            S[SC, I_NMOVES] = k + 1
        if phase == PH_PLAY and action == OFFER:
            offer(S)
        elif phase == PH_PLAY:
            play_card(S, Q, T, F, action)
        elif phase == PH_TAKE:
            take(S, Q, T, F, action)
        elif phase == PH_DECIDE:
            if action == STOP:
                stop(S, Q, T, F, s)
            else:
                S[P_CONTINUING, s] = 1
                S[P_CONTINUES, s] += 1
                if S[P_FIRST_GO, s] == 0:  # (continuation.continue_play)
                    S[P_FIRST_GO, s] = S[SC, I_TURN] + 1
                next_turn(S, Q, T, F)
        elif phase == PH_FOLD:
            choose_fold(S, Q, T, F, action == JOIN)
            if S[SC, I_PHASE] != PH_FOLD:
                S[SC, I_STEP] += 1
                run_setup(S, Q, T, F)
        elif phase == PH_DECLARE:  # setup.choose_declare: the next may make it, then on
            S[P_DECLARER, s] = 0
            if action == DECLARE:  # the times its factor counts (ir.Declaration.factor_per_month)
                S[P_DECLARER, s] = declared_times(S, Q, s)
            S[SC, I_DECLARE_AT] += 1
            S[SC, I_PHASE] = PH_PLAY
            if not next_declarer(S, Q, T):
                S[SC, I_STEP] += 1
                run_setup(S, Q, T, F)
        elif phase == PH_ANSWER:
            answer(S, Q, T, F, action == ACCEPT)
        elif phase == PH_CLAIM:  # setup.choose_claim: then setup goes on
            choose_claim(S, Q, s, action == CLAIM)
            S[SC, I_STEP] += 1
            S[SC, I_PHASE] = PH_PLAY
            run_setup(S, Q, T, F)
        elif phase == PH_SHOW:  # setup.choose_show: the next may show his, then on
            if action == SHOW:
                S[SC, I_SHOWED] |= 1 << s
            S[SC, I_SHOW_AT] += 1
            S[SC, I_PHASE] = PH_PLAY
            if not next_shower(S, Q, T):
                S[SC, I_STEP] += 1
                run_setup(S, Q, T, F)
        else:
            if action == SWAP:
                d = swap_pair(S, Q)[0]
                h = S[P_HAND, d]
                S[P_HAND, d] = S[P_HAND, s]
                S[P_HAND, s] = h
            S[SC, I_STEP] += 1
            S[SC, I_PHASE] = PH_PLAY
            run_setup(S, Q, T, F)


@entry
def play_weighed(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """play_round, each choice a rulewise bot weighs (choose gave -1) weighed first: its
    rollouts played out one by one in copies of the round (kernel/rollouts.py), then on."""
    reset_weighing(S)
    play_round(S, Q, T, F)
    while S[RW, RW_WANT]:
        copy = next_rollout(S, Q, T, F)
        while copy:
            play_round(S[copy * S_ROWS : (copy + 1) * S_ROWS], Q, T, F)
            end_rollout(S, Q, T, F, copy)
            copy = next_rollout(S, Q, T, F)
        play_round(S, Q, T, F)


@inline
def two_answers(phase: int, legal: Array) -> int:
    """capture.legal_actions for a phase that asks one of two answers: them, into legal."""
    if phase == PH_DECIDE:
        legal[0], legal[1] = STOP, CONTINUE
    elif phase == PH_FOLD:
        legal[0], legal[1] = JOIN, FOLD
    elif phase == PH_DECLARE:
        legal[0], legal[1] = DECLARE, PASS
    elif phase == PH_CLAIM:
        legal[0], legal[1] = CLAIM, PASS
    elif phase == PH_SHOW:
        legal[0], legal[1] = SHOW, PASS
    elif phase == PH_ANSWER:
        legal[0], legal[1] = ACCEPT, REFUSE
    else:
        legal[0], legal[1] = SWAP, KEEP
    return 2


@inline
def count_readings(S: Array, Q: Array, T: Array) -> None:
    """sim.exercise.count_readings: at the end of a deal, each pile holding the owner's
    choice's cards that its two readings value differently, and each read the second way."""
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    for s in range(Q[CFG, C_SEATED]):
        r = t_readings(ytab, S[P_CAPTURED, s])
        if r:
            S[CHOICES, CH_OWNER_OFFERED] += 1
            S[CHOICES, CH_OWNER] += r == 2


@inline
def count_play(S: Array, Q: Array, s: int, action: int, hiki_offered: bool) -> None:
    """sim.exercise.Counting._count_play: a hiki offered (the hikis come first in the legal
    plays) and taken; a card played while holding the wild card, and the wild card played."""
    if Q[HW, W_HIKI]:
        S[CHOICES, CH_HIKI_OFFERED] += hiki_offered
        S[CHOICES, CH_HIKI] += action >= HIKI
    card = Q[HW, W_CARD]
    if card >= 0 and action < TAKE and S[P_HAND, s] >> card & 1:
        S[CHOICES, CH_WILD_OFFERED] += 1
        S[CHOICES, CH_WILD] += action & CARD_MASK == card


@inline
def count_bomb(S: Array, action: int, legal: Array, n: int) -> None:
    """sim.exercise.Counting._count_play: a bomb offered (first in the legal plays) and made;
    a play to skip offered (after the bombs) and skipped."""
    S[CHOICES, CH_BOMB_OFFERED] += legal[0] >= HIKI and legal[0] != SKIP
    S[CHOICES, CH_BOMB] += action >= HIKI and action != SKIP
    for k in range(n):
        if legal[k] == SKIP:
            S[CHOICES, CH_SKIP_OFFERED] += 1
    S[CHOICES, CH_SKIP] += action == SKIP


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
    dealers: Array,
    counts: Array,
) -> None:
    """Deals start..stop-1, each redealt while void (playout.play_deal), dealt by number %
    seated. Per deal: net[k, seat] (scaled), info[k] = (bailed, voids, turns, continued,
    ended, nwinners, winner seats as bits, continues paid off, then the CH_ rule choices, the
    seats whose net is a Fraction in the scalar engine as bits, then the play phase's rule
    choices: hiki and the wild card, each offered and taken);
    teyaku and yaku made counted by
    entry. With Q[CFG, C_TRACE], ledgers[k] and moves[k] hold the round's entries and moves (-9
    after them), seat_teyaku[k, seat] the teyaku each counts (entry bits) and seat_yaku[k, seat,
    entry] how often each yaku is listed as made for him.
    With `dealers` (one per game): games start..stop-1 instead (play_games, into info, net and
    counts): the one entry Python calls, compiled and optimized once."""
    if dealers.shape[0]:
        play_games(S, Q, T, F, start, stop, dealers, info, net, counts, max_voids)
        return
    seated = Q[CFG, C_SEATED]
    trace = Q[CFG, C_TRACE]
    for i in range(start, stop):
        k = i - start
        voids = 0
        S[CHOICES, :CH_N] = 0
        while True:
            S[SC, I_NUMBER] = i
            S[SC, I_DEALER] = i % seated
            S[SC, I_VOIDS] = voids
            S[SC, I_GAME] = 0
            S[SC, I_ROUND_NO] = i
            S[SC, I_CARRY_IN] = 1
            S[SC, I_DRAWS_BEFORE] = 0  # (a single round follows none)
            S[SC, I_SITTERS] = -1
            reset(S, Q, T, F)
            S[SC, I_WILD_OWNER] = -1
            S[SC, I_WILD_MONTH] = 0
            deal(S, Q)
            run_setup(S, Q, T, F)
            play_weighed(S, Q, T, F)  # (play_round, and a rulewise bot's weighing)
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
        count_readings(S, Q, T)
        for c in range(6):
            info[k, 8 + c] = S[CHOICES, c]
        for c in range(6, CH_N):  # the play phase's, the declaration's (after column 14)
            info[k, 9 + c] = S[CHOICES, c]
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


@entry
def play_games(
    S: Array,
    Q: Array,
    T: Array,
    F: Floats,
    start: int,
    stop: int,
    dealers: Array,
    games: Array,
    net: Array,
    counts: Array,
    max_voids: int,
) -> None:
    """Games start..stop-1 as simulate plays them (engine.game.Game): game i's seed is
    "{seed}:{i}", so deal d of it is "{seed}:{i}:{d}" (a void deal is redealt by the same
    dealer, as the next deal, and is no round), and each bot starts once per game, its chance
    "{seed}:{i}:{s}" (and a rulewise bot's rollout chance) kept from round to round; the next
    dealer and the multiplier's carry-over come from each round; the game is over after its
    rounds or once a side's total reaches the target. dealers[k]: game k's first dealer
    (game.first_dealer, drawn in Python). Per game: games[k] (the GM_ columns), each seat's
    net (scaled), counts[k] (the GC_ rows). A game with a deal the kernel marks is bailed
    (GM_BAILED): the scalar engine plays it."""
    seated = Q[CFG, C_SEATED]
    nyaku = Q[CFG, C_NYAKU]
    nteams = Q[RQ, RQ_NTEAMS]
    for i in range(start, stop):
        k = i - start
        for c in range(GM_SIZE):
            games[k, c] = 0
        for s in range(seated):
            net[k, s] = 0
        for r in range(GC_FIRST):
            for e in range(ENTRIES):
                counts[k, r, e] = 0
                counts[k, GC_FIRST + r, e] = -1
        S[SC, I_GAME] = 1
        S[SC, I_NUMBER] = i
        S[SC, I_VOIDS] = 0
        S[SC, I_CARRY_IN] = 1
        S[SC, I_DRAWS_BEFORE] = 0
        S[SC, I_SITTERS] = -1
        S[RW, RW_READY] = 0  # (no bot's chance hashed yet this game)
        dealer = dealers[k]
        round_no = 0
        deal_no = 0
        in_a_row = 0
        ready = 0  # the seats whose own chance is hashed this game
        while not game_over(Q, net[k], round_no, seated, nteams):
            S[SC, I_DEALER] = dealer
            S[SC, I_DEAL_NO] = deal_no
            S[SC, I_ROUND_NO] = round_no
            S[SC, I_CARRY_OUT] = 1
            reset(S, Q, T, F)
            for s in range(seated):
                S[P_CHANCE_READY, s] = ready >> s & 1
            S[SC, I_WILD_OWNER] = -1
            S[SC, I_WILD_MONTH] = 0
            deal(S, Q)
            run_setup(S, Q, T, F)
            play_weighed(S, Q, T, F)
            ready = 0
            for s in range(seated):
                ready |= S[P_CHANCE_READY, s] << s
            deal_no += 1
            if S[SC, I_BAIL]:
                games[k, GM_BAILED] = S[SC, I_BAIL]
                break
            if S[SC, I_VOID]:
                games[k, GM_VOIDS] += 1
                in_a_row += 1
                if in_a_row > max_voids:
                    games[k, GM_BAILED] = BAIL_VOIDS
                    break
                continue
            in_a_row = 0
            for e in range(S[SC, I_NLEDGER]):
                for side in range(2):
                    who = S[LEDGER + side, e]
                    if who >= 0:
                        net[k, who] += S[LEDGER + 2, e] if side else -S[LEDGER + 2, e]
                        if S[LEDGER + 7, e]:
                            games[k, GM_FRACTIONS] |= 1 << who
            games[k, GM_TURNS] += S[SC, I_TURN]
            games[k, GM_LAST_DEALER] = S[SC, I_DEALER]
            for w in range(S[SC, I_NWINNERS]):
                games[k, GM_WINS + S[P_WINNERS, w]] += 1
            for s in range(seated):
                games[k, GM_CONTINUED] += S[P_CONTINUES, s]
            count_in(counts[k], GC_ENDED, S[SC, I_ENDED], 1, round_no)
            for s in range(seated):
                m = S[P_TEYAKU, s]
                while m:
                    count_in(counts[k], GC_TEYAKU, low_bit(m), 1, round_no)
                    m &= m - 1
                for e in range(nyaku):
                    if S[YC + s, e]:
                        count_in(counts[k], GC_YAKU, e, S[YC + s, e], round_no)
            round_no += 1
            # Game.record: the next dealer (scoring.finish) and the multiplier carried over
            d = S[SC, I_DEALER]
            winner = S[SC, I_WINNER]
            if Q[STAGE, G_ROTATE] or (winner < 0 and not Q[STAGE, G_DRAWN_KEEPS]):
                dealer = (d + 1) % seated
            elif winner >= 0 and Q[STAGE, G_WINNER_DEALS]:
                dealer = winner
            else:
                dealer = d
            S[SC, I_CARRY_IN] = S[SC, I_CARRY_OUT]
            S[SC, I_DRAWS_BEFORE] = S[SC, I_DRAWS_BEFORE] + 1 if winner < 0 else 0
            S[SC, I_SITTERS] = next_sitters(S, Q)
        games[k, GM_ROUNDS] = round_no


@inline
def next_sitters(S: Array, Q: Array) -> int:
    """game.NEXT_SITTERS: who sits the next round out by this one's result, as bits (-1: the
    round's own rule decides). By net (the loser: lowest; the winner: highest; ties: the last
    in play order from the dealer first), or the seats after those who sat out (in turn)."""
    mode = Q[CFG, C_SIT_OUT]
    if mode < SIT_BY_RESULT:
        return -1
    seated = Q[CFG, C_SEATED]
    out = seated - Q[CFG, C_PLAYING]
    bits = 0
    if mode == SIT_IN_TURN:
        for s in range(seated):
            if S[P_FOLDED, s]:
                bits |= 1 << (s + out) % seated
        return bits
    net = S[TMP]  # this round's net per seat (scaled)
    for s in range(seated):
        net[s] = 0
    for e in range(S[SC, I_NLEDGER]):
        if S[LEDGER + 0, e] >= 0:
            net[S[LEDGER + 0, e]] -= S[LEDGER + 2, e]
        if S[LEDGER + 1, e] >= 0:
            net[S[LEDGER + 1, e]] += S[LEDGER + 2, e]
    sign = 1 if mode == SIT_LOSER else -1
    d = S[SC, I_DEALER]
    for _ in range(out):  # the best-ranked player not chosen yet, each time
        pick = -1
        for i in range(seated - 1, -1, -1):  # the last in play order first: ties keep him
            s = (d + i) % seated
            if S[P_FOLDED, s] or bits >> s & 1:
                continue
            if pick < 0 or sign * net[s] < sign * net[pick]:
                pick = s
        if pick >= 0:
            bits |= 1 << pick
    return bits


@inline
def count_in(counts: Array, row: int, at: int, n: int, round_no: int) -> None:
    """n more of counts[row, at], the first round that counted it kept (GC_FIRST + row)."""
    counts[row, at] += n
    if counts[GC_FIRST + row, at] < 0:
        counts[GC_FIRST + row, at] = round_no


@inline
def game_over(Q: Array, net: Array, round_no: int, seated: int, nteams: int) -> bool:
    """Game.is_over: after the rounds, or once a side's total (the starting score plus its
    members' nets) reaches the target."""
    if round_no >= Q[STAGE, G_ROUNDS]:
        return True
    if not Q[STAGE, G_HAS_TARGET]:
        return False
    sides = nteams if nteams else seated
    for t in range(sides):
        total = Q[STAGE, G_START]
        for s in range(seated):
            if (Q[RQ, RQ_TEAM + s] == t) if nteams else s == t:
                total += net[s]
        if total >= Q[STAGE, G_TARGET]:
            return True
    return False
