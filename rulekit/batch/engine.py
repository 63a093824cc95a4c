"""The batch engine: many rounds of a rule file played by one numba kernel (batch/kernel/),
exactly the rounds the scalar engine plays for the same seed, when the bots are random, greedy
or rulewise (the default) and the rule file uses only the mechanics the kernel knows.

`why_not(compiled, seats, bots)` says why the kernel cannot serve a plan (None: it can);
`tally_part(...)` plays deals start..stop-1 into a Tally (simulate), `deals(...)` gives them
as columns, a row per deal, for a comparison to sum (rulekit.sim.columns), and `rounds(...)`
each deal as an object a RoundResult compares with (the identity tests). A deal the kernel
marks (a share finer than its scale, a buffer full) is played by the scalar engine instead, so
a part's totals are always the scalar engine's totals.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from rulekit import ir
from rulekit.agents import make_agent
from rulekit.agents.calibrate import deal_policy
from rulekit.agents.greedy import (
    COMPLETE_BONUS,
    DISCARD_COST,
    cannot_cost,
    card_worth,
    points_per_card,
)
from rulekit.agents.rulewise import DEFAULT_WORLDS, continuing_cannot_gain
from rulekit.batch import kernel as K
from rulekit.batch.cached import read_cached
from rulekit.batch.tables import (
    FACTOR_ON,
    Unsupported,
    batch_tables,
    condition_program,
    draw_at_count_at,
    shown_array,
    void_hand_at,
)
from rulekit.cards import CardIndex
from rulekit.engine.game import MAX_VOID_IN_A_ROW, first_dealer, game_winners
from rulekit.engine.ledger import Amount, Payment, entry
from rulekit.engine.playout import play_deal
from rulekit.engine.round import setup_steps
from rulekit.engine.scoring import key_masks
from rulekit.engine.setup import only_fold_stakes
from rulekit.engine.stage import FACTOR_ON as FACTOR_REASONS
from rulekit.engine.tables import CompiledRules
from rulekit.errors import RulekitError
from rulekit.output import write_atomic
from rulekit.stats.tally import Tally

BOTS = {"random": K.BOT_RANDOM, "greedy": K.BOT_GREEDY, "rulewise": K.BOT_RULEWISE}
DETAILS = {
    K.D_UNFINISHED: "continued without a new yaku",
    K.D_BEATEN: "beaten after continuing",
    K.D_YAKU: "yaku",
}
STEPS = {
    "hands": K.ST_HANDS,
    "swap": K.ST_SWAP,
    "field": K.ST_FIELD,
    "fold": K.ST_FOLD,
    "joker": K.ST_JOKER,
    "bonus": K.ST_BONUS,
    "teyaku": K.ST_TEYAKU,
    "instant_win": K.ST_INSTANT,
}
# a declaration's step too, and the dealer's claim of the field (setup_steps)
PLAN_STEPS = {"declare": K.ST_DECLARE, "claim": K.ST_CLAIM, "show": K.ST_SHOW, **STEPS}
DECLARERS = {"dealer": 0, "any": 1}  # ir.Declaration.by -> DQ_BY
# ir.Declaration.moment -> the step it waits at (placed among the setup's by setup_steps), and
# whether its condition sees his hand (DQ_SEEN)
MOMENTS = {"before_deal": K.ST_DECLARE, "after_hand": K.ST_DECLARE, "before_play": K.ST_DECLARE}
SUCCESS = {"none": 0, "wins": 1, "yaku": 2}  # ir.Declaration.success -> DQ_SUCCESS
METHODS = {
    "par": K.M_PAR,
    "difference": K.M_DIFFERENCE,
    "none": K.M_NONE,
    "points": K.M_POINTS,
    "round_wins": K.M_ROUND_WINS,
    "per_points": K.M_PER_POINTS,
}
TIES = {"first": 0, "draw": 1}  # ir.Settlement.tie -> cfg G_TIE_DRAW
WINNERS = {"count": 0, "net": 1}  # ir.Settlement.winner -> G_WINNER_BY_NET
# ir.Length.tie_break -> the play_games column it reads (tally_games breaks the tie with
# game.game_winners, as the scalar engine does)
TIE_BREAKS = {"round_wins": K.GM_WINS, "dealer_order": K.GM_LAST_DEALER}
TEAM_CARDS = {"apart": 0, "pooled": 1}  # ir.Settlement.team_cards -> cfg G_POOLED
ROUND_PAID = {"bank": 0, "others": 1}  # ir.Settlement.round_paid -> PQ_ROUND_PAID
ROUND_KEYS = {"yaku": K.RK_YAKU, "points": K.RK_POINTS, "cards": K.RK_CARDS}  # ir.RoundKey.key
# ir.Yaku.cancels_yaku -> the PQ column whose bits hold such entries (none: no column)
CANCELS_YAKU = {"none": None, "all": K.PQ_CANCEL_ALL, "others": K.PQ_CANCEL_OTHERS}
# ir.Seats.sit_out -> cfg C_SIT_OUT (3..5: by the last round, kernel/rounds.py's next_sitters)
SIT_OUT = {"fold": 0, "after_dealer": 1, "dealer": 2, "loser": 3, "winner": 4, "in_turn": 5}
PAID = {"made": 0, "stop": 1}  # ir.Continuation.paid -> cfg C_PAID_STOP
FOLD_START = {"dealer": 0, "after_dealer": 1}  # ir.Fold.start -> cfg C_FOLD_START
BETWEEN_PLAYERS = {"all": 0, "highest": 1}  # ir.YakuTable.between_players -> C_TEYAKU_HIGHEST
FOLD_PAYEES = {"winner": 0, "active": 1, "dealer": 2, "bank": 3}
COMPENSATION_PAYERS = {"players": 0, "non_dealers": 1}  # ir.Compensation.payers -> CQ row
OTHER_STOPS = {None: -1, "keep": 0, "forfeit": 1}
UNFINISHED = {"keep": 0, "pay_half": 1, "earn_half": 2, "forfeit": 3}
AFTER_LOSS = {"declared": 0, "left": 1}  # ir.Continuation.after_loss -> stage G_AFTER_LOSS
# ir.Event.kind -> its code in the EV rows (kernel/events.py's happened)
EVENT_KINDS = {
    "sweep": K.EK_SWEEP,
    "stack_left": K.EK_STACK_LEFT,
    "stack_taken": K.EK_STACK_TAKEN,
    "pair_twice": K.EK_PAIR_TWICE,
    "draw_takes_play": K.EK_DRAW_TAKES_PLAY,
    "bomb": K.EK_BOMB,
}
OUTSTOPPED_PAYS = {"nobody": 0, "first": 1}  # ir.Continuation.outstopped_pays -> PQ row
REFUSER_PAYS = {"nothing": 0, "for_all": 1}  # ir.DrawOffer.refuser_pays -> OQ row
INSTANT_ALL = {"first": 0, "draw": 1}  # ir.Ruleset.instant_all -> PQ_INSTANT_DRAW
EVENT_STEALS = {"flat": 0, "doubling": 1}  # ir.Event.steal_grows -> EV_DOUBLING
EVENT_OUTCOMES = {"plays_on": 0, "wins_round": 1}  # ir.Event.outcome -> EV_WINS
BONUS_ON_PAIR = {"captured": 0, "stays": 1}  # ir.Ruleset.bonus_on_pair -> EVQ_RIDES
INT64 = 1 << 63

Ints = npt.NDArray[np.int64]


def why_not(compiled: CompiledRules, seats: int, bots: Sequence[str], seed: int = 0) -> str | None:
    """Why the batch engine cannot play this plan (None: it can), in words for the user."""
    slow = sorted({b for b in bots if b not in BOTS})
    if slow:
        return f"it plays the random, greedy and rulewise bots only, not {', '.join(slow)}"
    r = compiled.rules
    if not -INT64 <= seed < INT64:
        return "the seed does not fit 64 bits"
    if seats > K.SEATS:
        return f"more than {K.SEATS} seats"
    if len(r.setup) > K.C_SCALE - K.C_STEPS:
        return f"more than {K.C_SCALE - K.C_STEPS} setup steps"
    if len(r.events) > K.MAX_EVENTS:
        return f"more than {K.MAX_EVENTS} events during play"
    cards = len(compiled.index.ids) + (1 if r.joker is not None else 0)
    if cards > 63:
        return f"the deck has {cards} cards"
    try:
        batch_tables(compiled, seats)
    except Unsupported as e:
        return str(e)
    return None


@dataclass
class Plan:
    """A rule file's data for the kernel, with the round's buffers (made once per process)."""

    compiled: CompiledRules
    seats: int
    scale: int
    arrays: tuple[Any, ...]  # (S, Q, T, F): the kernel's state, rules, tables, floats
    teyaku_names: list[str]
    yaku_names: list[str]

    def amount(self, scaled: Any) -> Amount:
        """An amount as the ledger has it: an int, or an exact fraction."""
        v = Fraction(int(scaled), self.scale)
        return int(v) if v.denominator == 1 else v

    def detail(self, reason: int, code: int) -> str:
        """A payment's detail in the ledger's words (kernel/layout.py's D_ codes)."""
        if code >= K.D_POINTS:
            code -= K.D_POINTS
            return f"{code // 4096}/{code % 4096} points"
        if code <= K.D_ENTRIES:
            mask = K.D_ENTRIES - code
            teyaku = reason in (K.R_TEYAKU, K.R_TEYAKU_RETURNED)
            names = self.teyaku_names if teyaku else self.yaku_names
            return ", ".join(n for i, n in enumerate(names) if mask >> i & 1)
        if code >= 0:
            if reason in (K.R_TEYAKU, K.R_TEYAKU_RETURNED):
                return self.teyaku_names[code]
            if reason == K.R_EVENT:
                e = self.compiled.rules.events[code]
                return e.label or e.name
            if reason == K.R_DECLARATION:
                d = self.compiled.rules.declarations[code]
                return d.label or d.name
            if reason == K.R_INSTANT:
                return self.compiled.instant_wins[code][0].name
            if reason == K.R_AWARD:  # the award's place among the stage's awards
                return [s for s in self.compiled.rules.scoring if isinstance(s, ir.Award)][
                    code
                ].name
            return self.yaku_names[code]
        return DETAILS.get(code, "")


def make_plan(compiled: CompiledRules, seats: int, bots: Sequence[str], seed: int) -> Plan:
    """The kernel's data for a rule file at a table size, bots and seed."""
    r = compiled.rules
    ix = compiled.index
    tables = batch_tables(compiled, seats)
    size = r.deal_for(seats)
    joker = len(ix.ids) if r.joker is not None and r.joker.seats == seats else -1
    cont = r.continuation
    yaku = compiled.yaku
    teyaku = compiled.teyaku
    scale = 4 * math.lcm(*range(1, seats + 1))
    cfg = np.zeros(K.C_SIZE, dtype=np.int64)
    steps = [PLAN_STEPS[s] for s in setup_steps(r)]
    for key, value in {
        K.C_SEATED: seats,
        K.C_PLAYING: r.seats.playing(seats),
        K.C_HAND: size.hand,
        K.C_FIELD: size.field,
        K.C_NCARDS: len(ix.ids) + (1 if joker >= 0 else 0),
        K.C_JOKER: joker,
        K.C_SIT_OUT: SIT_OUT[r.seats.sit_out],
        K.C_FOLD_FEE: r.fold.fee,
        K.C_FORCED_FEE: r.fold.forced_fee,
        K.C_FOLD_TIMES: r.fold.times_multiplier,
        K.C_FOLD_START: FOLD_START[r.fold.start],
        K.C_FOLD_PAYEE: FOLD_PAYEES[r.fold.payee],
        K.C_DEALER_CAPTURES: r.dealer_captures or 0,
        K.C_HAS_TEYAKU: teyaku is not None,
        K.C_TEYAKU_HIGHEST: r.teyaku is not None and BETWEEN_PLAYERS[r.teyaku.between_players],
        K.C_TEYAKU_SPLIT: teyaku is not None and teyaku.split,
        K.C_TEYAKU_ANY_FLAT: teyaku is not None and teyaku.any_flat,
        K.C_HAS_YAKU: yaku is not None,
        K.C_YAKU_SPLIT: yaku is not None and yaku.split,
        K.C_YAKU_ANY_FLAT: yaku is not None and yaku.any_flat,
        K.C_YAKU_BONUS: yaku is not None and yaku.has_bonus,
        K.C_YAKU_COUNT_BITS: yaku is not None and yaku.count_bits != 0,
        K.C_ALLOWED: cont.allowed,
        K.C_ENDS_ROUND: cont.ends_round,
        K.C_PAID_STOP: PAID[cont.paid],
        K.C_PAID_IN_PLAY: cont.paid_in_play,
        K.C_REFUND_HALF: cont.refund_half,
        K.C_PAY_FOR_ALL: cont.pay_for_all,
        K.C_BEATEN_FORFEIT: cont.beaten_forfeit,
        K.C_OTHER_STOPS: OTHER_STOPS[cont.if_other_stops],
        K.C_UNFINISHED: UNFINISHED[cont.if_unfinished],
        K.C_PER_YAKU: cont.multiplier_per_yaku,
        K.C_METHOD: METHODS[r.count.method],
        K.C_PAR: r.count.par_for(seats),
        K.C_ONLY_WITHOUT_YAKU: r.count.only_without_yaku,
        K.C_HAS_VOID: compiled.void_field is not None,
        K.C_N_INSTANT: len(compiled.instant_wins),
        K.C_LIABLE_MIN: r.liability.min_hand if r.liability and compiled.liable else -1,
        K.C_NSTEPS: len(steps),
        K.C_SCALE: scale,
        K.C_SEED: seed,
    }.items():
        cfg[key] = int(value)
    cfg[K.C_STEPS : K.C_STEPS + len(steps)] = steps
    cfg[K.C_NMONTHS] = len(ix.month_masks)
    cfg[K.C_NYAKU] = len(r.yaku.entries) if r.yaku else 0
    stage = np.zeros(K.G_STAGE_END, dtype=np.int64)  # the stage, the round, a game
    length = r.length
    for key, value in {
        K.G_NFACTORS: len(compiled.factors),
        K.G_NAWARDS: len(r.scoring) - len(compiled.factors),
        K.G_TEYAKU_SEES: teyaku is not None and teyaku.sees_round,
        K.G_YAKU_SEES: yaku is not None and yaku.sees_round,
        K.G_FIELD_SEES: compiled.field_sees_round,
        K.G_INSTANT_SEES: compiled.instant_sees_round,
        K.G_OPPONENTS_LOSE: r.count.opponents_lose,
        K.G_POOLED: TEAM_CARDS[r.count.team_cards],
        K.G_TIE_DRAW: TIES[r.count.tie],
        K.G_ROUNDS: length.rounds,
        K.G_HAS_TARGET: length.target is not None,
        K.G_TARGET: (length.target or 0) * scale,
        K.G_START: length.start * scale,
        K.G_ROTATE: length.rotate,
        K.G_WINNER_DEALS: length.winner_deals,
        K.G_DRAWN_KEEPS: length.drawn_keeps_dealer,
        K.G_VOID_HAND_AT: void_hand_at(compiled),
        K.G_VOID_HAND_SEES: compiled.void_hand_sees_round,
        K.G_DRAW_AT: draw_at_count_at(compiled),
        K.G_AFTER_LOSS: AFTER_LOSS[cont.after_loss],
        K.G_WINNER_BY_NET: WINNERS[r.count.winner],
    }.items():
        stage[key] = int(value)
    pieces = [tables.teyaku, tables.yaku, tables.multiplier, tables.void, tables.instant]
    at = 0
    for slot, piece in zip(
        (K.C_T_TEYAKU, K.C_T_YAKU, K.C_T_MULT, K.C_T_VOID, K.C_T_INSTANT), pieces, strict=True
    ):
        cfg[slot] = at
        cfg[slot + 1] = at + len(piece)
        at += len(piece)
    last = (
        (K.G_T_STAGE, tables.stage),
        (K.G_T_STEPS, tables.stage_conditions),
        (K.G_T_OFFERS, tables.offers),
        (K.G_T_OFFER_CONDS, tables.offer_conditions),
    )
    for slot, piece in last:
        stage[slot] = at  # the scoring stage's steps and their conditions, the offers, last
        stage[slot + 1] = at + len(piece)
        at += len(piece)
    T = np.concatenate([*pieces, *(piece for _, piece in last)]).astype(np.int64)
    y_entries = r.yaku.entries if r.yaku else ()
    t_entries = r.teyaku.entries if r.teyaku else ()
    Q = np.zeros((K.Q_ROWS, 64), dtype=np.int64)
    Q[K.CFG, : K.C_SIZE] = cfg
    Q[K.STAGE, : len(stage)] = stage
    for d in r.declarations:  # (one today)
        Q[K.DQ, K.DQ_HAS] = 1
        Q[K.DQ, K.DQ_BY] = DECLARERS[d.by]
        Q[K.DQ, K.DQ_MUST_JOIN] = d.must_join
        Q[K.DQ, K.DQ_AWARD] = d.from_each_folder
        Q[K.DQ, K.DQ_TIMES] = d.times_multiplier
        Q[K.DQ, K.DQ_SEEN] = d.moment != "before_deal"
        Q[K.DQ, K.DQ_FACTOR] = d.factor
        Q[K.DQ, K.DQ_PER_MONTH] = d.factor_per_month
        Q[K.DQ, K.DQ_WIN_AWARD] = d.award
        Q[K.DQ, K.DQ_PENALTY] = d.penalty
        Q[K.DQ, K.DQ_SUCCESS] = SUCCESS[d.success]
        Q[K.DQ, K.DQ_FOLD_ONLY] = only_fold_stakes(r)
        Q[K.DQ, K.DQ_FREE] = cannot_cost(r)
    if r.dealer_claim is not None:
        Q[K.CLQ, K.CLQ_TAKE] = r.dealer_claim.take
        Q[K.CLQ, K.CLQ_SIZE] = r.dealer_claim.size
    Q[K.SHQ, K.SHQ_ENTRIES] = compiled.shown_teyaku
    Q[K.SHQ, K.SHQ_STILL_DRAWS] = r.still_draws
    if r.draw_offer is not None:  # a draw offered (kernel/offer.py)
        Q[K.OQ, K.OQ_HAS] = 1
        Q[K.OQ, K.OQ_MIN] = r.draw_offer.minimum
        Q[K.OQ, K.OQ_REFUSER_PAYS] = REFUSER_PAYS[r.draw_offer.refuser_pays]
    Q[K.EVQ, K.EVQ_N] = len(r.events)
    Q[K.EVQ, K.EVQ_STACKS] = r.stacks
    Q[K.EVQ, K.EVQ_RIDES] = BONUS_ON_PAIR[r.bonus_on_pair]
    Q[K.EVQ, K.EVQ_FACTOR] = compiled.event_factor
    Q[K.EVQ, K.EVQ_BOMB_HAND] = r.bomb.hand if r.bomb is not None else 0
    Q[K.EVQ, K.EVQ_BOMB_SKIPS] = r.bomb.skips if r.bomb is not None else 0
    for k, (e, give) in enumerate(
        zip(r.events[: K.MAX_EVENTS], compiled.event_gives, strict=False)
    ):
        Q[K.EV + k, K.EV_KIND] = EVENT_KINDS[e.kind]
        Q[K.EV + k, K.EV_FIRST] = e.first_turn
        Q[K.EV + k, K.EV_NOT_LAST] = e.not_last_turn
        Q[K.EV + k, K.EV_GIVE] = give
        Q[K.EV + k, K.EV_STEAL] = e.steal
        Q[K.EV + k, K.EV_FACTOR] = e.factor
        Q[K.EV + k, K.EV_TIME] = e.time
        Q[K.EV + k, K.EV_IN_A_ROW] = e.in_a_row
        Q[K.EV + k, K.EV_DOUBLING] = EVENT_STEALS[e.steal_grows]
        Q[K.EV + k, K.EV_WINS] = EVENT_OUTCOMES[e.outcome]
        names = [x.name for x in r.events]
        Q[K.EV + k, K.EV_ROW_WITH] = sum(1 << names.index(n) for n in e.row_with)
    payments_row(Q, r, compiled.index)
    for kind, code in FACTOR_ON.items():  # the payment reasons each kind of factor multiplies
        reasons = FACTOR_REASONS[kind]
        Q[K.FACTOR_ON, code] = sum(
            1 << k for k, name in enumerate(K.REASONS) if reasons is None or name in reasons
        )
    for row, values in (
        (K.MONTHS, ix.month_mask_of_bit),
        (K.POINTS, ix.points_of_bit),
        (K.MONTH_MASKS, ix.month_masks),
        (K.TFLAT, [e.flat for e in t_entries]),
        (K.YFLAT, [e.flat for e in y_entries]),
        (K.YCARDS, compiled.yaku_cards),
        (K.YLIABLE, [i in compiled.liable for i in range(len(y_entries))]),
        (K.YDEALER, [e.paid_to_dealer for e in y_entries]),
        (K.YCANCELS, [e.cancels for e in y_entries]),
        (K.BOTS, [BOTS[b] for b in bots]),
    ):
        Q[row, : len(values)] = [int(v) for v in values]
    wild = r.wild
    for column, value in {
        K.W_HIKI: r.hiki,
        K.W_WILD: ix.bit[wild.card] if wild is not None and wild.any_target else -1,
        K.W_CARD: ix.bit[wild.card] if wild is not None else -1,
        K.W_COLLECTS: wild is not None and wild.collects_month,
        K.W_RESPECTS: wild is not None and wild.respects_hiki,
        K.W_LAY: wild is not None and wild.lay_when_blocked,
        K.W_LONE: compiled.lone,
        K.W_BONUS: compiled.bonus,
        K.W_OWN: wild is not None and wild.not_own_month,
        K.W_TAKEN: wild is not None and wild.taken_by_draw,
        K.W_SWEEPS: wild is not None and wild.sweeps_when_last,
        K.W_DRAWN: wild is not None and wild.drawn_any_target,
        K.W_LAST: wild is not None and wild.last_to_holder,
    }.items():
        Q[K.HW, column] = int(value)
    F = np.zeros(K.F_SIZE, dtype=np.float64)
    F[: len(ix.ids)] = card_worth(compiled)
    F[K.FPARAMS : K.FPARAMS + 3] = [COMPLETE_BONUS, DISCARD_COST, points_per_card(compiled)]
    T = compensation_row(compiled, Q, T)
    T = _rulewise(compiled, seats, bots, Q, T, F)
    # the round's rows, then the copies a rulewise bot's rollouts play in (kernel/rollouts.py)
    S = np.zeros((K.S_ROWS * K.S_COPIES, K.S_WIDTH), dtype=np.int64)
    return Plan(
        compiled,
        seats,
        scale,
        (S, Q, T, F),
        [e.name for e in t_entries],
        [e.name for e in y_entries],
    )


def payments_row(Q: npt.NDArray[np.int64], r: ir.Ruleset, index: CardIndex) -> None:
    """The Q row PQ: who pays and what is added to a payment (issue 25's statements)."""
    Q[K.PQ, K.PQ_ROUND_PAID] = ROUND_PAID[r.count.round_paid]
    Q[K.PQ, K.PQ_PER_CONTINUE] = r.continuation.per_continue
    Q[K.PQ, K.PQ_PLAY_OUT] = r.play_out_stock
    Q[K.PQ, K.PQ_NKEYS] = len(r.count.round_by)
    for j, k in enumerate(r.count.round_by):  # `count: round wins by ...`: each criterion
        at = K.PQ_KEYS + j * K.KEY_WORDS
        Q[K.PQ, at] = ROUND_KEYS[k.key]
        for w, m in enumerate(key_masks(index.mask, k.cards)):
            Q[K.PQ, at + 1 + w] = m
    Q[K.PQ, K.PQ_INSTANT_DRAW] = INSTANT_ALL[r.instant_all]
    Q[K.PQ, K.PQ_OUTSTOPPED_PAYS] = OUTSTOPPED_PAYS[r.continuation.outstopped_pays]
    Q[K.PQ, K.PQ_MAKERS_SCORE] = r.count.makers_score
    Q[K.PQ, K.PQ_STEP_VALUE] = r.count.step_value
    Q[K.PQ, K.PQ_STEP_POINTS] = r.count.step_points
    for i, e in enumerate(r.yaku.entries if r.yaku else ()):
        if e.wins_round:
            Q[K.PQ, K.PQ_WINS_ROUND] |= 1 << i
        column = CANCELS_YAKU[e.cancels_yaku]
        if column is not None:
            Q[K.PQ, column] |= 1 << i


def compensation_row(compiled: CompiledRules, Q: Any, T: Any) -> Any:
    """The Q row CQ: what a forced folder is paid (ir.Compensation); T with its condition's
    program appended."""
    comp = compiled.rules.compensation
    if comp is None:
        return T
    Q[K.CQ, K.CQ_HAS] = 1
    Q[K.CQ, K.CQ_PER_CARD] = comp.per_card
    Q[K.CQ, K.CQ_MASK] = compiled.index.mask(comp.cards)
    Q[K.CQ, K.CQ_FACTOR] = comp.factor
    Q[K.CQ, K.CQ_NON_DEALERS] = COMPENSATION_PAYERS[comp.payers]
    if comp.condition is None:
        return T
    prog = np.asarray(condition_program(comp.condition, compiled.index), dtype=np.int64)
    Q[K.CQ, K.CQ_HAS_COND] = 1
    Q[K.CQ, K.CQ_T] = len(T)
    Q[K.CQ, K.CQ_T + 1] = len(T) + len(prog)
    return np.concatenate([T, prog]).astype(np.int64)


def _rulewise(
    compiled: CompiledRules, seats: int, bots: Sequence[str], Q: Any, T: Any, F: Any
) -> Any:
    """The rulewise bot's data (Q's RQ row, F's join threshold; T with the cards each teyaku
    shows appended): its worlds, whether an empty hand stops at once, the variant's calibrated
    fold and swap policy (computed only where a rulewise bot would use it), the teams."""
    r = compiled.rules
    shown = shown_array(compiled)
    Q[K.RQ, K.RQ_T_SHOWN] = len(T)
    Q[K.RQ, K.RQ_T_SHOWN + 1] = len(T) + len(shown)
    Q[K.RQ, K.RQ_WORLDS] = DEFAULT_WORLDS
    Q[K.RQ, K.RQ_CANNOT_GAIN] = continuing_cannot_gain(r)
    Q[K.RQ, K.RQ_FOLD_BLIND] = r.fold.before_deal
    teams = r.teams_for(seats) or []
    Q[K.RQ, K.RQ_NTEAMS] = len(teams)
    for t, members in enumerate(teams):
        for s in members:
            Q[K.RQ, K.RQ_TEAM + s] = t
    steps = setup_steps(r)
    folds = "fold" in steps and r.seats.playing(seats) < seats and r.seats.sit_out == "fold"
    declares = bool(r.declarations) and not only_fold_stakes(r) and not cannot_cost(r)
    if "rulewise" in bots and (folds or "swap" in steps or declares):
        policy = deal_policy(compiled, seats)
        Q[K.RQ, K.RQ_JOIN] = policy.join_at is not None
        F[K.F_JOIN_AT] = policy.join_at if policy.join_at is not None else 0.0
        Q[K.RQ, K.RQ_SWAP] = policy.swap
        Q[K.RQ, K.RQ_DECLARE] = policy.declare
    return np.concatenate([T, shown]).astype(np.int64)


@dataclass
class Played:
    """What the kernel played of deals start..stop-1 (per deal, in order)."""

    net: Ints  # [deal, seat], scaled
    # [deal, (bailed, voids, turns, continued, ended, winners, winner bits, paid off, choices,
    # fraction seats, the play phase's choices)]
    info: Ints
    teyaku: Ints  # teyaku counted, by entry, over the deals
    yaku: Ints  # yaku listed as made, by entry, over the deals
    # traced: per deal, the ledger's entries and the moves (-9 after them), each seat's teyaku
    # (entry bits) and yaku listed (by entry)
    ledgers: Ints | None = None
    moves: Ints | None = None
    seat_teyaku: Ints | None = None
    seat_yaku: Ints | None = None


def play(plan: Plan, start: int, stop: int, trace: bool = False) -> Played:
    """Run the kernel over deals start..stop-1 (`trace`: keep what each deal did)."""
    n = stop - start
    S, Q, T, F = plan.arrays
    Q[K.CFG, K.C_TRACE] = int(trace)
    z = np.zeros
    net = z((n, plan.seats), dtype=np.int64)
    info = z((n, INFO_COLUMNS), dtype=np.int64)
    teyaku = z(K.ENTRIES, dtype=np.int64)
    yaku = z(K.ENTRIES, dtype=np.int64)
    rows = n if trace else 1
    ledgers = z((rows, K.LEDGER if trace else 1, 7), dtype=np.int64)
    moves = z((rows, K.MOVES if trace else 1, 2), dtype=np.int64)
    seat_teyaku = z((rows, plan.seats), dtype=np.int64)
    seat_yaku = z((rows, plan.seats, K.ENTRIES if trace else 1), dtype=np.int64)
    _play_deals(
        S, Q, T, F, start, stop, net, info, teyaku, yaku, MAX_VOID_IN_A_ROW, ledgers, moves,
        seat_teyaku, seat_yaku, NO_GAMES, NO_COUNTS,
    )  # fmt: skip
    if not trace:
        return Played(net, info, teyaku, yaku)
    return Played(net, info, teyaku, yaku, ledgers, moves, seat_teyaku, seat_yaku)


def _play_deals(*args: Any) -> None:
    """The kernel's one entry, called by play and play_games. Its first call in a process
    compiles it (or reads it from the cache) under a lock on the cache folder: two processes
    starting at once (a test run's workers, two commands) compile it once, not each, the second
    then reading what the first wrote."""
    if kernel_loaded():
        K.play_deals(*args)
        return
    with _compile_lock():
        read_cached(K.play_deals, args)  # else numba's own path: set up, read or compile
        K.play_deals(*args)


@contextlib.contextmanager
def _compile_lock() -> Any:
    """An exclusive lock on the kernel's cache folder, held while this process compiles or
    reads the kernel; none where files cannot be locked (no fcntl, a folder not writable)."""
    try:
        import fcntl

        folder = Path(numba_cache_dir())
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / ".compiling", "a")  # noqa: SIM115 (held across the yield)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # (closing releases the lock)


