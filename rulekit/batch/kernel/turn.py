"""The turn (engine/capture.py): the plays of a hand (hikis and the wild card's targets among
them), a card played or a month taken whole, the draw, a take, the yaku check, the next player."""

from __future__ import annotations

from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import entry, inline
from rulekit.batch.kernel.continuation import end_of_hands, yaku_check, yaku_hits
from rulekit.batch.kernel.events import at_turn_end
from rulekit.batch.kernel.layout import *  # noqa: F403  (the layout's names, for numba)
from rulekit.batch.kernel.offer import may_offer
from rulekit.batch.kernel.offers import is_offered
from rulekit.batch.tables import OFFER_OPTIONS

HIKI_CODE = OFFER_OPTIONS["hiki"]  # a hiki's offers (ir.Ruleset.hiki_offers)


@entry
def plays(hand: int, field: int, Q: Array, out: Array) -> int:
    """specialise.compile_plays: each hand card lowest first; a card matching two field cards
    is two plays, one per target (the lower first)."""
    n = 0
    while hand:
        b = low_bit(hand)
        hand &= hand - 1
        n = card_plays(b, field, Q, out, n)
    return n


@inline
def card_plays(b: int, field: int, Q: Array, out: Array, n: int) -> int:
    """The plays of hand card b written from out[n]: one, or one per target (the lower first)
    when it matches two field cards (a lone card: one); returns the next free place."""
    m = field & Q[MONTHS, b]
    if m and popcount(m) == 2 and not Q[HW, W_LONE] >> b & 1:
        out[n] = b | ((low_bit(m) + 1) << SHIFT)
        out[n + 1] = b | ((low_bit(m & (m - 1)) + 1) << SHIFT)
        return n + 2
    out[n] = b
    return n + 1


@entry
def legal_plays(S: Array, Q: Array, T: Array, out: Array) -> int:
    """capture.legal_actions in the play phase: turn_plays, then a draw offered (OFFER, last)
    when he may offer one (kernel/offer.py)."""
    n = turn_plays(S, Q, T, out)
    if Q[OQ, OQ_HAS] and may_offer(S, Q, T, S[SC, I_CURRENT], out, n):
        out[n] = OFFER
        n += 1
    return n


@entry
def turn_plays(S: Array, Q: Array, T: Array, out: Array) -> int:
    """capture.legal_actions's plays, in its order: the hikis (by month), then each hand card
    lowest first, the wild card as one play per target (lowest first) then laid when it may
    be; plays() when the round has neither."""
    p = S[SC, I_CURRENT]
    hand = S[P_HAND, p]
    field = S[SC, I_FIELD]
    matched = field | (S[SC, I_EXPOSED] & ~hand)  # the others' shown cards, as field cards
    wild = Q[HW, W_WILD]
    if not Q[HW, W_HIKI] and wild < 0 and not Q[EVQ, EVQ_BOMB_HAND]:
        return plays(hand, matched, Q, out)
    n = 0
    if Q[HW, W_HIKI] and is_offered(S, Q, T, p, hand, HIKI_CODE):
        seen = hand | field
        for j in range(Q[CFG, C_NMONTHS]):
            mm = Q[MONTH_MASKS, j]
            if hand & mm and seen & mm == mm:
                out[n] = HIKI + j
                n += 1
    nb = Q[EVQ, EVQ_BOMB_HAND]
    if nb:  # capture.bomb_actions, then a play to skip
        seen = hand | field
        for j in range(Q[CFG, C_NMONTHS]):
            mm = Q[MONTH_MASKS, j]
            if popcount(hand & mm) == nb and seen & mm == mm:
                out[n] = HIKI + j
                n += 1
        if S[P_SKIPS, p]:
            out[n] = SKIP
            n += 1
    while hand:
        b = low_bit(hand)
        hand &= hand - 1
        if b == wild:
            targets = wild_targets(S, Q, T, p)
            t = targets
            while t:
                out[n] = b | ((low_bit(t) + 1) << SHIFT)
                n += 1
                t &= t - 1
            if not targets or (Q[HW, W_LAY] and targets != wild_field(Q, field)):  # wild_may_lay
                out[n] = b
                n += 1
            continue
        n = card_plays(b, matched, Q, out, n)
    return n


