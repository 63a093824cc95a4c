"""A round's state: one dataclass of its cards, turn and accounts, with a copy made from its
fields.

The mechanics (deal, setup, capture, continuation, scoring, ledger) are functions over this
state; `Round` is the facade that runs them. `copy()` is generated from the field types: a list
or dict field is copied, a dict of lists one level deeper, a field marked `shared` (read-only for
the whole round: the rules, the card index) is shared, so a new container field can never be
forgotten by the copy (search and observations play out copies).
"""

from __future__ import annotations

import dataclasses as dc
import types
import typing
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import ClassVar

from rulekit.cards import CardIndex
from rulekit.engine.payments import Amount, Payment
from rulekit.engine.tables import CompiledRules
from rulekit.ir import Ruleset


class Phase(IntEnum):
    FOLD = 0
    PLAY = 1
    TAKE = 2
    DECIDE = 3
    DONE = 4
    SWAP = 5
    DECLARE = 6
    COUNT = 7  # an asked owner chooses how his pile reads the owner's choice (engine/asking.py)
    CLAIM = 8  # the dealer may take cards of a month laid on the field and play second
    SHOW = 9  # a player may show a teyaku whose cards the others may capture, or keep it hidden
    ANSWER = 10  # a player answers a draw offered (engine/draw_offer.py): accept or refuse


# The hot path compares plain ints (an IntEnum comparison costs a method call).
FOLD, PLAY, TAKE, DECIDE, DONE, SWAP, DECLARE, COUNT, CLAIM, SHOW, ANSWER = (int(p) for p in Phase)

JOKER_ID = 0  # the joker in a written-down deal (a hand only; no card of a deck has id 0)


@dataclass(frozen=True)
class StackedDeal:
    """A deal written down: card ids per seat (JOKER_ID for the joker of a large table), the
    field, the stock from the top, and (when players fold) the stock after the folded hands are
    shuffled back in."""

    hands: tuple[tuple[int, ...], ...]
    field: tuple[int, ...]
    stock: tuple[int, ...]
    restock: tuple[int, ...] | None = None


SHARED = {"shared": True}  # a field read-only for the whole round: a copy shares it


