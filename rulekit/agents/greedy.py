"""The `greedy` bot: takes the capture worth most, prefers completing or advancing a yaku,
joins with a teyaku or a hand worth more points than an average one, and stops when ahead.
As the dealer offered a claim of the field's cards for the lead (ir.DealerClaim), it always
takes the cards: two cards captured for sure outweigh the first turn. Offered to show a teyaku
whose cards the others may then capture (ir.Yaku.shown), it always shows it: the teyaku's
payment is sure, the cards' loss is not.

Card worth is the card's points plus its share of every yaku it belongs to, from the compiled
rule file: the bot knows no game, only the tables.
"""

from __future__ import annotations

import math
from functools import lru_cache
from operator import itemgetter

from rulekit import ir
from rulekit.agents.base import SeededAgent
from rulekit.engine import actions as A
from rulekit.engine.actions import CARD_MASK
from rulekit.engine.actions import TARGET_SHIFT as SHIFT
from rulekit.engine.capture import PlainChoice
from rulekit.engine.events import lowest_bit
from rulekit.engine.round import Phase
from rulekit.engine.specialise import nibble_layout
from rulekit.engine.tables import CompiledRules, CompiledTable, referenced_cards
from rulekit.engine.view import PlayerView

_SCORE = itemgetter(0)  # a ranked play's score
COMPLETE_BONUS = 4.0  # weight of a yaku made by this very capture, per point of its value
DISCARD_COST = 0.6  # a card laid on the field may feed an opponent
MEMO = 4096  # piles whose yaku value a plain chooser keeps


def mask_worth(worth: tuple[float, ...], mask: int) -> float:
    """The summed worth of a set of cards, lowest card first (the order fixes the float)."""
    total = 0.0
    while mask:
        low = mask & -mask
        total += worth[low.bit_length() - 1]
        mask ^= low
    return total


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
    hits = table.match_play(x)
    if not hits:  # most piles: nothing counts
        return -math.inf
    counted = table.counted(hits, x)
    return table.value_of(counted, x) if counted else -math.inf


def _plain_ranker(compiled: CompiledRules, owner: SeededAgent) -> PlainChoice:
    """GreedyAgent.rank, then GreedyAgent.pick, over a plain round's plays (engine.capture's
    previews inlined: a play's capture before the draw); a tie drawn from `owner.chance`, the
    chance of the round being played (start() replaces it)."""
    worth = card_worth(compiled)
    table = compiled.yaku
    months = compiled.index.month_mask_of_bit
    sums = _month_sums(worth) if nibble_layout(compiled.index) else None
    laid = [-DISCARD_COST * w for w in worth]  # a card laid on the field: rank()'s float
    values: dict[int, float] = {}  # pile -> yaku_value: a play weighed turn after turn

    def choose(legal: list[int], field: int, mine: int, made: int) -> int:
        if len(values) > MEMO:
            values.clear()
        best = 0
        top = 0.0
        ties: list[int] | None = None  # the plays scoring `top`, once more than one does
        for k, a in enumerate(legal):
            b = a & CARD_MASK
            if a >> SHIFT:  # a chosen target
                got = (1 << ((a >> SHIFT) - 1)) | (1 << b)
            else:
                m = field & months[b]
                got = m | (1 << b) if m else 0
            if not got:
                score = laid[b]
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
            if not k or score > top:
                best, top, ties = a, score, None
            elif score == top:
                if ties is None:
                    ties = [best, a]
                else:
                    ties.append(a)
        if ties is None:
            return best
        return ties[owner.chance.below(len(ties))]

    return choose


def refuses_draw(view: PlayerView) -> bool:
    """Greedy's answer to a draw offered (ir.DrawOffer): it accepts only when it has no safe
    play either (no card of its hand matches the field, and no flip could reach the minimum:
    the offerer's own test); else it refuses."""
    return view.has_safe_play()


