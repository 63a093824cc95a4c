"""What a hand, a captured pile or a field is worth under a variant (the `eval` command).

Conditions on the round are decided from the facts eval is told (`Facts`: the round's number,
and so its month, and whether the cards are the dealer's). An entry that asks what eval was not
told or cannot know (the continues called, the score, the field at the deal, the other players'
piles) is undecided: listed with what it depends on, and not counted, never silently false.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulekit import ir
from rulekit.cards import CardIndex, bits
from rulekit.engine.context import month_of_round
from rulekit.engine.tables import CompiledRules, CompiledTable, condition_test
from rulekit.errors import UsageError, either

# what an atom asks that no option of eval tells, in words
UNKNOWABLE: dict[type, str] = {
    ir.Continued: "the continues called this round",
    ir.ScoreCmp: "the score in the round",
    ir.NobodyWon: "how the round ended",
    ir.DrawnBefore: "how the rounds before ended",
    ir.Everyone: "the other players' piles",
    ir.PayerHas: "who pays",
    ir.SeatFromDealer: "where the player sits from the dealer",
    ir.Dealt: "the teyaku dealt",
    ir.Declared: "whether the declaration was made",
}
NO_ROUND = "the round (--round)"
NO_DEALER = "whose cards they are (--dealer or --not-dealer)"
NO_FIELD = "the field at the deal"


@dataclass(frozen=True)
class Facts:
    """What eval is told about the round: its number (the first is 1), and whether the cards
    are the dealer's; None: not told."""

    round: int | None = None
    dealer: bool | None = None


NOTHING_TOLD = Facts()


class _Context:
    """The round as compiled conditions read it (engine.tables.RoundContext, CountContext):
    the facts told and, for the rest, stand-ins; a condition that reads a stand-in is decided
    by _Judge instead."""

    def __init__(self, index: CardIndex, facts: Facts, field_at_deal: int) -> None:
        self.round = facts.round or 1
        self.month_mask = month_of_round(index.month_masks, self.round - 1)
        self.is_dealer = bool(facts.dealer)
        self.continued = self.opponent_continued = self.score = 0
        self.field_at_deal = field_at_deal
        self.nobody_won = False
        self.draws_before = 0
        self.declared = False
        self.piles: Sequence[int] = ()

    def dealt_holds(self, names: tuple[str, ...], captured: bool, pile: int) -> bool:
        return False


Verdict = bool | frozenset[str]  # holds, does not, or depends on these


class _Judge:
    """Decides conditions in three values (Kleene's): what eval knows is tested by the engine's
    own compiled code; an atom it does not know makes a condition undecided only when its
    value could change the outcome (`lights >= 3 and round >= 10` with two lights is false)."""

    def __init__(self, compiled: CompiledRules, facts: Facts, field: int | None = None) -> None:
        self.index = compiled.index
        self.facts = facts
        self.field = field  # the field at the deal, when it is the field that is evaluated
        self.ctx = _Context(compiled.index, facts, field or 0)
        self._tests: dict[ir.Condition, Callable[..., bool]] = {}

    def missing(self, c: ir.Condition) -> str | None:
        """What an atom asks that eval was not told, in words; None when eval knows it."""
        if isinstance(c, ir.RoundCmp | ir.RoundMonth):
            return NO_ROUND if self.facts.round is None else None
        if isinstance(c, ir.IsDealer):
            return NO_DEALER if self.facts.dealer is None else None
        if isinstance(c, ir.OnField):
            return NO_FIELD if self.field is None else None
        return UNKNOWABLE.get(type(c))

    def _test(self, c: ir.Condition) -> Callable[..., bool]:
        if c not in self._tests:
            self._tests[c] = condition_test(c, self.index)
        return self._tests[c]

    def unsure(self, c: ir.Condition) -> bool:
        return any(self.missing(p) for p in ir.parts_of(c))

    def decide(self, c: ir.Condition, x: int) -> Verdict:
        if not self.unsure(c):
            return self._test(c)(x, self.ctx)
        if isinstance(c, ir.And | ir.Or):
            parts = [self.decide(i, x) for i in c.items]
            settles = isinstance(c, ir.Or)  # a true part settles an `or`, a false one an `and`
            if any(p is settles for p in parts):
                return settles
            if all(p is (not settles) for p in parts):
                return not settles
            return frozenset().union(*(p for p in parts if isinstance(p, frozenset)))
        if isinstance(c, ir.Not):
            inner = self.decide(c.item, x)
            return inner if isinstance(inner, frozenset) else not inner
        if isinstance(c, ir.OnField) and self.field is not None:
            return self.decide(c.item, self.field)
        if isinstance(c, ir.RoundMonth):  # without the round: decided if the same every month
            test, months = self._test(c), range(len(self.index.month_masks))
            seen = {test(x, _Context(self.index, Facts(k + 1), 0)) for k in months}
            return seen.pop() if len(seen) == 1 else frozenset({NO_ROUND})
        if isinstance(c, ir.Everyone):  # the player is one of everyone: false if not for him
            mine = self.decide(c.item, x)
            if mine is False:
                return False
            others = frozenset({UNKNOWABLE[ir.Everyone]})
            return others | mine if isinstance(mine, frozenset) else others
        reason = self.missing(c)
        assert reason is not None, f"unhandled condition {c!r}"
        return frozenset({reason})

    def table(
        self, table: CompiledTable, x: int, at_count: bool
    ) -> tuple[int, dict[int, frozenset[str]]]:
        """The entries sure to hold (hits, as `counted` takes them), and the undecided ones
        with what each depends on."""
        hits = table.hits(x, self.ctx, at_count)  # exact for the entries eval knows all of
        undecided: dict[int, frozenset[str]] = {}
        for i, e in enumerate(table.entries):
            if (at_count or not e.at_count) and self.unsure(e.condition):
                verdict = self.decide(e.condition, x)
                if isinstance(verdict, frozenset):
                    undecided[i] = verdict
                hits = hits | 1 << i if verdict is True else hits & ~(1 << i)
        return hits, undecided

    def told(self) -> dict[str, Any]:
        """The facts eval was told, for the result: the round, its month's name, the dealer."""
        month = None
        if self.facts.round is not None:
            months = self.index.month_masks
            month = self.index.deck.months[months.index(self.ctx.month_mask)].name
        return {"round": self.facts.round, "month": month, "dealer": self.facts.dealer}


