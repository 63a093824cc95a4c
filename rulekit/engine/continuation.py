"""A yaku made, and what follows: stop or continue, continuers beaten, outstopped or left
unfinished when the round ends, liability for a fed yaku, and the hands running out.

Each IR option maps to a handler in a table below (PAID, OTHER_STOPS, UNFINISHED); a test
checks that every option the IR allows has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING

from rulekit.cards import bits
from rulekit.engine import asking, ledger, riders
from rulekit.engine.ledger import half, share
from rulekit.engine.offers import BOTH, compile_offers, is_offered, offered
from rulekit.engine.scoring import finish
from rulekit.engine.state import DECIDE, RoundState

if TYPE_CHECKING:
    from rulekit.engine.tables import CompiledRules, CompiledTable

Entries = Sequence[int]  # yaku entries (valued on the maker's pile when a payment needs it)


def made(r: RoundState, p: int, counted: tuple[int, ...], value: int) -> None:
    """p's yaku grew to `counted` (worth `value`): list and pay them as the rules say, settle
    the bets of players he beat, then p stops or may continue."""
    pl = plan(r)
    previous = r.made_entries[p]
    declared = r.declared_value[p]
    delta = value - declared if value > declared else 0  # over what was last made or paid
    r.made_value[p] = value
    if value > declared:
        r.declared_value[p] = value
    r.made_entries[p] = counted
    new = (
        ([i for i in counted if i not in previous] if previous else list(counted))
        if pl.needs_new
        else []  # (listed only: a stop's list ignores it)
    )
    pl.paid.listed(r, p, counted, new)
    maker = r.last_maker
    r.last_maker = p
    if r.continuing[p]:
        r.continue_wins[p] += 1
        r.continuing[p] = False  # a new yaku settles his own bet
    if not pl.ends_round:
        if pl.paid_in_play:  # paid as made, the round playing on (no stop, no continue)
            pay_yaku(r, p, new, delta)
        if pl.wins and not pl.wins.isdisjoint(counted):  # a yaku that wins the round at once
            r.won_at_once = p  # the hands are counted now, and the round is his
            end_of_hands(r)
        return
    if pl.settles_when_made:
        _settle_made(r, p, pl, new, delta)
    if pl.wins and not pl.wins.isdisjoint(counted):  # a yaku that wins the round at once
        stop(r, p)
        return
    if pl.choice and not is_offered(r, p, r.captured[p], "choice", pl.choice):
        # below the choice's condition: he neither stops nor continues, play goes on, and the
        # hands running out give him no win (the last maker stays who was last offered it)
        r.last_maker = maker
        return
    if pl.allowed:
        hands = r.hands
        skips = r.skips
        for s in r.order:
            # somebody still holds a card (or a play to skip after a bomb): p chooses what he
            # is offered
            if hands[s] or (skips and skips[s]):
                if pl.offers:
                    left = offered(r, p, r.captured[p], pl.offers, ("stop", "continue"))
                    if left != BOTH:
                        ALONE[left](r, p)
                        return
                r.phase = DECIDE
                r.current = p
                return
    stop(r, p)


def _continue_alone(r: RoundState, p: int) -> None:
    """Continuing is all p is offered: he continues (play goes on, as after a continue)."""
    r.continuing[p] = True
    r.continues[p] += 1
    r.first_continue.setdefault(p, r.turn)


def _settle_made(r: RoundState, p: int, pl: Plan, new: list[int], delta: int) -> None:
    """What a yaku made settles at once (a round it ends, or offers to end): a beaten
    continuer, the liable feeders, and what is paid when made."""
    # (nobody to settle unless the rules settle a beaten continuer, and somebody continues)
    cover = _beaten(r, p) if pl.beats and True in r.continuing else None
    if pl.liable:  # (liable_feeder finds nobody for an entry that is not liable)
        for i in new:
            feeder = liable_feeder(r, p, i)
            if feeder is not None:
                r.liable_for[(p, i)] = feeder
    paid = pl.paid
    if cover is not None:
        # The beaten continuer pays the yaku that beat him, for every payer, at once: his
        # loss is settled whatever the maker does next; the maker's later yaku are paid as
        # usual (when made, or for what is left when he stops).
        pay_yaku(r, p, new, delta, cover=cover)
        paid.covered(r, p, new, delta)
    elif paid.when_made is not _nothing:  # (paid when he stops: nothing to reckon now)
        paid.when_made(r, p, new, delta)


class Plan:
    """The rule file's continuation options, decided once (CompiledRules.continuation_plan):
    the handlers, and which of made's steps can happen at all, so that a yaku made in a round
    whose rules settle nothing when made (paid at the stop, no beaten continuer, no liability)
    only lists it and offers the choice."""

    __slots__ = (
        "allowed",
        "bar",
        "beats",
        "choice",
        "details",
        "ends_round",
        "liable",
        "listed",
        "needs_new",
        "offers",
        "paid",
        "paid_in_play",
        "per_continue",
        "per_yaku",
        "plain_pay",
        "settles_when_made",
        "wins",
    )

    def __init__(self, c: CompiledRules) -> None:
        cont = c.rules.continuation
        self.paid = PAID[cont.paid]
        self.allowed = cont.allowed
        self.ends_round = cont.ends_round
        self.paid_in_play = cont.paid_in_play
        self.per_yaku = cont.multiplier_per_yaku
        self.per_continue = cont.per_continue
        self.wins = c.wins_round  # the yaku that end the round at once, won by their maker
        self.beats = cont.refund_half or cont.pay_for_all or cont.beaten_forfeit
        self.liable = bool(c.liable)
        self.settles_when_made = self.beats or self.liable or self.paid.when_made is not _nothing
        # the new entries are used by all but a stop's list (which lists all it counts)
        self.needs_new = self.paid is not PAID["stop"] or self.beats or self.liable
        if not self.ends_round:
            self.needs_new = self.needs_new or self.paid_in_play
        # pay_made's payments without a split, a flat entry or a factor (pay_yaku's simplest)
        table = c.yaku
        self.plain_pay = (
            table is not None and not table.split and not table.any_flat and not c.any_factor
        )
        # kept per set of entries counted (as the table keeps its own): the names a stop lists,
        # and the detail of what a stop pays
        self.listed: dict[tuple[int, ...], tuple[str, ...]] = {}
        self.details: dict[tuple[int, ...], str] = {}
        # the conditions on the choice's options, each with its compiled test (None: none)
        self.bar = AFTER_LOSS[cont.after_loss]
        # (the choice as a whole, `choice only if`: tested apart, before them)
        self.offers = compile_offers([o for o in cont.offers if o.option != "choice"], c.index)
        self.choice = tuple(o for o in cont.offers if o.option == "choice")


def plan(r: RoundState) -> Plan:
    """The round's rule file's Plan (made on first use, then kept on the compiled rules)."""
    pl: Plan | None = r.c.continuation_plan
    if pl is None:
        pl = r.c.continuation_plan = Plan(r.c)
    return pl


def changed(r: RoundState, p: int, counted: tuple[int, ...], value: int) -> None:
    """p's yaku changed without a rise over what he last made: one was lost (a `none of`
    condition no longer holds). What he has made now is what a stop, the count or a half is
    reckoned on; what was paid stays paid, and only a rise over what was last made is a new
    yaku (a new stop-or-continue choice)."""
    r.made_value[p] = value
    r.made_entries[p] = counted
    PAID[r.rules.continuation.paid].listed(r, p, counted, [])


def _beaten(r: RoundState, p: int) -> int | None:
    """Settle the players p's yaku beat after they continued; the one who covers it, if any."""
    cont = r.rules.continuation
    if not (cont.refund_half or cont.pay_for_all or cont.beaten_forfeit):
        return None
    cover = None
    for q in r.order:
        if q == p or not r.continuing[q]:
            continue
        r.continuing[q] = False
        if cont.refund_half and r.stake[q]:
            flat = r.stake_flat[q]
            for o in r.order:
                if o != q:
                    detail = "beaten after continuing"
                    ledger.pay(r, q, o, half(r.stake[q] - flat), "refund", detail)
                    ledger.pay(r, q, o, half(flat), "refund", detail, flat=True)
        if cont.pay_for_all:
            cover = q
        if cont.beaten_forfeit:
            r.forfeited[q] = True
    return cover


