"""The turn: legal plays, playing a hand card (a match, a choice of two, the wild card, a hiki),
the draw, a take, the yaku check at the end of the turn, and the next player.

This is the hot path: few calls per turn, plain ints, the action codec's constants inlined.
A round with no wild card and no hiki (CompiledRules.plain) takes a shorter road: its plays
come from generated tables (engine/specialise.py) and a turn is one call, play_plain (the play,
the draw and the yaku check inlined, then advance); the general functions give the same
results for it, and name the fault of a refused action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulekit.cards import bits
from rulekit.engine.actions import (
    ACCEPT,
    CARD_MASK,
    CLAIM,
    CONTINUE,
    DECLARE,
    FOLD,
    HIKI,
    JOIN,
    KEEP,
    OFFER,
    PASS,
    REFUSE,
    SHOW,
    SKIP,
    STOP,
    SWAP,
    TAKE,
    describe,
)
from rulekit.engine.actions import TARGET_SHIFT as SHIFT
from rulekit.engine.chance import Chance
from rulekit.engine.context import RoundView
from rulekit.engine.continuation import changed, end_of_hands, made, plan
from rulekit.engine.draw_offer import may_offer, offer
from rulekit.engine.events import at_turn_end
from rulekit.engine.offers import is_offered
from rulekit.engine.riders import ON_PAIR, follow, riding
from rulekit.engine.specialise import compile_turns
from rulekit.engine.state import ANSWER as ANSWER_PHASE
from rulekit.engine.state import CLAIM as CLAIM_PHASE
from rulekit.engine.state import COUNT, DECIDE, DONE, PLAY, RoundState
from rulekit.engine.state import DECLARE as DECLARE_PHASE
from rulekit.engine.state import FOLD as FOLD_PHASE
from rulekit.engine.state import SHOW as SHOW_PHASE
from rulekit.engine.state import SWAP as SWAP_PHASE
from rulekit.engine.state import TAKE as TAKE_PHASE
from rulekit.engine.tables import CompiledTable
from rulekit.errors import MoveError

# the phases that ask one of two answers, and them, in the order the bots and the kernel
# (batch/kernel/rounds.two_answers) list them
TWO_ANSWERS = {
    DECIDE: (STOP, CONTINUE),
    FOLD_PHASE: (JOIN, FOLD),
    SWAP_PHASE: (SWAP, KEEP),
    DECLARE_PHASE: (DECLARE, PASS),
    CLAIM_PHASE: (CLAIM, PASS),
    SHOW_PHASE: (SHOW, PASS),
    ANSWER_PHASE: (ACCEPT, REFUSE),
}


def legal_actions(r: RoundState) -> list[int]:
    """Every action the current player may take now."""
    phase = r.phase
    if phase == PLAY and r.c.plain:  # no wild card, no hiki: generated (engine/specialise.py)
        return r.c.plays(r.hands[r.current], r.field)
    if phase == PLAY:
        hand = r.hands[r.current]
        field_ = r.field | shown_to(r, r.current)  # (the wild card takes field cards only)
        months = r.months
        wild_bit = r.wild_bit
        lone = r.c.lone
        out = hiki_actions(r) if r.hiki else []
        if r.c.bomb is not None:
            out = bomb_actions(r)
            if r.skips[r.current]:
                out.append(SKIP)
        while hand:
            low = hand & -hand
            b = low.bit_length() - 1
            hand ^= low
            if low & lone:  # it goes to his pile: one play
                out.append(b)
                continue
            if b == wild_bit:
                targets = wild_targets(r)
                out.extend(b | ((t + 1) << SHIFT) for t in bits(targets))
                if wild_may_lay(r, targets):
                    out.append(b)
                continue
            m = field_ & months[b]
            if m and m.bit_count() == 2:
                lo = m & -m
                out.append(b | ((lo.bit_length()) << SHIFT))
                out.append(b | (((m ^ lo).bit_length()) << SHIFT))
            else:
                out.append(b)
        if r.c.draw_offer is not None and may_offer(r, r.current, out, lambda a: preview(r, a)):
            out.append(OFFER)  # (last: a draw offered at the start of his turn)
        return out
    if phase == TAKE_PHASE:
        return [TAKE + b for b in bits(take_targets(r))]
    if phase in TWO_ANSWERS:
        return list(TWO_ANSWERS[phase])
    if phase == COUNT:
        return list(r.count_offer)  # (engine/asking.py: the better reading first)
    return []


def shown_to(r: RoundState, p: int) -> int:
    """The shown teyaku cards p may capture as field cards (ir.Yaku.shown): those the other
    players still hold (his own he may only play)."""
    return r.exposed & ~r.hands[p]


def take_shown(r: RoundState, cards: int) -> None:
    """Shown teyaku cards captured from the other players' hands."""
    r.exposed &= ~cards
    hands = r.hands
    for s in range(len(hands)):
        hands[s] &= ~cards


