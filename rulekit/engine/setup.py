"""Setup: the rule file's steps in order (ir.SetupStep), each run from the STEPS table: the
hands (dealt already), the swap with the dealer, the field, the fold phase, the joker, teyaku,
an instant win. Then play begins.

Each IR option maps to a handler in a table below (STEPS, FOLD_START, BETWEEN_PLAYERS); a test
checks that every option the IR allows has one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rulekit.cards import bits
from rulekit.engine import ledger
from rulekit.engine.context import RoundView
from rulekit.engine.continuation import end_of_hands
from rulekit.engine.deal import deal_order, lay_field
from rulekit.engine.scoring import finish
from rulekit.engine.state import FOLD, PLAY, SWAP, RoundState
from rulekit.engine.tables import CompiledTable


def run_setup(r: RoundState) -> None:
    """Run the steps from the current one; stop at one that waits for a player or ends the
    round; when all are done, play begins."""
    steps = r.steps
    while r.step < len(steps):
        if STEPS[steps[r.step]](r):
            return
        r.step += 1
    begin_play(r)


def active_seats(r: RoundState) -> list[int]:
    return [s for s in range(r.seated) if not r.folded[s]]


def _hands(r: RoundState) -> bool:
    """Dealt when the round was made."""
    return False


def _swap(r: RoundState) -> bool:
    """The player after the dealer may trade hands with him: wait for his choice."""
    r.phase = SWAP
    r.current = (r.dealer + 1) % r.seated
    return True


def _field(r: RoundState) -> bool:
    lay_field(r)
    return r.void


def choose_swap(r: RoundState, swap: bool) -> None:
    """The swap step's choice made: setup goes on."""
    if swap:
        d, q = r.dealer, r.current
        r.hands[d], r.hands[q] = r.hands[q], r.hands[d]
    r.step += 1
    r.phase = PLAY
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
    _next_fold(r)
    return r.phase == FOLD


def _next_fold(r: RoundState) -> None:
    """Ask the next player, unless the choice is forced (enough joined, or too few left)."""
    need_total = r.rules.seats.playing(r.seated)
    while r.fold_at < len(r.fold_queue):
        seat = r.fold_queue[r.fold_at]
        remaining = len(r.fold_queue) - r.fold_at
        need = need_total - r.joined
        if need == 0:
            _fold(r, seat, voluntary=False)
        elif remaining == need:
            r.joined += 1
        else:
            r.phase = FOLD
            r.current = seat
            return
        r.fold_at += 1
    _end_fold(r)


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
    fee = r.rules.fold.fee if voluntary else r.rules.fold.forced_fee
    if fee:
        r.fold_fees.append((seat, fee, voluntary))


def _end_fold(r: RoundState) -> None:
    """The folded hands go back into the stock, shuffled (or as written down)."""
    returned: list[int] = []
    for s in range(r.seated):
        if r.folded[s]:
            returned.extend(bits(r.hands[s] & r.ix.full))  # a folder's joker is out
            r.hands[s] = 0
    if r.stacked_restock is not None:
        r.stock = list(r.stacked_restock)
    elif returned:
        r.stock.extend(returned)
        r.stock = [r.stock[i] for i in deal_order(r._setup_seed, len(r.stock))]
    r.restocked = r.stock[::-1]
    r.phase = PLAY


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


def _teyaku(r: RoundState) -> bool:
    """Each player's dealt hand is checked; each teyaku is paid by every other player (once
    the field's multiplier is known)."""
    table = r.c.teyaku
    if table is None:
        return False
    active = active_seats(r)
    made: dict[int, tuple[int, int]] = {}
    ctx = RoundView(r) if table.sees_round else None
    hands = r.hands
    match = table.match_play
    for s in active:
        hand = hands[s]
        r.dealt_hands[s] = hand
        if ctx is not None:
            ctx.look_from(s)
        counted, value = table.counted_value(match(hand, ctx), hand)
        r.teyaku_counted[s] = counted
        if counted:
            made[s] = (value, counted[0])
            r.teyaku_revealed[s] = r.c.teyaku_cards(hand, counted)
    if not made:
        return False
    if r.rules.teyaku is not None:
        made = BETWEEN_PLAYERS[r.rules.teyaku.between_players](made)
    payers = tuple(active)
    for s, (value, i) in made.items():
        flat = _flat_part(r, table, s) if table.any_flat else 0
        r.pending_teyaku.append((s, payers, value, flat, table.names[i]))
    if r.field_laid:
        pay_teyaku(r)
    return False


