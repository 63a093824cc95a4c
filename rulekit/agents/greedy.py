"""The `greedy` bot: takes the capture worth most, prefers completing or advancing a yaku,
joins with a teyaku or a hand worth more points than an average one, and stops when ahead.

Card worth is the card's points plus its share of every yaku it belongs to, from the compiled
rule file: the bot knows no game, only the tables.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter

from rulekit.agents.base import SeededAgent
from rulekit.engine import actions as A
from rulekit.engine.actions import CARD_MASK
from rulekit.engine.actions import TARGET_SHIFT as SHIFT
from rulekit.engine.capture import PlainChoice
from rulekit.engine.round import Phase
from rulekit.engine.specialise import nibble_layout
from rulekit.engine.tables import CompiledRules, CompiledTable, referenced_cards
from rulekit.engine.view import PlayerView

_SCORE = itemgetter(0)  # a ranked play's score
COMPLETE_BONUS = 4.0  # weight of a yaku made by this very capture, per point of its value
DISCARD_COST = 0.6  # a card laid on the field may feed an opponent
MEMO = 4096  # piles whose yaku value a plain chooser keeps


@lru_cache(maxsize=32)
def mask_worth(worth: tuple[float, ...], mask: int) -> float:
    """The summed worth of a set of cards, lowest card first (the order fixes the float)."""
    total = 0.0
    while mask:
        low = mask & -mask
        total += worth[low.bit_length() - 1]
        mask ^= low
    return total


def card_worth(compiled: CompiledRules) -> tuple[float, ...]:
    """Points of each card plus, for each yaku that names it, value / cards needed."""
    ix = compiled.index
    worth = [float(p) for p in ix.points_of_bit]
    table = compiled.yaku
    if table is not None:
        for entry in table.entries:
            if entry.at_count:
                continue
            cards = referenced_cards(entry.condition)
            if not cards or len(cards) > 24:
                continue
            share = entry.value / min(len(cards), 8)
            for cid in cards:
                worth[ix.bit[cid]] += share
    return tuple(worth)


@lru_cache(maxsize=32)
def points_per_card(compiled: CompiledRules) -> float:
    """The deck's average card points: an average hand of n cards holds n times this."""
    points = compiled.index.points_of_bit
    return sum(points) / len(points) if points else 0.0