def hiki_actions(r: RoundState) -> list[int]:
    """Every month all of whose cards the player sees, holding at least one of them (none
    when a hiki is not offered to him: ir.Ruleset.hiki_offers)."""
    hand = r.hands[r.current]
    seen = hand | r.field
    out = [HIKI + i for i, mm in enumerate(r.ix.month_masks) if hand & mm and seen & mm == mm]
    if out and not is_offered(r, r.current, hand, "hiki", r.rules.hiki_offers):
        return []
    return out


def bomb_actions(r: RoundState) -> list[int]:
    """Every month of which the hand holds exactly the bomb's number of cards (ir.Bomb.hand)
    and the field all the others."""
    hand = r.hands[r.current]
    seen = hand | r.field
    n = r.c.bomb.hand if r.c.bomb is not None else 0
    return [
        HIKI + i
        for i, mm in enumerate(r.ix.month_masks)
        if (hand & mm).bit_count() == n and seen & mm == mm
    ]


def hiki_months(r: RoundState, seat: int) -> int:
    """The cards of every month a seat could hiki now (none when it is not offered to him)."""
    hand = r.hands[seat]
    seen = hand | r.field
    out = 0
    if not is_offered(r, seat, hand, "hiki", r.rules.hiki_offers):
        return 0
    for mm in r.ix.month_masks:
        if hand & mm and seen & mm == mm:
            out |= mm
    return out


def wild_targets(r: RoundState) -> int:
    """Field cards the wild card may take: any, except one that completes another player's
    hiki (that player announces it)."""
    targets = wild_field(r)
    wild = r.rules.wild
    if wild is not None and wild.respects_hiki and r.hiki:
        for q in r.order:
            if q != r.current:
                targets &= ~hiki_months(r, q)
    return targets


def wild_field(r: RoundState) -> int:
    """The field cards the wild card may take before a hiki blocks any: every one, or those not
    of its own month (`cannot take its own month`)."""
    wild = r.rules.wild
    if wild is not None and wild.not_own_month:
        return r.field & ~r.months[r.ix.bit[wild.card]]
    return r.field


def take_targets(r: RoundState) -> int:
    """The field cards the drawn card may take in the take phase: the two of its month, or
    the drawn wild card's targets (`captures any field card when drawn`)."""
    if wild_drawn(r):
        return wild_targets(r)
    return (r.field | shown_to(r, r.current)) & r.months[r.drawn]


def wild_drawn(r: RoundState) -> bool:
    """Whether the take phase's drawn card is the wild card choosing its target."""
    wild = r.rules.wild
    return r.drawn == r.c.wild_draw and wild is not None and wild.drawn_any_target


def wild_may_lay(r: RoundState, targets: int) -> bool:
    """The wild card may be laid on the field when it has no target left, or (if the rules
    say so) when a hiki blocks one of its targets."""
    if not targets:
        return True
    wild = r.rules.wild
    return wild is not None and wild.lay_when_blocked and targets != wild_field(r)


def illegal(r: RoundState, action: int, why: str) -> MoveError:
    """The error for a refused action, naming the legal ones."""
    choice = r.rules.owners_choice
    legal = ", ".join(describe(a, r.ix, choice) for a in legal_actions(r))
    return MoveError(
        f"{why}: {describe(action, r.ix, choice) if action >= 0 else action}",
        hint=f"legal: {legal or 'none (the round is over)'}",
    )