@inline
def take_shown(S: Array, Q: Array, cards: int) -> None:
    """capture.take_shown: shown teyaku cards captured from the other players' hands."""
    S[SC, I_EXPOSED] &= ~cards
    for s in range(Q[CFG, C_SEATED]):
        S[P_HAND, s] &= ~cards


@inline
def hiki_months(S: Array, Q: Array, T: Array, seat: int) -> int:
    """capture.hiki_months: the cards of every month the seat could take whole now (none
    when a hiki is not offered to him)."""
    hand = S[P_HAND, seat]
    seen = hand | S[SC, I_FIELD]
    out = 0
    if not is_offered(S, Q, T, seat, hand, HIKI_CODE):
        return 0
    for j in range(Q[CFG, C_NMONTHS]):
        mm = Q[MONTH_MASKS, j]
        if hand & mm and seen & mm == mm:
            out |= mm
    return out


@inline
def wild_field(Q: Array, field: int) -> int:
    """capture.wild_field: the field, less the wild card's own month where it may not take
    it."""
    out: int = field
    if Q[HW, W_OWN]:
        out &= ~Q[MONTHS, Q[HW, W_CARD]]
    return out


@inline
def wild_targets(S: Array, Q: Array, T: Array, p: int) -> int:
    """capture.wild_targets: any field card, but one that completes another player's hiki
    when the wild card respects them."""
    targets: int = wild_field(Q, S[SC, I_FIELD])
    if Q[HW, W_RESPECTS] and Q[HW, W_HIKI]:
        for k in range(S[SC, I_NORDER]):
            q = S[P_ORDER, k]
            if q != p:
                targets &= ~hiki_months(S, Q, T, q)
    return targets


@entry
def play_card(S: Array, Q: Array, T: Array, F: Floats, action: int) -> None:
    """capture.play (play_plain for a plain round): the play (a hiki, the wild card on its
    target or laid, a card on its month), the draw, the yaku check, the next player."""
    p = S[SC, I_CURRENT]
    hand = S[P_HAND, p]
    field = S[SC, I_FIELD]
    shown = S[SC, I_EXPOSED] & ~hand  # the others' shown cards (capture.shown_to)
    if action == SKIP:  # capture.skip: no hand card, only the draw
        S[P_SKIPS, p] -= 1
        got = 0
        fed = 0
        S[SC, I_TURN_LAID] = 0
        S[SC, I_PLAYED_TOOK] = 0
        S[SC, I_TURN_WHOLE] = 0
    elif action >= HIKI:  # capture.hiki: the month's cards from the hand and the field
        mm = Q[MONTH_MASKS, action - HIKI]
        S[P_HAND, p] = hand & ~mm
        S[SC, I_EXPOSED] &= ~mm
        got = mm
        fed = field & mm
        field &= ~mm
        S[SC, I_TURN_LAID] = 0  # (no card of the turn's events)
        S[SC, I_PLAYED_TOOK] = 0
        S[SC, I_TURN_WHOLE] = mm
        if Q[EVQ, EVQ_BOMB_HAND]:  # a bomb: plays he may skip later
            S[P_SKIPS, p] += Q[EVQ, EVQ_BOMB_SKIPS]
    else:
        b = action & CARD_MASK
        bit = 1 << b
        if Q[HW, W_LONE] >> b & 1:  # a lone card: to his pile, taking nothing
            m = 0
        elif b == Q[HW, W_WILD]:  # capture.wild_play: its target only, or laid
            m = 0
            if action >> SHIFT:
                m = 1 << ((action >> SHIFT) - 1)
                S[SC, I_WILD_OWNER] = p
                S[SC, I_WILD_MONTH] = Q[MONTHS, (action >> SHIFT) - 1]
        else:
            m = (field | shown) & Q[MONTHS, b]  # a shown card is taken as a field card
            if popcount(m) == 2:
                m = 1 << ((action >> SHIFT) - 1)
        if Q[HW, W_LONE] >> b & 1:
            got = bit
            fed = 0
        elif m:
            field &= ~m
            got = m | bit
            fed = m
        else:
            if Q[CFG, C_LIABLE_MIN] >= 0:
                S[FEED + 0, b] = p
                S[FEED + 1, b] = popcount(hand)
            field |= bit
            got = 0
            fed = 0
        S[P_HAND, p] = hand ^ bit
        if S[SC, I_EXPOSED]:  # his own shown card played, or another's captured
            S[SC, I_EXPOSED] &= ~bit
            if m & shown:
                take_shown(S, Q, m & shown)
        S[SC, I_TURN_WHOLE] = 0
        S[SC, I_TURN_LAID] = 0 if m else bit  # (what the hand card did: events.py)
        S[SC, I_PLAYED_TOOK] = m
    draw_card(S, Q, T, p, field, got, fed)
    if S[SC, I_PHASE] != PH_PLAY or turn_checks(S, Q, T, F, p):
        return
    pass_turn(S, Q, T, F)