def _flat_part(r: RoundState, table: CompiledTable, s: int) -> int:
    """The part of s's teyaku paid as written (`; flat`)."""
    hand = r.dealt_hands[s]
    return sum(table.value(i, hand) for i in r.teyaku_counted[s] if table.flat[i])


def pay_teyaku(r: RoundState) -> None:
    """The teyaku, once the field's multiplier is known: each paid by every other player of
    the round, or (a split table) its value shared between them."""
    table = r.c.teyaku
    assert table is not None
    for s, payers, value, flat, name in r.pending_teyaku:
        ledger.pay_parts(r, list(payers), s, value, flat, "teyaku", name, table.split)
    r.pending_teyaku.clear()


def _instant_win(r: RoundState) -> bool:
    """A dealt hand that wins at once: the first in play order from the dealer whose hand makes
    an entry of the table is paid its value (its highest entry's, if it makes several) by each
    other player, flat, and the round is over."""
    wins = r.c.instant_wins
    if not wins:
        return False
    seats = _rotation(r.seated, r.dealer)
    ctx = RoundView(r) if r.c.instant_sees_round else None  # card-only tests need none
    full = r.ix.full
    folded = r.folded
    hands = r.hands
    for s in seats:
        if folded[s]:
            continue
        if ctx is not None:
            ctx.look_from(s)
        hand = hands[s] & full
        spec = None
        for w, test in wins:
            if test(hand, ctx):
                spec = w
                break
        if spec is None:
            continue
        for q in seats:
            if q != s and not r.folded[q]:
                ledger.record(r, q, s, spec.value, "instant win", spec.name)
        r.order = [q for q in seats if not r.folded[q]]
        r.ended_by = "instant"
        finish(r, s)
        return True
    return False


def begin_play(r: RoundState) -> None:
    """Play starts with the dealer (or the first player after him who plays)."""
    folded = r.folded
    # the seats in play, from the dealer round the table
    rotation = _rotation(r.seated, r.dealer)
    r.order = order = (
        list(rotation) if True not in folded else [s for s in rotation if not folded[s]]
    )
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


@lru_cache(maxsize=256)
def _rotation(seated: int, dealer: int) -> tuple[int, ...]:
    """The seats from the dealer round the table."""
    return tuple(s % seated for s in range(dealer, dealer + seated))


def _highest(made: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    top = max(v for v, _ in made.values())
    return {s: vi for s, vi in made.items() if vi[0] == top}


# ir.SetupStep -> the step (True: setup waits for a player, or the round is over)
STEPS: dict[str, Callable[[RoundState], bool]] = {
    "hands": _hands,
    "swap": _swap,
    "field": _field,
    "fold": _fold_phase,
    "joker": _joker,
    "teyaku": _teyaku,
    "instant_win": _instant_win,
}
# ir.Fold.start -> the first seat asked to join or fold
FOLD_START: dict[str, Callable[[RoundState], int]] = {
    "dealer": lambda r: r.dealer,
    "after_dealer": lambda r: (r.dealer + 1) % r.seated,
}
# ir.Seats.sit_out -> who sits the round out, given how many must (None: each chooses, in the
# fold phase)
SIT_OUT: dict[str, Callable[[RoundState, int], list[int] | None]] = {
    "fold": lambda r, out: None,
    "after_dealer": lambda r, out: [(r.dealer + 1 + i) % r.seated for i in range(out)],
    "dealer": lambda r, out: [(r.dealer + i) % r.seated for i in range(out)],
}
# ir.YakuTable.between_players (teyaku) -> whose teyaku are paid
BETWEEN_PLAYERS: dict[str, Callable[[dict[int, tuple[int, int]]], dict[int, tuple[int, int]]]] = {
    "all": lambda made: made,
    "highest": _highest,
}