def play(r: RoundState, action: int) -> None:
    """The first half of a turn: a hand card played (or a hiki), then the draw."""
    if (r.hiki or r.c.bomb is not None) and HIKI <= action < HIKI + len(r.ix.month_masks):
        hiki(r, action)
        return
    if action == SKIP:
        skip(r)
        return
    if action == OFFER:
        if OFFER not in legal_actions(r):
            raise illegal(r, action, f"seat {r.current} may not offer a draw now")
        offer(r)
        return
    if not 0 <= action < TAKE:
        raise illegal(r, action, f"seat {r.current} must play a card")
    p = r.current
    b = action & CARD_MASK
    t = (action >> SHIFT) - 1
    hand = r.hands[p]
    bit = 1 << b
    if not hand & bit:
        raise illegal(r, action, f"seat {p} does not hold that card")
    field_ = r.field
    shown = shown_to(r, p) & ~bit  # (the card he plays leaves his hand)
    if bit & r.c.lone:  # a lone card: to his pile, taking nothing
        if t >= 0:
            raise illegal(r, action, "a lone card takes nothing: play it alone")
        r.hands[p] = hand ^ bit
        draw(r, p, field_, bit, 0)
        return
    if b == r.wild_bit:
        m = wild_play(r, b, t)
        n = m.bit_count()
    else:
        m = (field_ | shown) & r.months[b]  # a shown card is taken as a field card
        n = m.bit_count()
        if n == 2:
            if t < 0 or not m >> t & 1:
                where = "cards (on the field or shown)" if m & shown else "field cards"
                raise illegal(r, action, f"two {where} match: choose which to capture")
            m = 1 << t
        elif t >= 0:
            raise illegal(r, action, "a capture target is only chosen when two field cards match")
    r.hands[p] = hand ^ bit
    if r.exposed:  # his own shown card played, or another's captured
        r.exposed &= ~bit
        if m & shown:
            take_shown(r, m & shown)
    if r.c.events:  # what the hand card did (engine/events.py)
        r.turn_whole = 0
        r.turn_laid = 0 if n else bit
        r.turn_played_took = m if n else 0
    if n == 0:
        if r.track_feeders:
            r.feeders[b] = (p, hand.bit_count())
        draw(r, p, field_ | bit, 0, 0)
    else:
        draw(r, p, field_ & ~m, m | bit, m)


def play_plain(r: RoundState, action: int) -> None:
    """play() for a round with no hiki and no wild card (CompiledRules.plain): the same effects
    with fewer tests. A refused action goes to play(), which names the fault."""
    p = r.current
    hands = r.hands
    hand = hands[p]
    b = action & CARD_MASK
    if not (0 <= action < TAKE and hand >> b & 1):
        return play(r, action)
    months = r.months
    field_ = r.field
    bit = 1 << b
    m = field_ & months[b]
    if m:
        if m.bit_count() == 2:
            t = (action >> SHIFT) - 1
            if t < 0 or not m >> t & 1:
                return play(r, action)
            m = 1 << t
        elif action >> SHIFT:
            return play(r, action)
        field_ &= ~m
        got = m | bit
        fed = m
    else:
        if action >> SHIFT:
            return play(r, action)
        if r.track_feeders:
            r.feeders[b] = (p, hand.bit_count())
        field_ |= bit
        got = fed = 0
    hands[p] = hand ^ bit
    # draw(), inlined (tests/test_engine_specialise.py holds the two to the same effects)
    stock = r.stock
    if stock:
        d = stock.pop()
        m2 = field_ & months[d]
        if not m2:
            field_ |= 1 << d
        elif m2.bit_count() == 2:
            r.drawn = d
            r.phase = TAKE_PHASE
        else:
            field_ &= ~m2
            got |= m2 | (1 << d)
            fed |= m2
    r.field = field_
    r.turn_got = got
    r.fed_this_turn = fed
    if got:
        captured = r.captured
        x = captured[p] = captured[p] | got
        if r.phase != PLAY:  # the drawn card waits for a take
            return None
        # end_turn(), inlined: the yaku check (then the next player: advance)
        table = r.c.yaku
        if table is not None and not r.forfeited[p]:
            hits = table.match_play(x, RoundView(r, p)) if table.sees_round else table.match_play(x)
            seen = r.hits[p]
            if (hits or seen) and (hits != seen or table.has_bonus):
                yaku_check(r, p, table, hits, x)
                if r.phase != PLAY:
                    return None
    elif r.phase != PLAY:
        return None
    advance(r)
    return None


