"""The ledger (engine/ledger.py): payments in scaled ints, and small helpers every part uses."""

from __future__ import annotations

from rulekit.batch.bits import low_bit
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.stage import factor
from rulekit.batch.tables import value as t_value


@inline
def share(S: Array, v: int, n: int) -> int:
    """ledger.share on scaled amounts: exact, or the deal is played by the scalar engine."""
    if v % n != 0:
        S[SC, I_BAIL] = BAIL_SHARE
        return 0
    return v // n


@inline
def bits_sum(values: Array, x: int) -> int:
    """values[i] summed over the bits i set in x, lowest first."""
    total = 0
    while x:
        total += values[low_bit(x)]
        x &= x - 1
    return total


@inline
def points_of(Q: Array, x: int) -> int:
    return bits_sum(Q[POINTS], x)


@inline
def write(
    S: Array, payer: int, payee: int, amount: int, reason: int, detail: int, mult: int, base: int
) -> None:
    """An entry as given (amounts scaled). Row LEDGER + 7 says whether the scalar's amount is
    a Fraction (its base is not whole, or a caller said so in I_FORCE: a half times a factor is
    a Fraction even when whole), so that a seat's net is one too."""
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
def record(
    S: Array,
    Q: Array,
    T: Array,
    payer: int,
    payee: int,
    amount: int,
    reason: int,
    detail: int,
    mult: int,
    base: int,
) -> None:
    """ledger.record: an entry as given (not multiplied by the field), times the scoring
    stage's factors that fit it (tested for its payee, or for the player charged when the bank
    is paid); a reversal of entries already written (`teyaku returned`) is copied as it is."""
    if reason != R_TEYAKU_RETURNED:
        times = 1
        if Q[STAGE, G_NFACTORS]:
            times = factor(S, Q, T, payer, payer if payee == BANK else payee, reason, base)
        times *= declared(S, Q, payee, reason)  # (to a seat: the bank is no declarer)
        if times == 0:  # a factor of 0: the payer pays nothing
            return
        amount *= times
        mult *= times
    write(S, payer, payee, amount, reason, detail, mult, base)


@inline
def pay(
    S: Array,
    Q: Array,
    T: Array,
    payer: int,
    payee: int,
    base: int,
    reason: int,
    detail: int,
    flat: bool,
    score: int,
) -> None:
    """ledger.pay: base times the field's multiplier (not when flat) and the factors that fit
    it (tested with `score`, the payment's base as the scalar's caller gives it); nothing to
    oneself or of 0."""
    if payer == payee or base == 0:
        return
    mult = 1 if flat else S[SC, I_MULT]
    if Q[STAGE, G_NFACTORS]:
        mult *= factor(S, Q, T, payer, payee, reason, score)
    mult *= declared(S, Q, payee, reason)
    if mult == 0:  # a factor of 0: the payer pays nothing
        return
    write(S, payer, payee, base * mult, reason, detail, mult, base)


@entry
def pay_parts(
    S: Array,
    Q: Array,
    T: Array,
    payers: Array,
    npayers: int,
    payee: int,
    base: int,
    flat: int,
    reason: int,
    detail: int,
    split: bool,
    score: int,
    fractions: int,
) -> None:
    """ledger.pay_parts: from each payer (but the payee), or the total shared between them;
    the factors see `score` (the scalar's default: the whole base). `fractions`: bit 0, the
    base is a Fraction in the scalar engine; bit 1, the flat part is (then so is the rest: a
    Fraction minus anything is one); a share makes them exact again."""
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
        pay(S, Q, T, q, payee, field, reason, detail, False, score)
        S[SC, I_FORCE] = flat_fraction
        pay(S, Q, T, q, payee, flat, reason, detail, True, score)
    S[SC, I_FORCE] = 0


@inline
def declared(S: Array, Q: Array, payee: int, reason: int) -> int:
    """stage.declared: the declaration's factor on a payment to one who made it, and his
    events' factors, of anything but their own stakes; 1 for any other."""
    if payee < 0 or reason in (R_DECLARATION, R_EVENT):
        return 1
    times = int(S[P_EVENT_FACTOR, payee]) if Q[EVQ, EVQ_FACTOR] else 1
    if Q[DQ, DQ_FACTOR] > 1 and S[P_DECLARER, payee]:
        times *= int(Q[DQ, DQ_FACTOR]) ** int(S[P_DECLARER, payee])  # (P_DECLARER: the times)
    return times


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


@inline
def full_mask(Q: Array) -> int:
    """The deck's cards (the joker's bit, past them, is not one)."""
    n = Q[CFG, C_NCARDS] - (1 if Q[CFG, C_JOKER] >= 0 else 0)
    return int((1 << n) - 1)


@inline
def flat_value(Q: Array, flags: int, table: Array, mask: int, x: int) -> int:
    """The value on the cards `x` of the entries of `mask` that are paid flat (`flags`: Q's
    TFLAT or YFLAT row): a teyaku's flat part, the flat part of the yaku made."""
    total = 0
    while mask:
        i = low_bit(mask)
        mask &= mask - 1
        if Q[flags, i]:
            total += t_value(table, i, x)
    return total