@dataclass(eq=False)
class RoundState:
    """Everything a round knows. Card sets are bit masks; the stock is a list of card bits with
    its top at the end."""

    # ---- fixed for the round (shared by copies)
    c: CompiledRules = dc.field(metadata=SHARED)
    rules: Ruleset = dc.field(metadata=SHARED)
    ix: CardIndex = dc.field(metadata=SHARED)
    seated: int = dc.field(metadata=SHARED)
    dealer: int = dc.field(metadata=SHARED)
    round_no: int = dc.field(metadata=SHARED)
    carry_in: int = dc.field(metadata=SHARED)
    # the game so far: drawn rounds in a row just before this one, and the seats that sit this
    # round out by the last round's result (bits; -1: no last round, setup.SIT_OUT's own rule)
    draws_before: int = dc.field(metadata=SHARED)
    sitters_in: int = dc.field(metadata=SHARED)
    _setup_seed: str = dc.field(metadata=SHARED)  # the fold reshuffle's RNG, made when needed
    hand_size: int = dc.field(metadata=SHARED)
    field_size: int = dc.field(metadata=SHARED)
    joker_bit: int = dc.field(metadata=SHARED)  # -1: no joker at this table
    months: list[int] = dc.field(metadata=SHARED)  # the month mask of each card bit
    track_feeders: bool = dc.field(metadata=SHARED)
    wild_bit: int = dc.field(metadata=SHARED)
    hiki: bool = dc.field(metadata=SHARED)
    teams: list[list[int]] | None = dc.field(metadata=SHARED)
    stacked: StackedDeal | None = dc.field(metadata=SHARED)
    # ---- cards
    hands: list[int] = dc.field(default_factory=list)
    captured: list[int] = dc.field(default_factory=list)
    field: int = 0
    stock: list[int] = dc.field(default_factory=list)  # top at the end
    stacked_field: int = 0  # a written-down deal's field and restock, as bits
    stacked_restock: tuple[int, ...] | None = None
    field_laid: bool = False
    laid_field: int = 0
    drawn: int = -1  # the drawn card that matched two field cards (TAKE)
    initial_hands: list[int] = dc.field(default_factory=list)  # the deal as dealt (recordings)
    initial_stock: list[int] = dc.field(default_factory=list)
    restocked: list[int] | None = None
    # ---- setup
    steps: list[str] = dc.field(default_factory=list)
    step: int = 0
    folded: list[bool] = dc.field(default_factory=list)
    fold_queue: list[int] = dc.field(default_factory=list)
    fold_at: int = 0
    joined: int = 0
    fold_fees: list[tuple[int, int, bool]] = dc.field(
        default_factory=list
    )  # payer, base, voluntary
    compensations: list[tuple[int, int]] = dc.field(default_factory=list)  # folder, amount
    declarer: int = -1  # who made the rule file's declaration (-1: nobody), the first of them
    declared: int = 0  # every seat that made it, as bits (several: `by any player`)
    declare_at: int = 0  # the next of those who may make it to be asked (setup._declare)
    declare_payers: list[int] = dc.field(default_factory=list)  # who folded after it, in turn
    claimed: bool = (
        False  # the dealer took his claim of the field (ir.DealerClaim): he plays second
    )
    # the teyaku shown or kept hidden (ir.Yaku.shown): the next to be asked (setup._show),
    # the seats that showed theirs (bits), and the shown cards still in a hand (the others may
    # capture them as field cards: capture.shown_to)
    show_at: int = 0
    showed: int = 0
    exposed: int = 0
    # payee, payers, value, its flat part, name: paid once the field is laid
    pending_teyaku: list[tuple[int, tuple[int, ...], int, int, str]] = dc.field(
        default_factory=list
    )
    teyaku_counted: dict[int, tuple[int, ...]] = dc.field(default_factory=dict)
    teyaku_revealed: dict[int, int] = dc.field(default_factory=dict)
    dealt_hands: dict[int, int] = dc.field(default_factory=dict)
    # ---- turns
    phase: int = PLAY
    current: int = 0
    order: list[int] = dc.field(default_factory=list)
    pos: int = 0  # the current player's index in `order`
    turn: int = 0
    total_turns: int = 0
    turn_got: int = 0
    fed_this_turn: int = 0
    feeders: dict[int, tuple[int, int]] = dc.field(default_factory=dict)  # bit -> (seat, held)
    # what the turn's two cards did, where the rule file has events (engine/events.py): the
    # hand card laid alone on the field (its bit, or 0), the field cards it took, the field
    # cards the drawn card took, the three cards stacked on the field (0: none)
    turn_laid: int = 0
    turn_played_took: int = 0
    turn_drawn_took: int = 0
    turn_stacked: int = 0
    turn_whole: int = 0  # the month the play took whole (a hiki or a bomb), or 0
    # bonus cards riding a stack on the field (engine/riders.py): (its bit, the stack's cards)
    rides: tuple[tuple[int, int], ...] = ()
    rides_made: int = 0  # stacks bonus cards were left riding (sim.exercise)
    skips: list[int] = dc.field(default_factory=list)  # plays each seat may still skip (bomb)
    event_factor: list[int] = dc.field(default_factory=list)  # each seat's events' factors
    # seat -> the times the declaration's factor counts for him (ir.Declaration.factor_per_month)
    declared_times: dict[int, int] = dc.field(default_factory=dict)
    # seat -> the turn of his first continue in the round (ir.Continuation.outstopped_pays)
    first_continue: dict[int, int] = dc.field(default_factory=dict)
    # (seat, event index) -> the times it happened to him (ir.Event.time, in_a_row, doubling)
    event_times: dict[tuple[int, int], int] = dc.field(default_factory=dict)
    events_happened: int = 0  # times an event of the rule file happened (sim.exercise)
    # a draw offered (engine/draw_offer.py): the seats who offered (bits; their hands shown),
    # the last offerer, and the first who refused (-1: none)
    offered: int = 0
    offerer: int = -1
    refuser: int = -1
    wild_owner: int = -1
    wild_month: int = 0  # the month mask of the card the wild card took
    # ---- yaku and continuation
    hits: list[int] = dc.field(default_factory=list)  # the yaku table's matches at the last check
    made_value: list[int] = dc.field(default_factory=list)  # his yaku now (may drop if lost)
    declared_value: list[int] = dc.field(default_factory=list)  # when last made: a rise's bar
    made_entries: list[tuple[int, ...]] = dc.field(default_factory=list)
    stake: list[Amount] = dc.field(default_factory=list)  # what a continue bets: the yaku last paid
    stake_flat: list[Amount] = dc.field(default_factory=list)  # its part paid as written
    continuing: list[bool] = dc.field(default_factory=list)
    continues: list[int] = dc.field(default_factory=list)
    continue_wins: list[int] = dc.field(default_factory=list)  # continues followed by a yaku
    forfeited: list[bool] = dc.field(default_factory=list)
    prepaid: dict[int, tuple[tuple[int, ...], int]] = dc.field(default_factory=dict)
    liable_for: dict[tuple[int, int], int] = dc.field(default_factory=dict)  # (maker, entry)
    yaku_made: dict[int, list[str]] = dc.field(default_factory=dict)
    last_maker: int | None = None
    # a yaku that wins the round at once where yaku do not end it: its maker (the hands are
    # counted at once, and the round is his)
    won_at_once: int | None = None
    # ---- the owner's choice asked at the count (engine/asking.py)
    asked: int = 0  # the seats asked (bits), as their driver says; a copy is never asked
    count_ending: int = -2  # the ending the count waits on: a seat's stop, -1 the hands out
    to_ask: list[int] = dc.field(default_factory=list)  # asked owners yet to answer, in order
    count_offer: list[int] = dc.field(default_factory=list)  # the answers, better first
    readings: dict[int, bool] = dc.field(default_factory=dict)  # seat -> read the second way
    # ---- accounts and outcome
    multiplier: int = 1  # the field's, once laid
    carry_out: int = 1
    ledger: list[Payment] = dc.field(default_factory=list)
    void: bool = False
    winner: int | None = None
    winners: list[int] = dc.field(default_factory=list)
    next_dealer: int = 0
    ended_by: str = ""  # yaku | count | draw | void | instant

    _LISTS: ClassVar[tuple[str, ...]] = ()
    _DICTS: ClassVar[tuple[str, ...]] = ()
    _DICTS_OF_LISTS: ClassVar[tuple[str, ...]] = ()

    def copy(self) -> typing.Self:
        """An independent copy (for search: the copy can be played out)."""
        twin = object.__new__(type(self))
        d = twin.__dict__
        d.update(self.__dict__)
        for name in self._LISTS:
            value = d[name]
            if value is not None:
                d[name] = list(value)
        for name in self._DICTS:
            d[name] = dict(d[name])
        for name in self._DICTS_OF_LISTS:
            d[name] = {k: list(v) for k, v in d[name].items()}
        d["asked"] = 0  # played out by bots: nobody is asked (engine/asking.py)
        return twin