def advance(r: RoundState) -> None:
    """play_plain's last step, after a turn whose yaku check left the round in play: the next
    player in order, or next_turn's search when he holds no card."""
    order = r.order
    pos = r.pos + 1
    if pos == len(order):
        pos = 0
    s = order[pos]
    if r.hands[s] or (r.skips and r.skips[s]):  # (a play to skip after a bomb: a turn)
        r.turn += 1
        r.pos = pos
        r.current = s
        return
    next_turn(r)


def draw(r: RoundState, p: int, field_: int, got: int, fed: int) -> None:
    """The second half of p's turn, after his play left the field `field_` and took `got`
    (`fed` of it from the field): draw the top stock card and capture with it, then end the
    turn, unless the drawn card matches two field cards and p must choose one."""
    draw_card(r, p, field_, got, fed)
    if r.phase == PLAY:
        end_turn(r)


def draw_card(r: RoundState, p: int, field_: int, got: int, fed: int) -> None:
    """draw() but the turn's end: the top stock card drawn and played (a bonus card, a lone
    card, the wild card, the stacking draw), the field, p's pile and the turn's cards set; a
    take waits in the TAKE phase. A stock turn (`play out the stock`) draws so too."""
    stock = r.stock
    events = r.c.events
    if events:  # what the drawn card did (engine/events.py)
        r.turn_drawn_took = r.turn_stacked = 0
    shown = shown_to(r, p) if r.exposed else 0
    while stock:
        d = stock.pop()
        if r.c.bonus >> d & 1:  # a bonus card drawn: to his pile, and he draws again
            got |= 1 << d
            continue
        m2 = (field_ | shown) & r.months[d]  # a shown card is taken as a field card
        w = r.c.wild_draw
        wild = r.rules.wild if w >= 0 else None
        pair = got & ~r.c.lone  # what the hand card took (not a bonus card drawn since)
        # the wild card drawn (`captures any field card when drawn`): its targets stand for its
        # month's cards, and p chooses among two or more
        any_drawn = wild is not None and wild.drawn_any_target and d == w
        if any_drawn:
            r.field = field_
            m2 = wild_targets(r)
        if r.c.lone >> d & 1:  # a lone card drawn: to his pile
            got |= 1 << d
        elif wild is not None and wild.taken_by_draw and field_ >> w & 1 and not m2 >> w & 1:
            field_ &= ~(1 << w)  # the wild card on the field: the drawn card takes it
            got |= (1 << w) | (1 << d)
            fed |= 1 << w
        elif wild is not None and wild.sweeps_when_last and d == w and not stock:
            got |= field_ | (1 << d)  # drawn last: it takes the whole field
            fed |= field_
            field_ = 0
        elif not m2:
            if r.c.stacks and pair.bit_count() == 2 and r.months[d] & pair == pair:
                # the drawn card joins the pair the hand card just took: the three stay (and
                # the bonus cards drawn onto the pair, where they ride the stack: riders.py)
                r.turn_stacked = pair | (1 << d)
                riders = ON_PAIR[r.rules.bonus_on_pair](r, r.turn_stacked, got & r.c.bonus)
                field_ |= r.turn_stacked | riders
                got &= ~(pair | riders)
                fed = 0
            else:
                field_ |= 1 << d
        elif m2.bit_count() == 2 or (any_drawn and m2 & (m2 - 1)):  # p chooses (take)
            r.drawn = d
            r.phase = TAKE_PHASE
        else:
            field_ &= ~m2
            got |= m2 | (1 << d)
            fed |= m2
            if m2 & shown:
                take_shown(r, m2 & shown)
            if events:
                r.turn_drawn_took = m2
            if any_drawn:  # the wild card's capture (its month collected at the end)
                r.wild_owner = p
                r.wild_month = r.months[m2.bit_length() - 1]
        break
    if r.rides:  # a stack taken: its riders with it (riders.py)
        field_, gone = follow(r, field_)
        got |= gone
    r.field = field_
    r.captured[p] |= got
    r.turn_got = got
    r.fed_this_turn = fed