def liable_feeder(r: RoundState, p: int, i: int) -> int | None:
    """Who fed p the card that completed yaku entry i this turn, holding enough cards."""
    if i not in r.c.liable or r.rules.liability is None:
        return None
    relevant = r.fed_this_turn & r.c.yaku_cards[i]
    feeder = None
    for b in bits(relevant):
        seat, held = r.feeders.get(b, (p, 0))
        if seat != p and held >= r.rules.liability.min_hand:
            feeder = seat
    return feeder


def pay_yaku(
    r: RoundState,
    p: int,
    entries: Entries,
    total: int,
    factor: int = 1,
    cover: int | None = None,
) -> None:
    """Pay `total` (base) for p's yaku: by a beaten continuer (`cover`) for every payer, by a
    liable feeder for the entries he fed, otherwise by each other player (a split table: the
    value is the total, shared by the payers); flat entries are not multiplied by the field."""
    table = r.c.yaku
    assert table is not None
    others = [q for q in r.order if q != p]
    payers = 1 if table.split else len(others)  # how many payers one pays for
    remaining = total
    rest = entries  # the entries each other player pays (all, without a cover or a feeder)
    if cover is not None or r.liable_for:
        x = r.captured[p]
        rest = []
        for i in entries:
            payer = cover if cover is not None else r.liable_for.get((p, i))
            if payer is None:
                rest.append(i)
            else:
                reason = "penalty" if cover is not None else "liability"
                part = min(table.value(i, x), remaining)
                names = table.names
                ledger.pay(
                    r, payer, p, part * payers * factor, reason, names[i], part, table.flat[i]
                )
                remaining -= part
    if remaining > 0:
        detail = _detail(table, entries)
        flat = _flat_part(r, p, rest, remaining) if table.any_flat else 0
        if cover is not None:
            ledger.pay(
                r, cover, p, (remaining - flat) * payers * factor, "penalty", detail, remaining
            )
            ledger.pay(r, cover, p, flat * payers * factor, "penalty", detail, remaining, True)
        else:
            base, flat = remaining * factor, flat * factor
            ledger.pay_parts(r, others, p, base, flat, "yaku", detail, table.split, remaining)
    # What a continue bets: what each payer pays for these yaku (its flat part apart), also
    # when a beaten continuer paid them all: a sage after them refunds half of their value.
    ways = len(others) if table.split and others else 1
    r.stake[p] = total * factor if ways == 1 else share(total * factor, ways)
    flat = _flat_part(r, p, entries, total) if table.any_flat else 0
    r.stake_flat[p] = share(flat * factor, ways) if flat else 0