@entry
def draw_card(S: Array, Q: Array, T: Array, p: int, field: int, got: int, fed: int) -> None:
    """capture.draw_card: the top stock card drawn and played (a bonus card, a lone card, the
    wild card, the stacking draw) after p's play left the field `field` and took `got` (`fed`
    of it from the field); the field, his pile and the turn's cards set; a take waits in
    PH_TAKE. A stock turn draws so too."""
    n = S[SC, I_NSTOCK]
    S[SC, I_DRAWN_TOOK] = 0
    S[SC, I_STACKED] = 0
    shown = S[SC, I_EXPOSED] & ~S[P_HAND, p]  # the others' shown cards (capture.shown_to)
    while n:
        n -= 1
        S[SC, I_NSTOCK] = n
        d = S[STOCK, n]
        if Q[HW, W_BONUS] >> d & 1:  # a bonus card drawn: to his pile, and he draws again
            got |= 1 << d
            continue
        m2 = (field | shown) & Q[MONTHS, d]  # a shown card is taken as a field card
        w = Q[HW, W_CARD]
        pair = got & ~Q[HW, W_LONE]  # what the hand card took (not a bonus card drawn since)
        any_drawn = Q[HW, W_DRAWN] and d == w  # (capture.draw_card: its targets for its month)
        if any_drawn:
            S[SC, I_FIELD] = field
            m2 = wild_targets(S, Q, T, p)
        if Q[HW, W_LONE] >> d & 1:  # a lone card drawn: to his pile
            got |= 1 << d
        elif Q[HW, W_TAKEN] and field >> w & 1 and not m2 >> w & 1:  # the wild card taken
            field &= ~(1 << w)
            got |= (1 << w) | (1 << d)
            fed |= 1 << w
        elif Q[HW, W_SWEEPS] and d == w and not n:  # drawn last: the whole field
            got |= field | (1 << d)
            fed |= field
            field = 0
        elif not m2:
            if Q[EVQ, EVQ_STACKS] and popcount(pair) == 2 and Q[MONTHS, d] & pair == pair:
                # capture.draw: the drawn card joins the pair just taken; the three stay (and
                # the bonus cards drawn onto the pair, where they ride it: riders.ON_PAIR)
                S[SC, I_STACKED] = pair | (1 << d)
                riders = got & Q[HW, W_BONUS] if Q[EVQ, EVQ_RIDES] else 0
                if riders:  # (sim.exercise's "ride")
                    S[CHOICES, CH_RIDE_OFFERED] += 1
                    S[CHOICES, CH_RIDE] += 1
                r = riders
                while r:
                    S[RIDES, low_bit(r)] = pair | (1 << d)
                    r &= r - 1
                field |= pair | (1 << d) | riders
                got &= ~(pair | riders)
                fed = 0
            else:
                field |= 1 << d
        elif popcount(m2) == 2 or (any_drawn and m2 & (m2 - 1)):  # p chooses (take)
            S[SC, I_DRAWN] = d
            S[SC, I_PHASE] = PH_TAKE
        else:
            field &= ~m2
            got |= m2 | (1 << d)
            fed |= m2
            if m2 & shown:
                take_shown(S, Q, m2 & shown)
            S[SC, I_DRAWN_TOOK] = m2
            if any_drawn:  # the wild card's capture (its month collected at the end)
                S[SC, I_WILD_OWNER] = p
                S[SC, I_WILD_MONTH] = Q[MONTHS, low_bit(m2)]
        break
    if field & Q[HW, W_BONUS]:  # a stack taken: its riders with it (riders.follow)
        gone = follow(S, Q, field)
        field &= ~gone
        got |= gone
    S[SC, I_FIELD] = field
    S[SC, I_TURN_GOT] = got
    S[SC, I_FED] = fed
    if got:
        S[P_CAPTURED, p] |= got