def wild_play(r: RoundState, b: int, t: int) -> int:
    """The wild card played from the hand: the field card it takes (0: laid on the field)."""
    targets = wild_targets(r)
    if t < 0:
        if not wild_may_lay(r, targets):
            raise illegal(r, b, "the wild card takes a field card: choose which")
        return 0
    if not targets >> t & 1:
        blocked = r.field >> t & 1
        why = (
            "that card completes another player's hiki" if blocked else "no such card on the field"
        )
        if blocked and not wild_field(r) >> t & 1:
            why = "the wild card may not take a card of its own month"
        raise illegal(r, b | ((t + 1) << SHIFT), why)
    r.wild_owner = r.current
    r.wild_month = r.months[t]
    return 1 << t


def hiki(r: RoundState, action: int) -> None:
    """Capture every card of a month (from the hand and the field), then draw. A bomb
    (ir.Bomb) is played so: its cards from the hand, the rest from the field; the player may
    then skip the play on later turns."""
    p = r.current
    mm = r.ix.month_masks[action - HIKI]
    hand = r.hands[p]
    field_ = r.field
    bomb = r.c.bomb
    if bomb is not None:
        if (hand & mm).bit_count() != bomb.hand or (hand | field_) & mm != mm:
            why = (
                f"seat {p} does not hold {bomb.hand} cards of that month with the rest on the field"
            )
            raise illegal(r, action, why)
        r.skips[p] += bomb.skips
    else:
        if not hand & mm or (hand | field_) & mm != mm:
            raise illegal(r, action, f"seat {p} does not see every card of that month")
        if not is_offered(r, p, hand, "hiki", r.rules.hiki_offers):
            raise illegal(r, action, f"a hiki is not offered to seat {p} now")
    r.hands[p] = hand & ~mm
    r.exposed &= ~mm
    if r.c.events:  # (no card of the turn's events: the month taken whole)
        r.turn_laid = r.turn_played_took = 0
        r.turn_whole = mm
    draw(r, p, field_ & ~mm, mm, field_ & mm)


def skip(r: RoundState) -> None:
    """A play skipped after a bomb (ir.Bomb.skips): no hand card, only the draw."""
    p = r.current
    if not r.skips or not r.skips[p]:
        raise illegal(r, SKIP, f"seat {p} has no play to skip")
    r.skips[p] -= 1
    r.turn_laid = r.turn_played_took = r.turn_whole = 0
    draw(r, p, r.field, 0, 0)


def preview(r: RoundState, action: int) -> int:
    """The cards a play would capture (before the draw), for bots weighing their choices."""
    if action in (SKIP, OFFER):
        return 0
    if HIKI <= action < HIKI + len(r.ix.month_masks):
        return r.ix.month_masks[action - HIKI]
    if r.phase == TAKE_PHASE:
        return (1 << (action - TAKE)) | (1 << r.drawn)
    b = action & CARD_MASK
    t = (action >> SHIFT) - 1
    if t >= 0:
        return (1 << t) | (1 << b)
    if r.c.lone >> b & 1:  # a lone card: itself
        return 1 << b
    m = (r.field | shown_to(r, r.current)) & r.months[b]
    if m and r.rides:  # a stack's riders with it (riders.py)
        m |= riding(r, m)
    return m | (1 << b) if m else 0


def previews(r: RoundState, actions: list[int]) -> list[int]:
    """preview() of each action, in one pass (a bot weighs every play of its turn)."""
    if r.phase != PLAY or r.hiki or r.c.bomb is not None or r.c.lone or r.exposed:
        return [preview(r, a) for a in actions]
    field_ = r.field
    months = r.months
    out = []
    for a in actions:
        b = a & CARD_MASK
        if a >> SHIFT:  # a chosen target
            out.append((1 << ((a >> SHIFT) - 1)) | (1 << b))
        else:
            m = field_ & months[b]
            out.append(m | (1 << b) if m else 0)
    return out