def _detail(table: CompiledTable, entries: Entries) -> str:
    """The names of the entries paid for, as a payment's detail."""
    if not entries:
        return "yaku"
    if len(entries) == 1:
        return table.names[entries[0]]
    names = table.names
    return ", ".join([names[i] for i in entries])


def _flat_part(r: RoundState, p: int, entries: Entries, remaining: int) -> int:
    """The part of `remaining` (what is left to pay after a liable feeder or a beaten continuer
    paid theirs) that the flat ones of `entries` (those not paid yet) make up: entries take
    their values in order; what is left beyond them (a bonus grown) is flat when every yaku p
    made is."""
    table = r.c.yaku
    assert table is not None
    x = r.captured[p]
    flat = 0
    left = remaining
    for i in entries:
        part = min(table.value(i, x), left)
        left -= part
        if table.flat[i]:
            flat += part
    if left and all(table.flat[i] for i in r.made_entries[p]):
        flat += left
    return flat


def pay_made(r: RoundState, p: int) -> None:
    """Pay everything p has made and not yet been paid (when he stops, or the round ends),
    with `+N per continue` for each continue he called added before every multiplier."""
    table = r.c.yaku
    assert table is not None
    done, base = r.prepaid.get(p, _NONE_PREPAID)
    if r.made_value[p] <= base:
        return
    pl = plan(r)
    factor = r.continues[p] + 1 if pl.per_yaku else 1
    bonus = pl.per_continue * r.continues[p]
    made = r.made_entries[p]
    if pl.plain_pay and not done and not r.liable_for:
        _pay_plainly(r, p, pl, made, (r.made_value[p] + bonus) * factor)
        return
    entries = [i for i in made if i not in done] if done else made
    pay_yaku(r, p, entries, r.made_value[p] - base + bonus, factor)