class GreedyAgent(SeededAgent):
    name = "greedy"
    _plain: tuple[CompiledRules, PlainChoice] | None = None
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
        if phase == Phase.DECLARE:  # one that cannot cost him; else, a gamble: never
            return A.DECLARE if cannot_cost(view.compiled.rules) else A.PASS
        if phase == Phase.CLAIM:  # the dealer's claim of the field: cards in hand, always
            return A.CLAIM
        if phase == Phase.SHOW:  # a teyaku the others may capture: its payment, always
            return A.SHOW
        if phase == Phase.ANSWER:  # a draw offered: see refuses_draw
            return A.REFUSE if refuses_draw(view) else A.ACCEPT
        return legal[0]

    def _play(self, view: PlayerView, legal: list[int]) -> int:
        if legal[-1] == A.OFFER:  # a draw, whenever he may offer one (he has no safe play)
            return A.OFFER
        return self.pick(self.rank(view, legal))

    def pick(self, ranked: list[tuple[float, int]]) -> int:
        """The play scored best; of several scored exactly as well, one drawn from the bot's
        chance, by its place among them in legal order (a batch engine draws the same)."""
        top = max(ranked, key=_SCORE)[0]
        ties = [a for score, a in ranked if score == top]
        return ties[0] if len(ties) == 1 else ties[self.chance.below(len(ties))]

    def ranked_plays(self, view: PlayerView, legal: list[int]) -> list[int]:
        """The plays, best score first; plays scored alike in an order drawn from the bot's
        chance (a shuffle, then a stable sort), so a search that keeps the best few favours
        no card among equals."""
        ranked = self.rank(view, legal)
        below = self.chance.below
        for i in range(len(ranked) - 1, 0, -1):
            j = below(i + 1)
            ranked[i], ranked[j] = ranked[j], ranked[i]
        ranked.sort(key=_SCORE, reverse=True)
        return [a for _, a in ranked]

    def rank(self, view: PlayerView, legal: list[int]) -> list[tuple[float, int]]:
        """(heuristic score, action) of each play, in legal order: the worth of what it
        captures, a bonus for a yaku it completes, a cost for a card laid down for others to
        take. No chance: pick() breaks ties."""
        c = view.compiled
        worth = card_worth(c)
        table = c.yaku
        mine = view.captured[view.seat]
        made = view.made_value[view.seat]
        sure = sure_events(c)
        out = []
        for a, got in zip(legal, view.previews(legal), strict=True):
            if a == A.SKIP:  # a play skipped after a bomb: keeps the hand, lays nothing
                score = 0.0
            elif not got:
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
                if sure:
                    gives = sure_event_worth(view, sure, a, got, worth)
                    if gives:
                        score += gives
            out.append((score, a))
        return out

    def plain_choice(self, compiled: CompiledRules, seat: int) -> PlainChoice | None:
        """_play() on a plain round's plays without a view: the same scores, added in the same
        order (so the same floats), and a tie drawn from the same chance. None for a subclass
        that plays otherwise (its own _play, rank or pick, or its own act unless it says
        `plays_plain_greedily`)."""
        cls = type(self)
        acts_greedily = cls.act is GreedyAgent.act or cls.plays_plain_greedily
        mine = (cls._play, cls.rank, cls.pick)
        ours = mine == (GreedyAgent._play, GreedyAgent.rank, GreedyAgent.pick)
        if not acts_greedily or not ours:
            return None
        made = self._plain  # (compiled, its chooser): asked every round
        if made is None or made[0] is not compiled:
            made = self._plain = (compiled, _plain_ranker(compiled, self))
        return made[1]

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


@lru_cache(maxsize=32)
def sure_events(compiled: CompiledRules) -> tuple[tuple[bool, bool, int, int], ...]:
    """The rule file's events a play makes for sure, known before the draw (a bomb, a stack
    taken by the hand card), as (a bomb's, on the first turn only, the class each opponent
    gives, the steal)."""
    return tuple(
        (e.kind == "bomb", e.first_turn, give, e.steal)
        for e, give in zip(compiled.rules.events, compiled.event_gives, strict=True)
        if e.kind in ("bomb", "stack_taken")
    )


def sure_event_worth(
    view: PlayerView,
    sure: tuple[tuple[bool, bool, int, int], ...],
    action: int,
    got: int,
    worth: tuple[float, ...],
) -> float:
    """What the events a play surely makes bring him: the worth of the card each opponent
    would give (the one with the fewest points, the first in the deck's order) and each
    opponent's steal, in the rule file's order and play order (the kernel adds them alike)."""
    bomb = action >= A.HIKI
    # the hand card and three field cards (and the bonus cards riding them: engine/riders.py)
    stack = not bomb and (got & ~view.compiled.bonus).bit_count() == 4
    if not bomb and not stack:
        return 0.0
    order = view.order
    first = view.turn < len(order)
    piles = view.captured
    points = view.compiled.index.points_of_bit
    total = 0.0
    for is_bomb, first_only, give, steal in sure:
        if (bomb if is_bomb else stack) and (first or not first_only):
            for q in order:
                if q == view.seat:
                    continue
                pile = piles[q] & give
                if pile:
                    total += worth[lowest_bit(points, pile)]
                if steal:
                    total += steal
    return total


def cannot_cost(rules: ir.Ruleset) -> bool:
    """The rule file's declaration can only gain its maker (the bots make it): made with his
    hand seen, and with no penalty nor stake about the fold (a factor on his winnings, an
    award), and read by no condition (`declared NAME` changes what counts: which yaku, a draw
    at the count, which may cost him)."""
    d = rules.declarations[0] if rules.declarations else None
    return (
        d is not None
        and d.moment != "before_deal"
        and not d.penalty
        and not d.must_join
        and not d.from_each_folder
        and not _read_by_a_condition(rules)
    )


def _read_by_a_condition(rules: ir.Ruleset) -> bool:
    """Whether a condition reads the declaration (`declared NAME`: where it may be written)."""
    conds = [e.condition for t in (rules.teyaku, rules.yaku) if t for e in t.entries]
    conds += [s.condition for s in rules.scoring if s.condition is not None]
    conds += [o.condition for o in rules.continuation.offers if o.condition is not None]
    if rules.draw_at_count is not None:
        conds.append(rules.draw_at_count)
    return any(isinstance(p, ir.Declared) for c in conds for p in ir.parts_of(c))
