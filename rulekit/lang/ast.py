"""The syntax tree of a rule file: what was written, where, before any name is resolved.

The loader turns a list of these statements (one file after another along `extends`) into the IR.
Every node keeps its location so that a later check can point at the exact word.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulekit.errors import Loc


@dataclass(frozen=True)
class Name:
    text: str
    loc: Loc


# ---------------------------------------------------------------- card sets


@dataclass(frozen=True)
class SName:
    """A card, set, class, tag or month named in a set position."""

    name: Name

    @property
    def loc(self) -> Loc:
        return self.name.loc


@dataclass(frozen=True)
class SCard:
    id: int
    loc: Loc


@dataclass(frozen=True)
class SMonth:
    ref: Name
    loc: Loc


@dataclass(frozen=True)
class SUnion:
    left: SetExpr
    right: SetExpr
    loc: Loc


@dataclass(frozen=True)
class SMinus:
    left: SetExpr
    right: SetExpr
    loc: Loc


SetExpr = SName | SCard | SMonth | SUnion | SMinus


def set_text(expr: SetExpr) -> str:
    """A set expression written back as text (labels in the IR, a tier's words)."""
    if isinstance(expr, SName):
        return expr.name.text
    if isinstance(expr, SCard):
        return str(expr.id)
    if isinstance(expr, SMonth):
        return f"month {expr.ref.text}"
    op = "+" if isinstance(expr, SUnion) else "-"
    return f"{set_text(expr.left)} {op} {set_text(expr.right)}"


# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class CAllOf:
    items: tuple[SetExpr, ...]
    loc: Loc


@dataclass(frozen=True)
class CAnyOf:
    items: tuple[SetExpr, ...]
    loc: Loc


@dataclass(frozen=True)
class CNoneOf:
    items: tuple[SetExpr, ...]
    loc: Loc


@dataclass(frozen=True)
class CAtLeast:
    n: int
    items: tuple[SetExpr, ...]
    loc: Loc


@dataclass(frozen=True)
class CCompare:
    expr: SetExpr
    op: str
    n: int
    loc: Loc


@dataclass(frozen=True)
class CRest:
    classes: tuple[Name, ...]
    loc: Loc


@dataclass(frozen=True)
class CShape:
    count: int
    size: int
    months: tuple[Name, ...]
    loc: Loc


@dataclass(frozen=True)
class CPoints:
    op: str
    n: int
    loc: Loc


@dataclass(frozen=True)
class CEveryone:
    item: Cond
    loc: Loc


@dataclass(frozen=True)
class CDealt:
    names: tuple[Name, ...]
    loc: Loc
    captured: bool = False


@dataclass(frozen=True)
class CRound:
    """`round >= 6`: the round's number in the game, the first being 1."""

    op: str
    n: int
    loc: Loc


@dataclass(frozen=True)
class CRoundMonth:
    """`all of round month` (`all`), `3 of round month` (n): cards of the round's month."""

    n: int
    loc: Loc
    all: bool = False


@dataclass(frozen=True)
class CDealer:
    loc: Loc


@dataclass(frozen=True)
class CSeat:
    """`second`, `third`: the player tested is that far in play order from the dealer."""

    place: int
    loc: Loc


@dataclass(frozen=True)
class CContinued:
    """`continued`, `continued 2 or more times`, `an opponent continued`."""

    who: str  # self | opponent
    n: int
    loc: Loc


@dataclass(frozen=True)
class CScore:
    op: str
    n: int
    loc: Loc


@dataclass(frozen=True)
class CFieldHad:
    """`the field had <atom>`: the field as it was laid at the deal."""

    item: Cond
    loc: Loc


@dataclass(frozen=True)
class CPayerHas:
    """`the payer has <atom>`: the pile of who makes the payment a scoring factor tests."""

    item: Cond
    loc: Loc


@dataclass(frozen=True)
class CNobodyWon:
    loc: Loc


@dataclass(frozen=True)
class CDrawnBefore:
    """`after a drawn round`, `after 2 drawn rounds`: the rounds just before this one."""

    n: int
    loc: Loc


@dataclass(frozen=True)
class CDeclared:
    """`declared han_yaku`: the rule file's declaration was made this round."""

    name: str
    loc: Loc


@dataclass(frozen=True)
class CAnd:
    items: tuple[Cond, ...]
    loc: Loc


@dataclass(frozen=True)
class COr:
    items: tuple[Cond, ...]
    loc: Loc


@dataclass(frozen=True)
class CNot:
    item: Cond
    loc: Loc


Cond = (
    CAllOf
    | CAnyOf
    | CNoneOf
    | CAtLeast
    | CCompare
    | CRest
    | CShape
    | CPoints
    | CEveryone
    | CDealt
    | CRound
    | CRoundMonth
    | CDealer
    | CSeat
    | CContinued
    | CScore
    | CFieldHad
    | CPayerHas
    | CNobodyWon
    | CDrawnBefore
    | CDeclared
    | CAnd
    | COr
    | CNot
)


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Stmt:
    loc: Loc


@dataclass(frozen=True)
class Game(Stmt):
    title: str
    variant: str | None


@dataclass(frozen=True)
class Source(Stmt):
    text: str


@dataclass(frozen=True)
class Extends(Stmt):
    path: str


@dataclass(frozen=True)
class DeckRef(Stmt):
    path: str


@dataclass(frozen=True)
class DeckName(Stmt):
    title: str


@dataclass(frozen=True)
class Classes(Stmt):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Tags(Stmt):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class MonthDecl(Stmt):
    number: int
    name: Name
    label: str | None
    aliases: tuple[Name, ...]


@dataclass(frozen=True)
class CardDecl(Stmt):
    id: int
    name: Name
    label: str
    cls: Name
    tags: tuple[Name, ...]


@dataclass(frozen=True)
class Expect(Stmt):
    items: tuple[tuple[Name, int], ...]


@dataclass(frozen=True)
class Points(Stmt):
    items: tuple[tuple[Name, int], ...]


@dataclass(frozen=True)
class Without(Stmt):
    """`without peony, clover`: cards left out of the deck (and a month all of whose cards are)."""

    items: tuple[SetExpr, ...]


@dataclass(frozen=True)
class BonusDecl(Stmt):
    """`card 130 bonus_two "Bonus card" bonus as 2 plains`: a card of no month added to the deck,
    of class `cls`, counting `weight` cards of it; captured at once and replaced."""

    id: int
    name: Name
    label: str
    weight: int
    cls: Name


@dataclass(frozen=True)
class Weighted(Stmt):
    """`treat lightning as 2 plains`: the cards are of class `cls`, each `weight` cards of it in
    every count of that class."""

    expr: SetExpr
    weight: int
    cls: Name


@dataclass(frozen=True)
class Reclass:
    expr: SetExpr
    also: bool
    cls: Name


@dataclass(frozen=True)
class Treat(Stmt):
    reclass: Reclass


@dataclass(frozen=True)
class OwnersChoice(Stmt):
    """`treat sake as animal or 2 plains, owner's choice`: the cards count as `first`, or as
    `weight` cards of `second`, at their owner's choice."""

    expr: SetExpr
    first: Name
    weight: int
    second: Name


@dataclass(frozen=True)
class ViewDecl(Stmt):
    name: Name
    label: str | None
    reclasses: tuple[Reclass, ...]


@dataclass(frozen=True)
class SetDecl(Stmt):
    name: Name
    label: str | None
    items: tuple[SetExpr, ...]


@dataclass(frozen=True)
class TableOpt:
    kind: str  # best | all | view | between_all | between_highest
    loc: Loc
    arg: Name | None = None


@dataclass(frozen=True)
class TableHeader(Stmt):
    table: str  # teyaku | yaku
    opts: tuple[TableOpt, ...]


@dataclass(frozen=True)
class MultiplierHeader(Stmt):
    pass


@dataclass(frozen=True)
class Exclusive(Stmt):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Remove(Stmt):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class EntryOpt:
    kind: str  # unless | bonus | at_count | paid_to_dealer | cancels | cancels_every_yaku | ...
    loc: Loc
    names: tuple[Name, ...] = ()
    amount: int | Amount = 0  # a bonus may be written in the unit


@dataclass(frozen=True)
class Entry(Stmt):
    name: Name
    label: str | None
    value: int | Amount | None
    cond: Cond | None
    cond_text: str | None
    parts: tuple[Name, ...]
    opts: tuple[EntryOpt, ...] = field(default=())


@dataclass(frozen=True)
class Tier(Stmt):
    """`x2 if any of ...` (items; cond None) or `x4 if <any condition>` (cond and its text)."""

    factor: int
    items: tuple[SetExpr, ...]
    carry_at: int | None
    cond: Cond | None = None
    text: str = ""


@dataclass(frozen=True)
class InstantWinsHeader(Stmt):
    """`instant wins`: the named entries below are dealt hands that win at once."""


@dataclass(frozen=True)
class PerCard(Stmt):
    step: int
    items: tuple[SetExpr, ...]


@dataclass(frozen=True)
class Opt:
    """One option of a mechanic statement (`fee 10`, `starts at dealer`)."""

    kind: str
    loc: Loc
    value: int | str | Amount | None = None  # a value in points may be written in the unit
    cond: Cond | None = None  # an offer's condition (`stop only if score >= 2`)


@dataclass(frozen=True)
class Mechanic(Stmt):
    """A round-mechanics statement: seats, deal, setup, fold, continue, count, rounds, ..."""

    kind: str
    opts: tuple[Opt, ...] = ()
    names: tuple[Name, ...] = ()
    cond: Cond | None = None
    text: str = ""
    cards: tuple[SetExpr, ...] = ()

    def opt(
        self, kind: str, default: int | str | Amount | None = None
    ) -> int | str | Amount | None:
        """The value of the option `kind`, or `default` if the statement does not write it."""
        return next((o.value for o in self.opts if o.kind == kind), default)

    def number(self, kind: str) -> int:
        """The number the grammar requires for option `kind` (`teams at 4 seats`: seats)."""
        value = self.opt(kind)
        if not isinstance(value, int):
            raise AssertionError(f"'{self.kind}' has no number '{kind}'")
        return value


# ---------------------------------------------------------------- the scoring stage


@dataclass(frozen=True)
class Amount:
    """A value written in the declared unit: `2 kan`."""

    n: int
    unit: Name
    loc: Loc


@dataclass(frozen=True)
class ScoringHeader(Stmt):
    """`scoring`: the factor and award lines below are the steps of the scoring stage."""


@dataclass(frozen=True)
class Factor(Stmt):
    """`seven "Seven or more" x2 on yaku if score >= 7`: the name may be left out when `on` is
    written (then the step cannot be changed by name)."""

    name: Name | None
    label: str | None
    factor: int
    on: str  # yaku | teyaku | count | all
    cond: Cond | None
    text: str
    seats: int | None = None  # `at 5 seats: ...`: played only at that table size
    seats_loc: Loc | None = None


@dataclass(frozen=True)
class Award(Stmt):
    """`oya_ken "Oya-ken" the dealer takes 6 if nobody won`."""

    name: Name
    label: str | None
    payee: str  # dealer | winner
    value: int | Amount
    split: bool
    multiplied: bool
    cond: Cond | None
    text: str
    opts: tuple[Opt, ...] = ()  # `; times multiplier`, `; flat`: where each is written
    seats: int | None = None  # `at 5 seats: ...`: paid only at that table size
    seats_loc: Loc | None = None


@dataclass(frozen=True)
class AtSeats(Stmt):
    """`at 5 seats: STATEMENT` where the statement is not a scoring step (refused)."""

    seats: int
    stmt: Stmt


@dataclass(frozen=True)
class UnitDecl(Stmt):
    """`unit kan = 10 points`: the unit table values are counted in."""

    name: Name
    points: int


@dataclass(frozen=True)
class EveryWorth(Stmt):
    """`every yaku is worth 25`: every entry of the table, inherited ones too, takes the value."""

    table: str  # teyaku | yaku
    value: int | Amount