def _pay_plainly(r: RoundState, p: int, pl: Plan, made: tuple[int, ...], base: int) -> None:
    """pay_yaku(r, p, made, value, factor), `base` = value * factor > 0, when nothing was paid
    before, no feeder is liable, and the table has no split, no flat entry and no factor: the
    same entries (each other player pays base times the field) and the same stake, without the
    general reckoning (tests/test_continuation_plan.py holds the two to the same)."""
    detail = pl.details.get(made)
    if detail is None:
        table = r.c.yaku
        assert table is not None
        detail = pl.details[made] = _detail(table, made)
    mult = r.multiplier
    amount = base * mult
    add = r.ledger.append
    no = r.round_no
    for q in r.order:
        if q != p:
            add(ledger.entry(no, q, p, amount, "yaku", detail, mult, base))
    r.stake[p] = base
    r.stake_flat[p] = 0


_NONE_PREPAID: tuple[tuple[int, ...], int] = ((), 0)  # nothing paid before the stop


def continue_play(r: RoundState) -> None:
    """The maker continues: his bet is on (play goes on with the next turn)."""
    p = r.current
    r.continuing[p] = True
    r.continues[p] += 1
    r.first_continue.setdefault(p, r.turn)


def stop(r: RoundState, p: int) -> None:
    """p stops: he is paid as the rules say, the continuers are settled, and he wins (an
    asked owner first says how his pile reads: engine/asking.py)."""
    if r.asked and asking.waits(r, p, ENDINGS):
        return
    continuing = r.continuing
    continuing[p] = False
    start = len(r.ledger)
    plan(r).paid.at_stop(r, p)
    OUTSTOPPED_PAYS[r.rules.continuation.outstopped_pays](r, p, start)
    if r.refuser >= 0:  # (a draw offered and refused: ir.DrawOffer.refuser_pays)
        offer = r.rules.draw_offer
        assert offer is not None
        REFUSER_PAYS[offer.refuser_pays](r, p, start)
    if True in continuing:  # (close_continuations has nobody to settle otherwise)
        close_continuations(r, stopper=p)
    r.ended_by = "yaku"
    finish(r, p)


def close_continuations(r: RoundState, stopper: int | None = None) -> None:
    """The round ends (by `stopper`'s stop, or with the hands) while players who continued
    made no new yaku since."""
    if True not in r.continuing:  # (nobody to settle)
        return
    cont = r.rules.continuation
    outstopped = OTHER_STOPS[cont.if_other_stops] if stopper is not None else None
    unfinished = UNFINISHED[cont.if_unfinished]
    for q in r.order:
        if not r.continuing[q]:
            continue
        r.continuing[q] = False
        (outstopped or unfinished)(r, q)


def end_of_hands(r: RoundState) -> None:
    """Nobody holds a card: the wild card collects its month, the last card of its own month
    goes to the holder of the others, an asked owner says how his pile reads
    (engine/asking.py), then count_hands."""
    wild = r.rules.wild
    if r.wild_owner >= 0 and wild is not None and wild.collects_month:
        got = r.field & r.wild_month
        r.field &= ~got
        if r.rides:  # (a stack of its month: its riders with it, riders.py)
            r.field, gone = riders.follow(r, r.field)
            got |= gone
        r.captured[r.wild_owner] |= got
    if wild is not None and wild.last_to_holder:
        last_to_holder(r, r.ix.bit[wild.card])
    if r.asked and asking.waits(r, asking.HANDS, ENDINGS):
        return
    count_hands(r)


def last_to_holder(r: RoundState, w: int) -> None:
    """`the last of its month goes to the holder of the other two`: the one card of the wild
    card's month left on the field (its month's others, not the wild card, all captured) goes
    to the player who captured them all."""
    others = r.months[w] & ~(1 << w)
    left = r.field & others
    if left.bit_count() != 1:
        return
    for q in r.order:
        if r.captured[q] & others == others ^ left:
            r.field ^= left
            r.captured[q] |= left
            return


