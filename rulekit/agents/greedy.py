"""The `greedy` bot: takes the capture worth most, prefers completing or advancing a yaku,
joins with a teyaku or a hand worth more points than an average one, and stops when ahead.

Card worth is the card's points plus its share of every yaku it belongs to, from the compiled
rule file: the bot knows no game, only the tables.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from rulekit.agents.base import SeededAgent
from rulekit.agents.random_agent import reseed
from rulekit.engine import actions as A
from rulekit.engine.round import Phase
from rulekit.engine.tables import CompiledRules, referenced_cards
from rulekit.engine.view import PlayerView

_SCORE = itemgetter(0)  # a ranked play's score
COMPLETE_BONUS = 4.0  # weight of a yaku made by this very capture, per point of its value
DISCARD_COST = 0.6  # a card laid on the field may feed an opponent


@lru_cache(maxsize=32)
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


class GreedyAgent(SeededAgent):
    name = "greedy"

    def start(self, seed: int | str) -> None:
        reseed(self.rng, seed)

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
                score = 0.0
                g = got
                while g:
                    low = g & -g
                    score += worth[low.bit_length() - 1]
                    g ^= low
                if table is not None:
                    x = mine | got
                    counted = table.counted(table.match_play(x), x)
                    if counted:
                        value = sum(table.value(i, x) for i in counted)
                        if value > made:
                            score += COMPLETE_BONUS * (value - made)
            out.append((score + tiebreak() * 1e-3, a))  # ties broken without bias
        return out

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
