"""Dealing: the shuffle from a seed, a deal written down, laying the field, a void field."""

from __future__ import annotations

from hashlib import sha512

from rulekit.engine import ledger
from rulekit.engine.context import RoundView
from rulekit.engine.specialise import dealer, permutation, top_cards
from rulekit.engine.state import DONE, JOKER_ID, RoundState, StackedDeal
from rulekit.errors import UsageError


def deal_order(seed: str, n: int) -> list[int]:
    """A uniformly random permutation of range(n) from a seed string: the seed's SHA-512 read
    as a number in the factorial base (its 512 bits make the bias negligible for n <= 98)."""
    x = int.from_bytes(sha512(seed.encode()).digest(), "big")
    return permutation(n)(x)  # generated: engine/specialise.py


def shuffle(r: RoundState, key: str) -> None:
    """Deal the hands from the seed `key` ("seed:deal_no"; deal_order's permutation: each seat
    in turn is dealt the next hand_size cards); the rest is the stock (a joker dealt to no hand
    is out). Sets the round's hands, stock and initial_stock (the stock from the top)."""
    deal = r.c.dealers.get(r.seated)
    if deal is None:
        n = len(r.ix.ids) + (1 if r.joker_bit >= 0 else 0)
        h = r.hand_size
        if r.seated * h > n:
            raise UsageError(f"{r.seated} hands of {h} need more cards than the deck has")
        deal = r.c.dealers[r.seated] = dealer(n, r.seated, h)  # generated: specialise.py
    r.hands, r.stock, r.initial_stock = deal(int.from_bytes(sha512(key.encode()).digest(), "big"))
    if r.joker_bit >= 0 and r.joker_bit in r.stock:
        r.stock.remove(r.joker_bit)
        r.initial_stock = r.stock[::-1]


def stack(r: RoundState, deal: StackedDeal) -> None:
    """Deal a written-down deal, checked card by card."""
    if len(deal.hands) != r.seated:
        raise UsageError(f"the deal has {len(deal.hands)} hands for {r.seated} seats")
    for s, hand in enumerate(deal.hands):
        for c in hand:
            r.hands[s] |= 1 << stacked_bit(r, c, "in a hand", in_hand=True)
    r.stock = [stacked_bit(r, c, "in the stock") for c in deal.stock][::-1]
    for c in deal.field:
        r.stacked_field |= 1 << stacked_bit(r, c, "on the field")
    if deal.restock is not None:
        r.stacked_restock = tuple(
            stacked_bit(r, c, "in the restock") for c in reversed(deal.restock)
        )


def stacked_bit(r: RoundState, cid: int, where: str, in_hand: bool = False) -> int:
    """The bit of a card of a written-down deal (`where`: "in the stock", ...); the joker
    only in a hand."""
    if cid == JOKER_ID:
        if not in_hand:
            raise UsageError(f"the joker is dealt only in a hand, not {where}")
        if r.joker_bit < 0:
            raise UsageError("a joker is dealt only at the table size the rule file names")
        return r.joker_bit
    b = r.ix.bit.get(cid)
    if b is None:
        raise UsageError(f"no card {cid} in the deck ({where})")
    return b


def lay_field(r: RoundState) -> None:
    """Lay the field (from the stock, or as written down); its multiplier; a void field ends
    the round; teyaku waiting for the multiplier are paid; the dealer takes a whole month."""
    if r.stacked is not None:
        r.field = r.stacked_field
        held = 0
        for s in range(r.seated):
            if not r.folded[s]:
                held |= r.hands[s]
        if r.field & held:
            cards = ", ".join(r.ix.short(c) for c in r.ix.ids_of(r.field & held))
            raise UsageError(f"the field holds cards still in a player's hand: {cards}")
    else:
        laid = r.field_size
        stock = r.stock
        if len(stock) < laid:
            raise UsageError("not enough cards left to lay the field")
        if laid:  # the top `laid` stock cards
            r.field |= top_cards(laid)(stock)  # generated: specialise.py
            del stock[-laid:]
    r.field_laid = True
    field = r.laid_field = r.field
    c = r.c
    ctx = RoundView(r) if c.field_sees_round else None
    factor, r.carry_out = c.multiplier.of_field(field, ctx)
    r.multiplier = factor if factor > r.carry_in else r.carry_in
    if (c.void_field is not None and c.void_field(field, ctx)) or (
        c.void_hand is not None and void_hand(r)
    ):
        r.void = True
        r.ended_by = "void"
        ledger.void(r)
        r.phase = DONE
        return
    if r.pending_teyaku:
        pay_teyaku(r)
    size = r.rules.dealer_captures
    if size:  # the dealer takes a month dealt whole to the field
        for mm in r.ix.month_masks:
            if (r.field & mm).bit_count() == size:
                r.captured[r.dealer] |= r.field & mm
                r.field &= ~mm


def void_hand(r: RoundState) -> bool:
    """Whether a hand of the round (a folded one is out; the joker is not a card of it) makes
    the hand's void rule: tested after the field's, the field laid."""
    test = r.c.void_hand
    assert test is not None
    ctx = RoundView(r) if r.c.void_hand_sees_round else None
    full = r.ix.full
    for s in range(r.seated):
        if r.folded[s]:
            continue
        if ctx is not None:
            ctx.look_from(s)
        if test(r.hands[s] & full, ctx):
            return True
    return False


def pay_teyaku(r: RoundState) -> None:
    """The teyaku, once the field's multiplier is known: each paid by every other player of
    the round, or (a split table) its value shared between them."""
    table = r.c.teyaku
    assert table is not None
    for s, payers, value, flat, name in r.pending_teyaku:
        ledger.pay_parts(r, list(payers), s, value, flat, "teyaku", name, table.split)
    r.pending_teyaku.clear()