def count_hands(r: RoundState) -> None:
    """The piles are final (end_of_hands): the continuers are settled, the last maker wins
    unless he forfeited, and the hands are counted when the rules say."""
    cont = r.rules.continuation
    winner = r.won_at_once
    if r.last_maker is not None and cont.ends_round:
        close_continuations(r)
        if not r.forfeited[r.last_maker] and r.made_value[r.last_maker] > 0:
            winner = r.last_maker  # unless he forfeited, or lost every yaku he made
    counted = r.last_maker is None or not r.rules.count.only_without_yaku or not cont.ends_round
    finish(r, winner, counted)
    if r.winner is None:
        r.ended_by = "draw"
    else:
        by_yaku = cont.ends_round or r.won_at_once is not None
        r.ended_by = "yaku" if r.winner == r.last_maker and by_yaku else "count"


# ---------------------------------------------------------------- the handlers


@dataclass(frozen=True)
class _Paid:
    """When yaku are paid (ir.Continuation.paid): what is listed as made, what is paid when
    made, after a beaten continuer covered them, and when the maker stops."""

    listed: Callable[[RoundState, int, tuple[int, ...], list[int]], None]
    when_made: Callable[[RoundState, int, Entries, int], None]
    covered: Callable[[RoundState, int, Entries, int], None]
    at_stop: Callable[[RoundState, int], None]


def _list_paid_so_far(r: RoundState, p: int, counted: tuple[int, ...], new: list[int]) -> None:
    table = r.c.yaku
    assert table is not None
    r.yaku_made.setdefault(p, []).extend(table.names[i] for i in new)


def _list_stop_pays(r: RoundState, p: int, counted: tuple[int, ...], new: list[int]) -> None:
    """What a stop would be paid for (a yaku outgrown is gone)."""
    listed = plan(r).listed
    names = listed.get(counted)
    if names is None:
        table = r.c.yaku
        assert table is not None
        names = listed[counted] = tuple([table.names[i] for i in counted])
    r.yaku_made[p] = list(names)  # (its own list: the count may add to it)


def _pay_new(r: RoundState, p: int, entries: Entries, delta: int) -> None:
    pay_yaku(r, p, entries, delta)


def _note_prepaid(r: RoundState, p: int, entries: Entries, delta: int) -> None:
    """The maker is paid the rest when he stops."""
    before, base = r.prepaid.get(p, ((), 0))
    r.prepaid[p] = ((*before, *entries), base + delta)


def _nothing(r: RoundState, *args: object) -> None:
    return None


def _forfeit(r: RoundState, q: int) -> None:
    r.forfeited[q] = True


def _keep(r: RoundState, q: int) -> None:
    """Paid as if he had stopped (nothing more when yaku are paid as made)."""
    PAID[r.rules.continuation.paid].at_stop(r, q)


def _pay_half(r: RoundState, q: int) -> None:
    """q pays each other player half his yaku (a split table: half, shared between them)."""
    table = r.c.yaku
    assert table is not None
    others = [o for o in r.order if o != q]
    ways = len(others) if table.split else 1
    made_flat = _made_flat(r, q)
    field = share(half(r.made_value[q] - made_flat), ways)
    flat = share(half(made_flat), ways)
    detail = "continued without a new yaku"
    for o in others:
        ledger.pay(r, q, o, field, "penalty", detail)
        ledger.pay(r, q, o, flat, "penalty", detail, flat=True)


def _earn_half(r: RoundState, q: int) -> None:
    """Each other player pays q half his yaku (a split table: half, shared between them)."""
    table = r.c.yaku
    assert table is not None
    factor = r.continues[q] + 1 if r.rules.continuation.multiplier_per_yaku else 1
    base = half(r.made_value[q]) * factor
    flat = half(_made_flat(r, q)) * factor
    detail = "continued without a new yaku"
    ledger.pay_parts(r, list(r.order), q, base, flat, "half", detail, table.split)


