"""One round of a fishing game as an explicit state machine.

    rnd = Round(compiled, seated=3, dealer=0, seed=1)
    while not rnd.is_terminal:
        rnd.apply(agent_for(rnd.current_player).act(view))
    rnd.result()

Setup runs the rule file's steps in order (hands, field, fold, joker, teyaku); play alternates
a hand card and a stock card per turn; yaku are checked at the end of each turn; the count
settles the hands. Every value, yaku and payment comes from the compiled rule file. Card sets
are bit masks; a wrong action raises a MoveError naming the legal ones.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from enum import IntEnum

from rulekit.cards import bits
from rulekit.engine import actions as A
from rulekit.engine.ledger import BANK, Amount, Payment, half, net, share
from rulekit.engine.tables import CompiledRules
from rulekit.errors import MoveError, UsageError


def deal_order(seed: str, n: int) -> list[int]:
    """A uniformly random permutation of range(n) from a seed string: the seed's SHA-512 read
    as a number in the factorial base (its 512 bits make the bias negligible for n <= 98)."""
    x = int.from_bytes(hashlib.sha512(seed.encode()).digest(), "big")
    items = list(range(n))
    out = []
    for k in range(n, 0, -1):
        x, i = divmod(x, k)
        out.append(items.pop(i))
    return out


class Phase(IntEnum):
    FOLD = 0
    PLAY = 1
    TAKE = 2
    DECIDE = 3
    DONE = 4
    SWAP = 5


# The hot path compares plain ints (an IntEnum comparison costs a method call).
FOLD, PLAY, TAKE, DECIDE, DONE, SWAP = (int(p) for p in Phase)


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
    teyaku: dict[int, list[str]] = field(default_factory=dict)
    yaku: dict[int, list[str]] = field(default_factory=dict)
    continued: int = 0
    continued_paid_off: int = 0
    turns: int = 0
    winners: list[int] = field(default_factory=list)  # the winner, or the winning team
    teams: list[list[int]] | None = None


class _CountContext:
    """What the count-time entries may ask: every pile, and the dealt hands."""

    def __init__(self, rnd: Round) -> None:
        self.rnd = rnd
        self.piles = [rnd.captured[s] for s in rnd.order]
        self.player = -1

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool:
        rnd = self.rnd
        table = rnd.c.teyaku
        if table is None:
            return False
        hand = rnd.dealt_hands.get(self.player, 0)
        for i in rnd.teyaku_counted[self.player]:
            entry = table.entries[i]
            for candidate in (entry, *(table.entries[table.position[n]] for n in entry.parts)):
                if candidate.name not in names:
                    continue
                if not captured:
                    return True
                if any(m & pile == m for m in rnd.c.made_masks(candidate.condition, hand)):
                    return True
        return False


class Round:
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
    ) -> None:
        r = compiled.rules
        refusal = r.seats.refusal(r.title, seated)
        if refusal:
            raise UsageError(refusal)
        if not 0 <= dealer < seated:
            raise UsageError(f"the dealer is a seat from 0 to {seated - 1}, not {dealer}")
        self.c = compiled
        self.rules = r
        self.ix = compiled.index
        self.seated = seated
        self.dealer = dealer
        self.round_no = round_no
        self.carry_in = carry
        self._setup_seed = f"{seed}:{deal_no}:setup"  # the fold reshuffle's RNG, made when needed
        size = r.deal_for(seated)
        self.hand_size = size.hand
        self.field_size = size.field
        nbits = len(self.ix.ids)
        self.joker_bit = nbits if r.joker is not None and r.joker.seats == seated else -1
        self.months = self.ix.month_mask_of_bit
        self.track_feeders = compiled.liable != set()
        self.wild_bit = self.ix.bit[r.wild.card] if r.wild is not None and r.wild.any_target else -1
        self.wild_owner = -1
        self.wild_month = 0  # the month mask of the card the wild card took
        self.hiki = r.hiki
        self.teams = r.teams_for(seated)
        self.winners: list[int] = []

        self.hands = [0] * seated
        self.captured = [0] * seated
        self.field = 0
        self.stock: list[int] = []  # top at the end
        self.stacked = deal
        self.stacked_field = 0  # a written-down deal's field and restock, as bits
        self.stacked_restock: tuple[int, ...] | None = None
        self.field_laid = False
        self.laid_field = 0
        self.multiplier = 1  # the field's, once laid (field_laid)
        self.carry_out = 1
        self.ledger: list[Payment] = []
        self.pending_teyaku: list[tuple[int, int, int, str]] = []  # payee, payer, base, name
        self.fold_fees: list[tuple[int, int, bool]] = []  # payer, base, voluntary
        self.folded = [False] * seated
        self.void = False
        self.winner: int | None = None
        self.next_dealer = dealer
        self.ended_by = ""

        self.teyaku_counted: dict[int, tuple[int, ...]] = {}
        self.teyaku_revealed: dict[int, int] = {}
        self.dealt_hands: dict[int, int] = {}

        self.hits = [0] * seated  # the yaku table's matches at each player's last check
        self.made_value = [0] * seated
        self.made_entries: list[tuple[int, ...]] = [()] * seated
        self.stake: list[Amount] = [0] * seated  # what a continue bets: the yaku last paid
        self.continuing = [False] * seated
        self.continues = [0] * seated
        self.continue_wins = [0] * seated  # continues followed by another yaku of one's own
        self.forfeited = [False] * seated
        self.prepaid: dict[int, tuple[tuple[int, ...], int]] = {}  # maker -> entries, base a
        # beaten continuer paid at once (the maker is paid the rest when he stops)
        self.liable_for: dict[tuple[int, int], int] = {}  # (maker, entry) -> feeder
        self.yaku_made: dict[int, list[str]] = {}
        self.last_maker: int | None = None
        self.feeders: dict[int, tuple[int, int]] = {}  # card bit -> (seat, hand size when played)
        self.fed_this_turn = 0
        self.turn_got = 0
        self.drawn = -1
        self.turn = 0
        self.total_turns = 0
        self.pos = 0  # the current player's index in `order`
        self.order: list[int] = []

        self.phase = PLAY
        self.current = dealer
        self.fold_queue: list[int] = []
        self.fold_at = 0
        self.joined = 0

        if deal is None:
            self._shuffle(seed, deal_no)
        else:
            self._stack(deal)
        # the deal as dealt, so that a round can be written down and replayed (scenario recording)
        self.initial_hands = list(self.hands)
        self.initial_stock = self.stock[::-1]
        self.restocked: list[int] | None = None
        self.steps = list(r.setup)
        self.step = 0
        self._run_setup()

    # ------------------------------------------------------------ dealing
    def _shuffle(self, seed: int | str, deal_no: int | str) -> None:
        n = len(self.ix.ids) + (1 if self.joker_bit >= 0 else 0)
        order = deal_order(f"{seed}:{deal_no}", n)
        h = self.hand_size
        if self.seated * h > len(order):
            raise UsageError(f"{self.seated} hands of {h} need more cards than the deck has")
        for s in range(self.seated):
            m = 0
            for b in order[s * h : (s + 1) * h]:
                m |= 1 << b
            self.hands[s] = m
        self.stock = order[self.seated * h :][::-1]
        if self.joker_bit in self.stock:  # a joker dealt to no hand is out of the game
            self.stock.remove(self.joker_bit)

    def _stack(self, deal: StackedDeal) -> None:
        if len(deal.hands) != self.seated:
            raise UsageError(f"the deal has {len(deal.hands)} hands for {self.seated} seats")
        for s, hand in enumerate(deal.hands):
            for c in hand:
                self.hands[s] |= 1 << self._stacked_bit(c, "in a hand", in_hand=True)
        self.stock = [self._stacked_bit(c, "in the stock") for c in deal.stock][::-1]
        for c in deal.field:
            self.stacked_field |= 1 << self._stacked_bit(c, "on the field")
        if deal.restock is not None:
            self.stacked_restock = tuple(
                self._stacked_bit(c, "in the restock") for c in reversed(deal.restock)
            )

    def _stacked_bit(self, cid: int, where: str, in_hand: bool = False) -> int:
        """The bit of a card of a written-down deal (`where`: "in the stock", ...); the joker
        only in a hand."""
        if cid == JOKER_ID:
            if not in_hand:
                raise UsageError(f"the joker is dealt only in a hand, not {where}")
            if self.joker_bit < 0:
                raise UsageError("a joker is dealt only at the table size the rule file names")
            return self.joker_bit
        b = self.ix.bit.get(cid)
        if b is None:
            raise UsageError(f"no card {cid} in the deck ({where})")
        return b

    # ------------------------------------------------------------ setup
    def _run_setup(self) -> None:
        while self.step < len(self.steps):
            step = self.steps[self.step]
            if step == "fold" and self.seated > self.rules.seats.playing(self.seated):
                self._begin_fold()
                if self.phase == FOLD:
                    return
            elif step == "swap":
                self.phase = SWAP
                self.current = (self.dealer + 1) % self.seated
                return
            elif step == "field":
                self._lay_field()
                if self.void:
                    return
            elif step == "instant_win":
                if self._instant_win():
                    return
            elif step == "joker":
                self._swap_jokers()
            elif step == "teyaku":
                self._declare_teyaku()
            self.step += 1
        self._begin_play()

    def _lay_field(self) -> None:
        if self.stacked is not None:
            self.field = self.stacked_field
            held = 0
            for s in self.active_seats():
                held |= self.hands[s]
            if self.field & held:
                cards = ", ".join(self.ix.short(c) for c in self.ix.ids_of(self.field & held))
                raise UsageError(f"the field holds cards still in a player's hand: {cards}")
        else:
            if len(self.stock) < self.field_size:
                raise UsageError("not enough cards left to lay the field")
            for _ in range(self.field_size):
                self.field |= 1 << self.stock.pop()
        self.field_laid = True
        self.laid_field = self.field
        factor, self.carry_out = self.c.multiplier.of_field(self.field)
        self.multiplier = max(factor, self.carry_in)
        if self.c.void_field is not None and self.c.void_field(self.field):
            self.void = True
            self.ended_by = "void"
            self.ledger.clear()
            self.phase = DONE
            return
        for payee, payer, base, name in self.pending_teyaku:
            self._pay(payer, payee, base, "teyaku", name)
        self.pending_teyaku.clear()
        size = self.rules.dealer_captures
        if size:  # the dealer takes a month dealt whole to the field
            for mm in self.ix.month_masks:
                if (self.field & mm).bit_count() == size:
                    self.captured[self.dealer] |= self.field & mm
                    self.field &= ~mm

    def _instant_win(self) -> bool:
        """A dealt hand that wins at once: paid by each other player, and the round is over."""
        test = self.c.instant_win
        spec = self.rules.instant_win
        if test is None or spec is None:
            return False
        seats = [(self.dealer + i) % self.seated for i in range(self.seated)]
        for s in seats:
            if not self.folded[s] and test(self.hands[s] & self.ix.full):
                for q in seats:
                    if q != s and not self.folded[q]:
                        self.ledger.append(
                            Payment(
                                self.round_no,
                                q,
                                s,
                                spec.value,
                                "instant win",
                                spec.text,
                                1,
                                spec.value,
                            )
                        )
                self.order = [q for q in seats if not self.folded[q]]
                self.ended_by = "instant"
                self._finish(s)
                return True
        return False

    def _begin_fold(self) -> None:
        start = (
            self.dealer if self.rules.fold.start == "dealer" else (self.dealer + 1) % self.seated
        )
        self.fold_queue = [(start + i) % self.seated for i in range(self.seated)]
        self.fold_at = 0
        self.joined = 0
        self._next_fold()

    def _next_fold(self) -> None:
        """Ask the next player, unless the choice is forced (enough joined, or too few left)."""
        need_total = self.rules.seats.playing(self.seated)
        while self.fold_at < len(self.fold_queue):
            seat = self.fold_queue[self.fold_at]
            remaining = len(self.fold_queue) - self.fold_at
            need = need_total - self.joined
            if need == 0:
                self._fold(seat, voluntary=False)
            elif remaining == need:
                self.joined += 1
            else:
                self.phase = FOLD
                self.current = seat
                return
            self.fold_at += 1
        self._end_fold()

    def _fold(self, seat: int, voluntary: bool) -> None:
        self.folded[seat] = True
        fee = self.rules.fold.fee if voluntary else self.rules.fold.forced_fee
        if fee:
            self.fold_fees.append((seat, fee, voluntary))

    def _end_fold(self) -> None:
        returned: list[int] = []
        for s in range(self.seated):
            if self.folded[s]:
                returned.extend(bits(self.hands[s] & self.ix.full))  # a folder's joker is out
                self.hands[s] = 0
        if self.stacked_restock is not None:
            self.stock = list(self.stacked_restock)
        elif returned:
            self.stock.extend(returned)
            self.stock = [self.stock[i] for i in deal_order(self._setup_seed, len(self.stock))]
        self.restocked = self.stock[::-1]
        self.phase = PLAY

    def _swap_jokers(self) -> None:
        if self.joker_bit < 0:
            return
        jbit = 1 << self.joker_bit
        for s in range(self.seated):
            if self.hands[s] & jbit:
                self.hands[s] &= ~jbit
                if not self.folded[s] and self.stock:
                    self.hands[s] |= 1 << self.stock.pop()

    def _declare_teyaku(self) -> None:
        table = self.c.teyaku
        if table is None:
            return
        active = self.active_seats()
        made: dict[int, tuple[int, int]] = {}
        for s in active:
            hand = self.hands[s]
            self.dealt_hands[s] = hand
            counted = table.counted(table.match_play(hand), hand)
            self.teyaku_counted[s] = counted
            if counted:
                value = sum(table.value(i, hand) for i in counted)
                made[s] = (value, counted[0])
                self.teyaku_revealed[s] = self._teyaku_cards(hand, counted)
        if (
            self.rules.teyaku is not None
            and self.rules.teyaku.between_players == "highest"
            and made
        ):
            top = max(v for v, _ in made.values())
            made = {s: vi for s, vi in made.items() if vi[0] == top}
        for s, (value, i) in made.items():
            name = table.names[i]
            for q in active:
                if q != s:
                    if self.field_laid:
                        self._pay(q, s, value, "teyaku", name)
                    else:
                        self.pending_teyaku.append((s, q, value, name))

    def _teyaku_cards(self, hand: int, counted: tuple[int, ...]) -> int:
        """The cards a player shows for his teyaku: only those that make it."""
        return self.c.teyaku_cards(hand, counted)

    def _begin_play(self) -> None:
        active = self.active_seats()
        first = next(
            s for s in ((self.dealer + i) % self.seated for i in range(self.seated)) if s in active
        )
        i = active.index(first)
        self.order = active[i:] + active[:i]
        self.total_turns = sum(self.hands[s].bit_count() for s in self.order)
        self.turn = 0
        self.pos = 0
        self.phase = PLAY
        self.current = self.order[0]
        if self.total_turns == 0:
            self._end_of_hands()

    # ------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == DONE

    @property
    def current_player(self) -> int | None:
        return None if self.phase == DONE else self.current

    def active_seats(self) -> list[int]:
        return [s for s in range(self.seated) if not self.folded[s]]

    _bits = staticmethod(bits)  # for scenario/record.py until it imports rulekit.cards.bits

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.current]
            field_ = self.field
            months = self.months
            out = self._hiki_actions() if self.hiki else []
            while hand:
                low = hand & -hand
                b = low.bit_length() - 1
                hand ^= low
                if b == self.wild_bit:
                    targets = self._wild_targets()
                    out.extend(b | ((t + 1) << 6) for t in bits(targets))
                    if self._wild_may_lay(targets):
                        out.append(b)
                    continue
                m = field_ & months[b]
                if m and m.bit_count() == 2:
                    lo = m & -m
                    out.append(b | ((lo.bit_length()) << 6))
                    out.append(b | (((m ^ lo).bit_length()) << 6))
                else:
                    out.append(b)
            return out
        if phase == TAKE:
            m = self.field & self.ix.month_mask_of_bit[self.drawn]
            return [A.TAKE + b for b in bits(m)]
        if phase == DECIDE:
            return [A.STOP, A.CONTINUE]
        if phase == FOLD:
            return [A.JOIN, A.FOLD]
        if phase == SWAP:
            return [A.SWAP, A.KEEP]
        return []

    def _hiki_actions(self) -> list[int]:
        """Every month all of whose cards the player sees, holding at least one of them."""
        hand = self.hands[self.current]
        seen = hand | self.field
        return [
            A.HIKI + i for i, mm in enumerate(self.ix.month_masks) if hand & mm and seen & mm == mm
        ]

    def _hiki_months(self, seat: int) -> int:
        hand = self.hands[seat]
        seen = hand | self.field
        out = 0
        for mm in self.ix.month_masks:
            if hand & mm and seen & mm == mm:
                out |= mm
        return out

    def _wild_targets(self) -> int:
        """Field cards the wild card may take: any, except one that completes another player's
        hiki (that player announces it)."""
        targets = self.field
        wild = self.rules.wild
        if wild is not None and wild.respects_hiki and self.hiki:
            for q in self.order:
                if q != self.current:
                    targets &= ~self._hiki_months(q)
        return targets

    def _wild_may_lay(self, targets: int) -> bool:
        """The wild card may be laid on the field when it has no target left, or (if the rules
        say so) when a hiki blocks one of its targets."""
        if not targets:
            return True
        wild = self.rules.wild
        return wild is not None and wild.lay_when_blocked and targets != self.field

    def describe(self, action: int) -> str:
        return A.describe(action, self.ix)

    def _illegal(self, action: int, why: str) -> MoveError:
        legal = (
            ", ".join(self.describe(a) for a in self.legal_actions()) or "none (the round is over)"
        )
        return MoveError(
            f"{why}: {self.describe(action) if action >= 0 else action}", hint=f"legal: {legal}"
        )

    # ------------------------------------------------------------ actions
    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == TAKE:
            self._take(action)
        elif phase == DECIDE:
            if action == A.STOP:
                self._stop(self.current)
            elif action == A.CONTINUE:
                p = self.current
                self.continuing[p] = True
                self.continues[p] += 1
                self._next_turn()
            else:
                raise self._illegal(action, f"seat {self.current} must stop or continue")
        elif phase == SWAP:
            if action not in (A.SWAP, A.KEEP):
                raise self._illegal(
                    action, f"seat {self.current} must swap hands with the dealer or keep"
                )
            if action == A.SWAP:
                d, q = self.dealer, self.current
                self.hands[d], self.hands[q] = self.hands[q], self.hands[d]
            self.step += 1
            self.phase = PLAY
            self._run_setup()
        elif phase == FOLD:
            if action not in (A.JOIN, A.FOLD):
                raise self._illegal(action, f"seat {self.current} must join or fold")
            if action == A.JOIN:
                self.joined += 1
            else:
                self._fold(self.current, voluntary=True)
            self.fold_at += 1
            self._next_fold()
            if self.phase != FOLD:
                self.step += 1
                self._run_setup()
        else:
            raise MoveError("the round is over: no action is legal")

    def _play(self, action: int) -> None:
        if self.hiki and A.HIKI <= action < A.HIKI + len(self.ix.month_masks):
            self._hiki(action)
            return
        if not 0 <= action < A.TAKE:
            raise self._illegal(action, f"seat {self.current} must play a card")
        p = self.current
        b = action & 63
        t = (action >> 6) - 1
        hand = self.hands[p]
        bit = 1 << b
        if not hand & bit:
            raise self._illegal(action, f"seat {p} does not hold that card")
        months = self.months
        field_ = self.field
        if b == self.wild_bit:
            m = self._wild_play(b, t)
            n = m.bit_count()
        else:
            m = field_ & months[b]
            n = m.bit_count()
            if n == 2:
                if t < 0 or not m >> t & 1:
                    raise self._illegal(action, "two field cards match: choose which to capture")
                m = 1 << t
            elif t >= 0:
                raise self._illegal(
                    action, "a capture target is only chosen when two field cards match"
                )
        self.hands[p] = hand ^ bit
        if n == 0:
            if self.track_feeders:
                self.feeders[b] = (p, hand.bit_count())
            self._draw(p, field_ | bit, 0, 0)
        else:
            self._draw(p, field_ & ~m, m | bit, m)

    def _draw(self, p: int, field_: int, got: int, fed: int) -> None:
        """The second half of p's turn, after his play left the field `field_` and took `got`
        (`fed` of it from the field): draw the top stock card and capture with it, then end the
        turn, unless the drawn card matches two field cards and p must choose one."""
        stock = self.stock
        if stock:
            d = stock.pop()
            m2 = field_ & self.months[d]
            if not m2:
                field_ |= 1 << d
            elif m2.bit_count() == 2:
                self.drawn = d
                self.phase = TAKE
            else:
                field_ &= ~m2
                got |= m2 | (1 << d)
                fed |= m2
        self.field = field_
        self.captured[p] |= got
        self.turn_got = got
        self.fed_this_turn = fed
        if self.phase == PLAY:
            self._end_turn()

    def _wild_play(self, b: int, t: int) -> int:
        """The wild card played from the hand: the field card it takes (0: laid on the field)."""
        targets = self._wild_targets()
        if t < 0:
            if not self._wild_may_lay(targets):
                raise self._illegal(b, "the wild card takes a field card: choose which")
            return 0
        if not targets >> t & 1:
            blocked = self.field >> t & 1
            why = (
                "that card completes another player's hiki"
                if blocked
                else "no such card on the field"
            )
            raise self._illegal(b | ((t + 1) << 6), why)
        self.wild_owner = self.current
        self.wild_month = self.months[t]
        return 1 << t

    def _hiki(self, action: int) -> None:
        """Capture every card of a month (from the hand and the field), then draw."""
        p = self.current
        mm = self.ix.month_masks[action - A.HIKI]
        hand = self.hands[p]
        field_ = self.field
        if not hand & mm or (hand | field_) & mm != mm:
            raise self._illegal(action, f"seat {p} does not see every card of that month")
        self.hands[p] = hand & ~mm
        self._draw(p, field_ & ~mm, mm, field_ & mm)

    def preview(self, action: int) -> int:
        """The cards a play would capture (before the draw), for bots weighing their choices."""
        if A.HIKI <= action < A.HIKI + len(self.ix.month_masks):
            return self.ix.month_masks[action - A.HIKI]
        if self.phase == TAKE:
            return (1 << (action - A.TAKE)) | (1 << self.drawn)
        b = action & 63
        t = (action >> 6) - 1
        if t >= 0:
            return (1 << t) | (1 << b)
        m = self.field & self.months[b]
        return m | (1 << b) if m else 0

    def _take(self, action: int) -> None:
        t = action - A.TAKE
        m = self.field & self.ix.month_mask_of_bit[self.drawn]
        if not 0 <= t < 64 or not m >> t & 1:
            raise self._illegal(
                action, f"seat {self.current} must take one of the two matching field cards"
            )
        self.field &= ~(1 << t)
        got = (1 << t) | (1 << self.drawn)
        self.captured[self.current] |= got
        self.turn_got |= got
        self.fed_this_turn |= 1 << t
        self.drawn = -1
        self.phase = PLAY
        self._end_turn()

    def _end_turn(self) -> None:
        p = self.current
        table = self.c.yaku
        if self.turn_got and table is not None and not self.forfeited[p]:
            x = self.captured[p]
            hits = table.match_play(x)
            if hits and (hits != self.hits[p] or table.has_bonus):
                self.hits[p] = hits
                counted = table.counted(hits, x)
                value = sum(table.value(i, x) for i in counted)
                if value > self.made_value[p]:
                    self._made(p, counted, value)
                    if self.phase != PLAY:
                        return
        self._next_turn()

    def _next_turn(self) -> None:
        """The next player in order who still holds cards; the count when nobody does."""
        self.turn += 1
        order = self.order
        hands = self.hands
        n = len(order)
        pos = self.pos
        for k in range(1, n + 1):
            s = order[(pos + k) % n]
            if hands[s]:
                self.pos = (pos + k) % n
                self.current = s
                self.phase = PLAY
                return
        self._end_of_hands()

    def cards_left(self) -> int:
        return sum(self.hands[s].bit_count() for s in self.order)

    # ------------------------------------------------------------ yaku and continuation
    def _made(self, p: int, counted: tuple[int, ...], value: int) -> None:
        cont = self.rules.continuation
        table = self.c.yaku
        assert table is not None
        previous = self.made_entries[p]
        new = [i for i in counted if i not in previous]
        delta = value - self.made_value[p]
        self.made_value[p] = value
        self.made_entries[p] = counted
        if cont.paid == "stop":  # what a stop would be paid for (a yaku outgrown is gone)
            self.yaku_made[p] = [table.names[i] for i in counted]
        else:  # every yaku paid so far
            self.yaku_made.setdefault(p, []).extend(table.names[i] for i in new)
        self.last_maker = p
        if self.continuing[p]:
            self.continue_wins[p] += 1
        self.continuing[p] = False  # a new yaku settles his own bet
        if not cont.ends_round:
            return
        cover = None
        beaten = cont.refund_half or cont.pay_for_all or cont.beaten_forfeit
        for q in self.order:
            if q == p or not self.continuing[q] or not beaten:
                continue
            self.continuing[q] = False
            if cont.refund_half and self.stake[q]:
                for r in self.order:
                    if r != q:
                        self._pay(q, r, half(self.stake[q]), "refund", "beaten after continuing")
            if cont.pay_for_all:
                cover = q
            if cont.beaten_forfeit:
                self.forfeited[q] = True
        for i in new:
            feeder = self._liable_feeder(p, i)
            if feeder is not None:
                self.liable_for[(p, i)] = feeder
        entries = [(i, table.value(i, self.captured[p])) for i in new]
        if cover is not None:
            # The beaten continuer pays the yaku that beat him, for every payer, at once: his
            # loss is settled whatever the maker does next; the maker's later yaku are paid as
            # usual (when made, or for what is left when he stops).
            self._pay_yaku(p, entries, delta, cover=cover)
            if cont.paid == "stop":
                before, base = self.prepaid.get(p, ((), 0))
                self.prepaid[p] = ((*before, *(i for i, _ in entries)), base + delta)
        elif cont.paid == "made":
            self._pay_yaku(p, entries, delta)
        if cont.allowed and any(self.hands[s] for s in self.order):
            self.phase = DECIDE
            self.current = p
        else:
            self._stop(p)

    def _liable_feeder(self, p: int, i: int) -> int | None:
        if i not in self.c.liable or self.rules.liability is None:
            return None
        relevant = self.fed_this_turn & self.c.yaku_cards[i]
        feeder = None
        for b in bits(relevant):
            seat, held = self.feeders.get(b, (p, 0))
            if seat != p and held >= self.rules.liability.min_hand:
                feeder = seat
        return feeder

    def _pay_yaku(
        self,
        p: int,
        entries: list[tuple[int, int]],
        total: int,
        factor: int = 1,
        cover: int | None = None,
    ) -> None:
        """Pay `total` (base) for p's yaku: by a beaten continuer (`cover`) for every payer, by a
        liable feeder for the entries he fed, otherwise by each other player."""
        table = self.c.yaku
        assert table is not None
        others = [q for q in self.order if q != p]
        remaining = total
        for i, value in entries:
            payer = cover if cover is not None else self.liable_for.get((p, i))
            if payer is not None:
                reason = "penalty" if cover is not None else "liability"
                self._pay(
                    payer, p, min(value, remaining) * len(others) * factor, reason, table.names[i]
                )
                remaining -= min(value, remaining)
        if remaining > 0:
            detail = ", ".join(table.names[i] for i, _ in entries) if entries else "yaku"
            if cover is not None:
                self._pay(cover, p, remaining * len(others) * factor, "penalty", detail)
            else:
                for q in others:
                    self._pay(q, p, remaining * factor, "yaku", detail)
        if cover is None:
            self.stake[p] = total * factor

    def _stop(self, p: int) -> None:
        self.continuing[p] = False
        if self.rules.continuation.paid == "stop":
            self._pay_made(p)
        self._close_continuations(stopper=p)
        self.ended_by = "yaku"
        self._finish(p)

    def _close_continuations(self, stopper: int | None = None) -> None:
        """The round ends (by `stopper`'s stop, or with the hands) while players who continued
        made no new yaku since."""
        cont = self.rules.continuation
        for q in self.order:
            if not self.continuing[q]:
                continue
            self.continuing[q] = False
            if stopper is not None and cont.if_other_stops is not None:  # outstopped
                if cont.if_other_stops == "forfeit":
                    self.forfeited[q] = True
                elif cont.paid == "stop":
                    self._pay_made(q)
            elif cont.if_unfinished == "keep" and cont.paid == "stop":
                self._pay_made(q)
            elif cont.if_unfinished == "pay_half":
                for r in self.order:
                    if r != q:
                        self._pay(
                            q,
                            r,
                            half(self.made_value[q]),
                            "penalty",
                            "continued without a new yaku",
                        )
            elif cont.if_unfinished == "earn_half":
                self._pay_made(q, only_half=True)
            elif cont.if_unfinished == "forfeit":
                self.forfeited[q] = True

    def _pay_made(self, p: int, only_half: bool = False) -> None:
        """Pay everything p has made (yaku paid when the maker stops, or the round ends)."""
        table = self.c.yaku
        assert table is not None
        x = self.captured[p]
        factor = self.continues[p] + 1 if self.rules.continuation.multiplier_per_yaku else 1
        if only_half:
            for q in self.order:
                if q != p:
                    self._pay(
                        q,
                        p,
                        half(self.made_value[p]) * factor,
                        "half",
                        "continued without a new yaku",
                    )
            return
        paid, base = self.prepaid.get(p, ((), 0))
        entries = [(i, table.value(i, x)) for i in self.made_entries[p] if i not in paid]
        if self.made_value[p] > base:
            self._pay_yaku(p, entries, self.made_value[p] - base, factor)

    # ------------------------------------------------------------ end of the round
    def _end_of_hands(self) -> None:
        cont = self.rules.continuation
        winner = None
        wild = self.rules.wild
        if self.wild_owner >= 0 and wild is not None and wild.collects_month:
            got = self.field & self.wild_month
            self.field &= ~got
            self.captured[self.wild_owner] |= got
        if self.last_maker is not None and cont.ends_round:
            self._close_continuations()
            if not self.forfeited[self.last_maker]:
                winner = self.last_maker
        counted = (
            self.last_maker is None or not self.rules.count.only_without_yaku or not cont.ends_round
        )
        if counted:
            count_winner = self._count()
            if winner is None:
                winner = count_winner
        if winner is None:
            self.ended_by = "draw"
        else:
            self.ended_by = "yaku" if winner == self.last_maker and cont.ends_round else "count"
        self._finish(winner)

    def _count(self) -> int | None:
        """Settle the hands: count-time entries, then the card count. Returns the winner."""
        rules = self.rules
        ix = self.ix
        order = self.order
        points = {s: ix.points(self.captured[s]) for s in order}
        special_winner = None
        cancelled = False
        table = self.c.yaku
        if table is not None and table.count_bits:
            ctx = _CountContext(self)
            paid_to_dealer: set[int] = set()
            best = -1
            for s in order:
                ctx.player = s
                x = self.captured[s]
                hits = table.match_count(x, ctx)
                if not hits:
                    continue
                for i in table.counted(hits, x):
                    entry = table.entries[i]
                    value = table.value(i, x)
                    # to the dealer, or to who leads in his place when he sits the round out
                    payee = order[0] if entry.paid_to_dealer else s
                    if entry.paid_to_dealer:
                        if i in paid_to_dealer:
                            continue
                        paid_to_dealer.add(i)
                    self.yaku_made.setdefault(payee, []).append(entry.name)
                    for q in order:
                        if q != payee:
                            self._pay(q, payee, value, "special", entry.name)
                    if entry.cancels:
                        cancelled = True
                        if value > best:
                            best, special_winner = value, payee
        if cancelled:
            for p in [p for p in self.ledger if p.reason == "teyaku"]:
                self.ledger.append(
                    Payment(
                        self.round_no,
                        p.payee,
                        p.payer,
                        p.amount,
                        "teyaku returned",
                        p.detail,
                        p.multiplier,
                        p.base,
                    )
                )
            return special_winner
        method = rules.count.method
        if method in ("points", "round_wins"):
            return self._score(points, method == "round_wins")
        if method == "none":
            return None
        if method == "difference":
            a, b = order[0], order[-1]
            diff = points[a] - points[b]
            if diff > 0:
                self._pay(b, a, diff, "count", f"{points[b]}/{points[a]} points")
            elif diff < 0:
                self._pay(a, b, -diff, "count", f"{points[a]}/{points[b]} points")
            return max(order, key=lambda s: (points[s], -order.index(s)))
        par = rules.count.par
        scores = {s: points[s] - par for s in order}
        negatives = [s for s in order if scores[s] < 0]
        positives = [s for s in order if scores[s] > 0]
        if len(negatives) == 1:
            loser = negatives[0]
            for s in positives:
                self._pay(loser, s, scores[s], "count", f"{points[loser]}/{points[s]} points")
        elif len(positives) == 1:
            top = positives[0]
            for s in negatives:
                self._pay(s, top, -scores[s], "count", f"{points[s]}/{points[top]} points")
        else:
            self._settle_greedy(scores, par)
        return max(order, key=lambda s: (scores[s], -order.index(s)))

    def _score(self, points: dict[int, int], round_wins: bool) -> int | None:
        """Score-style count: each seat scores its card points; each yaku made costs every
        opposing player (or team, shared by its members) its value. With round wins, only the
        winning side scores: one round each."""
        count = self.rules.count
        units = self.teams or [[s] for s in self.order]
        net: dict[int, Amount] = dict(points)
        charges: list[tuple[int, Amount, str]] = []
        table = self.c.yaku
        if table is not None:
            for u, (maker, i, value) in self._unit_yaku(units):
                name = table.names[i]
                if name not in self.yaku_made.get(maker, ()):  # made by the count's collection
                    self.yaku_made.setdefault(maker, []).append(name)
                if not count.opponents_lose:
                    continue
                for members in (m for v, m in enumerate(units) if v != u):
                    each = share(value, len(members))
                    for m in members:
                        charges.append((m, each, name))
                        net[m] -= each
        totals = [sum(net[m] for m in members) for members in units]
        best = max(
            range(len(units)),
            key=lambda u: (totals[u], -min(self.order.index(m) for m in units[u])),
        )
        if count.tie == "draw" and totals.count(totals[best]) > 1:
            if not round_wins:
                self._score_cards(points, charges)
            return None
        self.winners = sorted(units[best], key=self.order.index)
        if round_wins:
            for m in self.winners:
                self.ledger.append(Payment(self.round_no, BANK, m, 1, "round won", "", 1, 1))
        else:
            self._score_cards(points, charges)
        return self.winners[0]

    def _score_cards(self, points: dict[int, int], charges: list[tuple[int, Amount, str]]) -> None:
        for s in self.order:
            if points[s]:
                self.ledger.append(
                    Payment(self.round_no, BANK, s, points[s], "cards", "", 1, points[s])
                )
        for m, each, name in charges:
            self.ledger.append(Payment(self.round_no, m, BANK, each, "yaku", name, 1, each))

    def _unit_yaku(self, units: list[list[int]]) -> list[tuple[int, tuple[int, int, int]]]:
        """Each side's yaku at the count, as (side, (maker, entry, value)): made from each
        member's pile, or from the side's piles together (the maker is then the member who
        holds most of its cards, the first in play order on a tie)."""
        table = self.c.yaku
        assert table is not None
        pooled = self.rules.count.team_cards == "pooled"
        out = []
        for u, members in enumerate(units):
            piles = [(m, self.captured[m]) for m in members]
            if pooled and len(members) > 1:
                together = 0
                for _, x in piles:
                    together |= x
                piles = [(-1, together)]
            for seat, x in piles:
                for i in table.counted(table.match_play(x), x):
                    maker = seat
                    if maker < 0:
                        cards = self.c.yaku_cards[i]
                        maker = max(
                            members,
                            key=lambda m: (
                                (self.captured[m] & cards).bit_count(),
                                -self.order.index(m),
                            ),
                        )
                    out.append((u, (maker, i, table.value(i, x))))
        return out

    def _settle_greedy(self, scores: dict[int, int], par: int) -> None:
        """More than one player on each side (4+ players): largest debts to largest credits."""
        debts = sorted(((-v, s) for s, v in scores.items() if v < 0), reverse=True)
        credits = sorted(((v, s) for s, v in scores.items() if v > 0), reverse=True)
        di = ci = 0
        debt = [d for d, _ in debts]
        credit = [c for c, _ in credits]
        while di < len(debts) and ci < len(credits):
            amount = min(debt[di], credit[ci])
            payer, payee = debts[di][1], credits[ci][1]
            self._pay(
                payer, payee, amount, "count", f"{scores[payer] + par}/{scores[payee] + par} points"
            )
            debt[di] -= amount
            credit[ci] -= amount
            di += debt[di] == 0
            ci += credit[ci] == 0

    def _finish(self, winner: int | None) -> None:
        fold = self.rules.fold
        for payer, base, voluntary in self.fold_fees:
            if winner is not None and payer != winner:
                reason = "fold fee" if voluntary else "forced fold"
                mult = self.multiplier if fold.times_multiplier else 1
                self.ledger.append(
                    Payment(self.round_no, payer, winner, base * mult, reason, "", mult, base)
                )
        self.winner = winner
        if not self.winners and winner is not None:
            self.winners = [winner]
        length = self.rules.length
        if length.rotate or (winner is None and not length.drawn_keeps_dealer):
            self.next_dealer = (self.dealer + 1) % self.seated
        elif winner is not None and length.winner_deals:
            self.next_dealer = winner
        self.phase = DONE

    def _pay(self, payer: int, payee: int, base: Amount, reason: str, detail: str) -> None:
        if payer == payee or not base:
            return
        mult = self.multiplier
        self.ledger.append(
            Payment(self.round_no, payer, payee, base * mult, reason, detail, mult, base)
        )

    # ------------------------------------------------------------ result
    def teyaku_names(self) -> dict[int, list[str]]:
        """The teyaku each player counts, by name (players without one left out)."""
        table = self.c.teyaku
        if table is None:
            return {}
        return {s: [table.names[i] for i in c] for s, c in self.teyaku_counted.items() if c}

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
            points=[self.ix.points(c) for c in self.captured],
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


_CONTAINERS = (
    "hands", "captured", "stock", "ledger", "pending_teyaku", "fold_fees", "folded", "hits",
    "made_value", "made_entries", "stake", "continuing", "continues", "continue_wins",
    "forfeited", "order",
    "fold_queue", "winners", "steps", "initial_hands", "initial_stock",
)  # fmt: skip
_MAPS = ("prepaid", "liable_for", "feeders", "teyaku_counted", "teyaku_revealed", "dealt_hands")


def clone(rnd: Round) -> Round:
    """An independent copy of a round (for search: the copy can be played out)."""
    twin = copy.copy(rnd)
    for name in _CONTAINERS:
        setattr(twin, name, list(getattr(rnd, name)))
    for name in _MAPS:
        setattr(twin, name, dict(getattr(rnd, name)))
    twin.yaku_made = {s: list(v) for s, v in rnd.yaku_made.items()}
    return twin
