"""One round of a fishing game as an explicit state machine.

    rnd = Round(compiled, seated=3, dealer=0, seed=1)
    while not rnd.is_terminal:
        rnd.apply(agent_for(rnd.current_player).act(view))
    rnd.result()

`Round` is a facade over the round's state (state.py) and its mechanics, one module each:
deal.py (the shuffle, a written-down deal, the field), setup.py (the rule file's setup steps),
capture.py (the turn: plays, draws, takes, hiki, the wild card), continuation.py (a yaku made,
stop or continue), scoring.py (the count, the round's end), ledger.py (every payment),
actions.py (the action codec). Every value, yaku and payment comes from the compiled rule file.
Card sets are bit masks; a wrong action raises a MoveError naming the legal ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekit import ir
from rulekit.cards import bits
from rulekit.engine import actions as A
from rulekit.engine import asking, capture, continuation, draw_offer, setup
from rulekit.engine.deal import deal_order, shuffle, stack
from rulekit.engine.ledger import net
from rulekit.engine.specialise import compile_fields
from rulekit.engine.state import (
    ANSWER,
    CLAIM,
    COUNT,
    DECIDE,
    DECLARE,
    DONE,
    FOLD,
    JOKER_ID,
    PLAY,
    SHOW,
    SWAP,
    TAKE,
    Phase,
    RoundResult,
    RoundState,
    StackedDeal,
)
from rulekit.engine.tables import CompiledRules
from rulekit.errors import MoveError, UsageError

__all__ = [
    "ANSWER",
    "CLAIM",
    "COUNT",
    "DECIDE",
    "DECLARE",
    "DONE",
    "FOLD",
    "JOKER_ID",
    "PLAY",
    "SHOW",
    "SWAP",
    "TAKE",
    "Phase",
    "Round",
    "RoundResult",
    "StackedDeal",
    "card_places",
    "clone",
    "deal_order",
]


class Round(RoundState):
    """A round in progress: its cards, whose turn it is, what each may do, and its ledger."""

    def __init__(
        self,
        compiled: CompiledRules,
        seated: int,
        dealer: int = 0,
        *,
        seed: int | str = 0,
        deal_no: int | str = 0,
        round_no: int = 0,
        carry: int = 1,
        deal: StackedDeal | None = None,
        draws_before: int = 0,
        sitters: int = -1,
    ) -> None:
        # the table's prototype, made on its first round (a lookup here: a round is cheap)
        make = compiled.round_prototypes.get(seated) or _prototype(compiled, seated)
        if not 0 <= dealer < seated:
            raise UsageError(f"the dealer is a seat from 0 to {seated - 1}, not {dealer}")
        key = f"{seed}:{deal_no}"  # the deal's seed
        # its own lists and dicts, and the deal's fields (_GIVEN's order)
        self.__dict__ = make(
            dealer, round_no, carry, f"{key}:setup", deal, dealer, dealer, draws_before, sitters
        )
        # the deal as dealt, so that a round can be written down and replayed (scenario recording)
        if deal is None:
            shuffle(self, key)  # sets initial_stock
        else:
            stack(self, deal)
            self.initial_stock = self.stock[::-1]
        self.initial_hands = list(self.hands)
        setup.run_setup(self)

    # ------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == DONE

    @property
    def current_player(self) -> int | None:
        return None if self.phase == DONE else self.current

    def active_seats(self) -> list[int]:
        return setup.active_seats(self)

    legal_actions = capture.legal_actions
    preview = capture.preview

    def describe(self, action: int) -> str:
        return A.describe(action, self.ix, self.rules.owners_choice)

    def ask_readings(self, seats: int) -> None:
        """Ask these seats (bits; the people at the table) at the count how their piles read
        the owner's choice, rather than read them the way worth more (engine/asking.py). Set
        by the driver that seats them, before the round's end; nobody else is ever asked."""
        self.asked = seats

    def readings_offered(self) -> list[asking.Reading]:
        """In COUNT: the readings offered to the owner asked, the better first."""
        if self.phase != COUNT:
            raise MoveError("nobody is asked how his pile reads now")
        return asking.readings(self, continuation.ENDINGS)

    def cards_left(self) -> int:
        return sum(self.hands[s].bit_count() for s in self.order)

    def teyaku_names(self) -> dict[int, list[str]]:
        """The teyaku each player counts, by name (players without one left out)."""
        table = self.c.teyaku
        if table is None:
            return {}
        return {s: [table.names[i] for i in c] for s, c in self.teyaku_counted.items() if c}

    # ------------------------------------------------------------ actions
    def apply(self, action: int) -> None:
        """Apply the current player's action (a MoveError names the legal ones)."""
        phase = self.phase
        if phase == PLAY:
            (capture.play_plain if self.c.plain else capture.play)(self, action)
        elif phase == TAKE:
            capture.take(self, action)
        elif phase == DECIDE:
            if action == A.STOP:
                continuation.stop(self, self.current)
            elif action == A.CONTINUE:
                continuation.continue_play(self)
                capture.next_turn(self)
            else:
                raise capture.illegal(self, action, f"seat {self.current} must stop or continue")
        elif phase == SWAP:
            if action not in (A.SWAP, A.KEEP):
                why = f"seat {self.current} must swap hands with the dealer or keep"
                raise capture.illegal(self, action, why)
            setup.choose_swap(self, action == A.SWAP)
        elif phase == DECLARE:
            if action not in (A.DECLARE, A.PASS):
                why = f"seat {self.current} must declare {self.rules.declarations[0].name} or pass"
                raise capture.illegal(self, action, why)
            setup.choose_declare(self, action == A.DECLARE)
        elif phase == CLAIM:
            if action not in (A.CLAIM, A.PASS):
                why = f"seat {self.current} must claim the field's cards (and play second) or pass"
                raise capture.illegal(self, action, why)
            setup.choose_claim(self, action == A.CLAIM)
        elif phase == SHOW:
            if action not in (A.SHOW, A.PASS):
                why = f"seat {self.current} must show his teyaku (capturable by the others) or pass"
                raise capture.illegal(self, action, why)
            setup.choose_show(self, action == A.SHOW)
        elif phase == FOLD:
            if action not in (A.JOIN, A.FOLD):
                raise capture.illegal(self, action, f"seat {self.current} must join or fold")
            setup.choose_fold(self, action == A.JOIN)
        elif phase == ANSWER:
            if action not in (A.ACCEPT, A.REFUSE):
                why = f"seat {self.current} must accept or refuse the draw offered"
                raise capture.illegal(self, action, why)
            draw_offer.answer(self, action == A.ACCEPT)
        elif phase == COUNT:
            if action not in self.count_offer:
                choice = self.rules.owners_choice
                assert choice is not None
                why = f"seat {self.current} must say how his pile reads: {choice.text}"
                raise capture.illegal(self, action, why)
            asking.answer(self, action, continuation.ENDINGS)
        else:
            raise MoveError("the round is over: no action is legal")

    # for tests that drive one mechanic directly
    def _liable_feeder(self, p: int, i: int) -> int | None:
        return continuation.liable_feeder(self, p, i)

    def _end_of_hands(self) -> None:
        continuation.end_of_hands(self)

    # ------------------------------------------------------------ result
    def result(self) -> RoundResult:
        if not self.is_terminal:
            raise MoveError("the round is not over yet")
        return RoundResult(
            round=self.round_no,
            dealer=self.dealer,
            seated=self.seated,
            active=tuple(self.order) if self.order else tuple(self.active_seats()),
            void=self.void,
            multiplier=self.multiplier,
            carry=self.carry_out,
            winner=self.winner,
            next_dealer=self.next_dealer,
            ended_by=self.ended_by,
            ledger=list(self.ledger),
            net=net(self.ledger, self.seated),
            points=list(map(self.c.points, self.captured)),
            teyaku=self.teyaku_names(),
            yaku={s: list(v) for s, v in self.yaku_made.items()},
            continued=sum(self.continues),
            continued_paid_off=sum(self.continue_wins),
            turns=self.turn,
            winners=list(self.winners),
            teams=self.teams,
        )