NO_GAMES = np.zeros(0, dtype=np.int64)  # play_deals' dealers: single rounds
NO_COUNTS = np.zeros((1, K.GC_ROWS, K.ENTRIES), dtype=np.int64)


@dataclass
class PlayedGames:
    """What the kernel played of games start..stop-1 (per game, in order)."""

    games: Ints  # [game, GM_ column]: bailed, rounds, voids, turns, continued, fraction seats
    net: Ints  # [game, seat], scaled
    counts: Ints  # [game, GC_ row, ending code or entry]


def play_games(plan: Plan, start: int, stop: int) -> PlayedGames:
    """Run the kernel over games start..stop-1, each from the first dealer the scalar engine
    draws for it (engine.game.first_dealer of the game's seed, "{seed}:{i}")."""
    n = stop - start
    S, Q, T, F = plan.arrays
    Q[K.CFG, K.C_TRACE] = 0
    seed = int(Q[K.CFG, K.C_SEED])
    dealers = np.array(
        [first_dealer(plan.compiled, plan.seats, f"{seed}:{i}") for i in range(start, stop)],
        dtype=np.int64,
    )
    z = np.zeros
    games = z((n, K.GM_SIZE), dtype=np.int64)
    net = z((n, plan.seats), dtype=np.int64)
    counts = z((n, K.GC_ROWS, K.ENTRIES), dtype=np.int64)
    one = z((1, 1, 1), dtype=np.int64)
    _play_deals(
        S, Q, T, F, start, stop, net, games, one[0, 0], one[0, 0], MAX_VOID_IN_A_ROW, one, one,
        one[0], one, dealers, counts,
    )  # fmt: skip
    return PlayedGames(games, net, counts)


