"""A draw offered (ir.DrawOffer): at the start of his turn a player with no safe play may show
his hand and offer a draw (OFFER, among his plays); the others answer in turn from him (ACCEPT
or REFUSE, the ANSWER phase), one offer a round. The first refusal ends the asking and the
offerer plays his turn; when all accept, the round ends as a draw. The refuser may pay a later
stop of another's for every payer (continuation.REFUSER_PAYS).

batch/kernel/offer.py plays the same rules; tests/test_batch_identity.py holds the two to them.
"""

from __future__ import annotations

from collections.abc import Callable

from rulekit.cards import bits
from rulekit.engine.context import RoundView
from rulekit.engine.continuation import close_continuations, plan
from rulekit.engine.scoring import finish
from rulekit.engine.state import ANSWER, PLAY, RoundState


def may_offer(r: RoundState, p: int, plays: list[int], captures: Callable[[int], int]) -> bool:
    """Whether p may offer a draw now, at the start of his turn (`plays`: his legal plays,
    `captures`: what one would capture before the draw): the round's one offer (nobody
    offered yet: a refuser is liable "for the remainder of the round"), holding a card, with
    no safe play."""
    offer = r.c.draw_offer
    if offer is None or r.offered or not r.hands[p]:
        return False
    if any(captures(a) for a in plays):
        return False  # a play captures: a safe play
    return not draw_reaches(r, p, offer.minimum)


def safe_play(r: RoundState, p: int) -> bool:
    """Whether p, not at his turn, has a safe play (greedy's answer to a draw offered): a card
    of his hand of a month on the field (or a lone card), or a flip that reaches the minimum."""
    offer = r.c.draw_offer
    hand = r.hands[p]
    months = r.months
    if hand & r.c.lone or any(r.field & months[b] for b in bits(hand)):
        return True
    return draw_reaches(r, p, offer.minimum if offer is not None else 1)


def draw_reaches(r: RoundState, p: int, minimum: int) -> bool:
    """Whether a card unseen by p, drawn after a play of his that captures nothing, could
    capture cards that raise his yaku to `minimum` and over what he made (the rise that offers
    him the stop): the drawn card takes one field card of its month (each in turn), or a stack
    of three, or the hand card of its month he laid (each in turn). What events would give him
    is not counted (the page: "cannot reach stop minimum by flipping a card")."""
    table = r.c.yaku
    if table is None:
        return False
    hand = r.hands[p]
    field = r.field
    known = hand | field
    for s in range(r.seated):
        known |= r.captured[s]
        if s != p and r.offered >> s & 1:
            known |= r.hands[s]  # a hand shown by an offer
    unseen = r.ix.full & ~known
    pile = r.captured[p]
    bar = max(minimum - 1, plan(r).bar(r, p))
    view = RoundView(r, p) if table.sees_round else None
    months = r.months
    for d in bits(unseen):
        month = months[d]
        on_field = field & month
        if on_field.bit_count() == 3:
            gains = [on_field]
        else:
            gains = [1 << c for c in bits(on_field | (hand & month))]
        for gain in gains:
            x = pile | gain | (1 << d)
            hits = table.match_play(x, view) if view is not None else table.match_play(x)
            if hits and table.counted_value(hits, x)[1] > bar:
                return True
    return False


def offer(r: RoundState) -> None:
    """p offers a draw: his hand is shown (Observation: the others' worlds keep it), and the
    next player in order answers."""
    p = r.current
    r.offered |= 1 << p
    r.offerer = p
    r.phase = ANSWER
    r.current = _after(r, p)


def answer(r: RoundState, accept: bool) -> None:
    """The answering player accepts (the next answers; all accepted: the round is a draw) or
    refuses (the refuser, liable for the rest of the round; the offerer plays his turn)."""
    s = r.current
    if not accept:
        if r.refuser < 0:
            r.refuser = s
        r.current = r.offerer
        r.phase = PLAY
        return
    nxt = _after(r, s)
    if nxt != r.offerer:
        r.current = nxt
        return
    r.current = r.offerer
    close_continuations(r)  # (a continuer's bet ends with the round, unfinished)
    finish(r, None)
    r.ended_by = "draw"


def _after(r: RoundState, s: int) -> int:
    """The player after s in play order."""
    order = r.order
    return order[(order.index(s) + 1) % len(order)]