@inline
def follow(S: Array, Q: Array, field: int) -> int:
    """riders.follow: the bonus cards on `field` whose stack is no longer whole there (they
    leave with it)."""
    gone = 0
    riders = field & Q[HW, W_BONUS]
    while riders:
        b = low_bit(riders)
        riders &= riders - 1
        stack = S[RIDES, b]
        if field & stack != stack:
            gone |= 1 << b
    return gone


@inline
def riding(S: Array, Q: Array, field: int, taken: int) -> int:
    """riders.riding: the bonus cards on `field` that a capture of `taken` takes with it."""
    out = 0
    riders = field & Q[HW, W_BONUS]
    while riders:
        b = low_bit(riders)
        riders &= riders - 1
        if taken & S[RIDES, b]:
            out |= 1 << b
    return out


@entry
def turn_checks(S: Array, Q: Array, T: Array, F: Floats, p: int) -> bool:
    """capture.turn_checks: the turn's events (the cards given to him count in his yaku
    check), then his yaku check when he captured; True when that left the play phase."""
    got = S[SC, I_TURN_GOT]
    if Q[EVQ, EVQ_N]:
        got |= at_turn_end(S, Q, T, F, p)
        S[SC, I_TURN_GOT] = got
        if S[SC, I_PHASE] != PH_PLAY:  # an event won the round
            return True
    if got:
        check_yaku(S, Q, T, F, p)
        return bool(S[SC, I_PHASE] != PH_PLAY)
    return False


@entry
def check_yaku(S: Array, Q: Array, T: Array, F: Floats, p: int) -> None:
    """end_turn's yaku check: the table matches differently, or a bonus may have grown."""
    if not Q[CFG, C_HAS_YAKU] or S[P_FORFEITED, p]:
        return
    x = S[P_CAPTURED, p]
    hits = yaku_hits(S, Q, T, p, x)
    seen = S[P_HITS, p]
    if (hits or seen) and (hits != seen or Q[CFG, C_YAKU_BONUS]):
        yaku_check(S, Q, T, F, p, hits, x)


@inline
def pass_turn(S: Array, Q: Array, T: Array, F: Floats) -> None:
    """The next player in order, when he holds cards (else next_turn)."""
    pos = S[SC, I_POS] + 1
    if pos == S[SC, I_NORDER]:
        pos = 0
    s = S[P_ORDER, pos]
    if S[P_HAND, s] or S[P_SKIPS, s]:  # (a play to skip after a bomb: a turn)
        S[SC, I_TURN] += 1
        S[SC, I_POS] = pos
        S[SC, I_CURRENT] = s
        return
    next_turn(S, Q, T, F)


@inline
def wild_drawn(S: Array, Q: Array) -> bool:
    """capture.wild_drawn: the take phase's drawn card is the wild card choosing its target."""
    return bool(Q[HW, W_DRAWN] and S[SC, I_DRAWN] == Q[HW, W_CARD])


@entry
def take_targets(S: Array, Q: Array, T: Array) -> int:
    """capture.take_targets: the two field cards of the drawn card's month, or the drawn wild
    card's targets."""
    if wild_drawn(S, Q):
        return wild_targets(S, Q, T, S[SC, I_CURRENT])
    seen = S[SC, I_FIELD] | (S[SC, I_EXPOSED] & ~S[P_HAND, S[SC, I_CURRENT]])
    out: int = seen & Q[MONTHS, S[SC, I_DRAWN]]
    return out