@dataclass
class BatchRound:
    """One deal the kernel played, as a comparison reads a RoundResult (the same figures)."""

    dealer: int
    voids: int
    net: list[Amount]
    ledger: list[Payment]
    teyaku: dict[int, list[str]]
    yaku: dict[int, list[str]]
    turns: int
    ended_by: str
    continued: int
    continued_paid_off: int
    winners: list[int]
    choices: Counter[str]


# the rule choices the kernel counts (its CH_ columns), as rulekit.sim.exercise.Counting names
CHOICE_KEYS = ("continue offered", "continue", "fold offered", "fold", "swap offered", "swap")
PLAY_CHOICE_KEYS = ("hiki offered", "hiki", "wild offered", "wild")  # info's columns 15..18
DECLARE_CHOICE_KEYS = ("declare offered", "declare")  # info's columns 19..20
I_DECLARE_CHOICES = 19
OWNER_CHOICE_KEYS = ("owner offered", "owner")  # info's columns 21..22
I_OWNER_CHOICES = 21
# a bomb, a play skipped, an event (info's columns 23..28)
EVENT_CHOICE_KEYS = ("bomb offered", "bomb", "skip offered", "skip", "event offered", "event")
I_EVENT_CHOICES = 23
CLAIM_CHOICE_KEYS = ("claim offered", "claim")  # the dealer's claim of the field: 29..30
I_CLAIM_CHOICES = 29
RIDE_CHOICE_KEYS = ("ride offered", "ride")  # bonus cards left riding a stack: 31..32
I_RIDE_CHOICES = 31
SHOW_CHOICE_KEYS = ("show offered", "show")  # a teyaku shown or kept hidden: 33..34
I_SHOW_CHOICES = 33
# a draw offered, an answer asked (info's columns 35..38)
OFFER_CHOICE_KEYS = ("draw offered", "draw", "refuse offered", "refuse")
I_OFFER_CHOICES = 35
# info's columns (kernel.rounds.play_deals)
I_BAILED, I_VOIDS, I_TURNS, I_CONTINUED, I_ENDED, I_WINNERS, I_PAID_OFF = 0, 1, 2, 3, 4, 6, 7
I_CHOICES, I_FRACTIONS, I_PLAY_CHOICES = 8, 14, 15
# where each group of counted choices starts in info, and its keys: one place to add a group
CHOICE_COLUMNS = (
    (I_CHOICES, CHOICE_KEYS),
    (I_PLAY_CHOICES, PLAY_CHOICE_KEYS),
    (I_DECLARE_CHOICES, DECLARE_CHOICE_KEYS),
    (I_OWNER_CHOICES, OWNER_CHOICE_KEYS),
    (I_EVENT_CHOICES, EVENT_CHOICE_KEYS),
    (I_CLAIM_CHOICES, CLAIM_CHOICE_KEYS),
    (I_RIDE_CHOICES, RIDE_CHOICE_KEYS),
    (I_SHOW_CHOICES, SHOW_CHOICE_KEYS),
    (I_OFFER_CHOICES, OFFER_CHOICE_KEYS),
)
INFO_COLUMNS = max(at + len(keys) for at, keys in CHOICE_COLUMNS)
LEDGER_FIELDS = 5  # a traced ledger entry's payer, payee, amount, reason and detail code