def card_places(rnd: Round) -> list[int]:
    """How many places hold each card (hands, field, stock, piles, the drawn card): an invariant
    of the engine is that every card of the deck is in exactly one place at every step."""
    ix = rnd.ix
    counts = [0] * len(ix.ids)
    masks = [*rnd.hands, rnd.field, *rnd.captured]
    if rnd.drawn >= 0:
        masks.append(1 << rnd.drawn)
    for m in masks:
        for b in bits(m & ix.full):
            counts[b] += 1
    for b in rnd.stock:
        counts[b] += 1
    return counts


def clone(rnd: Round) -> Round:
    """An independent copy of a round (for search: the copy can be played out)."""
    return rnd.copy()


def _prototype(compiled: CompiledRules, seated: int) -> Callable[..., dict[str, Any]]:
    """`(*the deal's fields) -> every field of a new round at this table`, the deal's fields
    (_GIVEN: dealer, round, seed...) as given, the prototype's by default: made once per table
    size (generated: engine/specialise.py) from a RoundState built the dataclass's way; a round
    starts from it rather than through the dataclass's __init__, whose 80 arguments cost more
    than the rest of a round's setup."""
    fields = compiled.round_prototypes.get(seated)
    if fields is not None:
        return fields
    r = compiled.rules
    refusal = r.seats.refusal(r.title, seated)
    if refusal:
        raise UsageError(refusal)
    size = r.deal_for(seated)
    ix = compiled.index
    state = RoundState(
        c=compiled,
        rules=r,
        ix=ix,
        seated=seated,
        dealer=0,
        round_no=0,
        carry_in=1,
        draws_before=0,
        sitters_in=-1,
        _setup_seed="",
        hand_size=size.hand,
        field_size=size.field,
        joker_bit=len(ix.ids) if r.joker is not None and r.joker.seats == seated else -1,
        months=ix.month_mask_of_bit,
        track_feeders=compiled.liable != set(),
        wild_bit=ix.bit[r.wild.card] if r.wild is not None and r.wild.any_target else -1,
        hiki=r.hiki,
        teams=r.teams_for(seated),
        stacked=None,
        hands=[0] * seated,
        captured=[0] * seated,
        folded=[False] * seated,
        hits=[0] * seated,
        made_value=[0] * seated,
        declared_value=[0] * seated,
        made_entries=[()] * seated,
        stake=[0] * seated,
        stake_flat=[0] * seated,
        continuing=[False] * seated,
        continues=[0] * seated,
        continue_wins=[0] * seated,
        forfeited=[False] * seated,
        event_factor=[1] * seated,
        skips=[0] * seated,
        steps=setup_steps(r),
    )
    assert not any(getattr(state, name) for name in RoundState._DICTS_OF_LISTS)
    compiled.setup_plans[seated] = setup.setup_plan(state)
    fields = compile_fields(state.__dict__, _FRESH, _GIVEN)
    compiled.round_prototypes[seated] = fields
    return fields


