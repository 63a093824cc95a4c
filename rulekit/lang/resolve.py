"""Draft -> IR: every name resolved to cards, every error located and collected.

Name lookup in a card-set position, in this order: a card's name, a named set, a class (`ribbon`
or `ribbons`, in the current view), a tag (`poetry`), a month's name or alias (`willow`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any, get_args

from rulekit import ir
from rulekit.errors import Loc, RuleError, did_you_mean
from rulekit.lang import ast
from rulekit.lang.draft import Draft, EntryDraft, TableDraft

# A view maps each card id to the classes it counts in.
ClassMap = dict[int, tuple[str, ...]]


def _sloc(loc: Loc) -> ir.SourceLoc:
    return ir.SourceLoc(file=loc.file, line=loc.line, col=loc.col, width=loc.width)


def set_text(expr: ast.SetExpr) -> str:
    """A set expression written back as text, for labels in the IR."""
    if isinstance(expr, ast.SName):
        return expr.name.text
    if isinstance(expr, ast.SCard):
        return str(expr.id)
    if isinstance(expr, ast.SMonth):
        return f"month {expr.ref.text}"
    op = "+" if isinstance(expr, ast.SUnion) else "-"
    return f"{set_text(expr.left)} {op} {set_text(expr.right)}"


def _plural_stem(word: str) -> str | None:
    if word.endswith("es") and len(word) > 3:
        return word[:-2]
    if word.endswith("s") and len(word) > 2:
        return word[:-1]
    return None


class _Unresolved(Exception):
    """A name failed to resolve; the error is already recorded."""


class Resolver:
    def __init__(self, draft: Draft) -> None:
        self.d = draft
        self.errors = draft.errors
        self.classes = [c.text for c in draft.classes]
        self.card_ids = sorted(draft.cards)
        self.by_name: dict[str, int] = {}
        self.month_names: dict[str, int] = {}
        self.tags: set[str] = {t.text for t in draft.tags}
        self.default: ClassMap = {}
        self.views: dict[str, ClassMap] = {}
        self.declared: ClassMap = {}
        self._set_stack: list[str] = []

    def error(self, message: str, loc: Loc | None, hint: str | None = None) -> None:
        if loc is None and self.d.files:  # a whole-file problem: point at the file
            loc = Loc(self.d.files[-1], 1, 1)
        self.errors.append(RuleError(message, loc, hint))

    # ------------------------------------------------------------ entry point
    def run(self) -> ir.Ruleset | None:
        deck = self.deck()
        if deck is None:
            return None
        points = self.points()
        views = tuple(self.view(v) for v in self.d.views.values())
        sets = tuple(self.card_set(s) for s in self.d.sets.values())
        teyaku = self.table(self.d.tables["teyaku"]) if "teyaku" in self.d.tables else None
        yaku = self.table(self.d.tables["yaku"]) if "yaku" in self.d.tables else None
        multiplier = self.multiplier()
        mechanics = self.mechanics(yaku)
        expectations = tuple(
            ir.Expectation(what=name.text, value=value, scope=scope, loc=_sloc(name.loc))
            for (scope, _), (name, value) in self.d.expects.items()
        )
        if self.errors:
            return None
        return ir.Ruleset(
            game=self.d.game or self.d.deck_name or "",
            variant=self.d.variant or "",
            source=self.d.source,
            files=tuple(self.d.files),
            deck=deck,
            points=points,
            views=views,
            sets=sets,
            expectations=expectations,
            teyaku=teyaku,
            yaku=yaku,
            multiplier=multiplier,
            **mechanics,
        )

    # ------------------------------------------------------------ deck
    def deck(self) -> ir.Deck | None:
        d = self.d
        if not d.classes:
            self.error(
                "no card classes declared", None, "a deck file says: classes light, animal, ..."
            )
            return None
        if not d.cards:
            self.error(
                "no cards declared", None, 'a game file names its deck: deck "common/hanafuda"'
            )
            return None
        months = []
        for number in sorted(d.months):
            m = d.months[number]
            months.append(
                ir.Month(
                    number=number,
                    name=m.name.text,
                    label=m.label or m.name.text.title(),
                    aliases=tuple(a.text for a in m.aliases),
                )
            )
            for n in (m.name, *m.aliases):
                if n.text in self.month_names:
                    self.error(f"month name '{n.text}' is used twice", n.loc)
                self.month_names[n.text] = number
        for card_id in self.card_ids:
            c = d.cards[card_id]
            if c.name.text in self.by_name:
                self.error(f"card name '{c.name.text}' is used twice", c.name.loc)
            self.by_name[c.name.text] = card_id
            if card_id // 10 not in d.months:
                self.error(
                    f"card {card_id} belongs to month {card_id // 10}, which is not declared",
                    c.loc,
                    "a card id is its month followed by its index 0-3: 10 is month 1, card 0",
                )
            if c.cls.text not in self.classes:
                self.error(
                    f"unknown class '{c.cls.text}'",
                    c.cls.loc,
                    did_you_mean(c.cls.text, self.classes),
                )
            for t in c.tags:
                if d.tags and t.text not in self.tags:
                    self.error(f"unknown tag '{t.text}'", t.loc, did_you_mean(t.text, self.tags))
                self.tags.add(t.text)
            self.default[card_id] = (c.cls.text,)
        self.declared = dict(self.default)
        for reclass in d.treats:
            self.apply_reclass(self.default, reclass)
        cards = tuple(
            ir.Card(
                id=cid,
                name=d.cards[cid].name.text,
                label=d.cards[cid].label,
                month=cid // 10,
                rank=cid % 10,
                classes=self.default[cid],
                tags=tuple(t.text for t in d.cards[cid].tags),
            )
            for cid in self.card_ids
        )
        return ir.Deck(
            name=d.deck_name or "",
            classes=tuple(self.classes),
            tags=tuple(sorted(self.tags)),
            months=tuple(months),
            cards=cards,
        )

    def apply_reclass(self, classes: ClassMap, reclass: ast.Reclass) -> ir.Reclass | None:
        if reclass.cls.text not in self.classes:
            self.error(
                f"unknown class '{reclass.cls.text}'",
                reclass.cls.loc,
                did_you_mean(reclass.cls.text, self.classes),
            )
            return None
        try:
            cards = self.cards_of(reclass.expr, classes)
        except _Unresolved:
            return None
        for cid in cards:
            if reclass.also:
                if reclass.cls.text not in classes[cid]:
                    classes[cid] = (*classes[cid], reclass.cls.text)
            else:
                classes[cid] = (reclass.cls.text,)
        mode = "also" if reclass.also else "as"
        text = f"{set_text(reclass.expr)} {'also ' if reclass.also else ''}as {reclass.cls.text}"
        return ir.Reclass(cards=tuple(sorted(cards)), mode=mode, cls=reclass.cls.text, text=text)

    def points(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for name, value in self.d.points.values():
            if name.text not in self.classes:
                self.error(
                    f"unknown class '{name.text}'", name.loc, did_you_mean(name.text, self.classes)
                )
            result[name.text] = value
        return result

    def view(self, v: ast.ViewDecl) -> ir.View:
        classes = dict(self.default)
        changes = [self.apply_reclass(classes, r) for r in v.reclasses]
        self.views[v.name.text] = classes
        return ir.View(
            name=v.name.text,
            label=v.label or v.name.text.replace("_", " "),
            changes=tuple(c for c in changes if c is not None),
        )

    def view_classes(self, name: ast.Name | None) -> ClassMap:
        if name is None:
            return self.default
        if name.text not in self.views:
            self.error(f"unknown view '{name.text}'", name.loc, did_you_mean(name.text, self.views))
            return self.default
        return self.views[name.text]

    def card_set(self, s: ast.SetDecl) -> ir.CardSet:
        try:
            cards = self.union(s.items, self.default)
        except _Unresolved:
            cards = frozenset()
        return ir.CardSet(
            name=s.name.text,
            label=s.label or s.name.text.replace("_", " "),
            cards=tuple(sorted(cards)),
        )

    # ------------------------------------------------------------ card sets
    def known_names(self) -> Iterable[str]:
        yield from self.by_name
        yield from self.d.sets
        yield from self.classes
        yield from (c + "s" for c in self.classes)
        yield from self.tags
        yield from self.month_names

    def union(self, items: Iterable[ast.SetExpr], classes: ClassMap) -> frozenset[int]:
        result: frozenset[int] = frozenset()
        failed = False
        for item in items:
            try:
                result |= self.cards_of(item, classes)
            except _Unresolved:
                failed = True
        if failed:
            raise _Unresolved
        return result

    def cards_of(self, expr: ast.SetExpr, classes: ClassMap) -> frozenset[int]:
        if isinstance(expr, ast.SUnion):
            return self.cards_of(expr.left, classes) | self.cards_of(expr.right, classes)
        if isinstance(expr, ast.SMinus):
            return self.cards_of(expr.left, classes) - self.cards_of(expr.right, classes)
        if isinstance(expr, ast.SCard):
            if expr.id not in self.d.cards:
                month = expr.id // 10
                hint = None
                if month in self.d.months:
                    ids = [c for c in self.card_ids if c // 10 == month]
                    hint = f"month {month} has cards {', '.join(map(str, ids))}"
                self.error(f"no card {expr.id}", expr.loc, hint)
                raise _Unresolved
            return frozenset((expr.id,))
        if isinstance(expr, ast.SMonth):
            number = self.month_number(expr.ref)
            return frozenset(c for c in self.card_ids if c // 10 == number)
        return self.named(expr.name, classes)

    def named(self, name: ast.Name, classes: ClassMap) -> frozenset[int]:
        word = name.text
        if word in self.by_name:
            return frozenset((self.by_name[word],))
        if word in self.d.sets:
            if word in self._set_stack:
                self.error(f"set '{word}' is defined in terms of itself", name.loc)
                raise _Unresolved
            self._set_stack.append(word)
            try:
                return self.union(self.d.sets[word].items, classes)
            finally:
                self._set_stack.pop()
        for cls in (word, _plural_stem(word)):
            if cls is not None and cls in self.classes:
                return frozenset(c for c in self.card_ids if cls in classes[c])
        for tag in (word, _plural_stem(word)):
            if tag is not None and tag in self.tags:
                return frozenset(
                    c for c in self.card_ids if any(t.text == tag for t in self.d.cards[c].tags)
                )
        if word in self.month_names:
            number = self.month_names[word]
            return frozenset(c for c in self.card_ids if c // 10 == number)
        self.error(
            f"unknown card, class, tag, set or month '{word}'",
            name.loc,
            did_you_mean(word, self.known_names()),
        )
        raise _Unresolved

    def month_number(self, ref: ast.Name) -> int:
        if ref.text.isdigit():
            number = int(ref.text)
            if number not in self.d.months:
                self.error(
                    f"no month {number}",
                    ref.loc,
                    f"months are 1 to {max(self.d.months, default=0)}",
                )
                raise _Unresolved
            return number
        if ref.text in self.month_names:
            return self.month_names[ref.text]
        self.error(f"unknown month '{ref.text}'", ref.loc, did_you_mean(ref.text, self.month_names))
        raise _Unresolved

    # ------------------------------------------------------------ conditions
    def cond(self, c: ast.Cond, classes: ClassMap) -> ir.Condition:
        if isinstance(c, ast.CAnd):
            return self.conjunction(c, classes)
        if isinstance(c, ast.COr):
            return ir.Or(items=tuple(self.cond(i, classes) for i in c.items))
        if isinstance(c, ast.CNot):
            return ir.Not(item=self.cond(c.item, classes))
        if isinstance(c, ast.CAllOf):
            return ir.AllOf(cards=tuple(sorted(self.union(c.items, classes))))
        if isinstance(c, ast.CAnyOf):
            return ir.AnyOf(cards=tuple(sorted(self.union(c.items, classes))))
        if isinstance(c, ast.CNoneOf):
            label = ", ".join(set_text(i) for i in c.items)
            return ir.Count(
                cards=tuple(sorted(self.union(c.items, classes))), op="=", n=0, label=label
            )
        if isinstance(c, ast.CAtLeast):
            label = ", ".join(set_text(i) for i in c.items)
            cards = self.union(c.items, classes)
            return ir.Count(cards=tuple(sorted(cards)), op=">=", n=c.n, label=label)
        if isinstance(c, ast.CCompare):
            cards = self.cards_of(c.expr, classes)
            return ir.Count(cards=tuple(sorted(cards)), op=c.op, n=c.n, label=set_text(c.expr))
        if isinstance(c, ast.CRest):
            return self.rest(c, frozenset(), classes)
        if isinstance(c, ast.CShape):
            return ir.Shape(groups=(self.shape_group(c),))
        if isinstance(c, ast.CPoints):
            return ir.PointsCmp(op=c.op, n=c.n)
        if isinstance(c, ast.CEveryone):
            return ir.Everyone(item=self.cond(c.item, classes))
        if isinstance(c, ast.CDealt):
            teyaku = self.d.tables.get("teyaku")
            known = teyaku.entries if teyaku else {}
            for n in c.names:
                if n.text not in known:
                    self.error(f"unknown teyaku '{n.text}'", n.loc, did_you_mean(n.text, known))
            return ir.Dealt(names=tuple(n.text for n in c.names), captured=c.captured)
        raise AssertionError(f"unhandled condition {c!r}")

    def conjunction(self, c: ast.CAnd, classes: ClassMap) -> ir.Condition:
        """`and` chains: month shapes in one chain use distinct months; `rest plain` means every
        card outside the sets counted in the chain is a plain."""
        items: list[ir.Condition] = []
        groups: list[ir.ShapeGroup] = []
        counted: frozenset[int] = frozenset()
        rests: list[ast.CRest] = []
        failed = False
        for item in c.items:
            try:
                if isinstance(item, ast.CShape):
                    groups.append(self.shape_group(item))
                    continue
                if isinstance(item, ast.CRest):
                    rests.append(item)
                    continue
                resolved = self.cond(item, classes)
                if isinstance(resolved, ir.Count | ir.AllOf | ir.AnyOf):
                    counted |= frozenset(resolved.cards)
                items.append(resolved)
            except _Unresolved:
                failed = True
        if failed:
            raise _Unresolved
        if groups:
            items.append(ir.Shape(groups=tuple(groups)))
        for r in rests:
            items.append(self.rest(r, counted, classes))
        return items[0] if len(items) == 1 else ir.And(items=tuple(items))

    def rest(self, c: ast.CRest, counted: frozenset[int], classes: ClassMap) -> ir.Condition:
        allowed: frozenset[int] = frozenset()
        for name in c.classes:
            allowed |= self.named(name, classes)
        others = frozenset(self.card_ids) - counted - allowed
        label = "rest " + ", ".join(n.text for n in c.classes)
        return ir.Count(cards=tuple(sorted(others)), op="=", n=0, label=label)

    def shape_group(self, c: ast.CShape) -> ir.ShapeGroup:
        months = tuple(sorted({self.month_number(m) for m in c.months}))
        per_month = max(
            (sum(1 for x in self.card_ids if x // 10 == m) for m in self.d.months), default=4
        )
        if not 1 <= c.size <= per_month:
            self.error(f"a month has at most {per_month} cards, not {c.size}", c.loc)
            raise _Unresolved
        if c.count < 1:
            self.error("a month shape needs at least one month", c.loc)
            raise _Unresolved
        return ir.ShapeGroup(size=c.size, count=c.count, months=months)

    # ------------------------------------------------------------ tables
    def table(self, t: TableDraft) -> ir.YakuTable:
        classes = self.view_classes(t.view)
        resolved: dict[str, ir.Yaku] = {}
        stack: list[str] = []
        for name in t.entries:
            self.entry(t, name, classes, resolved, stack)
        entries = tuple(resolved[n] for n in t.entries if n in resolved)
        exclusive = []
        for group in t.exclusive:
            kept = []
            for n in group:
                if n.text in t.removed:
                    continue
                if n.text not in t.entries:
                    self.error(
                        f"unknown {t.kind} '{n.text}'", n.loc, did_you_mean(n.text, t.entries)
                    )
                kept.append(n.text)
            if len(kept) > 1:
                exclusive.append(tuple(kept))
        return ir.YakuTable(
            policy=t.policy or ("best" if t.kind == "teyaku" else "all"),
            view=t.view.text if t.view else None,
            between_players=t.between,
            entries=entries,
            exclusive=tuple(exclusive),
        )

    def entry(
        self,
        t: TableDraft,
        name: str,
        classes: ClassMap,
        resolved: dict[str, ir.Yaku],
        stack: list[str],
    ) -> ir.Yaku | None:
        if name in resolved:
            return resolved[name]
        e: EntryDraft = t.entries[name]
        if name in stack:
            self.error(f"{t.kind} '{name}' is made of itself", e.name.loc)
            return None
        stack.append(name)
        try:
            return self._entry(t, e, classes, resolved, stack)
        except _Unresolved:
            return None
        finally:
            stack.pop()

    def _entry(
        self,
        t: TableDraft,
        e: EntryDraft,
        classes: ClassMap,
        resolved: dict[str, ir.Yaku],
        stack: list[str],
    ) -> ir.Yaku | None:
        parts: list[ir.Yaku] = []
        for p in e.parts:
            if p.text not in t.entries:
                self.error(f"unknown {t.kind} '{p.text}'", p.loc, did_you_mean(p.text, t.entries))
                raise _Unresolved
            part = self.entry(t, p.text, classes, resolved, stack)
            if part is None:
                raise _Unresolved
            parts.append(part)
        if e.cond is not None:
            condition = self.cond(e.cond, classes)
            text = e.cond_text or ""
        else:
            condition = ir.And(items=tuple(p.condition for p in parts))
            text = " + ".join(p.label for p in parts)
        value = e.value if e.value is not None else sum(p.value for p in parts)
        unless: tuple[str, ...] = ()
        bonus = None
        if "unless" in e.opts:
            opt = e.opts["unless"]
            for n in opt.names:
                if n.text not in t.entries and n.text not in t.removed:
                    self.error(
                        f"unknown {t.kind} '{n.text}'", n.loc, did_you_mean(n.text, t.entries)
                    )
            unless = tuple(n.text for n in opt.names if n.text in t.entries)
        if "bonus" in e.opts:
            bonus = self.bonus(e.opts["bonus"], condition)
        yaku = ir.Yaku(
            name=e.name.text,
            label=e.label or e.name.text.replace("_", " ").capitalize(),
            value=value,
            condition=condition,
            text=text,
            parts=tuple(p.name for p in parts),
            bonus=bonus,
            unless=unless,
            at_count="at_count" in e.opts,
            paid_to_dealer="paid_to_dealer" in e.opts,
            cancels="cancels" in e.opts,
            loc=_sloc(e.name.loc),
        )
        resolved[e.name.text] = yaku
        return yaku

    def bonus(self, opt: ast.EntryOpt, condition: ir.Condition) -> ir.Bonus | None:
        items = condition.items if isinstance(condition, ir.And) else (condition,)
        counts = [i for i in items if isinstance(i, ir.Count) and i.op == ">="]
        if len(counts) != 1:
            self.error(
                "'+N per extra' needs exactly one '>=' count in the condition to count extras from",
                opt.loc,
                "for example: plains >= 10; +1 per extra",
            )
            return None
        return ir.Bonus(amount=opt.amount, cards=counts[0].cards, over=counts[0].n)

    # ------------------------------------------------------------ multiplier
    def multiplier(self) -> ir.FieldMultiplier:
        tiers = []
        for factor in sorted(self.d.tiers, reverse=True):
            tier = self.d.tiers[factor]
            try:
                cards = self.union(tier.items, self.default)
            except _Unresolved:
                continue
            text = ", ".join(set_text(i) for i in tier.items)
            tiers.append(
                ir.Tier(
                    factor=factor, cards=tuple(sorted(cards)), carry_at=tier.carry_at, text=text
                )
            )
        per_card: tuple[int, ...] = ()
        step = 0
        if self.d.per_card is not None:
            try:
                per_card = tuple(sorted(self.union(self.d.per_card.items, self.default)))
                step = self.d.per_card.step
            except _Unresolved:
                pass
        return ir.FieldMultiplier(tiers=tuple(tiers), per_card=per_card, step=step)

    # ------------------------------------------------------------ round mechanics
    def play_locs(self) -> dict[str, Loc | None]:
        """Where the statements that decide whether a deal can be played are written: the
        places `checks.playable_checks` reports at."""
        locs: dict[str, Loc | None] = {}
        seats = self.d.mechanics.get("seats")
        if seats:
            locs["seats"] = (seats.get("max") or seats["min"]).loc
        if self.d.setup:
            locs["setup"] = self.d.setup[0].loc
        if self.d.void is not None:
            locs["void"] = self.d.void.loc
        for at, opts in self.d.deal_sizes.items():
            locs["deal" if at is None else f"deal@{at}"] = opts["hand"].loc
        return locs

    def options(self, kind: str) -> dict[str, Any]:
        """The options written for a mechanic (merged along `extends`), by name: the names are
        those of the IR model's fields, so what is not written takes the IR's default."""
        return {name: opt.value for name, opt in self.d.mechanics.get(kind, {}).items()}

    def mechanics(self, yaku: ir.YakuTable | None) -> dict[str, Any]:
        result: dict[str, Any] = {
            "seats": self.sit_out(self.seats()),
            "setup": self.setup(),
            "fold": self.fold(),
            "first_dealer": ir.FirstDealer(**self.options("first_dealer")),
            "continuation": self.continuation(),
            "count": ir.Settlement(**self.options("count")),
        }
        deal = self.deal()
        if deal:
            result["deal"] = deal
        rounds = self.d.mechanics.get("rounds", {}).get("rounds")
        if rounds is not None and rounds.value == 0:  # a number written is never negative
            self.error(
                "rounds 0: a game has at least one round", rounds.loc, "for example: rounds 12"
            )
        else:
            result["length"] = ir.Length(**self.options("rounds"))
        if "joker" in self.d.mechanics:
            result["joker"] = ir.Joker(**self.options("joker"))
            setup = result["setup"]
            if "joker" not in setup:
                result["setup"] = (
                    self._before(setup, "joker", "teyaku")
                    if "teyaku" in setup
                    else (*setup, "joker")
                )
        if "dealer_captures" in self.d.mechanics:
            result["dealer_captures"] = self.options("dealer_captures")["size"]
        if "hiki" in self.d.mechanics:
            result["hiki"] = self.options("hiki")["enabled"]
        if self.d.void is not None and self.d.void.cond is not None:
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                result["void_field"] = self.cond(self.d.void.cond, self.default)
                result["void_text"] = self.d.void.text
        if self.d.liable is not None:
            known = [e.name for e in yaku.entries] if yaku else []
            for n in self.d.liable.names:
                if n.text not in known:
                    self.error(f"unknown yaku '{n.text}'", n.loc, did_you_mean(n.text, known))
            result["liability"] = ir.Liability(
                yaku=tuple(n.text for n in self.d.liable.names),
                min_hand=self.d.liable.number("min_hand"),
            )
        if self.d.instant_win is not None and self.d.instant_win.cond is not None:
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                result["instant_win"] = ir.InstantWin(
                    value=self.d.instant_win.number("value"),
                    condition=self.cond(self.d.instant_win.cond, self.default),
                    text=self.d.instant_win.text,
                )
        if self.d.wild is not None:
            result["wild"] = self.wild(self.d.wild)
        result["teams"] = self.teams()
        return result

    def seats(self) -> ir.Seats:
        """A `seats` line is checked as written: it replaces the seats of the file extended."""
        opts = self.d.mechanics.get("seats")
        if opts is None:
            return ir.Seats()
        low = opts["min"].value
        high = opts["max"].value if "max" in opts else low
        active = opts["active"].value if "active" in opts else None
        assert isinstance(low, int) and isinstance(high, int)
        assert active is None or isinstance(active, int)
        text = f"seats {low}" + (f" to {high}" if "max" in opts else "")
        text += f", {active} play" if active is not None else ""
        example = "for example: seats 2, or seats 3 to 6, 3 play"
        if low < 2:
            self.error(f"{text}: a game needs at least 2 players", opts["min"].loc, example)
        elif high < low:
            self.error(
                f"{text}: {high} is fewer than {low}",
                opts["max"].loc,
                "the fewest players come first: seats 3 to 6",
            )
        elif active is not None and active < 2:
            self.error(f"{text}: a round needs at least 2 players", opts["active"].loc, example)
        elif active is not None and active > low:
            self.error(
                f"{text}: the players of a round must be seated, and a table may have only {low}",
                opts["active"].loc,
                example,
            )
        else:
            return ir.Seats(min=low, max=high, active=active)
        return ir.Seats()

    def deal(self) -> tuple[ir.DealSize, ...]:
        deal = []
        for at, opts in self.d.deal_sizes.items():
            if opts["hand"].value == 0:  # a number written is never negative
                self.error(
                    "deal 0 to each: every player is dealt at least one card",
                    opts["hand"].loc,
                    "for example: deal 7 to each, 6 to the field",
                )
                continue
            deal.append(ir.DealSize(seats=at, **{name: o.value for name, o in opts.items()}))
        return tuple(sorted(deal, key=lambda d: -1 if d.seats is None else d.seats))

    def setup(self) -> tuple[str, ...]:
        if self.d.setup is None:
            default: tuple[str, ...] = ir.Ruleset.model_fields["setup"].default
            return default
        steps = get_args(ir.SetupStep)
        names = [n.text for n in self.d.setup]
        for n in self.d.setup:
            if n.text not in steps:
                self.error(
                    f"unknown setup step '{n.text}'",
                    n.loc,
                    did_you_mean(n.text, steps) or f"steps: {', '.join(steps)}",
                )
        if len(set(names)) != len(names) or names[:1] != ["hands"] or "field" not in names:
            self.error(
                "setup starts with 'hands', lays the 'field' once, and names each step once",
                self.d.setup[0].loc,
                "for example: setup: hands, field, fold, teyaku",
            )
        return tuple(names)

    def continuation(self) -> ir.Continuation:
        opts = self.options("continuation")
        if "beaten" in opts:  # the whole `if beaten` clause, replaced as one option
            beaten = str(opts.pop("beaten")).split(",")
            opts["refund_half"] = "refund_half" in beaten
            opts["pay_for_all"] = "pay_for_all" in beaten
            opts["beaten_forfeit"] = "forfeit" in beaten
        return ir.Continuation(**self.paid_in_play(opts))

    def paid_in_play(self, opts: dict[str, Any]) -> dict[str, Any]:
        """`yaku do not end the round` scores them at the count (Sakura) unless `paid when
        made` is written: then each is paid as made and the round plays on. `paid at the count`
        says the default; it needs a round that yaku do not end."""
        if opts.get("ends_round", True):
            if opts.get("paid") == "count":
                self.error(
                    "'paid at the count': the yaku of this variant end the round",
                    self.d.mechanics["continuation"]["paid"].loc,
                    "write it with 'yaku do not end the round'; a yaku that ends the round is"
                    " 'paid when made' or 'paid when stopping'",
                )
                opts.pop("paid")
            return opts
        paid = opts.pop("paid", "count")
        if paid == "stop":
            self.error(
                "'paid when stopping': nobody stops when yaku do not end the round",
                self.d.mechanics["continuation"]["paid"].loc,
                "write 'paid when made' (paid as made, the round plays on) or 'paid at the count'",
            )
        return {**opts, "paid_in_play": paid == "made"}

    def sit_out(self, seats: ir.Seats) -> ir.Seats:
        """`sit out: ...`: who sits a round out when more are seated than play. A rotating
        sit-out needs a table where someone sits out."""
        opt = self.d.mechanics.get("sit_out", {}).get("sit_out")
        if opt is None or opt.value == "fold":
            return seats
        if seats.active is None or seats.active >= seats.max:
            self.error(
                f"nobody sits out: at seats {seats.min}"
                + (f" to {seats.max}" if seats.max != seats.min else "")
                + " everyone seated plays",
                opt.loc,
                "seat more than play: seats 4, 3 play",
            )
            return seats
        return seats.model_copy(update={"sit_out": opt.value})

    def fold(self) -> ir.Fold:
        """The fold phase; a declaration before the deal needs players who choose to fold."""
        opts = self.options("fold")
        sit_out = self.d.mechanics.get("sit_out", {}).get("sit_out")
        if opts.get("before_deal") and sit_out is not None and sit_out.value != "fold":
            self.error(
                "'before the deal': nobody chooses to fold when the players sit out in turn",
                self.d.mechanics["fold"]["before_deal"].loc,
                "drop 'before the deal', or write 'sit out: by folding'",
            )
            opts.pop("before_deal")
        return ir.Fold(**opts)

    def wild(self, stmt: ast.Mechanic) -> ir.WildCard | None:
        try:
            cards = self.union(stmt.cards, self.default)
        except _Unresolved:
            return None  # the unknown name is reported already
        if len(cards) != 1:
            self.error("a wild card is one card", stmt.loc, "for example: wild lightning: ...")
            return None
        flags = {o.kind for o in stmt.opts}
        return ir.WildCard(
            card=next(iter(cards)),
            any_target="any_target" in flags,
            collects_month="collects_month" in flags,
            respects_hiki="respects_hiki" in flags,
            lay_when_blocked="lay_when_blocked" in flags,
        )

    def teams(self) -> tuple[ir.Teams, ...]:
        teams = []
        for at, stmt in sorted(self.d.teams.items()):
            size = stmt.number("size")
            if at % size or at // size < 2:
                self.error(f"{at} players cannot make teams of {size}", stmt.loc)
            else:
                teams.append(ir.Teams(seats=at, size=size))
        return tuple(teams)

    @staticmethod
    def _before(steps: tuple[str, ...], step: str, anchor: str) -> tuple[str, ...]:
        i = steps.index(anchor)
        return (*steps[:i], step, *steps[i:])
