"""Static checks on a resolved variant: what the parser cannot see.

Deck totals against the file's `expect` lines, a point value for every class, and an entry that
no hand can make.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rulekit import ir
from rulekit.errors import Loc, RuleError, RulekitError, did_you_mean, either
from rulekit.hands import HandSpace


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
        "points": sum(rules.points.get(primary[c.id], 0) for c in rules.deck.cards),
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
