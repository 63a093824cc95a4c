"""What a choice offers (engine/offers.py): the rule file's conditions on its options, tested
for the player who chooses (batch.tables.offer_array, their conditions a table of their own)."""

from __future__ import annotations

from rulekit.batch.chance import entry
from rulekit.batch.kernel.context import look_as_player
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.tables import OFFER_LIMITS, OFFER_WORDS
from rulekit.batch.tables import match as t_match

LIMIT_ONCE = OFFER_LIMITS["once_per_round"]  # ir.Offer.limits' codes (batch.tables)
LIMIT_HAND = OFFER_LIMITS["hand_not_empty"]
FIRST = 1  # offered's answers: the options offered, as bits (the choice's first option 1,
SECOND = 2  # its second 2: stop and continue, join and fold)
BOTH = 3


@entry
def offered(S: Array, Q: Array, T: Array, seat: int, x: int, first: int) -> int:
    """offers.offered: what `seat` is offered of the two options coded `first` and `first + 1`
    (OFFER_OPTIONS), tested on `x` (his pile or his hand), as bits; FIRST when neither is."""
    words = T[Q[STAGE, G_T_OFFERS] : Q[STAGE, G_T_OFFERS + 1]]
    ok = BOTH
    hits = -1  # the offers whose condition holds for him, matched when first asked
    for i in range(words[0]):
        at = 1 + OFFER_WORDS * i
        option = words[at] - first
        if option < 0 or option > 1:
            continue  # another choice's offer
        bit = 1 << option
        if not ok & bit:
            continue
        if words[at + 2]:
            if hits < 0:
                conditions = T[Q[STAGE, G_T_OFFER_CONDS] : Q[STAGE, G_T_OFFER_CONDS + 1]]
                npiles = look_as_player(S, Q, seat)
                hits = t_match(conditions, x, False, S[PILES], npiles)
            if not hits >> i & 1:
                ok &= ~bit
                continue
        limits = words[at + 1]
        if (limits >> LIMIT_ONCE & 1 and S[P_CONTINUES, seat] != 0) or (
            limits >> LIMIT_HAND & 1 and S[P_HAND, seat] == 0
        ):
            ok &= ~bit
    return ok if ok else FIRST


@entry
def is_offered(S: Array, Q: Array, T: Array, seat: int, x: int, code: int) -> bool:
    """offers.is_offered: whether the choice of one option coded `code` (the swap, a hiki, a
    declaration: OFFER_OPTIONS) is offered to `seat`, tested on `x` (his hand, or 0)."""
    return offered(S, Q, T, seat, x, code - 1) == BOTH