def _made_flat(r: RoundState, q: int) -> int:
    """The part of q's yaku made of flat entries."""
    table = r.c.yaku
    assert table is not None
    if not table.any_flat:
        return 0
    x = r.captured[q]
    return sum(table.value(i, x) for i in r.made_entries[q] if table.flat[i])


def bar_declared(r: RoundState, p: int) -> int:
    """A new yaku must beat the value p last declared (made), even after he lost one."""
    return r.declared_value[p]


def bar_left(r: RoundState, p: int) -> int:
    """A new yaku must beat what p has made now: after a yaku lost, what is left of it."""
    return r.made_value[p]


# ir.Continuation.after_loss -> the value a yaku must beat to be a new one (a new choice)
AFTER_LOSS: dict[str, Callable[[RoundState, int], int]] = {
    "declared": bar_declared,
    "left": bar_left,
}
# ir.Offer.option (of the stop-or-continue choice) -> what p does when that option alone is
# offered (the choice is not asked)
ALONE: dict[str, Callable[[RoundState, int], None]] = {
    "stop": stop,
    "continue": _continue_alone,
}
# ir.Continuation.paid -> when yaku are paid
PAID: dict[str, _Paid] = {
    "made": _Paid(_list_paid_so_far, _pay_new, _nothing, _nothing),
    "stop": _Paid(_list_stop_pays, _nothing, _note_prepaid, pay_made),
}
# ir.Continuation.if_other_stops -> an outstopped continuer (None: as if_unfinished)
OTHER_STOPS: dict[str | None, Callable[[RoundState, int], None] | None] = {
    None: None,
    "keep": _keep,
    "forfeit": _forfeit,
}


def _each_his_own(r: RoundState, p: int, start: int) -> None:
    return None


def _first_continuer_pays(r: RoundState, p: int, start: int) -> None:
    """The first of the others who continued in the round pays, for every payer, what p's
    stop was paid (the ledger's entries from `start`): `if another stops first the first
    continuer pays for all`."""
    firsts = [(turn, q) for q, turn in r.first_continue.items() if q != p]
    if not firsts:
        return
    liable = min(firsts)[1]
    entries = r.ledger
    for k in range(start, len(entries)):
        e = entries[k]
        if e.payee == p and e.payer != liable and e.reason == "yaku":
            entries[k] = dc_replace(e, payer=liable, reason="liability")


# ir.Continuation.outstopped_pays -> who pays a stop's yaku for the others (from the ledger's
# entry it starts at)
OUTSTOPPED_PAYS: dict[str, Callable[[RoundState, int, int], None]] = {
    "nobody": _each_his_own,
    "first": _first_continuer_pays,
}


def _nobody(r: RoundState, p: int, start: int) -> None:
    return None


def _refuser_pays(r: RoundState, p: int, start: int) -> None:
    """`the refuser pays for all if another wins`: the first who refused pays, for every payer,
    what p's stop was paid (the ledger from `start`), unless he is p, or a continuer already
    pays for all (`if another stops first the first continuer pays for all` comes first)."""
    q = r.refuser
    if q < 0 or q == p:
        return
    if r.rules.continuation.outstopped_pays == "first" and any(c != p for c in r.first_continue):
        return  # a continuer pays for all
    entries = r.ledger
    for k in range(start, len(entries)):
        e = entries[k]
        if e.payee == p and e.payer != q and e.reason == "yaku":
            entries[k] = dc_replace(e, payer=q, reason="liability")


# ir.DrawOffer.refuser_pays (a draw offered: engine/draw_offer.py) -> who pays a stop's yaku
# for the others after a refusal (from the ledger's entry it starts at)
REFUSER_PAYS: dict[str, Callable[[RoundState, int, int], None]] = {
    "nothing": _nobody,
    "for_all": _refuser_pays,
}


# ir.Continuation.if_unfinished -> a continuer when the round ends without his new yaku
UNFINISHED: dict[str, Callable[[RoundState, int], None]] = {
    "keep": _keep,
    "pay_half": _pay_half,
    "earn_half": _earn_half,
    "forfeit": _forfeit,
}
# what the count asked at (engine/asking.py) runs once answered
ENDINGS = asking.Endings(stop, count_hands, changed)
