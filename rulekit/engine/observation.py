"""What one player knows of a round, and guesses at the rest consistent with it.

An Observation is a copy of the round with everything the player cannot see taken out: the
other hands (but the teyaku cards they showed), the stock and its order, a written-down deal
(its field before it is laid, its stock after a fold), the stock as it was after a fold, the
seed of the fold's reshuffle, and before a blind choice (a hand swap) his own hand too. Search
bots get an Observation, never the round: `sample` deals the unknown cards at random into the
places they could be, giving a round that can be played out.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rulekit.cards import bits
from rulekit.engine.chance import Chance
from rulekit.engine.round import Round, clone
from rulekit.engine.state import blind

_HIDDEN_SEED = "hidden"  # the masked round's fold reshuffle: not the real one


def known_cards(rnd: Round, seat: int) -> int:
    """The cards `seat` can see and place: his own hand (unless the choice is blind), the
    field, every captured pile, the drawn card, the teyaku cards others showed and still
    hold, and the hand of one who showed it to offer a draw (ir.DrawOffer). Every other card of
    the deck is unknown to him."""
    known = rnd.field
    for pile in rnd.captured:
        known |= pile
    if rnd.drawn >= 0:
        known |= 1 << rnd.drawn
    for s in range(rnd.seated):
        if s == seat:
            if not blind(rnd):
                known |= rnd.hands[s] & rnd.ix.full
        elif rnd.offered >> s & 1:  # he showed his hand and offered a draw: all of it
            known |= rnd.hands[s]
        else:
            known |= rnd.teyaku_revealed.get(s, 0) & rnd.hands[s]
    return known & rnd.ix.full


class Observation:
    __slots__ = ("_masked", "hidden", "seat", "sizes", "stock_size", "unknown")

    def __init__(self, rnd: Round, seat: int) -> None:
        masked = clone(rnd)
        full = rnd.ix.full
        joker = (1 << rnd.joker_bit) if rnd.joker_bit >= 0 else 0
        self.seat = seat
        unseen = blind(rnd)
        self.hidden = [s for s in range(rnd.seated) if s != seat or unseen]
        self.sizes = {s: (rnd.hands[s] & (full | joker)).bit_count() for s in self.hidden}
        known = known_cards(rnd, seat)
        # a joker is unknown only while a hidden hand holds it: otherwise it is out of the game
        unknown = full & ~known
        for s in self.hidden:
            unknown |= rnd.hands[s] & joker
            masked.hands[s] &= known
        self.stock_size = len(rnd.stock)
        masked.stock = []
        masked.initial_hands = []
        masked.initial_stock = []
        masked.restocked = None
        # a written-down deal is the round's future: the sample deals it afresh
        masked.stacked = None
        masked.stacked_field = 0
        masked.stacked_restock = None
        masked._setup_seed = _HIDDEN_SEED
        # of the other dealt hands, only the cards shown for a teyaku are known
        masked.dealt_hands = {
            s: h if s == seat and not unseen else rnd.teyaku_revealed.get(s, 0)
            for s, h in rnd.dealt_hands.items()
        }
        self.unknown = unknown
        self._masked = masked

    @property
    def round(self) -> Round:
        """The round as this player sees it: unknown cards are missing from it."""
        return self._masked

    def sample(self, rng: random.Random | Chance) -> Round:
        """A round consistent with the observation: the unknown cards dealt at random, each
        hidden hand to its size and the rest to the stock (an unseen joker to a hand: it is
        never in the stock), and a fold's reshuffle of its own.

        From a Chance (the rule-weighing bot's, which a batch engine mirrors): the unknown
        cards, lowest first, shuffled by Fisher and Yates from the last place down (place i
        trades with `below(i + 1)`), the joker's trade `below(dealt)`; the reshuffle seed is a
        constant (it samples only once the deal is over). From a Mersenne Twister (the search
        bots'): its shuffle, as before."""
        rnd = clone(self._masked)
        pool = bits(self.unknown)
        draw: Callable[[int], int]
        if isinstance(rng, Chance):
            rnd._setup_seed = "sample"
            below = rng.below
            for i in range(len(pool) - 1, 0, -1):
                j = below(i + 1)
                pool[i], pool[j] = pool[j], pool[i]
            draw = below
        else:
            rnd._setup_seed = f"sample:{rng.getrandbits(64)}"
            rng.shuffle(pool)
            draw = rng.randrange
        needs = [self.sizes[s] - rnd.hands[s].bit_count() for s in self.hidden]
        dealt = sum(needs)
        joker = rnd.joker_bit
        if joker >= 0 and joker in pool[dealt:]:  # trade places with a card dealt to a hand
            j, k = pool.index(joker), draw(dealt)
            pool[j], pool[k] = pool[k], pool[j]
        bonus = rnd.c.bonus
        if bonus:  # an unseen bonus card is in the stock, never in a hand (captured when dealt):
            for i in range(dealt):  # traded with the first stock card that is not one
                if bonus >> pool[i] & 1:
                    for j in range(dealt, len(pool)):
                        if not bonus >> pool[j] & 1:
                            pool[i], pool[j] = pool[j], pool[i]
                            break
        i = 0
        for s, need in zip(self.hidden, needs, strict=True):
            for b in pool[i : i + need]:
                rnd.hands[s] |= 1 << b
            i += need
        rnd.stock = pool[i:]
        return rnd
