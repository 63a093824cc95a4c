"""Static checks on a resolved variant: what the parser cannot see.

Deck totals against the file's `expect` lines, a point value for every class, and an entry that
no hand can make.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from rulekit import ir
from rulekit.errors import (
    Loc,
    RuleError,
    RulekitError,
    did_you_mean,
    either,
    source_line,
    source_text,
)
from rulekit.hands import HandSpace, TooLarge, compare
from rulekit.lang import jsonpos


def _loc(sloc: ir.SourceLoc | None) -> Loc | None:
    if sloc is None:
        return None
    return Loc(sloc.file, sloc.line, sloc.col, sloc.width)


def deck_totals(rules: ir.Ruleset, classes: Mapping[int, str] | None = None) -> dict[str, int]:
    """What `expect` can name: `cards`, `points`, and each class (singular and plural), counting
    each card in its first class (or in `classes`, the deck as its own file declares it)."""
    primary = classes or {c.id: c.classes[0] for c in rules.deck.cards}
    totals = {
        "cards": len(rules.deck.cards),
        "points": sum(
            rules.own_points.get(c.id, rules.points.get(primary[c.id], 0)) for c in rules.deck.cards
        ),
    }
    for cls in rules.deck.classes:
        n = sum(1 for c in rules.deck.cards if primary[c.id] == cls)
        totals[cls] = n
        totals[cls + "s"] = n
    return totals


def check_expectations(
    rules: ir.Ruleset, declared: Mapping[int, str] | None = None
) -> list[RulekitError]:
    errors: list[RulekitError] = []
    scopes = {"rules": deck_totals(rules), "deck": deck_totals(rules, declared)}
    for exp in rules.expectations:
        totals = scopes[exp.scope]
        if exp.what not in totals:
            errors.append(
                RuleError(
                    f"'expect' cannot check '{exp.what}'",
                    _loc(exp.loc),
                    did_you_mean(exp.what, totals) or "expect cards, points, or a class: plains 24",
                )
            )
        elif totals[exp.what] != exp.value:
            errors.append(
                RuleError(
                    f"the deck has {totals[exp.what]} {exp.what},"
                    f" but this file expects {exp.value}",
                    _loc(exp.loc),
                )
            )
    return errors


def check_points(rules: ir.Ruleset) -> list[RulekitError]:
    missing = [c for c in rules.deck.classes if c not in rules.points]
    if not missing:
        return []
    loc = Loc(rules.files[-1], 1, 1) if rules.files else None
    return [
        RuleError(
            f"no points for class{'es' if len(missing) > 1 else ''} {', '.join(missing)}",
            loc,
            "give every class its value: points light 20, animal 10, ribbon 5, plain 1",
        )
    ]


def check_reachable(
    rules: ir.Ruleset, hand_sizes: Collection[int] | None = None
) -> list[RulekitError]:
    """An entry that no hand can make is almost always a typo in its condition. A teyaku is
    reported when no dealt hand of any of `hand_sizes` (the variant's, by default) can make it."""
    errors: list[RulekitError] = []
    space = HandSpace(rules.deck, rules.points)
    sizes = sorted(hand_sizes or rules.hand_sizes())
    for table, table_sizes, what in (
        (rules.teyaku, sizes, f"dealt hand of {either(sizes)} cards"),
        (rules.yaku, [None], "pile of captured cards"),
    ):
        if table is None:
            continue
        for entry in table.entries:
            if all(space.find([entry.condition], size) is None for size in table_sizes):
                errors.append(
                    RuleError(
                        f"no {what} can make '{entry.name}' ({entry.text})",
                        _loc(entry.loc),
                        "check the counts and card names of its condition",
                    )
                )
    return errors


def static_checks(
    rules: ir.Ruleset,
    declared: Mapping[int, str] | None = None,
    hand_sizes: Collection[int] | None = None,
) -> list[RulekitError]:
    """Every static check; `declared` is each card's class as its deck file declares it;
    `hand_sizes` the sizes of dealt hand a teyaku may come from (the variant's, by default)."""
    return (
        check_expectations(rules, declared)
        + check_points(rules)
        + check_reachable(rules, hand_sizes)
    )


# ---------------------------------------------------------------- playable at every table size
# What play would otherwise hit: a deal the deck cannot make, a setup order that leaves too few
# cards for the field, a setup step with nothing to do, a void rule that voids every deal. Each
# is checked for every table size the file allows, located by `locs` (keys: "seats", "setup",
# "void", "deal" and "deal@N" for a deal at N seats); `fallback` where no key is known.

PlayLocs = Mapping[str, Loc | None]


def _deal_loc(locs: PlayLocs, deal: ir.DealSize, fallback: Loc | None) -> Loc | None:
    key = "deal" if deal.seats is None else f"deal@{deal.seats}"
    return locs.get(key) or locs.get("deal") or locs.get("seats") or fallback


def check_seats_bound(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """A table cannot seat more players than the deck can deal a card to."""
    cards = len(rules.deck.cards) + (1 if rules.joker is not None else 0)
    if rules.seats.max <= cards:
        return []
    return [
        RuleError(
            f"seats {rules.seats.max}: a deck of {cards} cards deals to at most {cards} players",
            locs.get("seats") or fallback,
            "see 'Bounds' in docs/language.md",
        )
    ]


def _field_stock(rules: ir.Ruleset, seated: int, deal: ir.DealSize, fold_first: bool) -> int:
    """The fewest cards left in the stock when the field is laid, at `seated` players."""
    joker = rules.joker is not None and rules.joker.seats == seated
    stock = len(rules.deck.cards) + joker - seated * deal.hand
    playing = rules.seats.playing(seated)
    steps = rules.setup
    before_field = steps[: steps.index("field")] if "field" in steps else steps
    folds = fold_first or "fold" in before_field
    if folds and seated > playing:
        stock += (seated - playing) * deal.hand
    if joker and (folds or "joker" in before_field):
        stock -= 1  # the joker is out, and its holder's replacement came from the stock
    return stock


def check_deal_order(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """Every table size the file allows can be dealt: the hands from the deck, then the field
    from what is left at the point of the setup where it is laid."""
    if rules.seats.max > len(rules.deck.cards) + 1:
        return []  # check_seats_bound says why; no table size loop over a huge range
    errors: list[RulekitError] = []
    for seated in range(rules.seats.min, rules.seats.max + 1):
        deal = rules.deal_for(seated)
        joker = rules.joker is not None and rules.joker.seats == seated
        cards = len(rules.deck.cards) + joker
        playing = rules.seats.playing(seated)
        if seated * deal.hand > cards or _field_stock(rules, seated, deal, True) < deal.field:
            need = max(seated * deal.hand, playing * deal.hand + deal.field)
            most = min(cards // seated, (cards - deal.field) // playing)
            errors.append(
                RuleError(
                    f"deal {deal.hand} to each, {deal.field} to the field: {seated} players"
                    f" need {need} cards, and the deck has {cards}",
                    _deal_loc(locs, deal, fallback),
                    f"at most {most} to each of {seated} players" if most > 0 else None,
                )
            )
            break
        stock = _field_stock(rules, seated, deal, False)
        if stock < deal.field:
            errors.append(
                RuleError(
                    f"setup: {', '.join(rules.setup)}: at {seated} players the field of"
                    f" {deal.field} is laid from a stock of only {stock} cards",
                    locs.get("setup") or fallback,
                    "fold before laying the field: setup: hands, fold, field, teyaku",
                )
            )
            break
    return errors


def check_setup_steps(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """A setup step must have something to do, and what play needs must be in the setup."""
    loc = locs.get("setup") or fallback
    errors: list[RulekitError] = []
    steps = rules.setup
    if steps[:1] != ("hands",) or steps.count("field") != 1 or len(set(steps)) != len(steps):
        errors.append(
            RuleError(
                "setup starts with 'hands', lays the 'field' once, and names each step once",
                loc,
                "for example: setup: hands, field, fold, teyaku",
            )
        )
    early = [s for s in ("teyaku", "instant_win") if s in steps and "joker" in steps]
    early = [s for s in early if steps.index(s) < steps.index("joker")]
    if early:
        fixed: list[str] = [s for s in steps if s != "joker"]
        fixed.insert(fixed.index(early[0]), "joker")
        errors.append(
            RuleError(
                f"setup reads the hands at '{early[0]}' before the 'joker' step replaces the"
                " joker: a hand would be matched with the joker in it",
                loc,
                f"replace it first: setup: {', '.join(fixed)}",
            )
        )
    if "joker" in steps and rules.joker is None:
        errors.append(
            RuleError(
                "setup has a 'joker' step, but the file has no joker",
                loc,
                "add 'joker at N seats: replaced from the stock', or remove the step",
            )
        )
    uses = [
        e.name
        for t in (rules.teyaku, rules.yaku)
        if t
        for e in t.entries
        if _asks_dealt(e.condition)
    ]
    uses += [
        s.name or "a scoring step"
        for s in rules.scoring
        if s.condition is not None and _asks_dealt(s.condition)
    ]
    if uses and "teyaku" not in steps:
        errors.append(
            RuleError(
                f"'{uses[0]}' asks what was dealt, but setup has no 'teyaku' step to"
                " declare the dealt hands",
                loc,
                "for example: setup: hands, field, teyaku",
            )
        )
    # sitting out: said where the user wrote last, his seats or the setup he extends
    files = list(rules.files)
    places = [p for p in (locs.get("seats"), loc) if p is not None]
    last = max(places, key=lambda p: files.index(p.file) if p.file in files else -1, default=loc)
    return errors + _check_sitting_out(rules, last)


def _check_sitting_out(rules: ir.Ruleset, loc: Loc | None) -> list[RulekitError]:
    """Where more sit than play, they sit out at the `fold` step: the setup must have one, and
    have it before a hand `swap` (a player who then sat out could have traded his hand with
    the dealer)."""
    steps = list(rules.setup)
    out = [n for n in _table_sizes(rules) if rules.seats.playing(n) < n]
    if not out:
        return []
    n, playing = out[0], rules.seats.playing(out[0])
    if "fold" not in steps:
        at = steps.index("swap") if "swap" in steps else steps.index("field") + 1
        fixed = ", ".join([*steps[:at], "fold", *steps[at:]])
        return [
            RuleError(
                f"at {n} seats {playing} play, but setup has no 'fold' step, where the others"
                " sit out: everyone would play",
                loc,
                f"for example: setup: {fixed}",
            )
        ]
    if "swap" in steps and steps.index("swap") < steps.index("fold"):
        steps.remove("fold")
        steps.insert(steps.index("swap"), "fold")
        return [
            RuleError(
                f"at {n} seats {playing} play, and the hands are swapped before the 'fold' step:"
                " a player who then sits out could have traded his hand with the dealer",
                loc,
                f"sit out first: setup: {', '.join(steps)}",
            )
        ]
    return []


def _asks_dealt(cond: ir.Condition) -> bool:
    return any(isinstance(c, ir.Dealt) for c in ir.parts_of(cond))


# the least share of the fields a void rule must leave to play: below it, a round would be
# redealt a hundred times and more (play stops after engine.game.MAX_VOID_IN_A_ROW void deals
# in a row, which a share of 1 in 100 reaches with a chance under 1e-20)
MIN_PLAYABLE = Fraction(1, 100)
# the most steps the count of a void rule's fields may take (a state's quantities, one by one:
# a condition of a few terms takes thousands; this is about a second)
COUNT_BUDGET = 3_000_000


def check_void_every_deal(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """A void rule that every field (or all but a few in a hundred) satisfies: the game never
    starts, or redeals without end; when the rule asks about the round, it would stop at the
    first round whose fields are void. The share of fields left is counted exactly, and every
    round number is looked at (`simulate --rounds` numbers rounds past a game's end), through
    one round of each month in each stretch of rounds its comparisons tell apart."""
    if rules.void_field is None or rules.seats.max > len(rules.deck.cards) + 1:
        return []
    space = HandSpace(rules.deck, rules.points)
    sizes = sorted({rules.deal_for(n).field for n in range(rules.seats.min, rules.seats.max + 1)})
    cards = rules.deck.cards
    months = [tuple(c.id for c in cards if c.month == m.number) for m in rules.deck.months]
    for number in _rounds_told_apart(rules.void_field, len(months)):
        void = _at_round(rules.void_field, number, months[(number - 1) % len(months)])
        for size in sizes:
            try:
                terms, states = space.count([void], size, budget=COUNT_BUDGET)
            except TooLarge:  # a condition too large to count: only whether any field plays
                playable = space.find([ir.Not(item=void)], size) is not None
                left, share = int(playable), Fraction(int(playable))
            else:
                left = sum(n for state, n in states.items() if not space.holds(void, state, terms))
                share = Fraction(left, sum(states.values()) or 1)
            if share >= MIN_PLAYABLE:
                continue
            when = "" if number == 1 else f" from round {number} on"
            what = rules.void_text or "void if"
            if not left:
                message = (
                    f"every field of {size} cards is void{when} ({what}): no deal can be played"
                )
            else:
                message = (
                    f"only {float(share):.2%} of the fields of {size} cards can be played{when}"
                    f" ({what}): a round would be redealt about {round(1 / share)} times"
                )
            return [
                RuleError(
                    message,
                    locs.get("void") or fallback,
                    "check the counts of its condition"
                    + ("" if number == 1 else ", and what it asks of the round"),
                )
            ]
    return []


def check_void_every_hand(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """A hand's void rule that (nearly) every deal meets: each of the n hands of a table is
    tested, so a deal plays when none makes it, about the share of hands left to the power n
    (the hands are dealt from one deck: near enough to tell a rule that voids every deal). A
    rule that asks about the field is left to play (the hand alone cannot say); one that asks
    about the dealer is weighed for his hand and the others' apart."""
    cond = rules.void_hand
    if cond is None or rules.seats.max > len(rules.deck.cards) + 1:
        return []
    if any(isinstance(c, ir.OnField) for c in ir.parts_of(cond)):
        return []
    space = HandSpace(rules.deck, rules.points)
    cards = rules.deck.cards
    months = [tuple(c.id for c in cards if c.month == m.number) for m in rules.deck.months]
    tables = range(rules.seats.min, rules.seats.max + 1)
    for number in _rounds_told_apart(cond, len(months)):
        void = _at_round(cond, number, months[(number - 1) % len(months)])
        for seats in tables:
            size = rules.deal_for(seats).hand
            dealer, other = (_hands_left(space, _as_dealer(void, d), size) for d in (True, False))
            playing = rules.seats.playing(seats)  # the fewest hands tested (folds first)
            share = dealer * other ** (playing - 1)
            when = "" if number == 1 else f" from round {number} on"
            what = rules.void_hand_text or "void if a hand has"
            if share >= MIN_PLAYABLE:
                if share == 1 or _some_deal_plays(space, void, size, playing, cards):
                    continue
                message = (
                    f"at {seats} seats none of {VOID_SAMPLE:,} deals drawn at random (hands of"
                    f" {size} cards) can be played{when} ({what}): the hands are dealt from one"
                    " deck, and a card one holds, another cannot"
                )
            elif share == 0:
                message = (
                    f"every deal of hands of {size} cards is void{when} ({what}): no deal can"
                    " be played"
                )
            else:
                message = (
                    f"at {seats} seats only about {float(share):.2%} of the deals (hands of"
                    f" {size} cards) can be played{when} ({what})"
                )
            return [
                RuleError(
                    message,
                    locs.get("void hand") or fallback,
                    "check the counts of its condition"
                    + ("" if number == 1 else ", and what it asks of the round"),
                )
            ]
    return []


# the deals drawn to test a hand's void rule as the table meets it: the hands of one deal
# share a deck (no two hold the same card), which the share of hands left does not see; a rule
# that about 1 deal in 100 plays leaves all of them void with a chance under 1 in 20,000
VOID_SAMPLE = 1000


def _some_deal_plays(
    space: HandSpace, void: ir.Condition, size: int, playing: int, cards: Sequence[ir.Card]
) -> bool:
    """Whether any of VOID_SAMPLE deals, drawn with a fixed seed, plays: its `playing` hands of
    `size` cards (the first the dealer's) each leave the void rule unmade."""
    if playing * size > len(cards):
        return True  # dealt otherwise (the table's own check says so)
    tests = (_as_dealer(void, True), _as_dealer(void, False))
    terms = space.terms(tests)
    ids = [c.id for c in cards]
    draw = random.Random("void-hand-check")
    for _ in range(VOID_SAMPLE):
        draw.shuffle(ids)
        if not any(
            space.holds(tests[i > 0], space.state_of(ids[i * size : (i + 1) * size], terms), terms)
            for i in range(playing)
        ):
            return True
    return False


def _hands_left(space: HandSpace, void: ir.Condition, size: int) -> Fraction:
    """The share of the hands of `size` cards that do not make `void` (too large a condition
    to count: 1 if any hand does not, else 0)."""
    try:
        terms, states = space.count([void], size, budget=COUNT_BUDGET)
    except TooLarge:
        return Fraction(int(space.find([ir.Not(item=void)], size) is not None))
    left = sum(n for state, n in states.items() if not space.holds(void, state, terms))
    return Fraction(left, sum(states.values()) or 1)


def _as_dealer(cond: ir.Condition, dealer: bool) -> ir.Condition:
    """A condition with `dealer` decided: always (his hand) or never (another's)."""
    decided = ir.And(items=()) if dealer else ir.Or(items=())  # always, or never
    return ir.rewrite(cond, lambda c: decided if isinstance(c, ir.IsDealer) else None)


def _rounds_told_apart(cond: ir.Condition, months: int) -> list[int]:
    """Round numbers, from 1, that between them give every outcome the condition's tests of the
    round can give: the rounds from each point where a `round` comparison may change, one of
    each month (the first is also the only one of a condition that asks nothing of it)."""
    cmps = [c for c in ir.parts_of(cond) if isinstance(c, ir.RoundCmp)]
    if not any(isinstance(c, ir.RoundCmp | ir.RoundMonth) for c in ir.parts_of(cond)):
        return [1]
    starts = sorted({1, *(n for c in cmps for n in (c.n, c.n + 1) if n >= 1)})
    out: set[int] = set()
    for i, a in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else a + months
        out.update(range(a, min(end, a + months)))
    return sorted(out)


def _at_round(cond: ir.Condition, number: int, month: tuple[int, ...]) -> ir.Condition:
    """A condition on the field with its tests of the round decided for round `number`, whose
    month holds `month`: `round` becomes always or never, `round month` a count of its cards,
    `the field had` the field itself (a void rule tests the field as laid)."""

    def leaf(c: ir.Condition) -> ir.Condition | None:
        if isinstance(c, ir.RoundCmp):
            return ir.And(items=()) if compare(c.op, number, c.n) else ir.Or(items=())
        if isinstance(c, ir.RoundMonth):
            return ir.AllOf(cards=month) if c.all else ir.Count(cards=month, op=c.op, n=c.n)
        if isinstance(c, ir.OnField):
            return _at_round(c.item, number, month)
        return None

    return ir.rewrite(cond, leaf)


def check_teams_play(
    rules: ir.Ruleset, locs: PlayLocs, fallback: Loc | None = None
) -> list[RulekitError]:
    """Teams at a table size where some sit a round out would play without a member: every
    seated player plays at a table of teams."""
    for t in rules.teams:
        if not rules.seats.min <= t.seats <= rules.seats.max:
            continue
        playing = rules.seats.playing(t.seats)
        if playing != t.seats:
            return [
                RuleError(
                    f"teams at {t.seats} seats, but {playing} of them play a round: a team"
                    " would play without a member",
                    locs.get(f"teams@{t.seats}") or fallback,
                    "at a table of teams everyone seated plays: remove the teams at that size,"
                    " or let everyone play (seats ... with no 'N play')",
                )
            ]
    return []


def playable_checks(
    rules: ir.Ruleset, locs: PlayLocs | None = None, fallback: Loc | None = None
) -> list[RulekitError]:
    """Every check that play would otherwise crash or hang on, at every table size the file
    allows (a void rule that voids every deal is `check_void_every_deal`: play stops on it with
    an error, and tests of that guard load such a file)."""
    locs = locs or {}
    errors = check_seats_bound(rules, locs, fallback) + check_setup_steps(rules, locs, fallback)
    errors += check_teams_play(rules, locs, fallback)
    return errors or check_deal_order(rules, locs, fallback)


# ---------------------------------------------------------------- warnings: a zero-sum count


class RuleWarning(RuleError):
    """Something a rule file may mean but probably does not: reported, never fatal."""

    kind = "warning"

    def render(self) -> str:
        head, _, rest = super().render().partition("\n")
        if self.loc is not None:
            head = f"{self.loc}: warning: {self.message}"
        return f"{head}\n{rest}" if rest else head


# a statement's keyword -> the IR field it sets, where they differ
_JSON_FIELDS = {"continue": "continuation"}


def _statement(rules: ir.Ruleset, keyword: str) -> Loc | None:
    """Where the last file of the chain that writes a `keyword` statement writes it (the IR
    keeps no place for it), or the first line of the variant's own file; in a JSON IR file,
    the IR's field for it."""
    for name in reversed(rules.files):
        text = source_text(name)
        if name.endswith(".json") and text is not None:
            return jsonpos.locate(name, text, (_JSON_FIELDS.get(keyword, keyword),))
        n = 1
        while (text := source_line(name, n)) is not None:
            if text.split("#")[0].split(":")[0].split()[:1] == [keyword]:
                return Loc(name, n, len(text) - len(text.lstrip()) + 1, len(keyword))
            n += 1
    return Loc(rules.files[-1], 1, 1) if rules.files else None


def _table_sizes(rules: ir.Ruleset) -> list[int]:
    return list(range(rules.seats.min, rules.seats.max + 1))


def check_par_total(rules: ir.Ruleset) -> list[RulekitError]:
    """A par count is zero-sum only if the players' pars add up to the deck's points, at each
    table size with its own par (`par 88 at 3 seats, 66 at 4 seats`)."""
    if rules.count.method != "par":
        return []
    total = deck_totals(rules)["points"]
    by_par: dict[int, set[int]] = {}  # par -> the players of the tables it is wrong at
    for n in _table_sizes(rules):
        par, playing = rules.count.par_for(n), rules.seats.playing(n)
        if playing and playing * par != total:
            by_par.setdefault(par, set()).add(playing)
    if not by_par:
        return []
    par, players = min(by_par.items())
    wrong = sorted(players)
    return [
        RuleWarning(
            f"the count is not zero-sum: par {par} x {either(wrong)} players is not"
            f" the deck's {total} points",
            _statement(rules, "count"),
            f"a par of {total / wrong[0]:g} makes {wrong[0]} players' pars the deck's total"
            if total % wrong[0] == 0
            else "give a par that times the players is the deck's points",
        )
    ]


def check_unplayed_cards(rules: ir.Ruleset) -> list[RulekitError]:
    """A par count is zero-sum only if every card reaches a pile: the hands, the field and one
    draw per card played must use the whole deck (or the stock be played out once the hands
    are empty: `play out the stock`)."""
    if rules.count.method != "par" or rules.play_out_stock:
        return []
    cards = len(rules.deck.cards)
    left = []
    for n in _table_sizes(rules):
        deal = rules.deal_for(n)
        used = 2 * rules.seats.playing(n) * deal.hand + deal.field
        if used < cards:
            left.append((n, cards - used))
    if not left:
        return []
    n, rest = left[0]
    return [
        RuleWarning(
            f"the count is not zero-sum: at {n} players {rest} cards are never drawn,"
            " so the captured points fall short of the pars",
            _statement(rules, "deal"),
            "deal so that the hands, the field and the draws use every card",
        )
    ]


def check_field_month(rules: ir.Ruleset) -> list[RulekitError]:
    """A month dealt whole to the field can never be captured (no card is left to match it),
    so a par count stops being zero-sum unless the file voids that deal or gives those cards
    to someone."""
    if rules.count.method != "par":
        return []
    space = HandSpace(rules.deck, rules.points)
    fields = sorted({rules.deal_for(n).field for n in _table_sizes(rules)})
    sizes = sorted({len(cards) for cards in space.cards_by_month.values() if cards})
    for size in sizes:
        if size == rules.dealer_captures:
            continue
        whole = ir.Shape(groups=(ir.ShapeGroup(size=size, count=1),))
        conditions: list[ir.Condition] = [whole]
        if rules.void_field is not None:
            conditions.append(ir.Not(item=rules.void_field))
        field = next((f for f in fields if space.find(conditions, f) is not None), None)
        if field is not None:
            return [
                RuleWarning(
                    f"the count is not zero-sum: a field of {field} cards can hold a month"
                    f" of {size}, which no card is left to capture",
                    _statement(rules, "deal"),
                    f"void the deal (void if the field has a month of {size}) or give the"
                    f" cards away (the dealer captures a month of {size} on the field)",
                )
            ]
    return []


def check_yaku_paid(rules: ir.Ruleset) -> list[RulekitError]:
    """Yaku that do not end the round are scored at the count, which only a count by points or
    round wins with `opponents lose each yaku` or `each yaku scores for its maker` does: under
    any other, no yaku is ever paid; and those options mean nothing to a count that pays cards
    between players."""
    c, count = rules.continuation, rules.count
    scores = count.method in ("points", "round_wins")
    out: list[RulekitError] = []
    for written, words in (
        (count.opponents_lose, "opponents lose each yaku"),
        (count.makers_score, "each yaku scores for its maker"),
    ):
        if written and not scores:
            out.append(
                RuleWarning(
                    f"'{words}' is an option of a count by points or round wins:"
                    f" a count by {count.method.replace('_', ' ')} does nothing with it",
                    _statement(rules, "count"),
                    f"leave it out, or count by points: count: points; always; {words}",
                )
            )
    in_play = rules.yaku is not None and any(not e.at_count for e in rules.yaku.entries)
    scored = count.opponents_lose or count.makers_score
    if c.ends_round or c.paid_in_play or not in_play or (scores and scored):
        return out
    if any(k.key == "yaku" for k in count.round_by):  # they rank the round's winner
        return out
    how = {
        "par": "a count by par pays only the cards",
        "difference": "a count by difference pays only the cards",
        "none": "'count: none' counts nothing",
        "per_points": "a count by steps of card points counts only the cards",
    }.get(count.method, f"a count by {count.method.replace('_', ' ')} scores them only with"
          " 'opponents lose each yaku' or 'each yaku scores for its maker'")  # fmt: skip
    # at the statement the user wrote last: the continue, or the count that undid it
    places = [_statement(rules, "continue"), _statement(rules, "count")]
    files = list(rules.files)
    place = max(places, key=lambda p: files.index(p.file) if p and p.file in files else -1)
    out.append(
        RuleWarning(
            f"the yaku are never paid: they do not end the round, so they are scored at the"
            f" count, and {how}",
            place,
            "pay each as it is made (continue: yaku do not end the round; paid when made), or"
            " score them (count: points; always; opponents lose each yaku)",
        )
    )
    return out


def rule_warnings(rules: ir.Ruleset) -> list[RulekitError]:
    """Everything `rulekit check` warns of: a count that can stop being zero-sum, yaku that
    are never paid."""
    return zero_sum_warnings(rules) + check_yaku_paid(rules)


def zero_sum_warnings(rules: ir.Ruleset) -> list[RulekitError]:
    """Warnings for a count that can stop being zero-sum: `rulekit check` prints them and
    still passes the file."""
    return check_par_total(rules) + check_unplayed_cards(rules) + check_field_month(rules)