def rounds(plan: Plan, start: int, stop: int) -> list[BatchRound | None]:
    """Deals start..stop-1 as the kernel played them (None: a deal it handed to the scalar
    engine), with their ledgers and choices, for the figures a comparison pairs."""
    played = play(plan, start, stop, trace=True)
    assert played.ledgers is not None and played.moves is not None
    assert played.seat_teyaku is not None and played.seat_yaku is not None
    out: list[BatchRound | None] = []
    for k in range(stop - start):
        info = played.info[k]
        if info[0]:
            out.append(None)
            continue
        number = start + k
        choices: Counter[str] = Counter()
        for at, keys in CHOICE_COLUMNS:
            for c, key in enumerate(keys):
                if info[at + c]:
                    choices[key] = int(info[at + c])
        ledger = [
            entry(number, int(e[0]), int(e[1]), plan.amount(e[2]), K.REASONS[e[3]],
                  plan.detail(int(e[3]), int(e[4])), int(e[5]), plan.amount(e[6]))
            for e in played.ledgers[k]
            if e[0] != -9
        ]  # fmt: skip
        teyaku = {}
        yaku = {}
        for seat in range(plan.seats):
            mask = int(played.seat_teyaku[k, seat])
            if mask:
                teyaku[seat] = [plan.teyaku_names[i] for i in range(K.ENTRIES) if mask >> i & 1]
            listed = played.seat_yaku[k, seat]
            names = [n for i, n in enumerate(plan.yaku_names) for _ in range(int(listed[i]))]
            if names:
                yaku[seat] = names
        out.append(
            BatchRound(
                dealer=number % plan.seats,
                voids=int(info[1]),
                net=[plan.amount(v) for v in played.net[k]],
                ledger=ledger,
                teyaku=teyaku,
                yaku=yaku,
                turns=int(info[2]),
                ended_by=K.ENDINGS[info[4]],
                continued=int(info[3]),
                continued_paid_off=int(info[7]),
                winners=[s for s in range(plan.seats) if int(info[6]) >> s & 1],
                choices=choices,
            )
        )
    return out