def take(r: RoundState, action: int) -> None:
    """The drawn card matched two field cards: capture the one chosen, end the turn."""
    t = action - TAKE
    m = take_targets(r)
    wild = wild_drawn(r)
    if not 0 <= t < 64 or not m >> t & 1:
        what = "the drawn wild card's targets" if wild else "the two matching field cards"
        raise illegal(r, action, f"seat {r.current} must take one of {what}")
    if wild:  # the wild card's capture (its month collected at the end)
        r.wild_owner = r.current
        r.wild_month = r.months[t]
    r.field &= ~(1 << t)
    if r.exposed >> t & 1:  # another player's shown card
        take_shown(r, 1 << t)
    got = (1 << t) | (1 << r.drawn)
    if r.rides:  # (a card of a stack taken: its riders with it, riders.py)
        r.field, gone = follow(r, r.field)
        got |= gone
    r.captured[r.current] |= got
    r.turn_got |= got
    r.fed_this_turn |= 1 << t
    if r.c.events:
        r.turn_drawn_took = 1 << t
    r.drawn = -1
    r.phase = PLAY
    end_turn(r)


def end_turn(r: RoundState) -> None:
    """Check the player's yaku when he captured; a better one is made; then the next turn
    (advance: the next player in order, when he holds cards)."""
    if not turn_checks(r):
        advance(r)


def turn_checks(r: RoundState) -> bool:
    """The turn's end before the next player: its events, then the player's yaku check when he
    captured (a better one is made). True when that left the play phase."""
    p = r.current
    table = r.c.yaku
    if r.c.events:  # (cards given to him count in his yaku check)
        r.turn_got |= at_turn_end(r)
        if r.phase == DONE:  # an event won the round
            return True
    if r.turn_got and table is not None and not r.forfeited[p]:
        x = r.captured[p]
        hits = table.match_play(x, RoundView(r, p)) if table.sees_round else table.match_play(x)
        if (hits or r.hits[p]) and (hits != r.hits[p] or table.has_bonus):
            yaku_check(r, p, table, hits, x)
            return r.phase != PLAY
    return False


def yaku_check(r: RoundState, p: int, table: CompiledTable, hits: int, x: int) -> None:
    """p's yaku table matches differently (`hits`, on his pile `x`): a rise over what he
    last made is made (a stop-or-continue choice, or the round's end); a yaku lost changes
    what he has made."""
    r.hits[p] = hits
    counted, value = table.counted_value(hits, x)
    if value > plan(r).bar(r, p):  # a real rise over what was last made (after_loss)
        made(r, p, counted, value)
    elif counted != r.made_entries[p]:  # a yaku lost (a condition no longer holds)
        changed(r, p, counted, value)


def next_turn(r: RoundState) -> None:
    """The next player in order who still holds cards; the count when nobody does."""
    r.turn += 1
    order = r.order
    hands = r.hands
    n = len(order)
    if r.rules.still_draws:  # `the player with no hand card still draws`, while anyone holds one
        while r.stock and any(hands[s] for s in order):
            s = order[(r.pos + 1) % n]
            if hands[s] or (r.skips and r.skips[s]):
                r.pos = (r.pos + 1) % n
                r.current = s
                r.phase = PLAY
                return
            if stock_turn(r):  # his turn: the draw alone
                return
            r.turn += 1
    pos = r.pos
    for k in range(1, n + 1):
        s = order[(pos + k) % n]
        if hands[s] or (r.skips and r.skips[s]):
            r.pos = (pos + k) % n
            r.current = s
            r.phase = PLAY
            return
    while r.rules.play_out_stock and r.stock:  # `play out the stock`
        if stock_turn(r):
            return
        r.turn += 1
    end_of_hands(r)


