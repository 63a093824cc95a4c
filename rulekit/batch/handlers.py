"""Which part of the batch engine plays each IR mechanic option: (IR model, field) -> its table,
keyed by the field's values, as rulekit/engine/handlers.py says for the scalar engine.
tests/test_batch_handlers.py walks the IR's Literal-typed fields, the scoring stage's step types
and the condition types, and fails when the kernel has no handler for one, so that a mechanic
is done only when both engines play it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekit import ir
from rulekit.batch import engine, tables

HANDLERS: dict[tuple[type, str], Mapping[Any, object]] = {
    (ir.Continuation, "paid"): engine.PAID,
    (ir.Continuation, "if_other_stops"): engine.OTHER_STOPS,
    (ir.Continuation, "if_unfinished"): engine.UNFINISHED,
    (ir.Continuation, "outstopped_pays"): engine.OUTSTOPPED_PAYS,
    (ir.DrawOffer, "refuser_pays"): engine.REFUSER_PAYS,
    (ir.Continuation, "after_loss"): engine.AFTER_LOSS,
    (ir.Offer, "option"): tables.OFFER_OPTIONS,
    (ir.Offer, "limits"): tables.OFFER_LIMITS,
    (ir.Settlement, "method"): engine.METHODS,
    (ir.Settlement, "tie"): engine.TIES,
    (ir.Settlement, "winner"): engine.WINNERS,
    (ir.Settlement, "team_cards"): engine.TEAM_CARDS,
    (ir.Settlement, "round_paid"): engine.ROUND_PAID,
    (ir.RoundKey, "key"): engine.ROUND_KEYS,
    (ir.Yaku, "cancels_yaku"): engine.CANCELS_YAKU,
    (ir.Ruleset, "setup"): engine.STEPS,
    (ir.Fold, "start"): engine.FOLD_START,
    (ir.Fold, "payee"): engine.FOLD_PAYEES,
    (ir.Compensation, "payers"): engine.COMPENSATION_PAYERS,
    (ir.Seats, "sit_out"): engine.SIT_OUT,
    (ir.Length, "tie_break"): engine.TIE_BREAKS,
    (ir.YakuTable, "between_players"): engine.BETWEEN_PLAYERS,
    (ir.YakuTable, "policy"): tables.POLICIES,
    (ir.Continued, "who"): tables.CONTINUED_WHO,
    (ir.Factor, "on"): tables.FACTOR_ON,
    (ir.Award, "payee"): tables.AWARD_PAYEES,
    (ir.Declaration, "by"): engine.DECLARERS,
    (ir.Declaration, "moment"): engine.MOMENTS,
    (ir.Declaration, "success"): engine.SUCCESS,
    (ir.Event, "kind"): engine.EVENT_KINDS,
    (ir.Ruleset, "instant_all"): engine.INSTANT_ALL,
    (ir.Event, "steal_grows"): engine.EVENT_STEALS,
    (ir.Event, "outcome"): engine.EVENT_OUTCOMES,
    (ir.Ruleset, "bonus_on_pair"): engine.BONUS_ON_PAIR,
}
# options of whole games, not of a round: the kernel plays the rounds it is given (their dealer
# from the deal's number), so choosing the first dealer is a games driver's
NOT_A_ROUND: dict[tuple[type, str], str] = {
    (ir.FirstDealer, "method"): "the first dealer of a game is chosen by the games driver",
}
# the scoring stage's rule file steps -> their kind in the stage array (the count and the fold
# fees are kernel/scoring.py's finish)
STEPS = tables.STEP_KINDS
