"""The scenario file: a round (or a game) written down, and what must come of it.

    title = "Fudawiki's worked example"
    rules = "hachihachi/fudawiki"
    seats = ["Leonardo", "Raphael", "Donatello", "Michelangelo"]
    dealer = "Leonardo"
    moves = ["Leonardo: join", "Raphael: fold", "Leonardo: play moon", ...]

    [deal]            # or: seed = 17
    field = [11, 42, 73, "rainman", 122, 123]
    stock = [121, 60, ...]
    [deal.hands]
    Leonardo = [10, 31, 40, 51, 63, "moon", 103]

    [expect]
    net = { Leonardo = -128, Raphael = -40, Donatello = 108, Michelangelo = 60 }

The JSON Schema in schemas/scenario.schema.json is generated from these models.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SeatRef = str | int
CardRef = int | str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Deal(_Strict):
    """A stacked deal: each hand, the field, and the stock from the top. Cards by id or name;
    the stock may stop early (the rest follows in id order). With folds, `restock` is the stock
    after the folded hands are shuffled back in (otherwise the seed reshuffles it); it may stop
    early too (every card in no other place follows, in id order)."""

    hands: dict[str, list[CardRef]] = Field(description="seat name -> cards")
    field: list[CardRef]
    stock: list[CardRef] = Field(default_factory=list, description="from the top")
    restock: list[CardRef] | None = None


class RejectedMove(_Strict):
    """A move that must be refused at this point, with part of the refusal's message."""

    move: str = Field(description="'Seat: play crane'")
    rejected: str = Field(description="part of the error message")


Move = str | RejectedMove


class Payment(_Strict):
    payer: SeatRef
    payee: SeatRef
    amount: int | float
    reason: str | None = Field(
        None, description="teyaku, yaku, count, fold fee, refund, penalty, ..."
    )
    detail: str | None = None


class Expect(_Strict):
    """Any of these; each one given must hold."""

    void: bool | None = None
    dealer: SeatRef | None = Field(
        None, description="who deals the round (the first dealer drawn, or the game's next)"
    )
    multiplier: int | None = None
    carry: int | None = Field(None, description="the least multiplier of the next round")
    teyaku: dict[str, list[str]] | None = Field(None, description="seat -> counted teyaku")
    yaku: dict[str, list[str]] | None = Field(None, description="seat -> yaku made")
    payments: list[Payment] | None = Field(None, description="entries that must be in the ledger")
    ledger: list[Payment] | None = Field(None, description="the whole ledger, in order")
    net: dict[str, int | float] | None = None
    points: dict[str, int] | None = Field(None, description="captured card points")
    captured: dict[str, list[CardRef]] | None = Field(None, description="cards in each seat's pile")
    field: list[CardRef] | None = Field(
        None, description="exactly the cards on the field, as the moves leave it"
    )
    shown: dict[str, list[CardRef]] | None = Field(
        None, description="exactly the cards each seat showed for its teyaku"
    )
    winner: SeatRef | None = Field(None, description="a seat, or 'none' for a drawn round")
    sat_out: list[SeatRef] | None = Field(
        None, description="exactly the seats that do not play the round (sat out or folded)"
    )
    next_dealer: SeatRef | None = None
    ended_by: Literal["yaku", "count", "draw", "void", "instant"] | None = None
    declared: SeatRef | list[SeatRef] | None = Field(
        None,
        description="who made the rule file's declaration (mizuten), or 'none'; or exactly"
        " the seats that made it (a declaration any player may make: [] for none)",
    )
    counted_as: dict[str, str] | None = Field(
        None,
        description="seat -> the class the owner's choice's cards in his pile counted as (its"
        " first or its second), as the round stands",
    )


class RoundSpec(_Strict):
    dealer: SeatRef | None = Field(None, description="by default the scenario's, or the game's")
    seed: int | None = Field(None, description="deal from this seed instead of a stacked deal")
    deal: Deal | None = None
    moves: list[Move] = Field(default_factory=list, description="'Seat: move', in order")
    rest: str | None = Field(None, description="a bot that plays whatever the moves leave")
    expect: Expect | None = None


class GameExpect(_Strict):
    net: dict[str, int | float] | None = None
    totals: dict[str, int | float] | None = Field(
        None, description="each seat's score at the game's end: the starting score plus its net"
    )
    over: bool | None = Field(
        None,
        description="true: the game is over after the rounds written (its rounds played, or a"
        " target score reached); false: it goes on",
    )
    winners: list[SeatRef] | None = Field(
        None,
        description="exactly the seats that win the game: the best total, a tie broken by the"
        " file's `tie break` (several: a tie shared, or a team)",
    )


class PlaySpec(_Strict):
    """How `rulekit play` resumes a saved game: who is the person at the table, and the bots."""

    human: str | None = Field(None, description="the seat a person plays")
    bots: dict[str, str] = Field(default_factory=dict, description="seat -> bot")
    think_ms: int | None = None


class Scenario(_Strict):
    title: str
    description: str = ""
    rules: str = Field(description="a rule file's path (relative to this file) or a bundled name")
    house_rules: str | None = Field(
        None, description="rule-language lines applied on top of `rules`"
    )
    seats: list[str] = Field(min_length=2)
    dealer: SeatRef = Field(
        0,
        description="a seat (its name or index), or 'drawn': the rule file's first dealer by"
        " card draw, with the cards of `first_dealer_draw`",
    )
    first_dealer_draw: list[dict[str, CardRef]] | None = Field(
        None,
        description="with dealer = 'drawn': the card each seat drew (seat name -> card), then"
        " the next draw of those who tied, and so on",
    )
    seed: int = Field(0, description="chance: seeded deals, reshuffles, bots")
    round: int = Field(
        1,
        ge=1,
        description="the round's number in its game, from 1 (its month: round 13 is January"
        " again); in a game, the first round's, the others counting on from it",
    )
    # one round, written at the top level ...
    deal: Deal | None = None
    moves: list[Move] = Field(default_factory=list)
    rest: str | None = None
    expect: Expect | None = None
    # ... or a game: several rounds, dealt in order (the winner deals next, carry-over applies)
    rounds: list[RoundSpec] | None = None
    game: GameExpect | None = Field(None, description="expectations on the whole game")
    play: PlaySpec | None = Field(None, description="a game saved by `rulekit play`")

    def round_specs(self) -> list[RoundSpec]:
        if self.rounds is not None:
            return self.rounds
        return [RoundSpec(deal=self.deal, moves=self.moves, rest=self.rest, expect=self.expect)]


def scenario_schema() -> dict[str, Any]:
    schema = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "rulekit scenario"
    return schema
