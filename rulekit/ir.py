"""The IR: what a variant means, with every name resolved to cards.

Frozen pydantic models. `describe` renders a rulebook from it, `diff` compares two of them, the
engine compiles it. Card sets are tuples of card ids, so nothing downstream needs the deck's
names or the file's views to know what a condition tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Op = Literal[">=", "<=", "=", "!=", ">", "<"]


class _Frozen(BaseModel):
    # each model's validator is built at its first validation, not at import: a command that
    # runs a variant reads its rules back unpickled (rulekit.lang.kept) and validates nothing
    # (a tenth of its start); the defaults below are made with model_construct for the same
    # reason, and are the instances a validation would make
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SourceLoc(_Frozen):
    """Where a named part was written (absent for JSON IR)."""

    file: str
    line: int
    col: int
    width: int = 1


# ---------------------------------------------------------------- the deck


class Card(_Frozen):
    id: int = Field(description="month followed by its index 0-3, most valuable first: 10, 113")
    name: str
    label: str
    month: int
    rank: int
    classes: tuple[str, ...] = Field(
        min_length=1, description="the first class gives the card's points"
    )
    tags: tuple[str, ...] = ()


class Month(_Frozen):
    number: int
    name: str
    label: str
    aliases: tuple[str, ...] = ()


class Deck(_Frozen):
    name: str
    classes: tuple[str, ...] = Field(min_length=1)
    tags: tuple[str, ...] = ()
    months: tuple[Month, ...]
    cards: tuple[Card, ...] = Field(min_length=1)
    bonus: tuple[int, ...] = Field(
        (),
        description="bonus cards (month 0: no month): whoever is dealt, plays or draws one"
        " captures it at once and replaces it from the stock",
    )


class Reclass(_Frozen):
    """Cards counted in other classes: `as` replaces their classes, `also` adds one."""

    cards: tuple[int, ...]
    mode: Literal["as", "also"]
    cls: str
    text: str = ""


class Weighted(_Frozen):
    """Cards of class `cls` that each count as `weight` cards of it (`treat lightning as 2
    plains`): in every count of the class, and the `+N per extra` it pays."""

    cards: tuple[int, ...] = Field(min_length=1)
    cls: str
    weight: int = Field(ge=1, le=4)
    text: str = ""


class View(_Frozen):
    """A context in which some cards count in another class (November as plain in teyaku)."""

    name: str
    label: str
    changes: tuple[Reclass, ...]


class CardSet(_Frozen):
    name: str
    label: str
    cards: tuple[int, ...]


class Expectation(_Frozen):
    """A total a file asserts (`expect plains 24`), checked statically: in a deck file, about
    the deck as declared there; in a game file, about the classes and points the game uses."""

    what: str
    value: int
    scope: Literal["deck", "rules"] = "rules"
    loc: SourceLoc | None = None


# ---------------------------------------------------------------- conditions


class AllOf(_Frozen):
    kind: Literal["all"] = "all"
    cards: tuple[int, ...]


class AnyOf(_Frozen):
    kind: Literal["any"] = "any"
    cards: tuple[int, ...]


class Count(_Frozen):
    """How many of `cards` are present, compared with `n` (`ribbons >= 2`, `none of ...`)."""

    kind: Literal["count"] = "count"
    cards: tuple[int, ...]
    op: Op
    n: int
    label: str = ""


class ShapeGroup(_Frozen):
    """`count` distinct months holding exactly `size` cards each, from `months` (empty: any)."""

    size: int = Field(ge=1)
    count: int = Field(1, ge=1)
    months: tuple[int, ...] = ()


class Shape(_Frozen):
    """Month shapes that must hold together, each group on months of its own."""

    kind: Literal["shape"] = "shape"
    groups: tuple[ShapeGroup, ...]


class PointsCmp(_Frozen):
    """The captured card points compared with `n` (special hands at the count)."""

    kind: Literal["points"] = "points"
    op: Op
    n: int


class Everyone(_Frozen):
    """Every player in the round satisfies `item` (All Eights)."""

    kind: Literal["everyone"] = "everyone"
    item: Condition


class Dealt(_Frozen):
    """The player's counted teyaku is, or is made of, one of `names`; with `captured`, the
    cards that made it (the hand's cards of its month shape) all ended in the player's pile."""

    kind: Literal["dealt"] = "dealt"
    names: tuple[str, ...]
    captured: bool = False


class RoundCmp(_Frozen):
    """The round's number in the game (the first is 1) compared with `n`: `round >= 6`."""

    kind: Literal["round"] = "round"
    op: Op
    n: int


class RoundMonth(_Frozen):
    """How many cards of the round's month are among the cards tested, compared with `n`: the
    round's month is the deck's first month in round 1, its second in round 2, ... and the first
    again after the last (`all of round month`: op "=", n = that month's size)."""

    kind: Literal["round_month"] = "round_month"
    op: Op
    n: int
    all: bool = Field(False, description="`all of round month`: every card of that month")


class IsDealer(_Frozen):
    """The player the condition is tested for deals this round (`dealer`; `not dealer`)."""

    kind: Literal["dealer"] = "dealer"


class SeatFromDealer(_Frozen):
    """The player tested is the `place`-th in play order from the dealer, the dealer (or who
    leads in his place when he sits the round out) being the first: `second`, `third`
    (Hana-Awase's "the player to [the dealer's] right", "the player to the left of the
    dealer")."""

    kind: Literal["seat"] = "seat"
    place: int = Field(ge=2, le=8)


class Continued(_Frozen):
    """Continues called this round, compared with `n`: by the player himself (`continued`,
    `continued 2 or more times`) or by any one of his opponents (`an opponent continued`)."""

    kind: Literal["continued"] = "continued"
    who: Literal["self", "opponent"] = "self"
    op: Op = ">="
    n: int = 1


class ScoreCmp(_Frozen):
    """The player's score in the round so far, compared with `n`: the base value of the yaku he
    has made (before the field and continue multipliers); in a scoring step applied to a
    payment, that payment's base: `score >= 7`."""

    kind: Literal["score"] = "score"
    op: Op
    n: int


class OnField(_Frozen):
    """`item` holds for the field as it was laid at the deal: `the field had all of rainman,
    phoenix`."""

    kind: Literal["field"] = "field"
    item: Condition


class PayerHas(_Frozen):
    """`item` holds for the captured pile of the player who makes the payment a scoring factor
    is tested on: `the payer has lights = 0` (Go-Stop's gwang-bak). False for a payment from
    the bank (a score-style count's), which has no payer."""

    kind: Literal["payer"] = "payer"
    item: Condition


class NobodyWon(_Frozen):
    """The round ended with no winner: a drawn round (scoring steps)."""

    kind: Literal["nobody_won"] = "nobody_won"


class DrawnBefore(_Frozen):
    """The `n` rounds just before this one (at least) ended with no winner, in a row: `after a
    drawn round` (n 1), `after 2 drawn rounds`. A void deal is no round; the game's first
    round follows none (scoring steps)."""

    kind: Literal["drawn_before"] = "drawn_before"
    n: int = 1


class Declared(_Frozen):
    """The rule file's declaration was made this round, by any player (`declared han_yaku`):
    Tensho's choice of a set of yaku before the deal, read by the yaku's entries."""

    kind: Literal["declared"] = "declared"
    name: str = Field(description="the declaration's name (a file has one)")


class And(_Frozen):
    kind: Literal["and"] = "and"
    items: tuple[Condition, ...]


class Or(_Frozen):
    kind: Literal["or"] = "or"
    items: tuple[Condition, ...]


class Not(_Frozen):
    kind: Literal["not"] = "not"
    item: Condition


Condition = Annotated[
    AllOf
    | AnyOf
    | Count
    | Shape
    | PointsCmp
    | Everyone
    | Dealt
    | RoundCmp
    | RoundMonth
    | IsDealer
    | SeatFromDealer
    | Continued
    | ScoreCmp
    | OnField
    | PayerHas
    | NobodyWon
    | DrawnBefore
    | Declared
    | And
    | Or
    | Not,
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- teyaku and yaku


class Bonus(_Frozen):
    """`+amount` for each card of `cards` beyond `over` (Koi-Koi's ten plains, Simple 16)."""

    amount: int
    cards: tuple[int, ...]
    over: int
    extra: tuple[int, ...] = Field(
        (), description="cards of `cards` counted once more each time listed (one counting as 2)"
    )


class Yaku(_Frozen):
    name: str
    label: str
    value: int
    condition: Condition
    text: str = Field("", description="the condition as written in the rule file")
    parts: tuple[str, ...] = Field((), description="entries this one combines (kirisame)")
    bonus: Bonus | None = None
    unless: tuple[str, ...] = ()
    at_count: bool = Field(False, description="checked only when the hands are counted")
    paid_to_dealer: bool = False
    cancels: bool = Field(False, description="at the count: cancels the card count and teyaku")
    cancels_yaku: Literal["none", "all", "others"] = Field(
        "none",
        description="an entry decided at the count: while a player counts it, no entry decided"
        " at the count is paid (all), or only his are (others); they are still listed as made"
        " (Hana-Awase's Willow Row)",
    )
    wins_round: bool = Field(
        False,
        description="a yaku made in play: the round ends at once, its maker stops and wins it"
        " (no choice to continue is offered)",
    )
    flat: bool = Field(False, description="paid as written, not multiplied by the field")
    shown: bool = Field(
        False,
        description="a teyaku its holder may show or keep hidden: shown, it is paid, and its"
        " cards stay face up in his hand, which the other players may capture as field cards"
        " (Hana-Awase's chaff teyaku)",
    )
    loc: SourceLoc | None = None


class YakuTable(_Frozen):
    policy: Literal["best", "all"] = Field(
        description="best: only a player's highest entry counts; all: every entry adds"
    )
    view: str | None = None
    between_players: Literal["all", "highest"] = Field(
        "all", description="teyaku: every player with one is paid, or only the highest"
    )
    entries: tuple[Yaku, ...] = ()
    exclusive: tuple[tuple[str, ...], ...] = Field(
        (), description="groups of which only the highest-valued entry counts"
    )
    split: bool = Field(
        False, description="an entry's value is the total, split between its payers"
    )

    def entry(self, name: str) -> Yaku:
        for e in self.entries:
            if e.name == name:
                return e
        raise KeyError(name)


class OwnersChoice(_Frozen):
    """Cards that count as `first`, or as `weight` cards each of `second`, at their owner's
    choice (`treat sake as animal or 2 plains, owner's choice`). Wherever his captured yaku are
    counted (in play, the stop or continue offer, the count), the reading whose counted yaku are
    worth more to him is taken (equal: the first); `yaku` is the yaku table read the second
    way: the same entries, their conditions and bonuses with the cards as `second`; `steps` the
    scoring steps' conditions read so (each pile, the payee's and a factor's payer's, is read
    as its yaku read it). Card points (the count by par or by points, `points` conditions)
    count the cards as `first`."""

    cards: tuple[int, ...] = Field(min_length=1)
    first: str
    second: str
    weight: int = Field(1, ge=1, le=4, description="how many cards of `second` each counts as")
    text: str = ""
    yaku: YakuTable
    steps: tuple[Condition | None, ...] = Field(
        (),
        description="the scoring steps' conditions read the second way, in the order of the"
        " ruleset's `scoring` (a pile is read there as its yaku read it; empty: as the first)",
    )


# ---------------------------------------------------------------- multipliers


class Tier(_Frozen):
    """`xfactor` if any of `cards` is on the field; the next round too if `carry_at` are."""

    factor: int
    cards: tuple[int, ...]
    carry_at: int | None = None
    condition: Condition | None = Field(
        None, description="any condition on the field (then `cards` only count for the carry)"
    )
    text: str = ""


class FieldMultiplier(_Frozen):
    """The highest tier present wins; `per_card` adds `step` per field card in its set."""

    tiers: tuple[Tier, ...] = ()
    per_card: tuple[int, ...] = ()
    step: int = 0


# ---------------------------------------------------------------- round mechanics


class Seats(_Frozen):
    """How many sit at the table, and how many play each round (the others fold); `active`
    None: everyone seated plays."""

    min: int = Field(3, ge=2)
    max: int = Field(3, ge=2)
    active: int | None = Field(None, ge=2)
    sit_out: Literal["fold", "after_dealer", "dealer", "loser", "winner", "in_turn"] = Field(
        "fold",
        description="who sits a round out when more are seated than play: those who fold (the"
        " fold phase), the players after the dealer in turn, the dealer (then the players"
        " after him in turn), the loser or the winner of the last round (the lowest or highest"
        " net; a tie: the tied player last in play order), or each seat in turn whoever deals"
        " (the first round: the last in play order from the dealer)",
    )

    @model_validator(mode="after")
    def _seated(self) -> Seats:
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is less than min ({self.min})")
        if self.active is not None and self.active > self.min:
            raise ValueError(f"active ({self.active}) is more than min ({self.min})")
        if self.sit_out in ("loser", "winner") and any(
            n - self.playing(n) != 1 for n in range(self.min, self.max + 1)
        ):
            raise ValueError(f"sit_out {self.sit_out}: one player sits out each round, no more")
        return self

    def playing(self, seated: int) -> int:
        return seated if self.active is None else min(self.active, seated)

    def refusal(self, title: str, seated: int) -> str | None:
        """Why `seated` players cannot sit at this table, or None if they can."""
        if self.min <= seated <= self.max:
            return None
        allowed = f"{self.min}" + (f" to {self.max}" if self.max != self.min else "")
        return f"{title} seats {allowed} players, not {seated}"


class DealSize(_Frozen):
    """Cards dealt to each seated player and to the field; `seats` None means any count."""

    seats: int | None = None
    hand: int = Field(7, ge=1)
    field: int = Field(6, ge=0)


SetupStep = Literal["hands", "swap", "field", "fold", "joker", "teyaku", "instant_win", "bonus"]


class Offer(_Frozen):
    """A condition on one option of a choice: stop or continue (Continuation.offers), join or
    fold (Fold.offers), the swap (Ruleset.swap_offers), a hiki (Ruleset.hiki_offers), a
    declaration (Declaration.offers). The option is offered only when `condition` holds for the
    player (the maker's pile, or the hand of who joins or folds or may take a hiki, with the
    round as he sees it; `score` is the base value of the yaku he has made; who may swap or
    declare before the deal has seen no card: nothing) and every limit does. Offers of one
    option all apply.

    A choice with one option left is not asked: that option is taken (stop not offered: he
    continues; continue not offered: he stops; fold not offered: he joins; join not offered:
    he folds, a forced fold); with neither left, he stops, or joins. The swap, a hiki or a
    declaration not offered is not taken: he keeps his hand, plays a card, or passes.

    The stop-or-continue choice as a whole (`choice`, a minimum to stop: Go-Stop's) not offered
    is not asked and taken by nobody: he neither stops nor continues (no continue counted), and
    play goes on as if he had made no yaku; a later rise of his yaku tests it again.

    limits: `once_per_round`: only if he has not continued this round; `hand_not_empty`: only
    while he holds a card."""

    option: Literal["stop", "continue", "choice", "join", "fold", "swap", "hiki", "declare"]
    condition: Condition | None = None
    limits: tuple[Literal["once_per_round", "hand_not_empty"], ...] = ()


class Fold(_Frozen):
    """The fold phase, when more sit than play: fees go to the round winner."""

    fee: int = 10
    times_multiplier: bool = True
    forced_fee: int = 0
    start: Literal["dealer", "after_dealer"] = "dealer"
    payee: Literal["winner", "active", "dealer", "bank"] = Field(
        "winner",
        description="who takes the fees: the round winner, the players of the round (shared),"
        " the dealer, or nobody (the bank)",
    )
    before_deal: bool = Field(False, description="players join or fold before seeing a card")
    offers: tuple[Offer, ...] = Field(
        (), description="conditions on joining and folding (none: both always offered)"
    )


class Compensation(_Frozen):
    """What a player forced to fold is paid for the hand he folds (Go-Stop's dropout: "Players
    who are forced not to play may claim compensation for their hand"): `per_card` for each
    of its `cards`, times `factor` when `condition` holds for that hand (tested with the round
    as he sees it), paid him by each player of the round (`payers` "players"), or each but
    the dealer ("non_dealers"). A forced fold is one the rules make (enough have joined, or
    joining is not offered him), never a fold by choice. Paid flat (it is settled at the fold,
    before the field sets a multiplier), at the round's end after the fold fees, in the order
    the players folded; a void deal pays nothing (it is dealt again, fold and all)."""

    per_card: int = Field(ge=1)
    cards: tuple[int, ...] = Field(min_length=1)
    factor: int = Field(1, ge=1)
    condition: Condition | None = None
    payers: Literal["players", "non_dealers"] = Field(
        "players",
        description="who pays him: each player of the round, or each but the dealer",
    )


class Declaration(_Frozen):
    """A declaration a player may make at a stated moment, with its stake: who may make it,
    when, and what it changes (BGA's mizuten: the dealer, before the deal, commits to play the
    round and is paid by each player who folds; Go-Stop's shaking: a player holding three of a
    month, before the first play, doubles what he wins). Several players may declare it when
    `by` is any. Its award and penalty are paid at the round's end, with the fold fees."""

    name: str
    label: str = ""
    by: Literal["dealer", "any"] = Field(
        "dealer",
        description="who may declare: the dealer, or any player of the round (each asked in"
        " play order from the dealer)",
    )
    moment: Literal["before_deal", "after_hand", "before_play"] = Field(
        "before_deal",
        description="when: before the deal (his hand unseen, first of the setup's steps),"
        " after seeing the hand (after the deal and a swap, before the first of the field and"
        " fold steps), or before the first play (after every setup step)",
    )
    must_join: bool = Field(
        False, description="the declarer plays the round: he is not asked to join or fold"
    )
    from_each_folder: int = Field(
        0, ge=0, description="paid to the declarer by each player who folds by choice"
    )
    times_multiplier: bool = Field(
        True, description="its payments (from folders, award, penalty) are multiplied by the field"
    )
    factor: int = Field(
        1, ge=1, description="every payment to the declarer in the round after it is multiplied"
    )
    award: int = Field(
        0, ge=0, description="paid to him by each other player of the round if he succeeds"
    )
    success: Literal["none", "wins", "yaku"] = Field(
        "none",
        description="what he must do, or his award is not paid and he pays the penalty: win"
        " the round, or make a yaku (none: the award is always paid)",
    )
    penalty: int = Field(
        0, ge=0, description="paid by him to each other player of the round if he fails"
    )
    offers: tuple[Offer, ...] = Field(
        (), description="conditions on making it (none: always offered to who may)"
    )
    factor_per_month: int = Field(
        0,
        ge=0,
        le=4,
        description="N: the factor counts once for each month of N cards in his hand when he"
        " declares (at least once: Go-Stop's shaking, x2 per triplet shown); 0: once",
    )


EventKind = Literal["sweep", "stack_left", "stack_taken", "pair_twice", "draw_takes_play", "bomb"]


class Event(_Frozen):
    """Something that happens during a player's turn, named by the rule file, with its effects
    on the other players (Go-Stop's sseul, ppeok, ttadak and jjok): each opponent gives him a
    card of a class from his pile, or pays him points at once, or his winnings are multiplied,
    once for each time it happens. Checked at the end of the turn, before the yaku check."""

    name: str
    label: str = ""
    kind: EventKind = Field(
        description="the field is swept (left empty by the turn); a stack is left (the drawn card"
        " joins the pair the hand card just took: `stacks`); a stack is taken (a played or drawn"
        " card takes three field cards of its month); the play and the draw take a pair (each"
        " takes one of the two field cards of a month); the draw takes the card played (the hand"
        " card, laid on the field alone, taken by the drawn card); a bomb (his play took a month"
        " whole: a bomb, or a hiki)"
    )
    first_turn: bool = Field(False, description="only on the player's first turn of the round")
    not_last_turn: bool = Field(
        False, description="not on the round's last turn (the turn that empties every hand)"
    )
    give: str | None = Field(
        None,
        description="each opponent gives him one card of this class from his pile (the one with"
        " the fewest points, the first in the deck's order among them), if he has one",
    )
    steal: int = Field(0, ge=0, description="paid to him by each opponent at once, as written")
    factor: int = Field(
        1, ge=1, description="every payment of his winnings in the round is multiplied, per time"
    )
    time: int = Field(
        0,
        ge=0,
        description="only the time-th time it happens to him in the round (each time it"
        " happened counts, whatever else it needs); 0: every time",
    )
    in_a_row: bool = Field(
        False,
        description="only on his first turns in a row: his first turn, then each next turn of"
        " his as long as it happened to him on every turn of his before",
    )
    row_with: tuple[str, ...] = Field(
        (),
        description="with in_a_row: the file's other events whose turns count in his row too"
        " (a turn on which one of them happened to him keeps the row going: Go-Stop's"
        " cheodddadak, a first turn that opens the row of ppeok doubling its steal)",
    )
    steal_grows: Literal["flat", "doubling"] = Field(
        "flat",
        description="the steal as written (flat), or doubled for each time it happened to him"
        " before in the round (doubling: 3, 6, 12...)",
    )
    outcome: Literal["plays_on", "wins_round"] = Field(
        "plays_on",
        description="after its effects the round plays on, or he wins it at once (the round"
        " ends as an instant win: nothing else is paid)",
    )


class Bomb(_Frozen):
    """Cards of one month played from the hand at once onto the rest of the month on the field,
    all taken as the turn's play (Go-Stop's bomb): offered when the hand holds exactly `hand`
    cards of a month and the field all the others; a move like a hiki (`hiki MONTH`, or
    `bomb MONTH`). The hand is then short: on `skips` later turns the player may skip the play
    (draw only), and must when his hand is empty."""

    hand: int = Field(3, description="the month's cards played from the hand (2 or 3)")
    skips: int = Field(0, ge=0, description="later turns on which he may skip the play")


class DrawOffer(_Frozen):
    """A draw offered at the start of a player's turn, when he has no safe play: no play of his
    captures a card, and no card unseen by him (the stock, the hands he has not seen) drawn
    after any play of his would capture cards that raise his yaku to `minimum` (and over what
    he made). His hand is then shown; the others answer in turn from him: the first refusal
    ends the asking (the round plays on, the offerer's turn with it); when all accept, the
    round ends as a draw (nobody wins; what was paid in play stays paid). One offer a round
    (a refuser is liable for the rest of it). With `refuser_pays` for_all, the refuser pays for
    every payer a stop of
    another's, unless a continuer already does (`if another stops first the first continuer
    pays for all` comes first)."""

    minimum: int = Field(
        1,
        ge=1,
        description="the yaku value a draw must reach to be a safe play: the stop minimum"
        " (the continuation's `choice only if score >= N`), else 1",
    )
    refuser_pays: Literal["nothing", "for_all"] = Field(
        "nothing", description="for_all: the refuser pays a stop of another's for every payer"
    )


class Joker(_Frozen):
    """An extra card added at `seats` seated players; whoever is dealt it replaces it from the
    stock (it never reaches the field or a pile)."""

    seats: int


class FirstDealer(_Frozen):
    method: Literal["dice", "draw"] = "dice"
    best_card_breaks_ties: bool = False


class Continuation(_Frozen):
    """What a player may do after making a yaku, and what it costs.

    allowed: stop or continue (sage, koi-koi); otherwise the first yaku ends the round.
    ends_round: False if yaku never end the round (they are scored at the count, unless
      paid_in_play: then paid when made, the round playing on).
    paid: yaku are paid when made, or when the maker stops (or the round ends).
    if_beaten (the continuer is *beaten*: another player makes a yaku after his continue):
      refund half of the yaku his continue followed to each other player; pay the new yaku for
      every payer (that yaku only: the maker's later yaku are paid as usual); or forfeit his
      own yaku.
    if_other_stops (the continuer is *outstopped*: another player stops the round first):
      forfeit his yaku, or keep them (paid as if he had stopped); None: as if_unfinished.
    if_unfinished: the round ends with no new yaku after a continue: keep, pay half of its
      value to each other player, earn only half, or forfeit.
    multiplier_per_yaku: the n-th yaku after continuing multiplies the score by n (koi-koi).
    """

    label: str = ""
    allowed: bool = False
    ends_round: bool = True
    paid: Literal["made", "stop"] = "made"
    refund_half: bool = False
    pay_for_all: bool = False
    beaten_forfeit: bool = False
    if_other_stops: Literal["keep", "forfeit"] | None = None
    outstopped_pays: Literal["nobody", "first"] = Field(
        "nobody",
        description="when a player stops, who pays his stop's yaku payments for every payer:"
        " nobody (each pays his own), or the first of the others who continued in the round"
        " (Go-Stop's go-bak: each payment he is owed is paid by that continuer instead)",
    )
    if_unfinished: Literal["keep", "pay_half", "earn_half", "forfeit"] = "keep"
    multiplier_per_yaku: bool = False
    per_continue: int = Field(
        0,
        ge=0,
        description="added to what a player's yaku are paid at his stop (or the round's end),"
        " per continue he called, before every multiplier: Go-Stop's +1 per go",
    )
    paid_in_play: bool = Field(
        False,
        description="when yaku do not end the round: each is paid as soon as made (and paid"
        " again only if its value rises), not scored at the count",
    )
    offers: tuple[Offer, ...] = Field(
        (), description="conditions on the options of the choice (none: both always offered)"
    )
    after_loss: Literal["declared", "left"] = Field(
        "declared",
        description="after a yaku was lost, a new yaku is offered a stop when the total beats"
        " the value last declared (`declared`) or what is left of it (`left`)",
    )


class InstantWin(_Frozen):
    """A dealt hand that wins the round at once (Koi-Koi's four or four pairs): `value` from
    each other player, not multiplied."""

    value: int
    condition: Condition
    text: str = ""
    name: str = "instant_win"
    label: str = "Instant win"


class WildCard(_Frozen):
    """A card with powers: played from the hand it captures any one field card and keeps it
    (`any_target`); at the round's end it collects the field cards of that card's month
    (`collects_month`); it may not take a card that would complete another player's hiki
    (`respects_hiki`); when a hiki blocks one of its targets, it may instead be laid on the
    field (`lay_when_blocked`; otherwise only when no target is left). It may not take a card
    of its own month (`not_own_month`); on the field, the next card drawn not of its month takes
    it (`taken_by_draw`); drawn last, it takes the whole field (`sweeps_when_last`); drawn, it
    takes any field card it could take from the hand, or is laid (`drawn_any_target`); at the
    end, the last card of its month goes to whoever holds the other two (`last_to_holder`).
    Otherwise, on the field or drawn, it is an ordinary card of its month."""

    card: int
    any_target: bool = True
    collects_month: bool = True
    respects_hiki: bool = True
    lay_when_blocked: bool = False
    not_own_month: bool = Field(
        False,
        description="from the hand (or drawn, with drawn_any_target) it may not take a card of"
        " its own month",
    )
    taken_by_draw: bool = Field(
        False,
        description="on the field, it is taken by the next card drawn that is not of its month",
    )
    sweeps_when_last: bool = Field(
        False, description="drawn as the stock's last card, it takes every card of the field"
    )
    drawn_any_target: bool = Field(
        False,
        description="drawn, it takes one of the field cards it could take from the hand (its"
        " player's choice when several); with none, it is laid on the field",
    )
    last_to_holder: bool = Field(
        False,
        description="at the end, the one card of its month left on the field (not the wild card)"
        " goes to the player who captured the other two",
    )


class LoneCards(_Frozen):
    """Cards that go to the pile of whoever plays or draws them, taking nothing and never laid
    on the field (`lone phoenix: goes to whoever plays or draws it`: Tensho's phoenix, the one
    paulownia of its deck). Dealt to the field, such a card is an ordinary field card."""

    cards: tuple[int, ...] = Field(min_length=1)


class DealerClaim(_Frozen):
    """The dealer's option when the field is laid (`the dealer may take 2 of a month of 3 on
    the field and play second`: Tensho's TE 10): where the field holds exactly `size` cards of
    a month, he may take `take` of them (its most valuable, the deck's order: the lowest ids),
    of each such month, into his pile, the rest staying on the field; he then plays second
    (the other player of the round leads). Asked last of the setup, before the first play;
    declined, play starts with him as usual. Only where two play each round."""

    take: int = Field(2, ge=1, le=3, description="the cards of the month he takes")
    size: int = Field(3, ge=2, le=4, description="the cards of the month on the field")

    @model_validator(mode="after")
    def _fewer(self) -> DealerClaim:
        if self.take >= self.size:
            raise ValueError(f"take ({self.take}) must be less than size ({self.size})")
        return self


class Teams(_Frozen):
    """At `seats` players, teams of `size`: partners of a pair sit opposite, of a three
    alternate (seat s is in team s mod seats/size)."""

    seats: int
    size: int = Field(ge=2)


class Liability(_Frozen):
    """A yaku completed with a card another player played to the field, while holding at least
    `min_hand` cards, is paid in full by that player."""

    yaku: tuple[str, ...]
    min_hand: int = 2


class ParAt(_Frozen):
    """The par at one table size (`par 88 at 3 seats, 66 at 4 seats`)."""

    seats: int = Field(ge=2)
    par: int


class RoundKey(_Frozen):
    """One criterion of a count by round wins (`round wins by yaku points, then plains, then
    points`): what ranks the sides, the next criterion breaking a tie of this one."""

    key: Literal["yaku", "points", "cards"] = Field(
        description="the yaku a side made at the count, their values added (yaku); its card"
        " points (points); how many of `cards` it holds (cards)"
    )
    cards: tuple[int, ...] = Field(
        (), description="cards: the cards counted, a card weighing N listed N times"
    )
    label: str = Field("", description="as written: `yaku points`, `plains`, `points`")


class Settlement(_Frozen):
    """How the hands are settled at the end of a round: points over par (zero-sum), the
    difference (2 players), the card points as a score (with each yaku costing every opponent
    its value), the round won, or no count.

    team_cards: with teams, a yaku is made from each member's pile alone ("apart") or from the
      team's piles together ("pooled").
    tie: a tie for the best score (score-style counts) goes to the tied side first in play order
      from the dealer ("first"), or nobody wins the round ("draw").
    winner: who wins the round: the yaku's maker or the count's best ("count"), or the player
      with the best net of the round, yaku and count included ("net": Hana-Awase, Mushi and
      Min-Hwatu deal next to him)."""

    method: Literal["par", "difference", "points", "round_wins", "none", "per_points"] = "par"
    step_value: int = Field(
        1,
        ge=1,
        description="a count by steps of card points (per_points): what each full step is"
        " worth (`1 per 10 points`: 1)",
    )
    step_points: int = Field(
        10,
        ge=1,
        description="a count by steps of card points (per_points): the card points of a step,"
        " a remainder counting nothing (`1 per 10 points`: 10)",
    )
    par: int = 88
    par_at: tuple[ParAt, ...] = Field(
        (), description="the par at a table size, where it is not `par` (par_for)"
    )
    only_without_yaku: bool = True
    opponents_lose: bool = False
    makers_score: bool = Field(
        False,
        description="a count by points or round wins: each yaku made is scored for its maker"
        " against the bank, with his card points (Hana-Awase's additive score)",
    )
    team_cards: Literal["apart", "pooled"] = "apart"
    tie: Literal["first", "draw"] = "first"
    winner: Literal["count", "net"] = Field(
        "count",
        description="the round's winner: the yaku's maker or the count's best (count), or the"
        " best net of the round's payments so far, the first in play order from the dealer on"
        " a tie, the winner unchanged when every player's net is the same (net)",
    )
    round_paid: Literal["bank", "others"] = Field(
        "bank",
        description="a count by round wins: each round won is scored against the bank (bank),"
        " or paid by each other player of the round (others: Bakappana's share); a count by"
        " steps of card points: each player's steps scored against the bank, or paid him by"
        " each other player (others: Sanju-sen-me)",
    )

    round_by: tuple[RoundKey, ...] = Field(
        (),
        description="a count by round wins: the criteria that rank the sides, in order, a tie"
        " of one broken by the next (Tensho's yaku points, then chaff, then card points); none"
        " written: the score (card points, less the yaku charged with opponents lose each yaku)",
    )

    def par_for(self, seated: int) -> int:
        """The par at this many seated players."""
        return next((p.par for p in self.par_at if p.seats == seated), self.par)


class Length(_Frozen):
    rounds: int = Field(12, ge=1)
    winner_deals: bool = True
    drawn_keeps_dealer: bool = True
    rotate: bool = Field(False, description="the deal passes to the next player each round")
    target: int | None = Field(
        None, description="the game also ends when a player (or team) has this total"
    )
    start: int = Field(0, description="every player's score when the game starts")
    tie_break: tuple[Literal["round_wins", "dealer_order"], ...] = Field(
        (),
        description="how a tie for the best total at the game's end is broken, in order: the"
        " most rounds won, then the first in play order from the last round's dealer; a tie"
        " left (none written: every tie) is shared, every tied side wins",
    )


# ---------------------------------------------------------------- the scoring stage


class Factor(_Frozen):
    """Multiplies the payments of a kind (`on`) by `factor` when `condition` holds for their
    payee (tested with the payment's base as his score): `x2 if score >= 7`; factor 0: the
    payment is not made (`the payer pays nothing if ...`, Go-Stop's scoring exemption)."""

    kind: Literal["factor"] = "factor"
    factor: int = Field(ge=0)
    on: Literal["yaku", "teyaku", "count", "all"] = "yaku"
    condition: Condition | None = None
    text: str = ""
    name: str = Field("", description="the step's name (empty: written without one)")
    label: str = ""
    seats: int | None = Field(None, description="played only at this table size")


class Award(_Frozen):
    """A payment the round's end adds when `condition` holds: `value` to the `payee` (a role),
    from each other player of the round or (`split`) shared between them, flat unless
    `multiplied` by the field: oya-ken, `the dealer takes 6 if nobody won`."""

    kind: Literal["award"] = "award"
    name: str
    label: str = ""
    payee: Literal["dealer", "winner", "second", "third"] = Field(
        description="the dealer (or who leads in his place), the round's winner, or the second"
        " or third in play order from the dealer"
    )
    value: int
    split: bool = False
    multiplied: bool = False
    condition: Condition | None = None
    text: str = ""
    seats: int | None = Field(None, description="paid only at this table size")


ScoringStep = Annotated[Factor | Award, Field(discriminator="kind")]


class Unit(_Frozen):
    """The unit table values are counted in (`unit kan = 12 points`): values written where
    another size of the unit was in force are rescaled to this one."""

    name: str
    points: int = Field(ge=1)
    shown: bool = Field(
        False, description="scores and totals are shown in the unit (`show scores in kan`)"
    )


# ---------------------------------------------------------------- the variant


class Ruleset(_Frozen):
    game: str
    variant: str = ""
    source: str = ""
    files: tuple[str, ...] = Field((), description="the rule files, base first")
    deck: Deck
    points: dict[str, int]
    views: tuple[View, ...] = ()
    sets: tuple[CardSet, ...] = ()
    expectations: tuple[Expectation, ...] = ()
    teyaku: YakuTable | None = None
    yaku: YakuTable | None = None
    multiplier: FieldMultiplier = FieldMultiplier.model_construct()
    seats: Seats = Seats.model_construct()
    deal: tuple[DealSize, ...] = Field((DealSize.model_construct(),), min_length=1)
    setup: tuple[SetupStep, ...] = ("hands", "field", "fold", "teyaku")
    fold: Fold = Fold.model_construct()
    joker: Joker | None = None
    first_dealer: FirstDealer = FirstDealer.model_construct()
    void_field: Condition | None = Field(None, description="a field that voids the deal")
    void_text: str = ""
    void_hand: Condition | None = Field(
        None,
        description="a dealt hand that voids the deal: checked after the field's void, for"
        " each hand of the round",
    )
    void_hand_text: str = ""
    draw_at_count: Condition | None = Field(
        None,
        description="a round that is a draw when the hands are counted: tested for each player"
        " of the round on his captured pile; every payment of the round is undone, no count",
    )
    draw_at_count_text: str = ""
    continuation: Continuation = Continuation.model_construct()
    liability: Liability | None = None
    instant_win: InstantWin | None = Field(
        None, description="read from old JSON IR only: moved into `instant_wins` on loading"
    )
    dealer_captures: int | None = Field(
        None, description="the dealer captures a month of N on the field"
    )
    wild: WildCard | None = None
    dealer_claim: DealerClaim | None = Field(
        None,
        description="the dealer may take some of a month laid on the field, and play second",
    )
    play_out_stock: bool = Field(
        False,
        description="when nobody holds a card and the stock is not empty, the players go on in"
        " turn, each drawing the top card and playing it (Hana-Awase and Bakappana at two)",
    )
    still_draws: bool = Field(
        False,
        description="a player whose hand is empty (his shown cards captured) still takes his"
        " turns while the stock lasts, each drawing the top card and playing it",
    )
    instant_all: Literal["first", "draw"] = Field(
        "first",
        description="when every hand of the round wins at once: the first from the dealer wins"
        " (first), or the round is a draw, nobody paid (draw: Go-Stop's chongtong in every hand)",
    )
    lone: LoneCards | None = Field(
        None, description="cards that go to whoever plays or draws them (never to the field)"
    )
    compensation: Compensation | None = Field(
        None, description="what a player forced to fold is paid for the hand he folds"
    )
    hiki: bool = False
    hiki_offers: tuple[Offer, ...] = Field(
        (), description="conditions on a hiki (none: offered whenever one is seen)"
    )
    swap_offers: tuple[Offer, ...] = Field(
        (), description="conditions on the swap of the setup (none: always offered)"
    )
    teams: tuple[Teams, ...] = ()
    count: Settlement = Field(
        Settlement.model_construct(), description="the settlement when the hands are counted"
    )
    length: Length = Length.model_construct()
    instant_wins: tuple[InstantWin, ...] = Field(
        (), description="dealt hands that win at once, each with its value (a table)"
    )
    scoring: tuple[ScoringStep, ...] = Field(
        (), description="the scoring stage: steps applied, in order, to the round's payments"
    )
    unit: Unit | None = None
    declarations: tuple[Declaration, ...] = Field(
        (), description="the declarations a player may make (at most one today)"
    )
    owners_choice: OwnersChoice | None = Field(
        None, description="cards that count one way or another at their owner's choice"
    )
    bomb: Bomb | None = Field(None, description="cards of a month played at once onto the rest")
    draw_offer: DrawOffer | None = Field(
        None, description="a draw offered by a player with no safe play, answered in turn"
    )
    stacks: bool = Field(
        False,
        description="a drawn card of the month its hand card just took a pair of stays with the"
        " pair on the field: three of a month, stacked, for whoever takes them later",
    )
    bonus_on_pair: Literal["captured", "stays"] = Field(
        "captured",
        description="a bonus card drawn after the hand card took a pair: captured at once, or"
        " (`stays`, with `stacks`) left on the field with the pair when the next card drawn"
        " stacks on it, then taken with the stack by whoever takes it",
    )
    events: tuple[Event, ...] = Field(
        (), description="events during play and their effects on the other players"
    )
    left_out: tuple[int, ...] = Field(
        (), description="cards of the deck file left out of the deck (`without`)"
    )
    weighted: tuple[Weighted, ...] = Field(
        (), description="cards that count as more than one of their class (read in conditions)"
    )
    own_points: dict[int, int] = Field(
        {}, description="cards with points of their own, not their class's (`points moon 25`)"
    )

    @model_validator(mode="before")
    @classmethod
    def _one_instant_win(cls, data: object) -> object:
        """JSON IR written before instant wins were a table has one `instant_win`: it becomes
        an entry of the table (the field itself is no longer produced, and always left empty:
        the engine reads only the table)."""
        if isinstance(data, dict) and "instant_win" in data:
            data = dict(data)
            old = data.pop("instant_win")
            if old is not None:
                data["instant_wins"] = (*(data.get("instant_wins") or ()), old)
        return data

    @property
    def title(self) -> str:
        return f"{self.game} ({self.variant})" if self.variant else self.game

    def card(self, card_id: int) -> Card:
        for c in self.deck.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def card_points(self, card_id: int) -> int:
        if card_id in self.own_points:
            return self.own_points[card_id]
        return self.points.get(self.card(card_id).classes[0], 0)

    def card_points_count(self) -> bool:
        """Whether the captured cards' points count for anything: a count that reads them, or
        a condition on them (a special hand at the count). Where they do not (a game settled
        by yaku alone), a screen does not show them."""
        return self.count.method != "none" or _reads_points(self)

    def teams_for(self, seated: int) -> list[list[int]] | None:
        """The teams at this many players (seat lists), or None if each plays for himself."""
        for t in self.teams:
            if t.seats == seated:
                count = seated // t.size
                return [[s for s in range(seated) if s % count == k] for k in range(count)]
        return None

    def hand_sizes(self) -> list[int]:
        """The sizes of a dealt hand, smallest first (they may depend on the seats)."""
        return sorted({d.hand for d in self.deal})

    def deal_for(self, seated: int) -> DealSize:
        """The deal sizes at this many seated players."""
        for d in self.deal:
            if d.seats == seated:
                return d
        for d in self.deal:
            if d.seats is None:
                return d
        return self.deal[0]


# ---------------------------------------------------------------- checks of JSON IR
# The rule language resolves every name against the deck; JSON IR is written by hand or by
# other tools, so what it names is checked here (play would otherwise fail on a KeyError).


def unknown_references(rules: Ruleset) -> list[str]:
    """Where JSON IR names a card, month or class its deck does not have (`path: what`)."""
    ids = {c.id for c in rules.deck.cards}
    months = {m.number for m in rules.deck.months}
    problems: list[str] = []
    seen: set[int] = set()
    for i, card in enumerate(rules.deck.cards):
        if card.id in seen:
            problems.append(f"deck/cards/{i}/id: card {card.id} is in the deck twice")
        seen.add(card.id)
        if card.month not in months and not (card.month == 0 and card.id in rules.deck.bonus):
            problems.append(f"deck/cards/{i}/month: no month {card.month} in the deck")
        for cls in card.classes:
            if cls not in rules.deck.classes:
                problems.append(f"deck/cards/{i}/classes: no class '{cls}' in the deck")
    _walk(rules.model_dump(exclude={"deck"}), "", ids, months, problems)
    problems.extend(
        f"own_points/{c}: no card {c} in the deck" for c in rules.own_points if c not in ids
    )
    problems.extend(_unknown_names(rules))
    return problems


def _unknown_names(rules: Ruleset) -> list[str]:
    """Where JSON IR names an entry, a view or a teyaku its tables do not have."""
    out: list[str] = []
    views = {v.name for v in rules.views}
    teyaku = {e.name for e in rules.teyaku.entries} if rules.teyaku else set()
    for key, table in (("teyaku", rules.teyaku), ("yaku", rules.yaku)):
        if table is None:
            continue
        names = {e.name for e in table.entries}
        if table.view is not None and table.view not in views:
            out.append(f"{key}/view: no view '{table.view}'")
        for g, group in enumerate(table.exclusive):
            out.extend(
                f"{key}/exclusive/{g}: no {key} entry '{n}'" for n in group if n not in names
            )
        for i, e in enumerate(table.entries):
            for field in ("unless", "parts"):
                out.extend(
                    f"{key}/entries/{i}/{field}: no {key} entry '{n}'"
                    for n in getattr(e, field)
                    if n not in names
                )
            out.extend(
                f"{key}/entries/{i}/condition: no teyaku '{n}'"
                for n in _dealt_names(e.condition)
                if n not in teyaku
            )
    if rules.liability is not None:
        yaku = {e.name for e in rules.yaku.entries} if rules.yaku else set()
        out.extend(f"liability/yaku: no yaku '{n}'" for n in rules.liability.yaku if n not in yaku)
    out.extend(_choice_problems(rules))
    return out


def _choice_problems(rules: Ruleset) -> list[str]:
    """Where JSON IR's owner's choice names a class the deck lacks, or reads other yaku than
    the file's (the second reading has the same entries, in the same order)."""
    choice = rules.owners_choice
    if choice is None:
        return []
    out = [
        f"owners_choice/{key}: no class '{cls}' in the deck"
        for key, cls in (("first", choice.first), ("second", choice.second))
        if cls not in rules.deck.classes
    ]
    names = [e.name for e in rules.yaku.entries] if rules.yaku else []
    if [e.name for e in choice.yaku.entries] != names:
        out.append("owners_choice/yaku: its entries are not the yaku's, in the yaku's order")
    return out


def _dealt_names(cond: Condition) -> list[str]:
    return [n for c in parts_of(cond) if isinstance(c, Dealt) for n in c.names]


def parts_of(cond: Condition) -> Iterator[Condition]:
    """A condition and every condition inside it (under and, or, not, everyone, the field had),
    for the walks that ask what a condition tests."""
    yield cond
    if isinstance(cond, And | Or):
        for item in cond.items:
            yield from parts_of(item)
    elif isinstance(cond, Not | Everyone | OnField | PayerHas):
        yield from parts_of(cond.item)


def rewrite(cond: Condition, leaf: Callable[[Condition], Condition | None]) -> Condition:
    """`cond` with each part that `leaf` answers (not None) replaced by its answer, and and, or
    and not rebuilt around the parts it leaves: the one walk behind every condition that is
    made of another (a weighed count, a dealer decided, a round's month written in)."""
    done = leaf(cond)
    if done is not None:
        return done
    if isinstance(cond, And):
        return And(items=tuple(rewrite(i, leaf) for i in cond.items))
    if isinstance(cond, Or):
        return Or(items=tuple(rewrite(i, leaf) for i in cond.items))
    if isinstance(cond, Not):
        return Not(item=rewrite(cond.item, leaf))
    if isinstance(cond, PayerHas):  # (a payer's pile: its counts are weighed as anyone's)
        return PayerHas(item=rewrite(cond.item, leaf))
    return cond


def _walk(node: object, path: str, ids: set[int], months: set[int], out: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}/{key}" if path else str(key)
            if key in ("cards", "per_card", "extra") and isinstance(value, list | tuple):
                out.extend(f"{where}: no card {c} in the deck" for c in value if c not in ids)
            elif key == "card" and isinstance(value, int) and value not in ids:
                out.append(f"{where}: no card {value} in the deck")
            elif key == "months" and isinstance(value, list | tuple):
                out.extend(f"{where}: no month {m} in the deck" for m in value if m not in months)
            else:
                _walk(value, where, ids, months, out)
    elif isinstance(node, list | tuple):
        for i, item in enumerate(node):
            _walk(item, f"{path}/{i}", ids, months, out)


def _reads_points(node: object) -> bool:
    """Whether a condition on the captured card points (PointsCmp) is anywhere in `node`."""
    if isinstance(node, PointsCmp):
        return True
    if isinstance(node, BaseModel):
        return any(_reads_points(getattr(node, f)) for f in type(node).model_fields)
    if isinstance(node, tuple | list):
        return any(_reads_points(i) for i in node)
    if isinstance(node, dict):
        return any(_reads_points(v) for v in node.values())
    return False