def stock_turn(r: RoundState) -> bool:
    """Nobody holds a card (`play out the stock`): the next player in order draws the top card
    and plays it, the second half of a turn with no hand card (as skip: draw_card, then the
    turn's events and yaku check). True when the turn waits for a take, or a yaku left the
    play phase; the next stock turn is next_turn's."""
    order = r.order
    pos = r.pos + 1
    if pos == len(order):
        pos = 0
    r.pos = pos
    p = r.current = order[pos]
    r.phase = PLAY
    r.turn_laid = r.turn_played_took = r.turn_whole = 0
    draw_card(r, p, r.field, 0, 0)
    return r.phase != PLAY or turn_checks(r)


# a player's choice among the plays of a plain round: (legal plays, field, his pile, the value
# he has made) -> one of the plays
PlainChoice = Callable[[list[int], int, int, int], int]


def plain_turns(r: RoundState, choose: Sequence[PlainChoice]) -> None:
    """Play the turns of a plain round (CompiledRules.plain, yaku tables that see only the
    cards) while it is in its play phase, choose[seat] choosing each play: the turn of
    play_plain with the round's state in local variables, for players that need no view.

    A turn is worked out on the locals first. A turn that goes on to the next player is
    committed here; a take leaves the round as play_plain leaves it (the draw waiting); a yaku
    made, lost or raised commits the turn and runs play_plain's yaku_check; a refused action
    is handed to play_plain, from the state before it, which names the fault; the hands played
    out go to next_turn. tests/test_engine_plain_turns.py holds this to the moves, ledgers and
    state of play through views, turn for turn. The loop is written for each rule file
    (specialise.compile_turns), its options decided there."""
    c = r.c
    plays = c.plays
    table = c.yaku
    if table is not None and table.sees_round:  # its yaku read the round: no locals
        while r.phase == PLAY:
            p = r.current
            legal = plays(r.hands[p], r.field)
            play_plain(r, choose[p](legal, r.field, r.captured[p], r.made_value[p]))
        return
    turns = c.plain_turns_code
    if turns is None:
        turns = c.plain_turns_code = _compile_turns(r, uniform=False)
    turns(r, choose)


def uniform_turns(r: RoundState, draws: Sequence[Chance]) -> None:
    """plain_turns for players who each choose uniformly among the legal actions from their
    own chance (draws[seat]; playout.UniformPlayer): legal[draws[p].below(len(legal))] written
    into the loop, and a take drawn in its turn rather than left to the caller. The round ends
    its play phase as plain_turns, then `take`, would leave it (tests/test_engine_uniform.py
    holds the two to the same state and the same digits drawn)."""
    c = r.c
    table = c.yaku
    if table is not None and table.sees_round:  # its yaku read the round: no locals
        plays = c.plays
        while r.phase == PLAY:
            legal = plays(r.hands[r.current], r.field)
            play_plain(r, legal[draws[r.current].below(len(legal))])
        return
    turns = c.uniform_turns_code
    if turns is None:
        turns = c.uniform_turns_code = _compile_turns(r, uniform=True)
    turns(r, draws)


def _compile_turns(r: RoundState, *, uniform: bool) -> Callable[[RoundState, object], None]:
    """The round's rule file's turn loop (specialise.compile_turns), with capture's helpers."""
    c = r.c
    table = c.yaku
    return compile_turns(
        c.index,
        c.plays,
        track=bool(c.liable),
        match=table.match_play_inline if table is not None else None,
        bonus=table is not None and table.has_bonus,
        helpers={
            "next_turn": next_turn,
            "play_plain": play_plain,
            "yaku_check": yaku_check,
            "advance": advance,
            "rises": _rises,
            "table": table,
            "PLAY": PLAY,
            "TAKE": TAKE_PHASE,
        },
        uniform=uniform,
    )


def _rises(r: RoundState, p: int, hits: int, x: int) -> bool:
    """Whether yaku_check, with the same hits on the pile `x`, would change what p made (a
    bonus card can raise a yaku's value)."""
    table = r.c.yaku
    assert table is not None
    counted, value = table.counted_value(hits, x)
    return value > plan(r).bar(r, p) or counted != r.made_entries[p]