@lru_cache(maxsize=32)
def _month_sums(worth: tuple[float, ...]) -> list[list[float]]:
    """sums[month][cards]: the worth of some cards of a month (a deck laid out four cards a
    month), added lowest card first from 0.0 as rank() adds them, so the same float."""
    out = []
    for month in range(len(worth) // 4):
        row = []
        for cards in range(16):
            score = 0.0
            for k in range(4):
                if cards >> k & 1:
                    score += worth[4 * month + k]
            row.append(score)
        out.append(row)
    return out


def yaku_value(table: CompiledTable, x: int) -> float:
    """What the yaku of a pile are worth, as rank() values them (-inf: none, which no value
    made is under)."""
    counted = table.counted(table.match_play(x), x)
    return sum(table.value(i, x) for i in counted) if counted else -math.inf


def _plain_ranker(compiled: CompiledRules, tiebreak: Callable[[], float]) -> PlainChoice:
    """GreedyAgent.rank, then max by score, over a plain round's plays (engine.capture's
    previews inlined: a play's capture before the draw)."""
    worth = card_worth(compiled)
    table = compiled.yaku
    months = compiled.index.month_mask_of_bit
    sums = _month_sums(worth) if nibble_layout(compiled.index) else None
    values: dict[int, float] = {}  # pile -> yaku_value: a play weighed turn after turn

    def choose(legal: list[int], field: int, mine: int, made: int) -> int:
        if len(values) > MEMO:
            values.clear()
        best = 0
        top = 0.0
        for k, a in enumerate(legal):
            b = a & CARD_MASK
            if a >> SHIFT:  # a chosen target
                got = (1 << ((a >> SHIFT) - 1)) | (1 << b)
            else:
                m = field & months[b]
                got = m | (1 << b) if m else 0
            if not got:
                score = -DISCARD_COST * worth[b]
            else:
                if sums is not None:  # a capture is one month's cards
                    score = sums[b >> 2][got >> (b & ~3) & 15]
                else:
                    score = mask_worth(worth, got)
                if table is not None:
                    x = mine | got
                    value = values.get(x)
                    if value is None:
                        value = values[x] = yaku_value(table, x)
                    if value > made:
                        score += COMPLETE_BONUS * (value - made)
            score += tiebreak() * 1e-3
            if not k or score > top:  # max() keeps the first of equals
                best, top = a, score
        return best

    return choose


class GreedyAgent(SeededAgent):
    name = "greedy"
    _plain: tuple[CompiledRules, random.Random, PlainChoice] | None = None
    # A subclass with its own act() whose play in a round with no hiki or wild card is still
    # GreedyAgent's says so, and plays those turns by plain_choice too.
    plays_plain_greedily = False

    def act(self, view: PlayerView) -> int:
        legal = view.legal_actions()
        phase = view.phase
        if phase == Phase.PLAY:
            return self._play(view, legal)
        if phase == Phase.TAKE:
            worth = card_worth(view.compiled)
            return max(legal, key=lambda a: worth[a - A.TAKE])
        if phase == Phase.DECIDE:
            return A.STOP if self._ahead(view) else A.CONTINUE
        if phase == Phase.FOLD:
            return A.JOIN if self._strong(view) else A.FOLD
        if phase == Phase.SWAP:
            return A.KEEP  # the hands are unseen: nothing to prefer
        return legal[0]

    def _play(self, view: PlayerView, legal: list[int]) -> int:
        return max(self.rank(view, legal), key=_SCORE)[1]

    def rank(self, view: PlayerView, legal: list[int]) -> list[tuple[float, int]]:
        """(heuristic score, action) of each play: the worth of what it captures, a bonus for a
        yaku it completes, a cost for a card laid down for others to take."""
        c = view.compiled
        worth = card_worth(c)
        table = c.yaku
        mine = view.captured[view.seat]
        made = view.made_value[view.seat]
        tiebreak = self.rng.random
        out = []
        for a, got in zip(legal, view.previews(legal), strict=True):
            if not got:
                score = -DISCARD_COST * worth[a & 63]
            else:
                score = mask_worth(worth, got)
                if table is not None:
                    x = mine | got
                    counted = table.counted(table.match_play(x), x)
                    if counted:
                        value = sum(table.value(i, x) for i in counted)
                        if value > made:
                            score += COMPLETE_BONUS * (value - made)
            out.append((score + tiebreak() * 1e-3, a))  # ties broken without bias
        return out

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice | None:
        """_play() on a plain round's plays without a view: the same scores, from the same
        draws of the RNG, added in the same order (so the same floats), and the first best.
        None for a subclass that plays otherwise (its own _play or rank, or its own act unless it
        says `plays_plain_greedily`)."""
        cls = type(self)
        acts_greedily = cls.act is GreedyAgent.act or cls.plays_plain_greedily
        if not acts_greedily or (cls._play, cls.rank) != (GreedyAgent._play, GreedyAgent.rank):
            return None
        made = self._plain  # (compiled, rng, its chooser): asked every round
        if made is None or made[0] is not compiled or made[1] is not self.rng:
            made = self._plain = (compiled, self.rng, _plain_ranker(compiled, self.rng.random))
        return made[2]

    def _ahead(self, view: PlayerView) -> bool:
        """Stop when the round already pays: what was received, plus what stopping would pay."""
        seat = view.seat
        net = sum(p.amount for p in view.ledger if p.payee == seat) - sum(
            p.amount for p in view.ledger if p.payer == seat
        )
        if view.compiled.rules.continuation.paid == "stop":
            net += view.made_value[seat] * view.multiplier * (len(view.order) - 1)
        return net > 0 or view.turns_left <= len(view.order)

    def _strong(self, view: PlayerView) -> bool:
        if view.teyaku.get(view.seat):
            return True
        c = view.compiled
        table = c.teyaku
        hand = view.hand
        if table is not None and table.counted(table.match_play(hand), hand):
            return True
        return c.index.points(hand) > hand.bit_count() * points_per_card(c)
