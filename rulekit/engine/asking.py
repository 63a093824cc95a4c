"""The owner's choice asked at the count (`treat CARDS as CLASS or N CLASSES, owner's choice`).

Wherever a pile's yaku are counted, the engine reads it the way worth more to its owner
(engine/tables.ChoiceTable). Bots, simulations and the batch kernel keep that reading: the
count is the round's last step, so the reading worth more is exactly the best answer, and
asking a bot could change nothing. A seat played by a person may be asked instead: the driver
that seats him (the terminal's play loop, the web game, a scenario that states his answer)
marks him (Round.ask_readings). When the round's yaku are counted for payment (at a stop, or
when the hands run out) and before anything is paid, the round waits in the COUNT phase for
each asked owner in play order whose pile holds the choice's cards and whose two readings differ
in what the count pays him. His answer (READ_FIRST or READ_SECOND, the one that pays him more
offered first) pins his pile's reading (CompiledRules.read_as: the round counts with a copy of
its rules whose yaku table reads his pile his way); what he made in play is then counted his
way (continuation.changed: what was already paid stays paid). A copy of a round (search, the
bots' rollouts) is never asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulekit.engine.actions import READ_FIRST, READ_SECOND, reading_words
from rulekit.engine.ledger import Amount, net
from rulekit.engine.state import COUNT, RoundState
from rulekit.engine.tables import ChoiceTable

HANDS = -1  # count_ending: the hands ran out (a seat: his stop)
NOT_WAITING = -2  # count_ending: the count waits on nobody


@dataclass(frozen=True)
class Endings:
    """What the count runs once answered, and how what a player made is counted again: the
    round's endings (engine/continuation.ENDINGS gives its own; it imports this module)."""

    stop: Callable[[RoundState, int], None]  # a seat's stop
    hands: Callable[[RoundState], None]  # the hands' count (the hands ran out)
    changed: Callable[[RoundState, int, tuple[int, ...], int], None]  # what he made, re-read


@dataclass(frozen=True)
class Reading:
    """One answer offered to the asked owner, and what the count makes of it."""

    action: int  # READ_FIRST or READ_SECOND
    second: bool  # read the second way
    words: str  # `CARDS as N CLASSES`, the choice's cards in his pile named
    yaku: tuple[str, ...]  # his yaku, read this way
    worth: int  # what his counted yaku are worth read this way (before any multiplier)
    paid: Amount  # what the count pays him read this way (his net of its payments)


def waits(r: RoundState, ending: int, endings: Endings) -> bool:
    """Whether the round waits in COUNT for an asked owner's answer before `ending` (a seat's
    stop, or HANDS) is counted; called only when a seat is asked. When nobody need answer,
    the asking is over and the ending goes on as for everyone."""
    table = r.c.yaku
    if isinstance(table, ChoiceTable):
        choice = table.choice
        r.to_ask = [s for s in r.order if r.asked >> s & 1 and r.captured[s] & choice]
        r.count_ending = ending
        if _ask_next(r, endings):
            return True
    _close(r)
    return False


def readings(r: RoundState, endings: Endings) -> list[Reading]:
    """The answers offered to the owner asked now (r.current in COUNT), the one the count pays
    him more first (the first way when they pay alike), each with what it makes."""
    seat = r.to_ask[0]
    out = [_outcome(r, seat, second, endings) for second in (False, True)]
    out.sort(key=lambda o: -o.paid)  # (stable: the first way first on a tie)
    return out


def answer(r: RoundState, action: int, endings: Endings) -> None:
    """The asked owner's answer (one of r.count_offer: Round.apply checks it); the next asked
    owner is asked, or the count runs with every answer."""
    r.readings[r.current] = action == READ_SECOND
    r.to_ask.pop(0)
    if r.asked and _ask_next(r, endings):  # (a copy, never asked: the others' best way)
        return
    ending = r.count_ending
    _close(r)
    _pin(r, r.readings, endings)
    _run(r, ending, endings)


def _ask_next(r: RoundState, endings: Endings) -> bool:
    """Ask the next owner whose readings differ in what the count pays him (COUNT); False
    when nobody is left to ask."""
    while r.to_ask:
        offer = readings(r, endings)
        if offer[0].paid != offer[1].paid:
            r.count_offer = [o.action for o in offer]
            r.phase = COUNT
            r.current = r.to_ask[0]
            return True
        r.to_ask.pop(0)
    return False


def _outcome(r: RoundState, seat: int, second: bool, endings: Endings) -> Reading:
    """What the count makes of `seat`'s pile read the `second` way (the answers given so far
    standing): played out on a copy of the round."""
    twin = r.copy()  # (never asked)
    _pin(twin, {**r.readings, seat: second}, endings)
    _run(twin, r.count_ending, endings)
    table = twin.c.yaku
    assert isinstance(table, ChoiceTable)
    x = r.captured[seat]
    held = r.ix.ids_of(x & table.choice)
    choice = r.rules.owners_choice
    assert choice is not None
    return Reading(
        READ_SECOND if second else READ_FIRST,
        second,
        reading_words(choice, r.ix, held, second),
        tuple(twin.yaku_made.get(seat, ())),
        table.worths(x)[second],
        net(twin.ledger, twin.seated)[seat] - net(r.ledger, r.seated)[seat],
    )


def _pin(r: RoundState, answers: dict[int, bool], endings: Endings) -> None:
    """The round counts with the answers (pile -> read the second way); what each who answered
    made in play is counted his way."""
    captured = r.captured
    r.c = r.c.read_as({captured[s]: second for s, second in answers.items()})
    table = r.c.yaku
    assert table is not None
    for s in answers:
        if not (r.made_entries[s] or r.made_value[s]):
            continue  # (he made nothing in play: the count reads his pile itself)
        x = captured[s]
        counted, value = table.counted_value(table.match_play(x), x)
        if (counted, value) != (r.made_entries[s], r.made_value[s]):
            endings.changed(r, s, counted, value)


def _run(r: RoundState, ending: int, endings: Endings) -> None:
    """The ending the count waited on: the hands' count, or a seat's stop."""
    if ending == HANDS:
        endings.hands(r)
    else:
        endings.stop(r, ending)


def _close(r: RoundState) -> None:
    """The asking is over for the round (its count is its last step)."""
    r.asked = 0
    r.count_ending = NOT_WAITING
    r.to_ask = []
    r.count_offer = []