def _entry(table: CompiledTable, i: int, x: int) -> dict[str, Any]:
    e = table.entries[i]
    item: dict[str, Any] = {"name": e.name, "label": e.label, "value": table.value(i, x)}
    if e.at_count:
        item["at_count"] = True
    return item


def _undecided(
    table: CompiledTable, undecided: dict[int, frozenset[str]], x: int
) -> list[dict[str, Any]]:
    return [{**_entry(table, i, x), "depends_on": sorted(why)} for i, why in undecided.items()]


def eval_hand(
    compiled: CompiledRules,
    ids: list[int],
    hand_size: int | None = None,
    *,
    facts: Facts = NOTHING_TOLD,
) -> dict[str, Any]:
    """Every teyaku the dealt hand makes, the one(s) counted, and the counted value; the
    teyaku that depend on what eval was not told, undecided. The hand has `hand_size` cards,
    or any size the variant deals."""
    if compiled.teyaku is None:
        raise UsageError(f"{compiled.rules.title} has no teyaku (dealt hands) to evaluate")
    sizes = compiled.rules.hand_sizes() if hand_size is None else [hand_size]
    if len(ids) not in sizes:
        raise UsageError(f"a dealt hand has {either(sizes)} cards; {len(ids)} given")
    table = compiled.teyaku
    x = compiled.index.mask(ids)
    judge = _Judge(compiled, facts)
    hits, undecided = judge.table(table, x, at_count=False)
    counted = table.counted(hits, x)
    return {
        "teyaku": [_entry(table, i, x) for i in bits(hits)],
        "counted": [_entry(table, i, x) for i in counted],
        "value": sum(table.value(i, x) for i in counted),
        **judge.told(),
        "undecided": _undecided(table, undecided, x),
    }


def eval_captured(
    compiled: CompiledRules, ids: list[int], *, facts: Facts = NOTHING_TOLD
) -> dict[str, Any]:
    """Every yaku a captured pile holds (those decided at the count too, when the pile alone
    decides them), and their value; the yaku that depend on what eval was not told or
    cannot know, undecided."""
    if compiled.yaku is None:
        raise UsageError(f"{compiled.rules.title} has no yaku to evaluate")
    table = compiled.yaku
    x = compiled.index.mask(ids)
    judge = _Judge(compiled, facts)
    hits, undecided = judge.table(table, x, at_count=True)
    counted = table.counted(hits, x)
    return {
        "yaku": [_entry(table, i, x) for i in counted],
        "matched": [_entry(table, i, x) for i in bits(hits)],
        "value": sum(table.value(i, x) for i in counted),
        "points": compiled.index.points(x),
        **judge.told(),
        "undecided": _undecided(table, undecided, x),
    }


def eval_field(
    compiled: CompiledRules, ids: list[int], *, facts: Facts = NOTHING_TOLD
) -> dict[str, Any]:
    """The field multiplier, the multiplier the next round carries at least, and whether the
    field voids the deal. A tier or a void rule that asks about the round needs its number."""
    field = compiled.index.mask(ids)
    judge = _Judge(compiled, Facts(round=facts.round), field)
    rules = compiled.rules
    asked = [("multiplier", t.condition) for t in rules.multiplier.tiers if t.condition]
    asked += [("void rule", rules.void_field)] if rules.void_field is not None else []
    for what, cond in asked:
        verdict = judge.decide(cond, field)
        if isinstance(verdict, frozenset):
            raise UsageError(
                f"{rules.title}: the {what} of this field depends on the round",
                hint="give the round: --round N (the first is 1)",
            )
    factor, carry = compiled.multiplier.of_field(field, judge.ctx)
    void = compiled.void_field is not None and compiled.void_field(field, judge.ctx)
    told = judge.told()
    return {
        "multiplier": factor,
        "next_round_at_least": carry,
        "void": bool(void),
        "round": told["round"],
        "month": told["month"],
    }