def blind(r: RoundState) -> bool:
    """The player to act chooses without seeing his hand: a hand swap, or a fold declared
    before the deal (ir.Fold.before_deal), or a declaration before the deal (his view and
    observation then hold no hand)."""
    if r.phase == DECLARE:  # (after seeing the hand, or before the first play: with his hand)
        return r.rules.declarations[0].moment == "before_deal"
    return r.phase == SWAP or (r.phase == FOLD and r.rules.fold.before_deal)


def _copy_plan() -> None:
    """Sort the fields by how a copy treats them, from their declared types."""
    hints = typing.get_type_hints(RoundState)
    lists: list[str] = []
    dicts: list[str] = []
    nested: list[str] = []
    for f in fields(RoundState):
        if f.metadata.get("shared"):
            continue
        kind = hints[f.name]
        union = typing.get_origin(kind) in (typing.Union, types.UnionType)
        options = typing.get_args(kind) if union else (kind,)
        options = tuple(o for o in options if o is not type(None))
        origin = typing.get_origin(options[0]) if len(options) == 1 else None
        if origin is list:
            lists.append(f.name)
        elif origin is dict:
            value = typing.get_args(options[0])[1]
            (nested if typing.get_origin(value) is list else dicts).append(f.name)
        elif (
            typing.get_origin(options[0]) in (set, typing.Union, types.UnionType)
            or len(options) != 1
        ):
            raise TypeError(f"RoundState.{f.name}: say how a copy treats {kind}")
    RoundState._LISTS = tuple(lists)
    RoundState._DICTS = tuple(dicts)
    RoundState._DICTS_OF_LISTS = tuple(nested)


_copy_plan()


@dataclass
class RoundResult:
    round: int
    dealer: int
    seated: int
    active: tuple[int, ...]
    void: bool
    multiplier: int
    carry: int
    winner: int | None
    next_dealer: int
    ended_by: str  # yaku | count | draw | void | instant
    ledger: list[Payment]
    net: list[Amount]
    points: list[int]
    teyaku: dict[int, list[str]] = dc.field(default_factory=dict)
    yaku: dict[int, list[str]] = dc.field(default_factory=dict)
    continued: int = 0
    continued_paid_off: int = 0
    turns: int = 0
    winners: list[int] = dc.field(default_factory=list)  # the winner, or the winning team
    teams: list[list[int]] | None = None
