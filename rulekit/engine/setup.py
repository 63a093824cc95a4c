"""Setup: the rule file's steps in order (ir.SetupStep), each run from the STEPS table: the
hands (dealt already), the swap with the dealer, the field, the fold phase, the joker, teyaku,
an instant win. Then play begins.

Each IR option maps to a handler in a table below (STEPS, FOLD_START, BETWEEN_PLAYERS); a test
checks that every option the IR allows has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from rulekit import ir
from rulekit.engine import ledger
from rulekit.engine.context import RoundView
from rulekit.engine.continuation import end_of_hands
from rulekit.engine.deal import deal_order, lay_field, pay_teyaku
from rulekit.engine.offers import BOTH, Tests, compile_offers, is_offered, offered
from rulekit.engine.scoring import finish
from rulekit.engine.specialise import card_bits
from rulekit.engine.state import CLAIM, DECLARE, FOLD, PLAY, SHOW, SWAP, RoundState
from rulekit.engine.tables import CompiledTable
from rulekit.errors import UsageError


def run_setup(r: RoundState) -> None:
    """Run the steps from the current one; stop at one that waits for a player or ends the
    round; when all are done, play begins. The steps run are the table size's plan
    (setup_plan: the rule file's steps less those that do nothing at this table; made with the
    round's prototype, engine.round._prototype)."""
    at = r.step
    for k, step in r.c.setup_plans[r.seated]:
        if k >= at and step(r):
            r.step = k
            return
    r.step = len(r.steps)
    begin_play(r)


def setup_plan(r: RoundState) -> tuple[tuple[int, Callable[[RoundState], bool]], ...]:
    """The round's steps, by their place in r.steps, less those that provably do nothing at
    its table size (the deal, already made; a fold phase where all who sit play; a joker not
    dealt at this size; an empty teyaku or instant-win table): the same state after each."""
    c, rules = r.c, r.rules
    nobody_folds = r.seated - rules.seats.playing(r.seated) <= 0
    idle = {
        "hands": True,
        "declare": nobody_folds and only_fold_stakes(rules),
        "fold": nobody_folds,
        "joker": r.joker_bit < 0,
        "bonus": not c.bonus,
        "teyaku": c.teyaku is None,
        "instant_win": not c.instant_wins,
    }
    return tuple(
        (k, PLAN_STEPS[name]) for k, name in enumerate(r.steps) if not idle.get(name, False)
    )


def only_fold_stakes(rules: ir.Ruleset) -> bool:
    """The declaration's stakes are all about the fold (he must join, N from each who folds):
    idle where nobody folds. One with no stake of its own is read by a condition (`declared
    NAME`): never idle."""
    d = rules.declarations[0] if rules.declarations else None
    about_fold = d is not None and (d.must_join or d.from_each_folder > 0)
    return about_fold and d is not None and d.factor == 1 and not d.award and not d.penalty


def active_seats(r: RoundState) -> list[int]:
    return [s for s in range(r.seated) if not r.folded[s]]


def _hands(r: RoundState) -> bool:
    """Dealt when the round was made."""
    return False


def _swap(r: RoundState) -> bool:
    """The player after the dealer may trade hands with him: wait for his choice (of those who
    play the round: the dealer, or who leads in his place, and the next after him), if the
    swap is offered to him (ir.Ruleset.swap_offers; his hand unseen: tested on no card)."""
    seat = swap_pair(r)[1]
    if not is_offered(r, seat, 0, "swap", r.rules.swap_offers):
        return False  # not offered: he keeps his hand, unasked
    r.phase = SWAP
    r.current = seat
    return True


def swap_pair(r: RoundState) -> tuple[int, int]:
    """The dealer (or the first after him who plays) and the next player after him who plays."""
    playing = [s for s in _rotation(r.seated, r.dealer) if not r.folded[s]]
    return playing[0], playing[1 % len(playing)]


def _field(r: RoundState) -> bool:
    lay_field(r)
    return r.void


def choose_swap(r: RoundState, swap: bool) -> None:
    """The swap step's choice made: setup goes on."""
    if swap:
        d, q = swap_pair(r)
        r.hands[d], r.hands[q] = r.hands[q], r.hands[d]
    r.step += 1
    r.phase = PLAY
    run_setup(r)


# ------------------------------------------------------------ a declaration
def _declare(r: RoundState) -> bool:
    """The rule file's declaration (ir.Declaration): wait for the next who may make it and is
    offered it (tested on his hand, or on no card before the deal); False when none is left."""
    d = r.rules.declarations[0]
    seen = d.moment != "before_deal"
    who = DECLARERS[d.by](r)
    while r.declare_at < len(who):
        seat = who[r.declare_at]
        if is_offered(r, seat, r.hands[seat] if seen else 0, "declare", d.offers):
            r.phase = DECLARE
            r.current = seat
            return True
        r.declare_at += 1  # not offered: he passes, unasked
    return False


def months_of(r: RoundState, hand: int, n: int) -> int:
    """How many months have exactly n cards in `hand`."""
    count = 0
    rest = hand
    while rest:
        low = rest & -rest
        month = r.months[low.bit_length() - 1] | low
        rest &= ~month
        if (hand & month).bit_count() == n:
            count += 1
    return count


def choose_declare(r: RoundState, declare: bool) -> None:
    """The declaration made (or not) by the current player: the next may make it, then setup
    goes on."""
    if declare:
        r.declared |= 1 << r.current
        if r.declarer < 0:
            r.declarer = r.current
        per_month = r.rules.declarations[0].factor_per_month
        if per_month:  # the factor once for each month of that size in his hand
            r.declared_times[r.current] = max(1, months_of(r, r.hands[r.current], per_month))
    r.declare_at += 1
    r.phase = PLAY
    if not _declare(r):
        r.phase = PLAY
        r.step += 1
        run_setup(r)


# ------------------------------------------------------------ a teyaku shown or kept hidden
def _show(r: RoundState) -> bool:
    """A teyaku its holder may show or keep hidden (ir.Yaku.shown): wait for the next player
    of the round, from the dealer, whose dealt hand makes one; False when none is left."""
    c = r.c
    table = c.teyaku
    assert table is not None
    who = [s for s in _rotation(r.seated, r.dealer) if not r.folded[s]]
    ctx = RoundView(r) if table.sees_round else None
    while r.show_at < len(who):
        seat = who[r.show_at]
        if ctx is not None:
            ctx.look_from(seat)
        if table.match_play(r.hands[seat], ctx) & c.shown_teyaku:
            r.phase = SHOW
            r.current = seat
            return True
        r.show_at += 1
    return False


def choose_show(r: RoundState, show: bool) -> None:
    """The current player shows his teyaku (paid in the teyaku step, its cards face up for the
    others to capture) or keeps it hidden (never paid); the next may choose, then setup goes
    on."""
    if show:
        r.showed |= 1 << r.current
    r.show_at += 1
    r.phase = PLAY
    if not _show(r):
        r.step += 1
        run_setup(r)


# ------------------------------------------------------------ the dealer's claim of the field
def _claim(r: RoundState) -> bool:
    """The dealer's option before the first play (ir.DealerClaim): asked of the dealer (or
    who leads in his place) when the field holds a month of its size; False when not."""
    if not claim_cards(r):
        return False
    r.phase = CLAIM
    r.current = leader(r)
    return True


def claim_cards(r: RoundState) -> int:
    """The cards the dealer would take now (0: none, or no claim in the rule file)."""
    claim = r.rules.dealer_claim
    return 0 if claim is None else claimed(claim, r.field, r.ix.month_masks)


def claimed(claim: ir.DealerClaim, field: int, month_masks: Sequence[int]) -> int:
    """The cards the dealer's claim takes from `field` (ir.DealerClaim): of each month with
    exactly `size` cards there, its first `take` in the deck's order (its most valuable)."""
    out = 0
    for mm in month_masks:
        month = field & mm
        if month.bit_count() == claim.size:
            for _ in range(claim.take):
                low = month & -month
                out |= low
                month ^= low
    return out


def leader(r: RoundState) -> int:
    """The dealer, or the first player after him who plays the round."""
    return next(s for s in _rotation(r.seated, r.dealer) if not r.folded[s])


def choose_claim(r: RoundState, claim: bool) -> None:
    """The dealer's claim taken (into his pile: he plays second) or declined; setup goes on."""
    if claim:
        cards = claim_cards(r)
        r.captured[r.current] |= cards
        r.field &= ~cards
        r.claimed = True
    r.phase = PLAY
    r.step += 1
    run_setup(r)


# ------------------------------------------------------------ the fold phase
def _fold_phase(r: RoundState) -> bool:
    """When more sit than play, each in turn joins or folds (wait while one must choose)."""
    out = r.seated - r.rules.seats.playing(r.seated)
    if out <= 0:
        return False
    sitters = SIT_OUT[r.rules.seats.sit_out](r, out)
    if sitters is not None:  # a rotating sit-out: no decision, no fee
        for s in sitters:
            r.folded[s] = True
        _end_fold(r)
        return False
    start = FOLD_START[r.rules.fold.start](r)
    r.fold_queue = [(start + i) % r.seated for i in range(r.seated)]
    r.fold_at = 0
    r.joined = 0
    if r.declarer >= 0 and r.rules.declarations[0].must_join:  # he joined when he declared
        r.fold_queue.remove(r.declarer)
        r.joined = 1
    _next_fold(r)
    return r.phase == FOLD


def _next_fold(r: RoundState) -> None:
    """Ask the next player, unless the choice is forced (enough joined, or too few left)."""
    need_total = r.rules.seats.playing(r.seated)
    queue = r.fold_queue
    at = r.fold_at
    while at < len(queue):
        seat = queue[at]
        need = need_total - r.joined
        if need == 0:
            _fold(r, seat, voluntary=False)
        elif len(queue) - at == need:
            r.joined += 1
        else:
            left = BOTH
            if r.rules.fold.offers:
                tests = _fold_offers(r)
                left = offered(r, seat, r.hands[seat], tests, ("join", "fold"))
            if left == BOTH:
                r.fold_at = at
                r.phase = FOLD
                r.current = seat
                return
            ALONE[left](r, seat)
        at += 1
    r.fold_at = at
    _end_fold(r)


def _fold_offers(r: RoundState) -> Tests:
    """The rule file's conditions on joining and folding, compiled on first use."""
    tests: Tests | None = r.c.fold_offers
    if tests is None:
        tests = r.c.fold_offers = compile_offers(r.rules.fold.offers, r.c.index)
    return tests


def _join_alone(r: RoundState, seat: int) -> None:
    """Joining is all he is offered: he joins."""
    r.joined += 1


def _fold_alone(r: RoundState, seat: int) -> None:
    """Folding is all he is offered: he folds, a fold the rules force (the forced fee)."""
    _fold(r, seat, voluntary=False)


# ir.Offer.option (of the join-or-fold choice) -> what the player does when that option alone
# is offered (the choice is not asked)
ALONE: dict[str, Callable[[RoundState, int], None]] = {
    "join": _join_alone,
    "fold": _fold_alone,
}


def choose_fold(r: RoundState, join: bool) -> None:
    """The current player joins or folds; setup goes on when nobody else must choose."""
    if join:
        r.joined += 1
    else:
        _fold(r, r.current, voluntary=True)
    r.fold_at += 1
    _next_fold(r)
    if r.phase != FOLD:
        r.step += 1
        run_setup(r)


def _fold(r: RoundState, seat: int, voluntary: bool) -> None:
    r.folded[seat] = True
    if voluntary and r.declarer >= 0:
        r.declare_payers.append(seat)
    fee = r.rules.fold.fee if voluntary else r.rules.fold.forced_fee
    if fee:
        r.fold_fees.append((seat, fee, voluntary))
    if not voluntary and r.rules.compensation is not None:
        amount = compensation(r, seat)
        if amount:
            r.compensations.append((seat, amount))


def compensation(r: RoundState, seat: int) -> int:
    """What `seat`, forced to fold, is paid by each payer for the hand he folds
    (ir.Compensation): so much per card of its set, times its factor when he holds what it
    asks (tested on his hand, with the round as he sees it)."""
    comp = r.rules.compensation
    assert comp is not None
    hand = r.hands[seat]
    amount = comp.per_card * (hand & r.ix.mask(comp.cards)).bit_count()
    test = r.c.compensation_test
    if amount and test is not None and test(hand & r.ix.full, RoundView(r, seat)):
        amount *= comp.factor
    return amount


def _end_fold(r: RoundState) -> None:
    """The folded hands go back into the stock, shuffled (or as written down), but for the
    cards of a written field still to be laid."""
    returned: list[int] = []
    full = r.ix.full
    cards = card_bits(full.bit_length())
    hands = r.hands
    back = full & ~r.stacked_field if not r.field_laid else full
    for s in range(r.seated):
        if r.folded[s]:
            returned.extend(cards(hands[s] & back))  # a folder's joker is out
            hands[s] = 0
    if r.stacked_restock is not None:
        r.stock = _written_restock(r)
    elif returned:
        r.stock.extend(returned)
        r.stock = [r.stock[i] for i in deal_order(r._setup_seed, len(r.stock))]
    r.restocked = r.stock[::-1]
    r.phase = PLAY


def _written_restock(r: RoundState) -> list[int]:
    """The stock after the fold of a written-down deal (top at the end): its restock, then the
    cards in no other place (no hand in play, the field, a pile) in id order, the folded hands'
    among them, as the deal's own stock is followed: every card stays in the game once."""
    full = r.ix.full
    placed = r.field | r.stacked_field
    for s in range(r.seated):
        placed |= r.hands[s] | r.captured[s]  # a folder's hand is back in no place by now
    written = r.stacked_restock or ()
    twice = [b for b in written if placed >> b & 1]
    if twice:
        cards = ", ".join(r.ix.short(r.ix.ids[b]) for b in sorted(twice))
        raise UsageError(
            f"in the restock and still in play (a hand or the field): {cards}",
            hint="the restock is the stock after the fold: the folded hands' cards and the rest",
        )
    for b in written:
        placed |= 1 << b
    ids = r.ix.ids
    rest = sorted(card_bits(full.bit_length())(full & ~placed), key=ids.__getitem__)
    return rest[::-1] + list(written)


# ------------------------------------------------------------ joker, teyaku, instant win
def _joker(r: RoundState) -> bool:
    """The joker is swapped for the top stock card (a folder's is out of the game)."""
    if r.joker_bit < 0:
        return False
    jbit = 1 << r.joker_bit
    for s in range(r.seated):
        if r.hands[s] & jbit:
            r.hands[s] &= ~jbit
            if not r.folded[s] and r.stock:
                r.hands[s] |= 1 << r.stock.pop()
    return False


def _bonus(r: RoundState) -> bool:
    """Bonus cards dealt: each player of the round (in play order from the dealer) captures
    his, lowest first, each replaced from the stock into his hand (a replacement that is one is
    captured in turn); then the player who leads captures those of the field, each replaced
    from the stock onto it."""
    bonus = r.c.bonus
    stock = r.stock
    seats = [s for s in _rotation(r.seated, r.dealer) if not r.folded[s]]
    for s in seats:
        r.hands[s], got = _replace_bonus(r.hands[s], bonus, stock)
        r.captured[s] |= got
    r.field, got = _replace_bonus(r.field, bonus, stock)
    r.captured[seats[0]] |= got
    return False


def _replace_bonus(cards: int, bonus: int, stock: list[int]) -> tuple[int, int]:
    """The bonus cards of `cards` (a hand, the field) taken out, lowest first, each replaced
    from the stock (a replacement that is one goes out in turn): (the cards, those taken out)."""
    out = 0
    while cards & bonus:
        low = cards & bonus & -(cards & bonus)
        cards ^= low
        out |= low
        if stock:
            cards |= 1 << stock.pop()
    return cards, out


Made = tuple[int, tuple[int, ...]]  # a player's teyaku: their value, the entries counted


def _teyaku(r: RoundState) -> bool:
    """Each player's dealt hand is checked; each teyaku is paid by every other player (once
    the field's multiplier is known)."""
    c = r.c
    table = c.teyaku
    if table is None:
        return False
    folded = r.folded
    # the seats in play, in seat order
    active = _seats(r.seated) if True not in folded else active_seats(r)
    made: dict[int, Made] = {}
    ctx = RoundView(r) if table.sees_round else None
    hands = r.hands
    dealt = r.dealt_hands
    teyaku_counted = r.teyaku_counted
    match = table.match_play
    counted_value = table.counted_value
    shown = c.shown_teyaku
    for s in active:
        hand = hands[s]
        dealt[s] = hand
        if ctx is not None:
            ctx.look_from(s)
        hits = match(hand, ctx)
        if shown and not r.showed >> s & 1:  # kept hidden (setup._show): not counted
            hits &= ~shown
        counted, value = counted_value(hits, hand)
        teyaku_counted[s] = counted
        if counted:
            made[s] = (value, counted)
            r.teyaku_revealed[s] = c.teyaku_cards(hand, counted)
            if shown:  # its cards stay face up in his hand: the others may capture them
                r.exposed |= c.teyaku_cards(hand, [i for i in counted if shown >> i & 1])
    if not made:
        return False
    made = BETWEEN_PLAYERS[table.between_players](made)
    payers = tuple(active)
    pending = r.pending_teyaku
    names = table.names
    for s, (value, counted) in made.items():
        flat = _flat_part(r, table, s) if table.any_flat else 0
        # every teyaku it pays for, as a yaku payment names them (`red, haneken`)
        detail = names[counted[0]] if len(counted) == 1 else ", ".join(names[i] for i in counted)
        pending.append((s, payers, value, flat, detail))
    if r.field_laid:
        pay_teyaku(r)
    return False


def _flat_part(r: RoundState, table: CompiledTable, s: int) -> int:
    """The part of s's teyaku paid as written (`; flat`)."""
    hand = r.dealt_hands[s]
    return sum(table.value(i, hand) for i in r.teyaku_counted[s] if table.flat[i])


def _instant_win(r: RoundState) -> bool:
    """A dealt hand that wins at once: the first in play order from the dealer whose hand makes
    an entry of the table is paid its value (its first entry's, if it makes several) by each
    other player, flat, and the round is over; with every hand of the round making one, as
    ir.Ruleset.instant_all says (INSTANT_ALL: the first is paid, or the round is a draw)."""
    c = r.c
    wins = c.instant_wins
    if not wins:
        return False
    seats = _rotation(r.seated, r.dealer)
    ctx = RoundView(r) if c.instant_sees_round else None  # card-only tests need none
    full = r.ix.full
    folded = r.folded
    hands = r.hands
    first: tuple[int, ir.InstantWin] | None = None  # the first hand from the dealer that wins
    every = True  # ... and whether every hand of the round does
    draws = r.rules.instant_all == "draw"
    for s in seats:
        if folded[s]:
            continue
        if ctx is not None:
            ctx.look_from(s)
        hand = hands[s] & full
        won = next((w for w, test in wins if test(hand, ctx)), None)
        if won is None:
            every = False
        elif first is None:
            first = (s, won)
        if first is not None and not (every and draws):
            break
    if first is None:
        return False
    INSTANT_ALL[r.rules.instant_all](r, first, seats, every)
    return True


def _first_wins(
    r: RoundState, first: tuple[int, ir.InstantWin], seats: tuple[int, ...], every: bool
) -> None:
    """The first hand from the dealer that wins at once is paid, whoever else's would."""
    _win_at_once(r, first[0], first[1], seats)


def _all_draw(
    r: RoundState, first: tuple[int, ir.InstantWin], seats: tuple[int, ...], every: bool
) -> None:
    """Every hand of the round wins at once: the round is a draw, nobody paid (else the
    first is paid)."""
    if not every:
        _win_at_once(r, first[0], first[1], seats)
        return
    r.order = [q for q in seats if not r.folded[q]]
    r.ended_by = "draw"
    finish(r, None)


# ir.Ruleset.instant_all -> who wins when hands win at once (every one of them, or not)
INSTANT_ALL: dict[
    str, Callable[[RoundState, tuple[int, ir.InstantWin], tuple[int, ...], bool], None]
] = {
    "first": _first_wins,
    "draw": _all_draw,
}


def _win_at_once(r: RoundState, s: int, w: ir.InstantWin, seats: tuple[int, ...]) -> None:
    """s's dealt hand makes w: each other player pays its value, and the round is over."""
    for q in seats:
        if q != s and not r.folded[q]:
            ledger.record(r, q, s, w.value, "instant win", w.name)
    r.order = [q for q in seats if not r.folded[q]]
    r.ended_by = "instant"
    finish(r, s)


def begin_play(r: RoundState) -> None:
    """Play starts with the dealer (or the first player after him who plays); after his
    claim of the field (ir.DealerClaim), with the next player."""
    folded = r.folded
    # the seats in play, from the dealer round the table
    rotation = _rotation(r.seated, r.dealer)
    r.order = order = (
        list(rotation) if True not in folded else [s for s in rotation if not folded[s]]
    )
    if r.claimed:  # the dealer took his claim of the field: he plays second
        order.append(order.pop(0))
    hands = r.hands
    total = 0
    for s in order:
        total += hands[s].bit_count()
    r.total_turns = total
    r.turn = 0
    r.pos = 0
    r.phase = PLAY
    r.current = order[0]
    if total == 0:
        end_of_hands(r)


@lru_cache(maxsize=64)
def _seats(seated: int) -> tuple[int, ...]:
    """Every seat, in order."""
    return tuple(range(seated))


@lru_cache(maxsize=256)
def _rotation(seated: int, dealer: int) -> tuple[int, ...]:
    """The seats from the dealer round the table."""
    return tuple(s % seated for s in range(dealer, dealer + seated))


def _highest(made: dict[int, Made]) -> dict[int, Made]:
    top = max(v for v, _ in made.values())
    return {s: vi for s, vi in made.items() if vi[0] == top}


# ir.SetupStep -> the step (True: setup waits for a player, or the round is over)
STEPS: dict[str, Callable[[RoundState], bool]] = {
    "hands": _hands,
    "swap": _swap,
    "field": _field,
    "fold": _fold_phase,
    "joker": _joker,
    "bonus": _bonus,
    "teyaku": _teyaku,
    "instant_win": _instant_win,
}
# the steps a round runs: the rule file's, a declaration's and the dealer's claim of the field
# (not steps a file names: engine.round.setup_steps places them)
PLAN_STEPS = {"declare": _declare, "claim": _claim, "show": _show, **STEPS}
# ir.Declaration.by -> who may declare, in the order they are asked
DECLARERS: dict[str, Callable[[RoundState], list[int]]] = {
    "dealer": lambda r: [r.dealer],
    "any": lambda r: [s for s in _rotation(r.seated, r.dealer) if not r.folded[s]],
}


def _after_the_hand(steps: list[str]) -> int:
    """After seeing the hand: after the deal, a swap (made unseen) and a fold before the
    deal; before the first of the field and the fold after it (or last, with neither)."""
    seen = [steps.index(s) for s in ("hands", "swap") if s in steps]
    start = max(seen) + 1 if seen else 0
    later = [k for k in range(start, len(steps)) if steps[k] in ("field", "fold")]
    return later[0] if later else len(steps)


# ir.Declaration.moment -> where its step goes among the setup's steps (round.setup_steps)
MOMENTS: dict[str, Callable[[list[str]], int]] = {
    "before_deal": lambda steps: 0,
    "after_hand": _after_the_hand,
    "before_play": len,
}
# ir.Fold.start -> the first seat asked to join or fold
FOLD_START: dict[str, Callable[[RoundState], int]] = {
    "dealer": lambda r: r.dealer,
    "after_dealer": lambda r: (r.dealer + 1) % r.seated,
}


def _by_the_last_round(r: RoundState, out: int) -> list[int]:
    """The seats the game chose from the last round (game.NEXT_SITTERS); in the first round
    (or a single round), the last `out` in play order from the dealer: he and the players
    after him play."""
    if r.sitters_in >= 0:
        return [s for s in range(r.seated) if r.sitters_in >> s & 1]
    return [(r.dealer + r.seated - out + i) % r.seated for i in range(out)]


# ir.Seats.sit_out -> who sits the round out, given how many must (None: each chooses, in the
# fold phase)
SIT_OUT: dict[str, Callable[[RoundState, int], list[int] | None]] = {
    "fold": lambda r, out: None,
    "after_dealer": lambda r, out: [(r.dealer + 1 + i) % r.seated for i in range(out)],
    "dealer": lambda r, out: [(r.dealer + i) % r.seated for i in range(out)],
    "loser": lambda r, out: _by_the_last_round(r, out),
    "winner": lambda r, out: _by_the_last_round(r, out),
    "in_turn": lambda r, out: _by_the_last_round(r, out),
}
# ir.YakuTable.between_players (teyaku) -> whose teyaku are paid
BETWEEN_PLAYERS: dict[str, Callable[[dict[int, Made]], dict[int, Made]]] = {
    "all": lambda made: made,
    "highest": _highest,
}