@dataclass
class Deals:
    """Deals start..stop-1 as the kernel played them, in columns: a row per deal, and no
    object per deal, for a comparison to sum (rulekit.sim.columns). A deal `handed` to the
    scalar engine (the kernel marked it) has zeros in every other column, and no ledger."""

    plan: Plan  # its names: the teyaku and yaku entries, a payment's detail (Plan.detail)
    start: int
    handed: npt.NDArray[np.bool_]  # [deal]
    voids: Ints  # [deal]
    net: Ints  # [deal, seat], in 1/plan.scale
    turns: Ints  # [deal]
    continued: Ints  # [deal]
    paid_off: Ints  # [deal]: continues paid off
    ended: Ints  # [deal]: how the round ended, a code of ENDINGS
    choices: Ints  # [deal, CHOICES]: the rule choices offered and taken
    # [deal, entry, (payer, payee, amount in 1/plan.scale, reason (a code of REASONS), detail
    # code)], as long as the longest ledger: a deal's entries, then payer -9
    ledger: Ints
    teyaku: Ints  # [deal, seat]: the teyaku each seat counts, as entry bits
    yaku: Ints  # [deal, seat, entry]: how often each yaku is listed as made for the seat


ENDINGS = K.ENDINGS  # Deals.ended's codes: RoundResult.ended_by
REASONS = K.REASONS  # the ledger's reason codes: Payment.reason
CHOICES = tuple(key for _, keys in CHOICE_COLUMNS for key in keys)  # Deals.choices' columns


