"""What one player may see of a round: his own hand, never the others' hands nor the stock order.

Agents (bots and humans) act on a PlayerView only. It reads the round live, so one view per
player serves the whole round without copying.
"""

from __future__ import annotations

from rulekit.engine import asking
from rulekit.engine.capture import legal_actions, preview, previews, wild_drawn
from rulekit.engine.draw_offer import safe_play
from rulekit.engine.ledger import Payment
from rulekit.engine.observation import Observation, known_cards
from rulekit.engine.round import COUNT, DECLARE, DONE, FOLD, PLAY, TAKE, Phase, Round
from rulekit.engine.state import blind
from rulekit.engine.tables import CompiledRules

_PHASES = tuple(sorted(Phase))  # Phase by its int (a table: Phase(n) is a slow call)
assert all(p == n for n, p in enumerate(_PHASES))


class PlayerView:
    __slots__ = ("_r", "seat")

    def __init__(self, rnd: Round, seat: int) -> None:
        self._r = rnd
        self.seat = seat

    # ------------------------------------------------------------ the table
    @property
    def compiled(self) -> CompiledRules:
        return self._r.c

    @property
    def phase(self) -> Phase:
        return _PHASES[self._r.phase]

    @property
    def current_player(self) -> int | None:
        return self._r.current_player

    @property
    def seated(self) -> int:
        return self._r.seated

    @property
    def dealer(self) -> int:
        return self._r.dealer

    @property
    def round_no(self) -> int:
        return self._r.round_no

    @property
    def order(self) -> list[int]:
        """The players of the round in play order (empty during the fold phase)."""
        return list(self._r.order)

    @property
    def folded(self) -> list[bool]:
        return list(self._r.folded)

    @property
    def hand(self) -> int:
        """The player's cards (a joker dealt at a large table is not a card of the deck); none
        while he declares before the deal."""
        r = self._r
        if (r.phase == DECLARE and blind(r)) or (r.phase == FOLD and r.rules.fold.before_deal):
            return 0
        return r.hands[self.seat] & r.ix.full

    @property
    def holds_joker(self) -> bool:
        return self._r.joker_bit >= 0 and bool(self._r.hands[self.seat] >> self._r.joker_bit & 1)

    @property
    def field(self) -> int:
        return self._r.field

    @property
    def rides(self) -> dict[int, int]:
        """The bonus cards riding a stack on the field (engine/riders.py): bit -> the stack's
        cards."""
        return dict(self._r.rides)

    @property
    def captured(self) -> list[int]:
        return list(self._r.captured)

    def hand_size(self, seat: int) -> int:
        return (self._r.hands[seat] & self._r.ix.full).bit_count()

    @property
    def stock_count(self) -> int:
        return len(self._r.stock)

    @property
    def multiplier(self) -> int:
        return self._r.multiplier

    @property
    def drawn(self) -> int:
        """The drawn card waiting for a capture choice (face up), or -1."""
        return self._r.drawn

    @property
    def wild_drawn(self) -> bool:
        """Whether the drawn card waiting is the wild card choosing its target (`captures any
        field card when drawn`): a rule choice, not only a card's."""
        return self._r.phase == TAKE and wild_drawn(self._r)

    @property
    def turn(self) -> int:
        return self._r.turn

    @property
    def turns_left(self) -> int:
        """Cards left in the players' hands: the turns still to come."""
        return self._r.cards_left()

    @property
    def teams(self) -> list[list[int]] | None:
        return self._r.teams

    def preview(self, action: int) -> int:
        """The cards an action would capture, before the draw (0 for a card laid down)."""
        return preview(self._r, action)

    def previews(self, actions: list[int]) -> list[int]:
        """preview() of each action (one call for a turn's plays)."""
        return previews(self._r, actions)

    @property
    def teyaku(self) -> dict[int, list[str]]:
        return self._r.teyaku_names()

    @property
    def capturable(self) -> int:
        """The shown teyaku cards still in a hand, which the other players may capture as
        field cards (ir.Yaku.shown)."""
        return self._r.exposed

    @property
    def revealed(self) -> dict[int, int]:
        """Cards each player showed for his teyaku (still in his hand unless played since), and
        the whole hand of one who showed it to offer a draw (offered_hands)."""
        shown = {s: m & self._r.hands[s] for s, m in self._r.teyaku_revealed.items()}
        for s, hand in self.offered_hands.items():
            shown[s] = shown.get(s, 0) | hand
        return shown

    def has_safe_play(self) -> bool:
        """Whether this seat has a safe play now (draw_offer.safe_play: a card of his hand
        matching the field, or a flip reaching the stop minimum), as he sees the cards."""
        return safe_play(self._r, self.seat)

    @property
    def offered_hands(self) -> dict[int, int]:
        """The hand of each player who showed it to offer a draw this round (ir.DrawOffer)."""
        r = self._r
        return {s: r.hands[s] for s in range(r.seated) if r.offered >> s & 1}

    @property
    def offerer(self) -> int:
        """Who offered the draw being answered (the ANSWER phase), else the last who did (-1:
        nobody)."""
        return self._r.offerer

    @property
    def made_value(self) -> list[int]:
        return list(self._r.made_value)

    @property
    def continues(self) -> list[int]:
        """How many times each player continued this round."""
        return list(self._r.continues)

    @property
    def continuing(self) -> list[bool]:
        return list(self._r.continuing)

    @property
    def yaku_made(self) -> dict[int, list[str]]:
        return {s: list(v) for s, v in self._r.yaku_made.items()}

    @property
    def ledger(self) -> list[Payment]:
        return list(self._r.ledger)

    def unseen(self) -> int:
        """Cards this player cannot see: the other hands but the teyaku cards they showed, the
        stock, a field not yet laid (and his own hand before a blind choice)."""
        return self._r.ix.full & ~known_cards(self._r, self.seat)

    def observe(self) -> Observation:
        """What this player knows of the round, as a copy without the hidden cards."""
        return Observation(self._r, self.seat)

    # ------------------------------------------------------------ acting
    def legal_actions(self) -> list[int]:
        r = self._r
        if r.current != self.seat:
            return []
        phase = r.phase
        if phase == PLAY and r.c.plain:  # most calls: capture.legal_actions's first case
            return r.c.plays(r.hands[self.seat], r.field)
        if phase == DONE:
            return []
        return legal_actions(r)

    def describe(self, action: int) -> str:
        return self._r.describe(action)

    def readings_offered(self) -> list[asking.Reading]:
        """When this player is asked at the count how his pile reads the owner's choice: the
        readings offered, the one that pays him more first, each with its yaku and what the
        count pays him (engine/asking.py); otherwise none."""
        r = self._r
        if r.phase != COUNT or r.current != self.seat:
            return []
        return r.readings_offered()
