"""Which engine table handles each IR mechanic option: (IR model, field) -> its table, keyed by
the field's values. tests/test_engine_handlers.py walks the IR's Literal-typed fields and fails
when an option has no handler here, so a new option cannot be silently ignored by the engine.
The scoring stage's steps are dispatched by their IR type (scoring.STEPS): the same test checks
that every type of step the IR allows has a handler there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekit import ir
from rulekit.engine import (
    continuation,
    events,
    game,
    offers,
    riders,
    scoring,
    setup,
    stage,
    tables,
)

HANDLERS: dict[tuple[type, str], Mapping[Any, object]] = {
    (ir.Continuation, "paid"): continuation.PAID,
    (ir.Continuation, "if_other_stops"): continuation.OTHER_STOPS,
    (ir.Continuation, "if_unfinished"): continuation.UNFINISHED,
    (ir.Continuation, "outstopped_pays"): continuation.OUTSTOPPED_PAYS,
    (ir.DrawOffer, "refuser_pays"): continuation.REFUSER_PAYS,
    (ir.Continuation, "after_loss"): continuation.AFTER_LOSS,
    (ir.Offer, "option"): {**continuation.ALONE, **setup.ALONE, **offers.INSTEAD},
    (ir.Offer, "limits"): offers.LIMITS,
    (ir.Settlement, "method"): scoring.METHODS,
    (ir.Settlement, "tie"): scoring.TIES,
    (ir.Settlement, "winner"): scoring.WINNERS,
    (ir.Settlement, "team_cards"): scoring.TEAM_CARDS,
    (ir.Settlement, "round_paid"): scoring.ROUND_PAID,
    (ir.RoundKey, "key"): scoring.ROUND_KEYS,
    (ir.Yaku, "cancels_yaku"): scoring.CANCELS_YAKU,
    (ir.Ruleset, "setup"): setup.STEPS,
    (ir.Fold, "start"): setup.FOLD_START,
    (ir.Fold, "payee"): scoring.FEE_PAYEES,
    (ir.Compensation, "payers"): scoring.COMPENSATION_PAYERS,
    (ir.Seats, "sit_out"): setup.SIT_OUT,
    (ir.YakuTable, "between_players"): setup.BETWEEN_PLAYERS,
    (ir.YakuTable, "policy"): tables.POLICIES,
    (ir.FirstDealer, "method"): game.FIRST_DEALER,
    (ir.Length, "tie_break"): game.TIE_BREAKS,
    (ir.Continued, "who"): tables.CONTINUED_WHO,
    (ir.Factor, "on"): stage.FACTOR_ON,
    (ir.Award, "payee"): stage.AWARD_PAYEES,
    (ir.Declaration, "by"): setup.DECLARERS,
    (ir.Declaration, "moment"): setup.MOMENTS,
    (ir.Declaration, "success"): scoring.SUCCESS,
    (ir.Event, "kind"): events.HAPPENED,
    (ir.Ruleset, "instant_all"): setup.INSTANT_ALL,
    (ir.Event, "steal_grows"): events.STEALS,
    (ir.Event, "outcome"): events.OUTCOMES,
    (ir.Ruleset, "bonus_on_pair"): riders.ON_PAIR,
}
# the scoring stage's step types -> their handlers (the count and the fold fees, then the rule
# file's steps)
STEPS = scoring.STEPS