def deals(plan: Plan, start: int, stop: int) -> Deals:
    """Deals start..stop-1 as columns (the kernel traced, its buffers cut to what was used)."""
    played = play(plan, start, stop, trace=True)
    assert played.ledgers is not None and played.seat_teyaku is not None
    assert played.seat_yaku is not None
    info = played.info
    handed = info[:, I_BAILED] != 0
    ledgers = played.ledgers[:, :, :LEDGER_FIELDS]
    ledgers[handed] = -9  # (the kernel writes nothing for a deal it hands over)
    longest = int((ledgers[:, :, 0] != -9).sum(axis=1).max(initial=0))
    choices = np.concatenate([info[:, at : at + len(keys)] for at, keys in CHOICE_COLUMNS], axis=1)
    return Deals(
        plan=plan,
        start=start,
        handed=handed,
        voids=info[:, I_VOIDS].copy(),
        net=played.net,
        turns=info[:, I_TURNS].copy(),
        continued=info[:, I_CONTINUED].copy(),
        paid_off=info[:, I_PAID_OFF].copy(),
        ended=info[:, I_ENDED].copy(),
        choices=choices,
        ledger=ledgers[:, :longest].copy(),
        teyaku=played.seat_teyaku,
        yaku=played.seat_yaku[:, :, : len(plan.yaku_names)].copy(),
    )