# the fields a new round copies from its prototype: every list and dict (a dict of lists is
# empty in the prototype, so a shallow copy is enough)
_FRESH = RoundState._LISTS + RoundState._DICTS + RoundState._DICTS_OF_LISTS
# the fields each round is given (Round.__init__ passes them in this order)
_GIVEN = (
    "dealer",
    "round_no",
    "carry_in",
    "_setup_seed",
    "stacked",
    "current",
    "next_dealer",
    "draws_before",
    "sitters_in",
)


def setup_steps(r: ir.Ruleset) -> list[str]:
    """The setup steps in order; a fold declared before the deal comes before them all (the
    hands, dealt already, are not seen until it is over), and a declaration before the deal
    before that; the dealer's claim of the field last (ir.DealerClaim); a teyaku shown or
    kept hidden (ir.Yaku.shown) is chosen just before the teyaku are paid."""
    steps: list[str] = list(r.setup)
    if r.fold.before_deal and "fold" in steps:
        steps.remove("fold")
        steps.insert(0, "fold")
    if r.declarations:
        steps.insert(setup.MOMENTS[r.declarations[0].moment](steps), "declare")
    if r.dealer_claim is not None:  # last, the field laid: before the first play
        steps.append("claim")
    if "teyaku" in steps and r.teyaku is not None and any(e.shown for e in r.teyaku.entries):
        steps.insert(steps.index("teyaku"), "show")  # shown or kept hidden, then paid
    return steps
