"""The rule file's scoring steps (engine/stage.py): the factors, which the ledger applies to the
payments they name as it writes them; the awards are paid by kernel/scoring.py. The steps are
the stage array (batch/tables.py's stage_array), their conditions a table matched at once
(stage_conditions): the kernel's one copy of the condition VM, `match`, asks them all."""

from __future__ import annotations

from rulekit.batch.chance import apart, entry
from rulekit.batch.kernel.context import look_from
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.tables import CTX_PAYER, STEP_FACTOR, STEP_WORDS, T_SECOND
from rulekit.batch.tables import match as t_match
from rulekit.batch.tables import match_reading as t_match_reading
from rulekit.batch.tables import readings as t_readings


@apart
def factor(S: Array, Q: Array, T: Array, payer: int, payee: int, reason: int, score: int) -> int:
    """stage.factor: the product of the factors whose kind and condition fit this payment from
    `payer` to `payee` (its base `score`, scaled; 1: none; 0: it is not made)."""
    steps = T[Q[STAGE, G_T_STAGE] : Q[STAGE, G_T_STAGE + 1]]
    result = 1
    hits = -1  # the steps whose condition holds for him, matched when first asked
    for i in range(steps[0]):
        at = 1 + STEP_WORDS * i
        if steps[at] != STEP_FACTOR or not Q[FACTOR_ON, steps[at + 1]] >> reason & 1:
            continue
        if steps[at + 5]:
            if hits < 0:
                hits = step_hits(S, Q, T, payee, score, False, payer)
            if not hits >> i & 1:
                continue
        result *= steps[at + 2]
    return result


@entry
def step_hits(S: Array, Q: Array, T: Array, seat: int, score: int, ended: bool, payer: int) -> int:
    """stage.holds for every step at once: the steps whose condition holds for `seat` (his
    pile, the round as he sees it, `score` as his; `ended`: at the round's end, where `nobody
    won` may hold; a factor's `payer`, BANK for none), as bits."""
    conditions = T[Q[STAGE, G_T_STEPS] : Q[STAGE, G_T_STEPS + 1]]
    npiles = look_from(S, Q, seat, score, ended and S[SC, I_WINNER] < 0)
    if payer >= 0:
        S[PILES, CTX_PAYER] = S[P_CAPTURED, payer]
    x = S[P_CAPTURED, seat] if seat >= 0 else 0
    if not conditions[T_SECOND]:
        return t_match(conditions, x, False, S[PILES], npiles)
    # the owner's choice: each pile read as its yaku read it (tables.StepReadings)
    ytab = T[Q[CFG, C_T_YAKU] : Q[CFG, C_T_YAKU + 1]]
    k = 2 if t_readings(ytab, x) == 2 else 0
    if payer >= 0 and t_readings(ytab, S[P_CAPTURED, payer]) == 2:
        k += 1
    return t_match_reading(conditions, k, x, S[PILES], npiles)