def tally_part(
    compiled: CompiledRules,
    seats: int,
    bots: Sequence[str],
    seed: int,
    start: int,
    stop: int,
    tally: Tally,
) -> int:
    """Deals start..stop-1 into the tally, as simulate's run_part adds them; returns how many
    the scalar engine played (the deals the kernel marked)."""
    plan = plan_for(compiled, seats, tuple(bots), seed)
    played = play(plan, start, stop)
    info = played.info
    ok = info[:, 0] == 0
    n_ok = int(ok.sum())
    tally.units += n_ok
    tally.rounds += n_ok
    tally.voids += int(info[ok, 1].sum())
    tally.turns += int(info[ok, 2].sum())
    tally.continued += int(info[ok, 3].sum())
    codes, first, counts = np.unique(info[ok, I_ENDED], return_index=True, return_counts=True)
    for at in np.argsort(first).tolist():  # as Counter(endings) orders them: first seen first
        tally.ended_by[K.ENDINGS[int(codes[at])]] += int(counts[at])
    for names, counts, counter in (
        (plan.teyaku_names, played.teyaku, tally.teyaku),
        (plan.yaku_names, played.yaku, tally.yaku),
    ):
        for i, name in enumerate(names):
            if counts[i]:
                counter[name] += int(counts[i])
    winners = info[ok, 6]
    for s in range(plan.seats):
        tally.wins[s] += int(((winners >> s) & 1).sum())
    _add_nets(tally, played.net[ok], info[ok, 14], plan.scale)
    scalar = np.flatnonzero(~ok)
    if len(scalar):
        agents = [make_agent(bots[s], 0) for s in range(plan.seats)]
        for k in scalar.tolist():
            _, result, voids = play_deal(plan.compiled, plan.seats, start + k, agents, seed=seed)
            tally.voids += voids
            tally.add_round(result)
            tally.add_unit(result.net, result.winners)
    return len(scalar)


def tally_games(
    compiled: CompiledRules,
    seats: int,
    bots: Sequence[str],
    seed: int,
    start: int,
    stop: int,
    tally: Tally,
) -> list[int]:
    """Games start..stop-1 into the tally, as simulate's run_part adds them (each round's facts,
    then the game's net and winners); returns the games it leaves to the scalar engine (those
    with a deal the kernel marked), for the caller to play and add."""
    plan = plan_for(compiled, seats, tuple(bots), seed)
    played = play_games(plan, start, stop)
    games = played.games
    ok = games[:, K.GM_BAILED] == 0
    tally.units += int(ok.sum())
    tally.rounds += int(games[ok, K.GM_ROUNDS].sum())
    tally.voids += int(games[ok, K.GM_VOIDS].sum())
    tally.turns += int(games[ok, K.GM_TURNS].sum())
    tally.continued += int(games[ok, K.GM_CONTINUED].sum())
    counts = played.counts[ok]
    for row, names, counter in (
        (K.GC_ENDED, K.ENDINGS, tally.ended_by),
        (K.GC_TEYAKU, plan.teyaku_names, tally.teyaku),
        (K.GC_YAKU, plan.yaku_names, tally.yaku),
    ):
        _add_counts(counter, names, counts[:, row], counts[:, K.GC_FIRST + row])
    net = played.net[ok]
    _add_nets(tally, net, games[ok, K.GM_FRACTIONS], plan.scale)
    rules = compiled.rules
    if rules.length.tie_break:  # game.game_winners, game by game
        for k in np.flatnonzero(ok).tolist():
            won = games[k, K.GM_WINS : K.GM_WINS + seats].tolist()
            dealer = int(games[k, K.GM_LAST_DEALER])
            for s in game_winners(rules, seats, played.net[k].tolist(), won, dealer):
                tally.wins[s] += 1
    else:  # game.game_winners without a tie break: every side with the best total, at once
        teams = rules.teams_for(seats) or [[s] for s in range(seats)]
        member = np.zeros((len(teams), seats), dtype=np.int64)
        for t, seats_of in enumerate(teams):
            member[t, seats_of] = 1
        totals = net @ member.T
        best = totals == totals.max(axis=1, initial=-INT64 + 1, keepdims=True)
        wins = best.astype(np.int64) @ member
        for s in range(seats):
            tally.wins[s] += int(wins[:, s].sum())
    return [start + k for k in np.flatnonzero(~ok).tolist()]