@entry
def take(S: Array, Q: Array, T: Array, F: Floats, action: int) -> None:
    """capture.take: one of the two field cards the drawn card matches (or one of the drawn
    wild card's targets: its capture, its month collected at the end)."""
    t = action - TAKE
    if wild_drawn(S, Q):
        S[SC, I_WILD_OWNER] = S[SC, I_CURRENT]
        S[SC, I_WILD_MONTH] = Q[MONTHS, t]
    S[SC, I_FIELD] &= ~(1 << t)
    if S[SC, I_EXPOSED] >> t & 1:  # another player's shown card
        take_shown(S, Q, 1 << t)
    got = (1 << t) | (1 << S[SC, I_DRAWN])
    if S[SC, I_FIELD] & Q[HW, W_BONUS]:  # (a card of a stack taken: its riders, riders.follow)
        gone = follow(S, Q, S[SC, I_FIELD])
        S[SC, I_FIELD] &= ~gone
        got |= gone
    p = S[SC, I_CURRENT]
    S[P_CAPTURED, p] |= got
    S[SC, I_TURN_GOT] |= got
    S[SC, I_FED] |= 1 << t
    S[SC, I_DRAWN_TOOK] = 1 << t
    S[SC, I_DRAWN] = -1
    S[SC, I_PHASE] = PH_PLAY
    if not turn_checks(S, Q, T, F, p):
        pass_turn(S, Q, T, F)


@entry
def next_turn(S: Array, Q: Array, T: Array, F: Floats) -> None:
    S[SC, I_TURN] += 1
    n = S[SC, I_NORDER]
    if Q[SHQ, SHQ_STILL_DRAWS]:  # `the player with no hand card still draws`, while one holds
        while S[SC, I_NSTOCK] > 0 and anyone_holds(S):
            pos = (S[SC, I_POS] + 1) % n
            s = S[P_ORDER, pos]
            if S[P_HAND, s] or S[P_SKIPS, s]:
                S[SC, I_POS] = pos
                S[SC, I_CURRENT] = s
                S[SC, I_PHASE] = PH_PLAY
                return
            if stock_turn(S, Q, T, F):  # his turn: the draw alone
                return
            S[SC, I_TURN] += 1
    pos = S[SC, I_POS]
    for k in range(1, n + 1):
        s = S[P_ORDER, (pos + k) % n]
        if S[P_HAND, s] or S[P_SKIPS, s]:
            S[SC, I_POS] = (pos + k) % n
            S[SC, I_CURRENT] = s
            S[SC, I_PHASE] = PH_PLAY
            return
    while Q[PQ, PQ_PLAY_OUT] and S[SC, I_NSTOCK] > 0:  # `play out the stock`
        if stock_turn(S, Q, T, F):
            return
        S[SC, I_TURN] += 1
    end_of_hands(S, Q, T, F)


@inline
def anyone_holds(S: Array) -> bool:
    """Whether a player of the round still holds a card."""
    cards = 0
    for k in range(S[SC, I_NORDER]):
        cards |= S[P_HAND, S[P_ORDER, k]]
    return cards != 0


@entry
def stock_turn(S: Array, Q: Array, T: Array, F: Floats) -> bool:
    """capture.stock_turn: nobody holds a card; the next player in order draws the top card and
    plays it, the second half of a turn with no hand card (draw_card, then the turn's events
    and yaku check). True when the turn waits for a take, or a yaku left the play phase."""
    pos = S[SC, I_POS] + 1
    if pos == S[SC, I_NORDER]:
        pos = 0
    p = S[P_ORDER, pos]
    S[SC, I_POS] = pos
    S[SC, I_CURRENT] = p
    S[SC, I_PHASE] = PH_PLAY
    S[SC, I_TURN_LAID] = 0
    S[SC, I_PLAYED_TOOK] = 0
    S[SC, I_TURN_WHOLE] = 0
    draw_card(S, Q, T, p, S[SC, I_FIELD], 0, 0)
    return bool(S[SC, I_PHASE] != PH_PLAY) or turn_checks(S, Q, T, F, p)
