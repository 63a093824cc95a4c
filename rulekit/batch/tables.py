"""A rule file's tables as int64 arrays read by numba: the conditions of the batch engine.

The scalar engine (engine/tables.py) generates Python per rule file; a numba kernel cannot be
compiled per file (seconds each), so here every table becomes data ("programs") for one
generic, cached kernel: a small condition VM. Python builds the arrays once per rule file; the
`@njit(cache=True)` functions below read them and give the answers of CompiledTable,
CompiledMultiplier, CompiledRules.void_field, instant_wins and the scoring stage's conditions
for every mask (card masks are int64: bit i is the deck's i-th card, so a deck holds at most
63 cards).

Condition program (a list of int64 words, starting at some `start` in an array):

    [nseg, guarded, kind_0, len_0, words_0..., kind_1, len_1, words_1..., ...]

`guarded` 1: the condition asks about the round (engine.tables.sees_round), so it is false
without a round context (the scalar's `guarded`). `nseg` segments, each its kind, its length,
then its postfix words. The last segment (SEG_MAIN) is the condition; those before it are its
parts tested on other masks than the one tested, inner ones first: an `everyone` part
(SEG_EVERYONE: over every pile), a `the field had` part (SEG_FIELD: over the field as laid at
the deal) or a `the payer has` part (SEG_PAYER: over the pile of a scoring factor's payer,
false with none). None depends on the mask tested, so each is evaluated once into bit j of a
`slots` word that the later segments read (OP_SLOT j): no recursion. A segment's words are
postfix ops over a stack of booleans kept in the bits of one int64 (so at most 62 deep; the
builder checks):

    OP_ALL m            (x & m) == m
    OP_ANY m            (x & m) != 0
    OP_NONE m           (x & m) == 0
    OP_COUNT m op n     popcount(x & m) <op> n
    OP_POINTS op n k (v m)*k    card points of x <op> n: the sum of v * popcount(x & m)
    OP_LANES size demand lanes  (a deck of four cards a month in consecutive bits) how many
                        months whose lane bit 4i is in `lanes` hold exactly `size` cards >= demand
    OP_MONTHS size demand k m*k  (any other deck) the same over the k month masks
    OP_AND n / OP_OR n  pops n booleans, pushes their and / or (n = 0: true / false)
    OP_NOT              pops one, pushes its negation
    OP_SLOT j           bit j of `slots` (the j-th `everyone` or `the field had` part)
    OP_DEALT captured k records   what the player tested was dealt (the context carries his
                        counted teyaku and dealt hand at DEALT_SLOT; `dealt` below)
    OP_HIT j            whether entry j of the same table section holds: a part equal to an
                        entry matched before it (a table of hands that combine two others) is
                        read from the hits so far, not tested again
    OP_ROUND op n       the round's number (the first is 1) <op> n
    OP_MONTH_ALL        every card of the round's month is in x
    OP_MONTH op n       popcount(x & the round's month) <op> n
    OP_DEALER           the player tested deals (or leads in the dealer's place)
    OP_CONTINUED who op n   the continues he (who 0) or an opponent (who 1) called <op> n
    OP_SCORE op n       his score <op> n (scaled: the context's score against n * its scale)
    OP_NOBODY_WON       the round ended with no winner
    OP_DRAWN_BEFORE n   at least n drawn rounds in a row just before this one
    OP_SEAT place       the player tested is the place-th in play order from the dealer

`op` codes: >= 0, <= 1, = 2, != 3, > 4, < 5 (OPS). A month shape is the `and` of its Hall tests
(rulekit.hands.shape_demands), as engine/tables.py reads it.

The context (engine.context.RoundView, the scalar's `ctx`) is one int64 array, `piles`, with
`npiles`: its first npiles words are the captured piles of the round's players in play order
(`everyone`), then at fixed slots what the player tested was dealt (DEALT_SLOT) and the round
as he sees it (the CTX_ slots; the kernel fills them: kernel/context.py). `npiles` = 0 stands
for the scalar's ctx None (an `everyone`, a `dealt` or a guarded condition is then false);
NO_PILES (-1) for a context whose round has no player in play yet (its `everyone` holds
vacuously, as `all()` of no piles).

Table array (`table_arrays`), header words then sections at the offsets the header gives:

    [T_N]        entries n (at most 63: entry i is bit i of a hits mask)
    [T_BEST]     1: only the best counted entry counts (policy best)
    [T_NGROUPS]  exclusive groups
    [T_SPLIT]    1: a value is shared by its payers (table.split)
    [T_FLAT]     bit i: entry i is paid flat
    [T_AT_COUNT] bit i: entry i is checked at the count
    [T_PLAY]     offset of the play section
    [T_COUNT]    offset of the at-count section
    [T_VALUES]   offset of n values
    [T_BONUS]    offset of n bonus records of BONUS_WORDS (amount, mask, over, then BONUS_EXTRA
                 masks of the cards counted once more: a card of weight w is in w - 1 of
                 them); amount 0: none
    [T_UNLESS]   offset of n unless masks (bit j: entry j)
    [T_GROUPS]   offset of the exclusive groups' masks
    [T_SECOND]   0, or (a yaku table with an owner's choice) the offset of the same table read
                 the second way, laid out as this one with its offsets from its own start
    [T_CHOICE]   the owner's choice's cards: a pile holding one is read the way its counted
                 entries are worth more (engine/tables.ChoiceTable; `_reading`)
    section:     [k, then k records (i, need, len, program of len words)]: entry i, the
                 cards a mask holds at least when it holds (engine.tables.cards_needed)

Multiplier array (`multiplier_array`): [ntiers, step, per_card mask, then per tier
(factor, mask, carry_at (-1: none), len (0: no condition), program of len words)].
Instant wins (`instant_array`): [k, then per win, highest value first (CompiledRules' order)
(value, len, program)]. Points (`points_array`): [k, (v, m)*k]. The void field: one program
(`void_program`; a file without one gets the program of `false`). The scoring stage
(`stage_array`): [n, then per step in the stage's order (kind, on or payee, factor or value,
split, multiplied, has a condition)] (STEP_WORDS words: STEP_FACTOR or STEP_AWARD; `on` and
`payee` are FACTOR_ON's and AWARD_PAYEES' codes); its conditions are a table of their own
(`stage_conditions`: entry i is step i). `unsupported` says whether (and why) a whole rule file
cannot be served.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from rulekit import ir
from rulekit.batch.bits import low_bit, popcount
from rulekit.batch.chance import apart, by_types
from rulekit.cards import CardIndex
from rulekit.engine.specialise import nibble_layout
from rulekit.engine.tables import (
    ChoiceTable,
    CompiledRules,
    CompiledTable,
    cards_needed,
    sees_round,
    with_payer_of,
)
from rulekit.hands import shape_demands

Array = npt.NDArray[np.int64]

OPS: dict[str, int] = {">=": 0, "<=": 1, "=": 2, "!=": 3, ">": 4, "<": 5}

OP_ALL = 1
OP_ANY = 2
OP_NONE = 3
OP_COUNT = 4
OP_POINTS = 5
OP_LANES = 6
OP_MONTHS = 7
OP_AND = 8
OP_OR = 9
OP_NOT = 10
OP_SLOT = 11
OP_DEALT = 12
OP_HIT = 13  # j: whether entry j, matched earlier in the same call, holds (a shared part)
OP_ROUND = 14
OP_MONTH_ALL = 15
OP_MONTH = 16
OP_DEALER = 17
OP_CONTINUED = 18
OP_SCORE = 19
OP_NOBODY_WON = 20
OP_DRAWN_BEFORE = 21
OP_SEAT = 22  # place: the player tested is the place-th in play order from the dealer
OP_DECLARED = 23  # the rule file's declaration was made this round (`declared NAME`)
# segment kinds: a part tested over every pile, over the field as laid, the condition itself
SEG_EVERYONE = 0
SEG_FIELD = 1
SEG_MAIN = 2
SEG_PAYER = 3  # a `the payer has` part: over the pile of the payment's payer (CTX_PAYER)
# the context: the player tested: piles[DEALT_SLOT] holds the teyaku he counts (entry bits),
# piles[DEALT_SLOT + 1] his hand as dealt (RoundView.dealt_holds reads both); then the round
# as he sees it (RoundView's fields)
DEALT_SLOT = 64
CTX_ROUND = 66  # the round's number, from 1
CTX_MONTH = 67  # the round's month's cards
CTX_DEALER = 68  # 1: he deals (or leads in the dealer's place)
CTX_CONTINUED = 69  # his continues, then (CTX_CONTINUED + 1) the most an opponent in play called
CTX_SCORE = 71  # his score, scaled by CTX_SCALE
CTX_SCALE = 72
CTX_FIELD = 73  # the field as laid at the deal (0: not laid yet)
CTX_NOBODY_WON = 74
CTX_DRAWS = 75  # drawn rounds in a row just before this one
CTX_PAYER = 76  # a scoring factor's payer's pile (-1: no payer: the bank, or no payment)
CTX_PLACE = 77  # the player tested's place in play order from the dealer (1; 0: not in play)
CTX_DECLARED = 78  # 1: the rule file's declaration was made this round, by anyone
CTX_WORDS = 79  # a context array's length
NO_PILES = -1  # npiles of a context whose round has no player in play yet
G_ALL = 0  # a group of dealt cards that made a teyaku: the cards listed
G_MONTHS = 1  # the cards of one of these months, when the hand held exactly `size` of them

T_N = 0
T_BEST = 1
T_NGROUPS = 2
T_SPLIT = 3
T_FLAT = 4
T_AT_COUNT = 5
T_PLAY = 6
T_COUNT = 7
T_VALUES = 8
T_BONUS = 9
T_UNLESS = 10
T_GROUPS = 11
T_SECOND = 12
T_CHOICE = 13
T_HEADER = 14
BONUS_EXTRA = 3  # a card counts as 4 at most (ir.OwnersChoice.weight)
BONUS_WORDS = 3 + BONUS_EXTRA

MAX_DEPTH = 62  # the boolean stack is the bits of one int64
MAX_BITS = 63  # cards of a deck, entries of a table, `everyone` parts of a condition

# the program of `false` (an `or` of nothing): a void field a file does not have
FALSE_PROGRAM: tuple[int, ...] = (1, 0, SEG_MAIN, 2, OP_OR, 0)

# ir.Continued.who -> OP_CONTINUED's `who` (the context's slot after CTX_CONTINUED)
CONTINUED_WHO: dict[str, int] = {"self": 0, "opponent": 1}
# ir.Factor.on -> the stage array's code (the kernel's Q row FACTOR_ON gives each code's
# payment reasons, from engine.stage.FACTOR_ON)
FACTOR_ON: dict[str, int] = {"yaku": 0, "teyaku": 1, "count": 2, "all": 3}
# ir.Award.payee -> the stage array's code (kernel/stage.py: the dealer, the round's winner)
AWARD_PAYEES: dict[str, int] = {"dealer": 0, "winner": 1, "second": 2, "third": 3}
# the stage array's kinds of step (ir.ScoringStep's types: STEP_KINDS)
STEP_FACTOR = 0
STEP_AWARD = 1
STEP_KINDS: dict[type, int] = {ir.Factor: STEP_FACTOR, ir.Award: STEP_AWARD}
# the choice's offers (offer_array): ir.Offer.option and ir.Offer.limits -> their codes
# (a choice of one option, the swap, a declaration, a hiki, is coded as the second of a pair
# whose first, what is done instead, no offer names: kernel.offers.is_offered)
OFFER_OPTIONS: dict[str, int] = {
    "stop": 0, "continue": 1, "join": 2, "fold": 3, "swap": 5, "declare": 7, "hiki": 9,
    "choice": 11,
}  # fmt: skip
OFFER_LIMITS: dict[str, int] = {"once_per_round": 0, "hand_not_empty": 1}
OFFER_WORDS = 3
# ir.YakuTable.policy -> the table's T_BEST word (only the best counted entry counts)
POLICIES: dict[str, int] = {"best": 1, "all": 0}
STEP_WORDS = 6  # (kind, on or payee, factor or value, split, multiplied, has a condition)


# the parts of a condition tested on another mask -> their segment's kind
SEGMENT_KINDS: dict[type, int] = {
    ir.Everyone: SEG_EVERYONE,
    ir.OnField: SEG_FIELD,
    ir.PayerHas: SEG_PAYER,
}


class Unsupported(Exception):
    """A part of a rule file the batch tables cannot evaluate (the batch engine then leaves the
    file to the scalar engine): not a user error, a reason to fall back."""


# ---------------------------------------------------------------- Python side: building


class _Emitter:
    """Builds one condition's program: its `everyone` and `the field had` parts as segments,
    inner ones first."""

    def __init__(
        self,
        index: CardIndex,
        teyaku: ir.YakuTable | None = None,
        known: tuple[tuple[ir.Condition, int], ...] = (),
    ) -> None:
        self.index = index
        self.teyaku = teyaku  # what a `dealt` condition asks about
        # the conditions of the table's entries matched before this one (a part equal to one
        # is read from the hits so far: OP_HIT), and how deep in parts tested on other masks
        # (`everyone`, `the field had`) we are
        self.known = known
        self.inside_other = 0
        self.lanes = nibble_layout(index)
        self.segments: list[tuple[int, list[int]]] = []  # (kind, words)
        points: dict[int, int] = {}
        for b, v in enumerate(index.points_of_bit):
            if v:
                points[v] = points.get(v, 0) | 1 << b
        self.points = [w for v, m in sorted(points.items()) for w in (v, m)]

    def program(self, cond: ir.Condition) -> list[int]:
        main = self.segment(cond)
        segments = [*self.segments, (SEG_MAIN, main)]
        out = [len(segments), int(sees_round(cond))]
        for kind, seg in segments:
            out += [kind, len(seg), *seg]
        return out

    def segment(self, cond: ir.Condition) -> list[int]:
        code: list[int] = []
        if self.emit(cond, code, 0) > MAX_DEPTH:
            raise Unsupported(f"a condition nested more than {MAX_DEPTH} deep")
        return code

    def emit(self, c: ir.Condition, code: list[int], height: int) -> int:
        """Appends the postfix code of `c` (pushing one boolean over `height` others); returns
        the highest the stack grows."""
        if not self.inside_other:  # (such a part tests other masks than the hits')
            for cond, j in self.known:
                if c == cond:
                    code += [OP_HIT, j]
                    return height + 1
        if isinstance(c, ir.And | ir.Or):
            top = height + 1
            for k, item in enumerate(c.items):
                top = max(top, self.emit(item, code, height + k))
            code += [OP_AND if isinstance(c, ir.And) else OP_OR, len(c.items)]
            return top
        if isinstance(c, ir.Not):
            top = self.emit(c.item, code, height)
            code.append(OP_NOT)
            return top
        if isinstance(c, ir.Shape):
            tests = self.shape_tests(c)
            for test in tests:
                code += test
            if len(tests) != 1:
                code += [OP_AND, len(tests)]
            return height + max(len(tests), 1)
        if isinstance(c, ir.Everyone | ir.OnField | ir.PayerHas):
            self.inside_other += 1
            inner = self.segment(c.item)
            self.inside_other -= 1
            if len(self.segments) >= MAX_BITS:
                what = "'everyone', 'the field had' or 'the payer has'"
                raise Unsupported(f"a condition with more than {MAX_BITS} {what} parts")
            code += [OP_SLOT, len(self.segments)]
            kind = SEGMENT_KINDS[type(c)]
            self.segments.append((kind, inner))
            return height + 1
        code += self.leaf(c)
        return height + 1

    def leaf(self, c: ir.Condition) -> list[int]:
        if isinstance(c, ir.AllOf):
            return [OP_ALL, self.index.mask(c.cards)]
        if isinstance(c, ir.AnyOf):
            return [OP_ANY, self.index.mask(c.cards)]
        if isinstance(c, ir.Count):
            m = self.index.mask(c.cards)
            if c.op == "=" and c.n == 0:
                return [OP_NONE, m]
            if c.op == ">=" and c.n == 1:
                return [OP_ANY, m]
            return [OP_COUNT, m, OPS[c.op], c.n]
        if isinstance(c, ir.PointsCmp):
            return [OP_POINTS, OPS[c.op], c.n, len(self.points) // 2, *self.points]
        if isinstance(c, ir.Dealt):
            return self.dealt(c)
        if isinstance(c, ir.RoundCmp):
            return [OP_ROUND, OPS[c.op], c.n]
        if isinstance(c, ir.RoundMonth):
            return [OP_MONTH_ALL] if c.all else [OP_MONTH, OPS[c.op], c.n]
        if isinstance(c, ir.IsDealer):
            return [OP_DEALER]
        if isinstance(c, ir.SeatFromDealer):
            return [OP_SEAT, c.place]
        if isinstance(c, ir.Continued):
            return [OP_CONTINUED, CONTINUED_WHO[c.who], OPS[c.op], c.n]
        if isinstance(c, ir.ScoreCmp):
            return [OP_SCORE, OPS[c.op], c.n]
        if isinstance(c, ir.NobodyWon):
            return [OP_NOBODY_WON]
        if isinstance(c, ir.DrawnBefore):
            return [OP_DRAWN_BEFORE, c.n]
        if isinstance(c, ir.Declared):
            return [OP_DECLARED]
        raise Unsupported(f"has a condition the batch tables do not know ({c.kind})")

    def dealt(self, c: ir.Dealt) -> list[int]:
        """OP_DEALT captured k, then per teyaku entry one of whose names (its own, or a part's)
        is asked: (entry, candidates, then per candidate the groups of dealt cards that make
        it: [n, (G_ALL mask | G_MONTHS size k mask*k)*n]) -- _CountContext.dealt_holds."""
        table = self.teyaku
        records: list[int] = []
        k = 0
        for i, entry in enumerate(table.entries if table is not None else ()):
            assert table is not None
            named = {e.name: e for e in table.entries}
            candidates = [e for e in (entry, *(named[n] for n in entry.parts)) if e.name in c.names]
            if not candidates:
                continue
            k += 1
            records += [i, len(candidates)]
            for cand in candidates:
                groups = self.made_groups(cand.condition)
                records += [len(groups), *(w for g in groups for w in g)]
        return [OP_DEALT, int(c.captured), k, *records]

    def made_groups(self, cond: ir.Condition) -> list[list[int]]:
        """CompiledRules.made_masks as groups to find in a dealt hand."""
        ix = self.index
        if isinstance(cond, ir.Shape):
            out = []
            for g in cond.groups:
                masks = [ix.month_masks[ix.months.index(m)] for m in (g.months or ix.months)]
                out.append([G_MONTHS, g.size, len(masks), *masks])
            return out
        if isinstance(cond, ir.AllOf):
            return [[G_ALL, ix.mask(cond.cards)]]
        if isinstance(cond, ir.And | ir.Or):
            return [g for item in cond.items for g in self.made_groups(item)]
        return []

    def shape_tests(self, c: ir.Shape) -> list[list[int]]:
        ix = self.index
        tests = []
        for size, months, demand in shape_demands(c, ix.months):
            slots = [ix.months.index(m) for m in sorted(months)]
            if self.lanes:
                tests.append([OP_LANES, size, demand, sum(1 << 4 * i for i in slots)])
            else:
                masks = [ix.month_masks[i] for i in slots]
                tests.append([OP_MONTHS, size, demand, len(masks), *masks])
        return tests


def condition_program(
    cond: ir.Condition,
    index: CardIndex,
    teyaku: ir.YakuTable | None = None,
    known: tuple[tuple[ir.Condition, int], ...] = (),
) -> list[int]:
    """The program of a condition (the module docstring gives the words; `teyaku`: the table a
    `dealt` condition asks about; `known`: the conditions of the entries matched before it, by
    index); Unsupported for one the VM cannot hold (too deep, too many parts)."""
    return _Emitter(index, teyaku, known).program(cond)


def _array(words: list[int]) -> Array:
    return np.array(words, dtype=np.int64)


def _section(
    table: CompiledTable, index: CardIndex, at_count: bool, teyaku: ir.YakuTable | None
) -> list[int]:
    records = []
    known: list[tuple[ir.Condition, int]] = []  # entries matched before, in this section
    for i, e in enumerate(table.entries):
        if e.at_count == at_count:
            prog = condition_program(e.condition, index, teyaku, tuple(known))
            known.append((e.condition, i))
            records.append([i, cards_needed(e.condition, index), len(prog), *prog])
    return [len(records), *(w for r in records for w in r)]


def table_arrays(
    table: CompiledTable, index: CardIndex, teyaku: ir.YakuTable | None = None
) -> Array:
    """A teyaku or yaku table as one int64 array (layout in the module docstring; `teyaku`:
    the table its `dealt` conditions ask about)."""
    entries = table.entries
    n = len(entries)
    if n > MAX_BITS:
        raise Unsupported(f"a table of {n} entries (the batch tables hold {MAX_BITS})")
    position = {e.name: i for i, e in enumerate(entries)}
    play = _section(table, index, False, teyaku)
    count = _section(table, index, True, teyaku)
    bonus = []
    for e in entries:
        bonus += _bonus_words(e.bonus, index)
    unless = [sum(1 << position[u] for u in e.unless) for e in entries]
    groups = [sum(1 << position[g] for g in group) for group in table.table.exclusive]
    header = [0] * T_HEADER
    header[T_N] = n
    header[T_BEST] = POLICIES[table.table.policy]
    header[T_NGROUPS] = len(groups)
    header[T_SPLIT] = int(table.split)
    header[T_FLAT] = sum(1 << i for i, e in enumerate(entries) if e.flat)
    header[T_AT_COUNT] = table.count_bits
    words = header
    for slot, part in (
        (T_PLAY, play),
        (T_COUNT, count),
        (T_VALUES, [e.value for e in entries]),
        (T_BONUS, bonus),
        (T_UNLESS, unless),
        (T_GROUPS, groups),
    ):
        words[slot] = len(words)
        words = words + part
    if isinstance(table, ChoiceTable):
        words[T_SECOND] = len(words)
        words[T_CHOICE] = table.choice
        words = words + [int(w) for w in table_arrays(table.second, index, teyaku)]
    return _array(words)


def _bonus_words(b: ir.Bonus | None, index: CardIndex) -> list[int]:
    """A bonus record (the layout's T_BONUS): amount, mask, over, the extra masks."""
    if b is None:
        return [0] * BONUS_WORDS
    extra = [0] * BONUS_EXTRA
    for c in b.extra:  # each time listed: in the first extra mask that lacks it
        level = next(k for k in range(BONUS_EXTRA) if not extra[k] & index.mask((c,)))
        extra[level] |= index.mask((c,))
    return [b.amount, index.mask(b.cards), b.over, *extra]


def empty_table() -> Array:
    """The array of a table a file does not have: no entry, nothing matches."""
    words = [0] * T_HEADER
    for slot in (T_PLAY, T_COUNT):
        words[slot] = len(words)
        words.append(0)
    for slot in (T_VALUES, T_BONUS, T_UNLESS, T_GROUPS):
        words[slot] = len(words)
    return _array(words)


def multiplier_array(spec: ir.FieldMultiplier, index: CardIndex) -> Array:
    """The field multiplier (the rule file's, which CompiledMultiplier compiles) as one int64
    array (layout in the module docstring)."""
    words = [len(spec.tiers), spec.step, index.mask(spec.per_card)]
    for tier in spec.tiers:
        prog = condition_program(tier.condition, index) if tier.condition is not None else []
        carry_at = -1 if tier.carry_at is None else tier.carry_at
        words += [tier.factor, index.mask(tier.cards), carry_at, len(prog), *prog]
    return _array(words)


def void_program(compiled: CompiledRules) -> Array:
    """The void field's program (`false` if the file has none): holds(p, 0, field, p, 0);
    then the hand's void rule's, if any, at void_hand_at(compiled)."""
    cond = compiled.rules.void_field
    words = condition_program(cond, compiled.index) if cond else list(FALSE_PROGRAM)
    hand = compiled.rules.void_hand
    if hand is not None:
        words += condition_program(hand, compiled.index)
    draw = compiled.rules.draw_at_count
    if draw is not None:
        words += condition_program(draw, compiled.index)
    return _array(words)


def void_hand_at(compiled: CompiledRules) -> int:
    """Where the hand's void rule's program starts in void_program's array (-1: none)."""
    if compiled.rules.void_hand is None:
        return -1
    cond = compiled.rules.void_field
    return len(condition_program(cond, compiled.index) if cond else FALSE_PROGRAM)


def draw_at_count_at(compiled: CompiledRules) -> int:
    """Where the draw at the count's program starts in void_program's array (-1: none): after
    the field's and the hand's void rules."""
    if compiled.rules.draw_at_count is None:
        return -1
    rules = compiled.rules
    at = len(
        condition_program(rules.void_field, compiled.index) if rules.void_field else FALSE_PROGRAM
    )
    if rules.void_hand is not None:
        at += len(condition_program(rules.void_hand, compiled.index))
    return at


def instant_array(compiled: CompiledRules) -> Array:
    """The instant wins in CompiledRules' order (highest value first) as one int64 array."""
    words = [len(compiled.instant_wins)]
    for win, _ in compiled.instant_wins:
        prog = condition_program(win.condition, compiled.index)
        words += [win.value, len(prog), *prog]
    return _array(words)


def points_array(index: CardIndex) -> Array:
    """The card points: [k, (points, mask of the cards worth them)*k]."""
    words = _Emitter(index).points
    return _array([len(words) // 2, *words])


def _parts(compiled: CompiledRules) -> list[tuple[str, ir.Condition]]:
    """Every condition the batch tables evaluate, each named as a reader finds it."""
    rules = compiled.rules
    out: list[tuple[str, ir.Condition]] = []
    for what, table in (("teyaku", rules.teyaku), ("yaku", rules.yaku)):
        for e in table.entries if table else ():
            out.append((f"{what} '{e.name}'", e.condition))
    for k, tier in enumerate(rules.multiplier.tiers):
        if tier.condition is not None:
            out.append((f"multiplier tier {k + 1} (x{tier.factor})", tier.condition))
    if rules.void_field is not None:
        out.append(("the void field", rules.void_field))
    if rules.void_hand is not None:
        out.append(("the hand's void rule", rules.void_hand))
    if rules.draw_at_count is not None:
        out.append(("the draw at the count", rules.draw_at_count))
    for win in rules.instant_wins:
        out.append((f"instant win '{win.name}'", win.condition))
    for step in rules.scoring:
        if step.condition is not None:
            factor = f"x{step.factor}" if isinstance(step, ir.Factor) else ""
            name = step.name or factor  # (a factor may be written without a name)
            out.append((f"scoring step '{name}'", step.condition))
    for k, offer in enumerate(offers_of(rules)):
        if offer.condition is not None:
            out.append((f"the condition on {offer.option} ({k + 1})", offer.condition))
    if rules.compensation is not None and rules.compensation.condition is not None:
        out.append(("the compensation's condition", rules.compensation.condition))
    return out


def unsupported(compiled: CompiledRules) -> str | None:
    """Why the batch tables cannot serve this rule file (None: they can)."""
    cards = len(compiled.index.ids)
    if cards > MAX_BITS:
        return f"the deck has {cards} cards (the batch masks hold {MAX_BITS})"
    for what, table in (("teyaku", compiled.rules.teyaku), ("yaku", compiled.rules.yaku)):
        if table is not None and len(table.entries) > MAX_BITS:
            n = len(table.entries)
            return f"the {what} table has {n} entries (the batch tables hold {MAX_BITS})"
    if len(compiled.rules.scoring) > MAX_BITS:
        n = len(compiled.rules.scoring)
        return f"the scoring stage has {n} steps (the batch tables hold {MAX_BITS})"
    for name, cond in _parts(compiled):
        try:
            condition_program(cond, compiled.index, compiled.rules.teyaku)
        except Unsupported as e:
            return f"{name} {e}"
    return None


def stage_array(compiled: CompiledRules) -> Array:
    """The scoring stage's steps in order (layout in the module docstring): their kinds and
    amounts; their conditions are stage_conditions'."""
    words = [len(compiled.rules.scoring)]
    for step in compiled.rules.scoring:
        words.append(STEP_KINDS[type(step)])
        if isinstance(step, ir.Factor):
            words += [FACTOR_ON[step.on], step.factor, 0, 0]
        else:
            payee = AWARD_PAYEES[step.payee]
            words += [payee, step.value, int(step.split), int(step.multiplied)]
        words.append(int(step.condition is not None or step.seats is not None))
    return _array(words)


def stage_conditions(compiled: CompiledRules, seats: int | None = None) -> Array:
    """The scoring steps' conditions as a table (table_arrays' layout) whose entry i is step i,
    matched all at once by `match` (the kernel's one copy of the VM); a step without one gets
    the program of `true`, never asked; a step played only at another table size than `seats`
    the program of `false` (None: every step at its own)."""
    steps = compiled.rules.scoring
    if len(steps) > MAX_BITS:
        raise Unsupported(f"{len(steps)} scoring steps (the batch tables hold {MAX_BITS})")
    first = [s.condition for s in steps]
    choice = compiled.rules.owners_choice
    second = list(choice.steps) if choice is not None and choice.steps else first
    if second == first:
        return _array(_step_table(compiled, first, seats))
    # the owner's choice changes some: the four readings (payee, payer: first or second; as
    # engine/tables.StepReadings), each table's T_SECOND the offset of the next
    words: list[int] = []
    last = 0
    for payee in (first, second):
        for payer in (first, second):
            mixed = [
                a if a is None or b is None else with_payer_of(a, b)
                for a, b in zip(payee, payer, strict=True)
            ]
            if words:
                words[last + T_SECOND] = len(words) - last
                last = len(words)
            words += _step_table(compiled, mixed, seats)
    return _array(words)


def _step_table(
    compiled: CompiledRules, conditions: list[ir.Condition | None], seats: int | None
) -> list[int]:
    """stage_conditions' table of the steps' conditions read one way."""
    steps = compiled.rules.scoring
    index = compiled.index
    records = []
    known: list[tuple[ir.Condition, int]] = []
    for i, step in enumerate(steps):
        written = conditions[i]
        cond = written if written is not None else ir.And(items=())
        if step.seats is not None and seats is not None and step.seats != seats:
            cond = ir.Or(items=())  # played only at another table size: never holds
        prog = condition_program(cond, index, compiled.rules.teyaku, tuple(known))
        known.append((cond, i))
        records += [i, 0, len(prog), *prog]
    return [int(w) for w in _condition_table(len(steps), records)]


def _condition_table(n: int, records: list[int]) -> Array:
    """n condition programs (records of [entry, 0, length, program...]) as a table in
    table_arrays' layout, matched all at once by `match`: no values, bonuses or groups."""
    words = [0] * T_HEADER
    words[T_N] = n
    for slot, part in (
        (T_PLAY, [n, *records]),
        (T_COUNT, [0]),
        (T_VALUES, [0] * n),
        (T_BONUS, [0] * BONUS_WORDS * n),
        (T_UNLESS, [0] * n),
        (T_GROUPS, []),
    ):
        words[slot] = len(words)
        words += part
    return _array(words)


def offers_of(rules: ir.Ruleset) -> tuple[ir.Offer, ...]:
    """Every choice's offers, as the offer arrays hold them: stop or continue, join or fold,
    the swap, a hiki, the declaration."""
    declared = tuple(o for d in rules.declarations for o in d.offers)
    return (
        *rules.continuation.offers,
        *rules.fold.offers,
        *rules.swap_offers,
        *rules.hiki_offers,
        *declared,
    )


def offer_array(compiled: CompiledRules) -> Array:
    """The conditions on the choices' options (ir.Continuation.offers, then ir.Fold.offers),
    in order: [n, then per offer (option, limits as bits, has a condition)] (OFFER_WORDS
    words: OFFER_OPTIONS' and OFFER_LIMITS' codes); their conditions are offer_conditions'."""
    offers = offers_of(compiled.rules)
    words = [len(offers)]
    for o in offers:
        limits = sum(1 << OFFER_LIMITS[limit] for limit in o.limits)
        words += [OFFER_OPTIONS[o.option], limits, int(o.condition is not None)]
    return _array(words)


def offer_conditions(compiled: CompiledRules) -> Array:
    """The offers' conditions as a table (table_arrays' layout) whose entry i is offer i,
    matched all at once by `match`; an offer without one gets the program of `true`."""
    offers = offers_of(compiled.rules)
    if len(offers) > MAX_BITS:
        raise Unsupported(f"{len(offers)} offers (the batch tables hold {MAX_BITS})")
    index = compiled.index
    records = []
    for i, o in enumerate(offers):
        cond = o.condition if o.condition is not None else ir.And(items=())
        prog = condition_program(cond, index, compiled.rules.teyaku)
        records += [i, 0, len(prog), *prog]
    return _condition_table(len(offers), records)


@dataclass(frozen=True)
class BatchTables:
    """Every array the batch kernel reads for one rule file (an absent table: empty_table)."""

    teyaku: Array
    yaku: Array
    multiplier: Array
    void: Array
    instant: Array
    points: Array
    stage: Array
    stage_conditions: Array
    offers: Array
    offer_conditions: Array


# the arrays made for each compiled rule file, by table size: `why_not` makes them to see that
# it can, and every plan (another seed, other bots: a tune's candidates, a test's cases) uses
# them again. The kernel only reads them.
_MADE: weakref.WeakKeyDictionary[CompiledRules, dict[int | None, BatchTables]] = (
    weakref.WeakKeyDictionary()
)
_MADE_LOCK = threading.Lock()  # (a Dask worker's threads make plans at once)


def batch_tables(compiled: CompiledRules, seats: int | None = None) -> BatchTables:
    """The arrays of a rule file (at a table size: the scoring steps of another size never
    hold), made once per compiled file and size; Unsupported (with `unsupported`'s reason) if
    it cannot."""
    with _MADE_LOCK:
        made = _MADE.get(compiled, {}).get(seats)
    if made is None:
        made = _make_tables(compiled, seats)
        with _MADE_LOCK:
            _MADE.setdefault(compiled, {})[seats] = made
    return made


def _make_tables(compiled: CompiledRules, seats: int | None) -> BatchTables:
    why = unsupported(compiled)
    if why is not None:
        raise Unsupported(why)
    ix = compiled.index
    return BatchTables(
        teyaku=table_arrays(compiled.teyaku, ix) if compiled.teyaku else empty_table(),
        yaku=table_arrays(compiled.yaku, ix, compiled.rules.teyaku)
        if compiled.yaku
        else empty_table(),
        multiplier=multiplier_array(compiled.rules.multiplier, ix),
        void=void_program(compiled),
        instant=instant_array(compiled),
        points=points_array(ix),
        stage=stage_array(compiled),
        stage_conditions=stage_conditions(compiled, seats),
        offers=offer_array(compiled),
        offer_conditions=offer_conditions(compiled),
    )


# ---------------------------------------------------------------- numba side: reading

# Every function is compiled without numba's reference counting (`_nrt=False`; none of them
# allocates): with it, a call handing arrays to a function LLVM does not inline pays atomic
# increments and decrements, several times a table lookup's work (measured: 22 ns for a
# `counted` call with nothing to do, 2 ns without). The helpers are inlined by LLVM
# (`forceinline`: numba's own `inline="always"` ran as fast but tripled the compile time); the
# entry points are not, and a kernel compiled with reference counting calls them without it.
F = TypeVar("F", bound=Callable[..., Any])


_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}


def _inline(f: F) -> F:
    """A helper, compiled into its callers."""
    return cast(F, by_types(njit(**_OPTIONS, forceinline=True)(f)))


def _entry(f: F) -> F:
    """An entry point a kernel calls."""
    return cast(F, by_types(njit(**_OPTIONS)(f)))


@_inline
def low_index(low: int) -> int:
    """The position of the single set bit of `low`."""
    return low_bit(low)


@_inline
def compare(a: int, op: int, b: int) -> bool:
    """`a <op> b` for an OPS code."""
    if op == 0:
        return a >= b
    if op == 1:
        return a <= b
    if op == 2:
        return a == b
    if op == 3:
        return a != b
    if op == 4:
        return a > b
    return a < b


@_inline
def _points(parr: Array, start: int, x: int) -> int:
    """The card points of `x`, from a points array's words at `start` ([k, (v, m)*k])."""
    k = parr[start]
    total = 0
    for j in range(k):
        total += parr[start + 1 + 2 * j] * popcount(x & parr[start + 2 + 2 * j])
    return total


@_inline
def _lanes_holding(x: int, size: int) -> int:
    """Bit 4i set where the 4-bit lane i of `x` holds exactly `size` cards (other bits: any)."""
    a = x - ((x >> 1) & 0x5555555555555555)
    c = (a & 0x3333333333333333) + ((a >> 2) & 0x3333333333333333)
    if size == 0:
        return ~(c | (c >> 1) | (c >> 2))
    if size == 1:
        return c & ~((c >> 1) | (c >> 2))
    if size == 2:
        return (c >> 1) & ~(c | (c >> 2))
    if size == 3:
        return c & (c >> 1)
    if size == 4:
        return c >> 2
    return 0


@_inline
def _dealt(prog: Array, p: int, x: int, piles: Array, npiles: int) -> tuple[int, int]:
    """OP_DEALT at p over the pile x: (whether it holds, the word after it). Without a
    context (npiles 0) it does not, as the scalar's `ctx is not None and ...`."""
    captured = prog[p + 1]
    q = p + 3
    counted = piles[DEALT_SLOT] if npiles != 0 else 0
    hand = piles[DEALT_SLOT + 1] if npiles != 0 else 0
    b = 0
    for _ in range(prog[p + 2]):
        held = (counted >> prog[q]) & 1
        ncand = prog[q + 1]
        q += 2
        for _ in range(ncand):
            if held and not captured:
                b = 1
            ngroups = prog[q]
            q += 1
            for _ in range(ngroups):
                if prog[q] == G_ALL:
                    m = prog[q + 1]
                    if held and captured and (hand & m) == m and (x & m) == m:
                        b = 1
                    q += 2
                else:
                    size = prog[q + 1]
                    k = prog[q + 2]
                    for j in range(k):
                        cards = hand & prog[q + 3 + j]
                        if held and captured and popcount(cards) == size and (x & cards) == cards:
                            b = 1
                    q += 3 + k
    return b, q


@_inline
def _run(
    prog: Array, p: int, end: int, x: int, slots: int, piles: Array, npiles: int, hits: int
) -> bool:
    """One segment's postfix words over the mask `x` (the stack: the bits of `s`)."""
    s = 0
    while p < end:
        op = prog[p]
        b = 0
        if op == OP_ALL:
            m = prog[p + 1]
            b = 1 if (x & m) == m else 0
            p += 2
        elif op == OP_ANY:
            b = 1 if (x & prog[p + 1]) != 0 else 0
            p += 2
        elif op == OP_NONE:
            b = 1 if (x & prog[p + 1]) == 0 else 0
            p += 2
        elif op == OP_COUNT:
            b = 1 if compare(popcount(x & prog[p + 1]), prog[p + 2], prog[p + 3]) else 0
            p += 4
        elif op == OP_AND:
            n = prog[p + 1]
            full = (1 << n) - 1
            b = 1 if (s & full) == full else 0
            s >>= n
            p += 2
        elif op == OP_OR:
            n = prog[p + 1]
            b = 1 if (s & ((1 << n) - 1)) != 0 else 0
            s >>= n
            p += 2
        elif op == OP_NOT:
            b = 1 - (s & 1)
            s >>= 1
            p += 1
        elif op == OP_LANES:
            held = popcount(_lanes_holding(x, prog[p + 1]) & prog[p + 3])
            b = 1 if held >= prog[p + 2] else 0
            p += 4
        elif op == OP_MONTHS:
            size = prog[p + 1]
            k = prog[p + 3]
            held = 0
            for j in range(k):
                if popcount(x & prog[p + 4 + j]) == size:
                    held += 1
            b = 1 if held >= prog[p + 2] else 0
            p += 4 + k
        elif op == OP_POINTS:
            b = 1 if compare(_points(prog, p + 3, x), prog[p + 1], prog[p + 2]) else 0
            p += 4 + 2 * prog[p + 3]
        elif op == OP_SLOT:
            b = (slots >> prog[p + 1]) & 1
            p += 2
        elif op == OP_DEALT:
            b, p = _dealt(prog, p, x, piles, npiles)
        elif op == OP_HIT:
            b = (hits >> prog[p + 1]) & 1
            p += 2
        elif op == OP_MONTH_ALL:  # (the round's words: a guarded program, read with a context)
            m = piles[CTX_MONTH]
            b = 1 if (x & m) == m else 0
            p += 1
        elif op == OP_MONTH:
            b = 1 if compare(popcount(x & piles[CTX_MONTH]), prog[p + 1], prog[p + 2]) else 0
            p += 3
        elif op == OP_ROUND:
            b = 1 if compare(piles[CTX_ROUND], prog[p + 1], prog[p + 2]) else 0
            p += 3
        elif op == OP_DEALER:
            b = 1 if piles[CTX_DEALER] else 0
            p += 1
        elif op == OP_CONTINUED:
            n = piles[CTX_CONTINUED + prog[p + 1]]
            b = 1 if compare(n, prog[p + 2], prog[p + 3]) else 0
            p += 4
        elif op == OP_SCORE:
            limit = prog[p + 2] * piles[CTX_SCALE]
            b = 1 if compare(piles[CTX_SCORE], prog[p + 1], limit) else 0
            p += 3
        elif op == OP_NOBODY_WON:
            b = 1 if piles[CTX_NOBODY_WON] else 0
            p += 1
        elif op == OP_DRAWN_BEFORE:
            b = 1 if piles[CTX_DRAWS] >= prog[p + 1] else 0
            p += 2
        elif op == OP_SEAT:
            b = 1 if piles[CTX_PLACE] == prog[p + 1] else 0
            p += 2
        elif op == OP_DECLARED:
            b = 1 if piles[CTX_DECLARED] else 0
            p += 1
        else:  # a word no builder writes: stop rather than read on
            return False
        s = (s << 1) | b
    return (s & 1) == 1


@apart
def _holds(prog: Array, start: int, x: int, piles: Array, npiles: int, hits: int) -> bool:
    """Whether the condition program at `start` holds for the mask `x`, in the context
    `piles` (the module docstring: its first `npiles` words are the players' piles in play
    order; npiles 0: no context; NO_PILES: a context with no pile); `hits`: the entries of its
    table section matched so far (OP_HIT). The VM: one copy of it in each kernel (`apart`),
    called by every table, multiplier, void field, instant win and scoring step."""
    if prog[start + 1] and npiles == 0:  # guarded: false without a round to ask
        return False
    nseg = prog[start]
    p = start + 2
    slots = 0
    for j in range(nseg):  # the parts on other masks, each once, then the condition
        end = p + 2 + prog[p + 1]
        last = j == nseg - 1
        kind = prog[p]
        ok = last or npiles != 0
        if kind == SEG_PAYER and not last and ok:
            ok = piles[CTX_PAYER] >= 0  # (no payer: the part is false)
        # the masks a segment is tested on: x; the field as laid; the payer's pile; every pile
        # (none: vacuous)
        n = max(npiles, 0) if not last and kind == SEG_EVERYONE else 1
        k = 0
        while ok and k < n:  # (one call of _run: one copy of the VM's loop)
            if last:
                mask = x
            elif kind == SEG_FIELD:
                mask = piles[CTX_FIELD]
            elif kind == SEG_PAYER:
                mask = piles[CTX_PAYER]
            else:
                mask = piles[k]
            ok = _run(prog, p + 2, end, mask, slots, piles, npiles, hits if last else 0)
            k += 1
        if last:
            return ok
        if ok:
            slots |= 1 << j
        p = end
    return False


@_entry
def holds(prog: Array, start: int, x: int, piles: Array, npiles: int) -> bool:
    """Whether the condition program at `start` holds for the mask `x` in the context `piles`
    (npiles 0: none; the module docstring). The void field: holds(void, 0, field, ctx, n)."""
    ok: bool = _holds(prog, start, x, piles, npiles, 0)
    return ok


@_entry
def points(parr: Array, start: int, x: int) -> int:
    """The card points of `x`, from a points array's words at `start` ([k, (v, m)*k])."""
    total: int = _points(parr, start, x)
    return total


@_inline
def _match_at(tab: Array, t: int, x: int, at_count: bool, piles: Array, npiles: int) -> int:
    """match for the table read at `t` (0: the table; T_SECOND's offset: its second reading)."""
    sec = t + (tab[t + T_COUNT] if at_count else tab[t + T_PLAY])
    p = sec + 1
    xc = popcount(x)
    hits = 0
    for _ in range(tab[sec]):
        if xc >= tab[p + 1] and _holds(tab, p + 3, x, piles, npiles, hits):
            hits |= 1 << tab[p]
        p += 3 + tab[p + 2]
    return hits


@_inline
def _value(tab: Array, t: int, i: int, x: int) -> int:
    """Entry i's value for the cards `x` (its bonus included) in the table read at `t`."""
    v: int = tab[t + tab[t + T_VALUES] + i]
    b = t + tab[t + T_BONUS] + BONUS_WORDS * i
    amount = tab[b]
    if amount == 0:
        return v
    extra = popcount(x & tab[b + 1]) - tab[b + 2]
    for k in range(BONUS_EXTRA):
        extra += popcount(x & tab[b + 3 + k])
    return v + amount * extra if extra > 0 else v


@_inline
def _best(tab: Array, t: int, members: int, x: int) -> int:
    """The member with the highest value, the lowest index among equals (max by (v, -i))."""
    best = -1
    best_value = 0
    rest = members
    while rest:
        low = rest & -rest
        i = low_index(low)
        v = _value(tab, t, i, x)
        if best < 0 or v > best_value:
            best = i
            best_value = v
        rest ^= low
    return best


@_inline
def _keep(tab: Array, t: int, hits: int, x: int) -> int:
    """The entries that count among `hits` as a mask: CompiledTable.counted (unless, then
    exclusive groups, then only the best if the table counts only the best)."""
    keep = hits
    unless = t + tab[t + T_UNLESS]
    rest = hits
    while rest:
        low = rest & -rest
        if tab[unless + low_index(low)] & hits:
            keep &= ~low
        rest ^= low
    groups = t + tab[t + T_GROUPS]
    for g in range(tab[t + T_NGROUPS]):
        members = keep & tab[groups + g]
        if members & (members - 1):
            best = _best(tab, t, members, x)
            keep &= ~(members & ~(1 << best))
    if tab[t + T_BEST] and keep & (keep - 1):
        keep = 1 << _best(tab, t, keep, x)
    return keep


@_inline
def _worth(tab: Array, t: int, x: int) -> int:
    """What the pile `x`'s counted play entries are worth in the table read at `t`."""
    keep = _keep(tab, t, _match_at(tab, t, x, False, tab, 0), x)
    total = 0
    while keep:
        low = keep & -keep
        total += _value(tab, t, low_index(low), x)
        keep ^= low
    return total


@_inline
def _reading(tab: Array, x: int) -> int:
    """Where the table that reads the pile `x` starts: its second reading when it has one, `x`
    holds a card of the owner's choice and its counted entries are worth more read so
    (ChoiceTable.reading; its entries read only the cards: no context is needed)."""
    second = tab[T_SECOND]
    if second == 0 or not x & tab[T_CHOICE]:
        return 0
    return second if _worth(tab, second, x) > _worth(tab, 0, x) else 0


@_entry
def match_reading(tab: Array, k: int, x: int, piles: Array, npiles: int) -> int:
    """match for the k-th of a chain of tables read other ways (stage_conditions' readings:
    each table's T_SECOND the offset of the next), its play entries."""
    t = 0
    for _ in range(k):
        t += tab[t + T_SECOND]
    hits: int = _match_at(tab, t, x, False, piles, npiles)
    return hits


@_entry
def readings(tab: Array, x: int) -> int:
    """How the owner's choice reads the pile `x` (ChoiceTable.worths): 0: it holds none of
    its cards, or both readings are worth the same; 1: read the first way, the second worth
    less; 2: read the second way."""
    second = tab[T_SECOND]
    if second == 0 or not x & tab[T_CHOICE]:
        return 0
    first_worth = _worth(tab, 0, x)
    second_worth = _worth(tab, second, x)
    if first_worth == second_worth:
        return 0
    return 2 if second_worth > first_worth else 1


@_entry
def match(tab: Array, x: int, at_count: bool, piles: Array, npiles: int) -> int:
    """The entries that hold for `x` as a bit mask (entry i: bit i): the play entries
    (CompiledTable.match_play), or with `at_count` the at-count ones (match_count)."""
    hits: int = _match_at(tab, _reading(tab, x), x, at_count, piles, npiles)
    return hits


@_entry
def value(tab: Array, i: int, x: int) -> int:
    """Entry i's value for the cards `x` (its bonus included), as CompiledTable.value."""
    v: int = _value(tab, _reading(tab, x), i, x)
    return v


@_entry
def counted(tab: Array, hits: int, x: int, out: Array) -> int:
    """Writes the indices of the entries that count among `hits` (bonuses valued on `x`) into
    `out`, ascending, and returns how many: CompiledTable.counted (unless, then exclusive
    groups, then only the best if the table counts only the best)."""
    keep = _keep(tab, _reading(tab, x), hits, x)
    n = 0
    while keep:
        low = keep & -keep
        out[n] = low_index(low)
        n += 1
        keep ^= low
    return n


@_entry
def field_multiplier(marr: Array, field: int, piles: Array, npiles: int) -> tuple[int, int]:
    """(factor, carry) of a field: CompiledMultiplier.of_field in the context `piles` (npiles
    0: none)."""
    factor = 1
    carry = 1
    p = 3
    for _ in range(marr[0]):
        tier_factor = marr[p]
        present = popcount(field & marr[p + 1])
        carry_at = marr[p + 2]
        length = marr[p + 3]
        applies = _holds(marr, p + 4, field, piles, npiles, 0) if length > 0 else present > 0
        if applies and tier_factor > factor:
            factor = tier_factor
        if carry_at >= 0 and present >= carry_at and tier_factor > carry:
            carry = tier_factor
        p += 4 + length
    if marr[1]:
        factor += marr[1] * popcount(field & marr[2])
    return factor, carry


@_entry
def first_instant_win(iarr: Array, hand: int, piles: Array, npiles: int) -> int:
    """The index (CompiledRules.instant_wins' order) of the first instant win the hand makes
    in the context `piles` (npiles 0: none), -1 if none; its value: instant_value."""
    p = 1
    for w in range(iarr[0]):
        if _holds(iarr, p + 2, hand, piles, npiles, 0):
            return w
        p += 2 + iarr[p + 1]
    return -1


@_entry
def instant_value(iarr: Array, w: int) -> int:
    """The value of instant win `w`."""
    p = 1
    for _ in range(w):
        p += 2 + iarr[p + 1]
    v: int = iarr[p]
    return v


# ---------------------------------------------------------------- the cards a teyaku shows
# (the rule-weighing bot: another player's teyaku cards are known to it, engine/shown.py)
#
# Shown program (`shown_array`): [n, (start, end) per teyaku entry, then the programs], each a
# postfix program over a stack of (holds, cards shown), as engine/shown.py's closures answer:
#
#     SH_LEAF g (size k m*k)*g len program   holds: the condition program (a card test, or a
#                         month shape's tests); shows, when it holds, each group's cards in the
#                         hand: hand & m for each of its k masks (all of them for size -1, those
#                         holding exactly `size` cards for a shape's group)
#     SH_AND n / SH_OR n  every / some of the n items hold; shows what they show (an item that
#                         does not hold shows nothing)
#     SH_NOT              holds when its item does not; shows nothing
#     SH_FALSE            a part that never holds here (`everyone`, `dealt`, the round's tests)
SH_LEAF = 1
SH_AND = 2
SH_OR = 3
SH_NOT = 4
SH_FALSE = 5


def shown_program(cond: ir.Condition, index: CardIndex, lanes: bool | None = None) -> list[int]:
    """engine.shown.compile_shown(cond) as a shown program (`lanes`: test month shapes by 4-bit
    lanes or by month masks; None: as the deck allows)."""
    emitter = _Emitter(index)
    if lanes is not None:
        emitter.lanes = lanes
    out: list[int] = []

    def leaf(groups: list[tuple[int, list[int]]], test: ir.Condition) -> None:
        emitter.segments = []
        prog = emitter.program(test)
        out.append(SH_LEAF)
        out.append(len(groups))
        for size, group_masks in groups:
            out.extend([size, len(group_masks), *group_masks])
        out.extend([len(prog), *prog])

    def emit(c: ir.Condition) -> None:
        if isinstance(c, ir.AllOf | ir.AnyOf | ir.Count):
            leaf([(-1, [index.mask(c.cards)])], c)
        elif isinstance(c, ir.PointsCmp):
            leaf([(-1, [-1])], c)  # (the whole hand)
        elif isinstance(c, ir.Shape):
            groups = [
                (
                    g.size,
                    [index.month_masks[index.months.index(m)] for m in g.months or index.months],
                )
                for g in c.groups
            ]
            leaf(groups, c)
        elif isinstance(c, ir.And | ir.Or):
            for item in c.items:
                emit(item)
            out.extend([SH_AND if isinstance(c, ir.And) else SH_OR, len(c.items)])
        elif isinstance(c, ir.Not):
            emit(c.item)
            out.append(SH_NOT)
        else:
            out.append(SH_FALSE)

    emit(cond)
    return out


def shown_array(compiled: CompiledRules) -> Array:
    """The shown program of every teyaku entry (layout above; [0] without a teyaku table)."""
    table = compiled.rules.teyaku
    entries = table.entries if table is not None else ()
    programs = [shown_program(e.condition, compiled.index) for e in entries]
    words = [len(programs)]
    at = 1 + 2 * len(programs)
    for prog in programs:
        words += [at, at + len(prog)]
        at += len(prog)
    for prog in programs:
        words += prog
    return _array(words)


@_entry
def shown_cards(arr: Array, i: int, hand: int, stack: Array) -> int:
    """The cards a player dealt `hand` shows for teyaku entry i (engine.tables'
    teyaku_cards for one entry: 0 when it does not hold); stack: scratch for 62 masks."""
    p = arr[1 + 2 * i]
    end = arr[2 + 2 * i]
    s = 0  # the items' `holds`, as bits (the top: bit 0), and their cards in `stack`
    depth = 0
    while p < end:
        op = arr[p]
        b = 0
        cards = 0
        if op == SH_LEAF:
            q = p + 2
            for _ in range(arr[p + 1]):
                size = arr[q]
                k = arr[q + 1]
                for j in range(k):
                    c = hand & arr[q + 2 + j]
                    if size < 0 or popcount(c) == size:
                        cards |= c
                q += 2 + k
            if holds(arr, q + 1, hand, arr, 0):
                b = 1
            else:
                cards = 0
            p = q + 1 + arr[q]
        elif op == SH_NOT:
            b = 1 - (s & 1)
            s >>= 1
            depth -= 1
            p += 1
        elif op == SH_FALSE:
            p += 1
        else:  # SH_AND, SH_OR: every item holds, or some item does
            n = arr[p + 1]
            held = s & ((1 << n) - 1)
            s >>= n
            for _ in range(n):
                depth -= 1
                cards |= stack[depth]
            b = 1 if (held == (1 << n) - 1 if op == SH_AND else held != 0) else 0
            if not b:
                cards = 0
            p += 2
        stack[depth] = cards
        depth += 1
        s = (s << 1) | b
    return int(stack[0]) if s & 1 else 0