def _add_counts(counter: Counter[str], names: Sequence[str], counts: Ints, first: Ints) -> None:
    """Counts by code into a Counter, each name added first where a loop over the rounds
    would first count it (its first game, its first round there; then by code)."""
    seen = []
    for code, name in enumerate(names):
        if not counts[:, code].any():
            continue
        game = int(np.flatnonzero(counts[:, code])[0])
        seen.append((game, int(first[game, code]), code, name))
    for _, _, code, name in sorted(seen):
        counter[name] += int(counts[:, code].sum())


def _add_nets(tally: Tally, net: Ints, fraction_seats: Ints, scale: int) -> None:
    """Each seat's results and their squares, exactly, split as Tally.add_unit splits them: a
    net the scalar engine holds as an int among the ints, one it holds as a Fraction (some of
    its payments were, even when the sum is whole) among the fractions."""
    n = tally.seats
    for s in range(n):
        column = net[:, s]
        as_fraction = (fraction_seats >> s) & 1 == 1
        ints = column[~as_fraction] // scale
        tally.int_sums[s] += int(ints.sum())
        tally.int_sums[n + s] += _sum_squares(ints)
        rest = column[as_fraction]
        if len(rest):
            tally.fraction_sums[s] += Fraction(int(rest.sum()), scale)
            tally.fraction_sums[n + s] += Fraction(_sum_squares(rest), scale * scale)


def _sum_squares(values: Ints) -> int:
    """The exact sum of squares (int64 when it cannot overflow)."""
    if not len(values):
        return 0
    top = int(np.abs(values).max())
    if top * top * len(values) < INT64:
        return int((values * values).sum())
    return sum(int(v) * int(v) for v in values.tolist())


def kernel_cached() -> bool:
    """Whether the kernel is compiled and cached for today's source (numba's index of it on
    disk), so that using it costs no compilation (about 45 s of one core, once)."""
    try:
        dispatcher: Any = K.play_deals
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # numba's cache internals moved: say no, the safe answer
        return False


def kernel_loaded() -> bool:
    """Whether this process holds the kernel's machine code (compiled, or read from the cache):
    a process forked from it then holds it too."""
    dispatcher: Any = K.play_deals
    return bool(dispatcher.signatures)


def kernel_ready() -> bool:
    """Whether using the kernel now costs no compilation."""
    return kernel_loaded() or kernel_cached()


# The kernel's compile on this project's machine (seconds, on one free core), said before a
# compile when none was timed on this machine yet; each compile then notes how long it took.
COMPILE_SECONDS = 45


def _timed_file() -> Path:
    """Where the last compile's time is kept: beside the kernels' folders, for every version."""
    return Path(numba_cache_dir()).parent / "compile-seconds"


def compile_seconds() -> int:
    """About how long compiling the kernel takes here: the last compile's time, else the
    project machine's."""
    try:
        return max(1, round(float(_timed_file().read_text())))
    except (OSError, ValueError):
        return COMPILE_SECONDS


def compile_note() -> str:
    """The line said while the kernel compiles: what, why, how long, and where it is kept."""
    return (
        f"compiling the batch engine's kernel, which plays these rounds many times faster "
        f"(once per rulekit version, about {compile_seconds()} s; cached in {numba_cache_dir()})"
    )


def load_kernel(plan: Plan | None = None, say: Callable[[str], None] | None = None) -> float:
    """Bring the kernel into this process before any work is handed out, compiling it when it
    is not cached (`say` is told so first, with compile_note()): processes forked after find
    it loaded, and no two compile it at once. Plays one deal of `plan` (of the first bundled
    variant when None). Returns the seconds a compile took (0.0: none was needed)."""
    if kernel_loaded():
        return 0.0
    compiling = not kernel_cached()
    if compiling:
        check_cache_writable()
        if say is not None:
            say(compile_note())
    started = time.perf_counter()
    play(plan or _warmup_plan(), 0, 1)
    seconds = time.perf_counter() - started
    if not compiling:
        return 0.0
    with contextlib.suppress(RulekitError):  # a cache that cannot be written: no estimate
        write_atomic(_timed_file(), f"{seconds:.1f}\n")
    return seconds


def check_cache_writable() -> None:
    """A compile's cache folder can be written: numba, finding it cannot, would keep the kernel
    beside its sources instead, keyed by each file alone (the stale code cache_folder avoids)."""
    folder = Path(numba_cache_dir())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".writable-{threading.get_ident()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise RulekitError(
            f"cannot write the batch engine's kernel cache in {folder}: {exc.strerror or exc}",
            hint="set NUMBA_CACHE_DIR to a folder you can write, or play --engine scalar",
        ) from None


def _warmup_plan() -> Plan:
    """One deal of the first bundled variant at its smallest table: the kernel compiles the
    same whatever the file (its code is typed by the arrays, not by the rules)."""
    from rulekit.lang import load_rules
    from rulekit.variants import bundled_variants

    first = bundled_variants()[0]
    seats = int(first["seats"]["min"])
    return make_plan(CompiledRules(load_rules(first["name"])), seats, ("greedy",) * seats, 1)


def numba_cache_dir() -> str:
    """The folder of this version's compiled kernel (rulekit.batch.cache_folder)."""
    config: Any = numba.config
    return str(config.CACHE_DIR)


# the kernel's plans at hand, by (thread, compiled rules, seats, bots, seed): a plan holds the
# kernel's state buffers, which two threads of one process (a Dask worker's) must not share
_PLANS: dict[tuple[int, CompiledRules, int, tuple[str, ...], int], Plan] = {}
PLANS_KEPT = 16


def plan_for(compiled: CompiledRules, seats: int, bots: tuple[str, ...], seed: int) -> Plan:
    """The kernel's plan, made once per process (and thread) for the same compiled rules:
    rulekit.sim.cache keys compiled rules by the rule set's content, so every chunk of a run,
    and every run of the same rule file, finds it here."""
    key = (threading.get_ident(), compiled, seats, bots, seed)
    hit = _PLANS.get(key)
    if hit is None:
        if len(_PLANS) >= PLANS_KEPT:
            _PLANS.clear()
        hit = _PLANS[key] = make_plan(compiled, seats, bots, seed)
    return hit
