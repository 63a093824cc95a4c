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
from rulekit.lang.choice import CARD_ONLY, extra_cards, weigh
from rulekit.lang.draft import Draft, EntryDraft, TableDraft

# A view maps each card id to the classes it counts in.
ClassMap = dict[int, tuple[str, ...]]


def _sloc(loc: Loc) -> ir.SourceLoc:
    return ir.SourceLoc(file=loc.file, line=loc.line, col=loc.col, width=loc.width)


MAX_ROUND_KEYS = 4  # `count: round wins by ...`: the criteria (the kernel's MAX_KEYS)


def _key_number(name: str) -> int:
    """`round_by#2` -> 2: the criteria in the order written."""
    return int(name.partition("#")[2])


def _plural_stem(word: str) -> str | None:
    if word.endswith("es") and len(word) > 3:
        return word[:-2]
    if word.endswith("s") and len(word) > 2:
        return word[:-1]
    return None


# Where each condition that sees the round, or other players' piles, or what was dealt, may be
# written, and what it is called in errors. yaku: tested for a player as he plays; yaku at
# count: an entry decided when the hands are counted (`; at count`); teyaku, instant win: on a
# dealt hand; void, tier: on the field at the deal; scoring: a scoring step, tested for a
# payment's payee; inside `the field had ...` (the field's cards, and the round's month) and
# inside `everyone has ...` (every player's pile alike: nothing about one player). Card atoms
# (`all of`, counts, shapes, `points`...) may be written anywhere. tests/test_condition_matrix.py
# holds every atom in every place to this table: refused here, or played.
_WHERE = {
    "yaku": "a yaku condition",
    "yaku at count": "a yaku decided at the count",
    "teyaku": "a teyaku condition",
    "instant win": "an instant win",
    "void": "a void rule",
    "void hand": "a hand's void rule",
    "draw": "a draw at the count",
    "tier": "a multiplier tier",
    "scoring": "a scoring step",
    "choice": "a condition on a choice",
    "join or fold": "a condition on joining or folding",
    "swap": "a condition on the swap",
    "hiki": "a condition on a hiki",
    "declaration": "a condition on a declaration",
    "declaration seen": "a condition on a declaration made with the hand seen",
    "compensation": "a condition on a folder's compensation",
    "the field had": "'the field had ...'",
    "the payer has": "'the payer has ...'",
    "everyone has": "'everyone has ...'",
}
_EVERYWHERE = (
    "yaku", "yaku at count", "teyaku", "instant win", "void", "void hand", "tier", "scoring",
    "choice", "join or fold", "swap", "hiki", "declaration", "declaration seen", "compensation",
    "draw",
)  # fmt: skip
# a player is tested
_PLAYERS = (
    "yaku", "yaku at count", "teyaku", "instant win", "void hand", "scoring", "choice",
    "join or fold", "swap", "hiki", "declaration", "declaration seen", "compensation", "draw",
)  # fmt: skip
# places whose player has seen no card of his: a test of his cards means nothing there (why)
_UNSEEN = {
    "swap": "he is asked before he looks at his hand",
    # (a declaration after seeing the hand is "declaration seen": his hand is tested)
    "declaration": "a declaration before the deal is made with the hand unseen",
}
_PILES = ("yaku at count", "scoring", "draw")  # every player's pile, or his dealt hand, is known
ATOM_PLACES: dict[type, tuple[str, tuple[str, ...]]] = {
    ast.CRound: ("round", (*_EVERYWHERE, "everyone has")),
    ast.CRoundMonth: ("round month", (*_EVERYWHERE, "the field had", "everyone has")),
    ast.CDealer: ("dealer", _PLAYERS),
    ast.CSeat: ("second", _PLAYERS),  # (`third` alike: ATOM_WORDS)
    ast.CContinued: ("continued", ("yaku", "yaku at count", "scoring", "choice", "draw")),
    ast.CScore: ("score", ("scoring", "choice")),
    ast.CFieldHad: ("the field had", (*_EVERYWHERE, "everyone has")),
    ast.CPayerHas: ("the payer has", ("scoring",)),
    ast.CNobodyWon: ("nobody won", ("scoring", "everyone has")),
    ast.CDrawnBefore: ("after a drawn round", ("scoring", "everyone has")),
    ast.CDeclared: ("declared", ("yaku", "yaku at count", "scoring", "choice", "draw")),
    ast.CEveryone: ("everyone has", (*_PILES, "everyone has")),
    ast.CDealt: ("dealt", _PILES),
}
# ir.SeatFromDealer.place -> its word in the language
SEAT_WORDS = {2: "second", 3: "third"}
# why an atom cannot be written in a place, where a word helps (the hint, before the places)
_WHY_NOT = {
    (ast.CEveryone, "yaku"): "every player's pile is compared when the hands are counted: add"
    " '; at count' to the entry",
    (ast.CDealt, "yaku"): "what a player was dealt is asked when the hands are counted: add"
    " '; at count' to the entry",
    (ast.CDealt, "teyaku"): "a teyaku cannot ask which teyaku was dealt",
    (ast.CDealer, "everyone has"): "'everyone has ...' tests every player's pile alike",
    (ast.CSeat, "everyone has"): "'everyone has ...' tests every player's pile alike",
    (ast.CContinued, "everyone has"): "'everyone has ...' tests every player's pile alike",
    (ast.CDealt, "everyone has"): "'everyone has ...' tests every player's pile alike",
}


def _named_cards(c: ir.Condition) -> set[int]:
    """The cards a condition names (a tier's carry counts them on the field)."""
    if isinstance(c, ir.AllOf | ir.AnyOf | ir.Count):
        return set(c.cards)
    if isinstance(c, ir.And | ir.Or):
        return set().union(*(_named_cards(i) for i in c.items))
    if isinstance(c, ir.Not | ir.Everyone | ir.OnField):
        return _named_cards(c.item)
    return set()


def _placed_atoms(c: ast.Cond, places: tuple[str, ...]) -> list[tuple[ast.Cond, tuple[str, ...]]]:
    """The atoms of `c` that may not be written everywhere, each with every place it must be
    allowed in: the statement's own, then `everyone has ...` for what is inside one; inside
    `the field had ...`, only that (it tests the field, whatever the statement's place)."""
    out: list[tuple[ast.Cond, tuple[str, ...]]] = []
    if type(c) in ATOM_PLACES:
        out.append((c, places))
    if isinstance(c, ast.CAnd | ast.COr):
        for i in c.items:
            out += _placed_atoms(i, places)
    elif isinstance(c, ast.CNot):
        out += _placed_atoms(c.item, places)
    elif isinstance(c, ast.CEveryone):
        out += _placed_atoms(c.item, (*places, "everyone has"))
    elif isinstance(c, ast.CFieldHad):
        out += _placed_atoms(c.item, ("the field had",))
    elif isinstance(c, ast.CPayerHas):  # (his cards only: no atom of the round inside)
        out += _placed_atoms(c.item, ("the payer has",))
    return out


def _either(words: list[str]) -> str:
    """`a, b or c`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _card_atoms(c: ast.Cond) -> list[ast.Cond]:
    """The atoms of `c` that test the player's own cards (not those inside `the field had`,
    which test the field, nor the round's atoms but the round month's, a test of his cards)."""
    if isinstance(c, ast.CAnd | ast.COr):
        return [a for i in c.items for a in _card_atoms(i)]
    if isinstance(c, ast.CNot):
        return _card_atoms(c.item)
    if isinstance(c, ast.CFieldHad | ast.CEveryone | ast.CPayerHas):
        return []  # (the field's cards; every pile; the payer's: refused by the places already)
    if type(c) in ATOM_PLACES and not isinstance(c, ast.CRoundMonth):
        return []
    return [c]


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
        self.wins_round_locs: list[Loc] = []  # the yaku written `; wins the round`
        self.declared_read = False  # a condition reads the declaration (`declared NAME`)
        # the owner's choice: its cards; while its second reading is resolved, their weights
        # and the counts they weigh in (lang/choice.py)
        self.choice_cards: frozenset[int] = frozenset()
        self.weights: dict[int, int] = {}
        self.second_class = ""
        self._weighted: dict[ir.Count, frozenset[int]] = {}
        # `without`: the cards left out (where), and the names of cards and months that left
        self.left_out: dict[int, Loc] = {}
        self.left_out_names: dict[str, Loc] = {}
        self.own_points: dict[int, int] = {}  # `points moon 25`
        # `treat lightning as 2 plains`: the weights of such cards, always in force
        self.fixed_weights: dict[int, int] = {}
        self.weighted_ir: list[ir.Weighted] = []

    def error(self, message: str, loc: Loc | None, hint: str | None = None) -> None:
        if loc is None and self.d.files:  # a whole-file problem: point at the file
            loc = Loc(self.d.files[-1], 1, 1)
        if any(e.message == message and e.loc == loc for e in self.errors):
            return  # a value read twice (a game's start, checked against its target)
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
        owners_choice = self.owners_choice(yaku)
        if owners_choice is not None:
            mechanics["owners_choice"] = owners_choice
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
            left_out=tuple(sorted(self.left_out)),
            weighted=tuple(self.weighted_ir),
            own_points=self.own_points,
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
            if card_id in d.bonus:  # a bonus card: no month; its class may be a plural
                self.default[card_id] = (self.choice_class(c.cls) or self.classes[0],)
                if card_id // 10 in d.months or card_id <= 0:
                    last = max(d.months, default=0)
                    self.error(
                        f"a bonus card's id is past the months' cards, not {card_id}",
                        c.loc,
                        f'for example: card {10 * last + 10} extra "Extra" bonus as 2 plains',
                    )
                continue
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
        self.leave_out()
        months = [m for m in months if any(c // 10 == m.number for c in self.card_ids)]
        self.declared = dict(self.default)
        for reclass in d.treats:
            self.apply_reclass(self.default, reclass)
        self.weigh_cards()
        self.first_reading()
        cards = tuple(
            ir.Card(
                id=cid,
                name=d.cards[cid].name.text,
                label=d.cards[cid].label,
                month=0 if cid in d.bonus else cid // 10,
                rank=cid % 10,
                classes=self.default[cid],
                tags=tuple(t.text for t in d.cards[cid].tags),
            )
            for cid in self.card_ids
        )
        return ir.Deck(
            bonus=tuple(c for c in self.card_ids if c in d.bonus),
            name=d.deck_name or "",
            classes=tuple(self.classes),
            tags=tuple(sorted(self.tags)),
            months=tuple(months),
            cards=cards,
        )

    def leave_out(self) -> None:
        """`without`: the cards named leave the deck, and a month with none left leaves it too;
        a name of what left is an error that says so wherever it is used."""
        out: dict[int, Loc] = {}
        for s in self.d.without:
            with contextlib.suppress(_Unresolved):
                for cid in self.union(s.items, self.default):
                    out.setdefault(cid, s.loc)
        if out and len(out) == len(self.card_ids):
            self.error("'without' leaves no card in the deck", self.d.without[-1].loc)
            return
        self.left_out = out
        self.card_ids = [c for c in self.card_ids if c not in out]
        for cid in out:
            del self.by_name[self.d.cards[cid].name.text]
            del self.default[cid]
        for number in {c // 10 for c in out} - {c // 10 for c in self.card_ids}:
            for name in [n for n, m in self.month_names.items() if m == number]:
                del self.month_names[name]
                self.left_out_names[name] = out[min(c for c in out if c // 10 == number)]
        for cid, loc in out.items():
            self.left_out_names[self.d.cards[cid].name.text] = loc

    def left_out_error(self, what: str, loc: Loc, where: Loc) -> None:
        self.error(
            f"{what} is left out of this deck",
            loc,
            f"'without' at {where} leaves it out: remove what names it (`remove NAME`),"
            " or keep the card",
        )

    def weigh_cards(self) -> None:
        """`treat lightning as 2 plains`: the cards are of that class, and each weighs as many
        cards of it in every count of the class (lang/choice.weigh rewrites the counts)."""
        for s in self.d.weighted:
            if isinstance(s.expr, ast.SCard) and s.expr.id in self.left_out:
                continue  # (a bonus card's own weight, `bonus as 3 plains`, leaves with it)
            cls = self.choice_class(s.cls)
            try:
                cards = self.cards_of(s.expr, self.default)
            except _Unresolved:
                continue
            if cls is None:
                continue
            if not 1 <= s.weight <= 4:
                self.error(
                    f"a card counts as 1 to 4 {s.cls.text}, not {s.weight}",
                    s.loc,
                    "for example: treat lightning as 2 plains",
                )
                continue
            for cid in cards:
                self.default[cid] = (cls,)
                self.fixed_weights[cid] = s.weight
            text = f"{ast.set_text(s.expr)} as {s.weight} {s.cls.text}"
            self.weighted_ir.append(
                ir.Weighted(cards=tuple(sorted(cards)), cls=cls, weight=s.weight, text=text)
            )
        self.weights = dict(self.fixed_weights)

    def top_cond(self, c: ast.Cond, classes: ClassMap) -> ir.Condition:
        """A whole condition, its counts weighed where a card counts as more than one."""
        cond = self.cond(c, classes)
        return weigh(cond, self._weighted, self.weights) if self.weights else cond

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
        text = (
            f"{ast.set_text(reclass.expr)} {'also ' if reclass.also else ''}as {reclass.cls.text}"
        )
        return ir.Reclass(cards=tuple(sorted(cards)), mode=mode, cls=reclass.cls.text, text=text)

    # ------------------------------------------------------------ the owner's choice
    def choice_class(self, name: ast.Name) -> str | None:
        """The class a choice names (`animal`, `plains`), or None (reported)."""
        for cls in (name.text, _plural_stem(name.text)):
            if cls is not None and cls in self.classes:
                return cls
        self.error(f"unknown class '{name.text}'", name.loc, did_you_mean(name.text, self.classes))
        return None

    def first_reading(self) -> None:
        """The choice's cards count as its first class wherever no owner chooses (teyaku,
        views, card points), whatever earlier `treat` statements made of them."""
        if not self.d.choices:
            return
        s = self.d.choices[0]
        first = self.choice_class(s.first)
        try:
            cards = self.cards_of(s.expr, self.default)
        except _Unresolved:
            return
        if not cards:
            self.error(f"'{ast.set_text(s.expr)}' holds no card to choose for", s.loc)
            return
        self.choice_cards = cards
        if first is not None:
            for cid in cards:
                self.default[cid] = (first,)

    def owners_choice(self, yaku: ir.YakuTable | None) -> ir.OwnersChoice | None:
        """The choice's IR: its classes checked, and the yaku table read the second way."""
        if not self.d.choices:
            return None
        s = self.d.choices[0]
        for other in self.d.choices[1:]:
            self.error(
                "a second owner's choice: a rule set has at most one",
                other.loc,
                f"the first is at {s.loc.file}:{s.loc.line}",
            )
        first, second = self.choice_class(s.first), self.choice_class(s.second)
        if first is None or second is None or not self.choice_cards:
            return None
        example = "for example: treat sake as animal or 2 plains, owner's choice"
        if first == second:
            self.error(f"a choice between '{first}' and itself", s.second.loc, example)
            return None
        if not 1 <= s.weight <= 4:
            self.error(f"a card counts as 1 to 4 {s.second.text}, not {s.weight}", s.loc, example)
            return None
        if yaku is None or "yaku" not in self.d.tables:
            self.error("an owner's choice counts in yaku, and this rule set has none", s.loc)
            return None
        for e in yaku.entries:
            seen = [p for p in ir.parts_of(e.condition) if not isinstance(p, CARD_ONLY)]
            if seen:
                self.error(
                    f"yaku '{e.name}' reads the round, not only the cards: an owner's choice"
                    " needs yaku that read only the captured cards",
                    s.loc,
                    "its reading is the one his cards are worth more in",
                )
                return None
        both = self.choice_cards & self.fixed_weights.keys()
        if both:
            self.error(
                f"card {min(both)} counts as {self.fixed_weights[min(both)]} already:"
                " an owner's choice names cards of no 'treat ... as N' statement",
                s.loc,
            )
            return None
        self.weights = {**self.fixed_weights, **{c: s.weight for c in self.choice_cards}}
        self.second_class = second
        try:
            table = self.table(self.d.tables["yaku"])
            classes = dict(self.default)
            for cid in self.choice_cards:
                classes[cid] = (second,)
            steps = tuple(c for _, c in self.step_conditions(classes))
        finally:
            self.weights, self.second_class = dict(self.fixed_weights), ""
        text = f"{ast.set_text(s.expr)} as {s.first.text} or {s.weight} {s.second.text}"
        return ir.OwnersChoice(
            cards=tuple(sorted(self.choice_cards)),
            first=first,
            second=second,
            weight=s.weight,
            text=text + ", owner's choice",
            yaku=table,
            steps=steps,
        )

    def weighed(self, count: ir.Count, items: Iterable[ast.SetExpr], classes: ClassMap) -> ir.Count:
        """Notes the choice's cards that a count (read the second way) holds by their class,
        not by name: they weigh in it (lang/choice.weigh)."""
        heavy = frozenset(count.cards) & self.weights.keys()
        if not heavy:
            return count
        bare = dict(classes)
        for cid in heavy:
            bare[cid] = ()
        with contextlib.suppress(_Unresolved):
            by_class = heavy - self.union(items, bare)
            if by_class:
                self._weighted[count] = by_class
        return count

    def points(self) -> dict[str, int]:
        """Points by class; a card named (`points moon 25`) has points of its own instead."""
        result: dict[str, int] = {}
        for name, value in self.d.points.values():
            if name.text in self.by_name and name.text not in self.classes:
                self.own_points[self.by_name[name.text]] = value
                continue
            if name.text in self.left_out_names:
                self.left_out_error(f"'{name.text}'", name.loc, self.left_out_names[name.text])
                continue
            if name.text not in self.classes:
                self.error(
                    f"unknown class or card '{name.text}'",
                    name.loc,
                    did_you_mean(name.text, [*self.classes, *self.by_name]),
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
            if expr.id in self.left_out:
                self.left_out_error(f"card {expr.id}", expr.loc, self.left_out[expr.id])
                raise _Unresolved
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
        if word in self.left_out_names:
            self.left_out_error(f"'{word}'", name.loc, self.left_out_names[word])
            raise _Unresolved
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
            gone = [c for c in self.left_out if c // 10 == number]
            if gone and not any(c // 10 == number for c in self.card_ids):
                self.left_out_error(f"month {number}", ref.loc, self.left_out[gone[0]])
                raise _Unresolved
            return number
        if ref.text in self.month_names:
            return self.month_names[ref.text]
        if ref.text in self.left_out_names:
            self.left_out_error(f"'{ref.text}'", ref.loc, self.left_out_names[ref.text])
            raise _Unresolved
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
            label = ", ".join(ast.set_text(i) for i in c.items)
            none = ir.Count(
                cards=tuple(sorted(self.union(c.items, classes))), op="=", n=0, label=label
            )
            return self.weighed(none, c.items, classes) if self.weights else none
        if isinstance(c, ast.CAtLeast):
            label = ", ".join(ast.set_text(i) for i in c.items)
            cards = self.union(c.items, classes)
            least = ir.Count(cards=tuple(sorted(cards)), op=">=", n=c.n, label=label)
            return self.weighed(least, c.items, classes) if self.weights else least
        if isinstance(c, ast.CCompare):
            cards = self.cards_of(c.expr, classes)
            label = ast.set_text(c.expr)
            count = ir.Count(cards=tuple(sorted(cards)), op=c.op, n=c.n, label=label)
            return self.weighed(count, (c.expr,), classes) if self.weights else count
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
        return self.round_cond(c, classes)

    # ------------------------------------------------------------ conditions that see the round
    def round_cond(self, c: ast.Cond, classes: ClassMap) -> ir.Condition:
        """A condition that sees the round, with its numbers checked."""
        if isinstance(c, ast.CRound):
            if c.n < 1 or (c.op == "<" and c.n == 1):
                self.error(
                    f"round {c.op} {c.n} never holds: the first round of a game is round 1",
                    c.loc,
                    "for example: round >= 6, or round = 12",
                )
                raise _Unresolved
            return ir.RoundCmp(op=c.op, n=c.n)
        if isinstance(c, ast.CRoundMonth):
            size = self.month_size()
            if c.all:
                return ir.RoundMonth(op="=", n=size, all=True)
            if not 1 <= c.n <= size:
                self.error(
                    f"{c.n} of round month: a month has 1 to {size} cards",
                    c.loc,
                    "for example: 3 of round month, or all of round month",
                )
                raise _Unresolved
            return ir.RoundMonth(op=">=", n=c.n)
        if isinstance(c, ast.CDealer):
            return ir.IsDealer()
        if isinstance(c, ast.CSeat):
            return ir.SeatFromDealer(place=c.place)
        if isinstance(c, ast.CContinued):
            if c.n < 1:
                self.error(
                    "'continued 0 or more times' always holds",
                    c.loc,
                    "for example: continued, or continued 2 or more times",
                )
                raise _Unresolved
            return ir.Continued(who=c.who, op=">=", n=c.n)
        if isinstance(c, ast.CScore):
            return ir.ScoreCmp(op=c.op, n=c.n)
        if isinstance(c, ast.CFieldHad):  # (what it may hold: usable)
            return ir.OnField(item=self.cond(c.item, classes))
        if isinstance(c, ast.CPayerHas):  # (what it may hold: usable)
            return ir.PayerHas(item=self.cond(c.item, classes))
        if isinstance(c, ast.CNobodyWon):
            return ir.NobodyWon()
        if isinstance(c, ast.CDrawnBefore):
            if c.n < 1:
                self.error(
                    "'after 0 drawn rounds' always holds",
                    c.loc,
                    "for example: after a drawn round, or after 2 drawn rounds",
                )
                raise _Unresolved
            return ir.DrawnBefore(n=c.n)
        if isinstance(c, ast.CDeclared):
            return self.declared_atom(c)
        raise AssertionError(f"unhandled condition {c!r}")

    def declared_atom(self, c: ast.CDeclared) -> ir.Declared:
        """`declared NAME`: the file's declaration, by its name (the declaration is then a
        stake of its own: the conditions that read it)."""
        written = self.d.mechanics.get("declare", {}).get("name")
        name = None if written is None else str(written.value)
        if name is None:
            self.error(
                f"'declared {c.name}': this variant has no declaration",
                c.loc,
                f'declare it first: declare {c.name} "Label": by the dealer; before the deal',
            )
            raise _Unresolved
        self.declared_read = True  # (a misspelt name is the error, not the declaration)
        if c.name != name:
            self.error(
                f"'declared {c.name}': this variant's declaration is '{name}'",
                c.loc,
                did_you_mean(c.name, [name]) or f"declared {name}",
            )
            raise _Unresolved
        return ir.Declared(name=name)

    def month_size(self) -> int:
        return max(
            (sum(1 for x in self.card_ids if x // 10 == m) for m in self.d.months), default=4
        )

    def usable(self, c: ast.Cond, where: str) -> bool:
        """Report each atom written where it means nothing (`score` in a teyaku, `dealer` in a
        void rule, `everyone has` in a yaku made in play): a located error that says where it
        may be used."""
        ok = True
        for item, places in _placed_atoms(c, (where,)):
            word, allowed = ATOM_PLACES[type(item)]
            if isinstance(item, ast.CDealt) and item.captured:
                word = "captured dealt"
            if isinstance(item, ast.CSeat):
                word = SEAT_WORDS[item.place]
            for place in places:
                if place in allowed:
                    continue
                ok = False
                hint = f"'{word}' may be used in " + _either(
                    [_WHERE[p] for p in allowed if p != "everyone has"]
                )
                why = _WHY_NOT.get((type(item), place))
                self.error(
                    f"'{word}' cannot be used in {_WHERE[place]}",
                    item.loc,
                    f"{why}; {hint}" if why else hint,
                )
                break
        if where in _UNSEEN:
            for item in _card_atoms(c)[:1]:
                ok = False
                self.error(
                    f"a test of his cards cannot be used in {_WHERE[where]}",
                    getattr(item, "loc", None),
                    f"{_UNSEEN[where]}: test the round instead (round >= 2, dealer)",
                )
        return ok

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
        if self.second_class:  # the owner's choice, read the second way
            classes = dict(classes)
            for cid in self.weights:
                classes[cid] = (self.second_class,)
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
            split=t.split,
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
            place = "yaku at count" if t.kind == "yaku" and "at_count" in e.opts else t.kind
            if not self.usable(e.cond, place):
                raise _Unresolved
        else:
            condition = ir.And(items=tuple(p.condition for p in parts))
            text = " + ".join(p.label for p in parts)
        value = (
            self.amount(e.value, e.value_file, e.name.loc)
            if e.value is not None
            else sum(p.value for p in parts)
        )
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
        if self.weights:  # the owner's choice read the second way: its cards weigh
            condition = weigh(condition, self._weighted, self.weights)
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
            cancels_yaku=self.cancels_yaku(t, e),
            wins_round=self.wins_round(t, e),
            shown=self.shown(t, e),
            flat=bool(e.opts["flat"].amount) if "flat" in e.opts else False,
            loc=_sloc(e.name.loc),
        )
        resolved[e.name.text] = yaku
        return yaku

    def cancels_yaku(self, t: TableDraft, e: EntryDraft) -> str:
        """`; cancels every yaku` / `; cancels the yaku of the others`: an option of a yaku
        decided at the count (Hana-Awase's Willow Row)."""
        written = [e.opts[k] for k in ("cancels_every_yaku", "cancels_others_yaku") if k in e.opts]
        if not written:
            return "none"
        opt = written[-1]
        if len(written) > 1:
            self.error("'cancels every yaku' contradicts 'cancels the yaku of the others'", opt.loc)
        if t.kind != "yaku" or "at_count" not in e.opts:
            self.error(
                "a yaku that cancels yaku is decided at the count: add '; at count'",
                opt.loc,
                'for example: willow_row "Willow Row" 10: all of willow; at count; cancels'
                " every yaku",
            )
            return "none"
        return "all" if opt.kind == "cancels_every_yaku" else "others"

    def wins_round(self, t: TableDraft, e: EntryDraft) -> bool:
        """`; wins the round`: a yaku made in play (checked against the continue statement
        with the whole file: check_wins_round)."""
        opt = e.opts.get("wins_round")
        if opt is None:
            return False
        if t.kind != "yaku" or "at_count" in e.opts:
            self.error(
                "'wins the round' is an option of a yaku made in play, not of one decided at"
                f" the count{' or of a teyaku' if t.kind != 'yaku' else ''}",
                opt.loc,
                "drop '; at count', or use an instant win for a dealt hand",
            )
            return False
        if opt.loc not in self.wins_round_locs:  # (the owner's choice reads the table twice)
            self.wins_round_locs.append(opt.loc)
        return True

    def shown(self, t: TableDraft, e: EntryDraft) -> bool:
        """`; shown: the others may capture its cards`: an option of a teyaku (a dealt hand
        shown at the deal), not of a yaku."""
        opt = e.opts.get("shown_entry")
        if opt is None:
            return False
        if t.kind != "teyaku":
            self.error(
                "'shown: the others may capture its cards' is an option of a teyaku (a dealt"
                " hand), not of a yaku",
                opt.loc,
                'write it in the teyaku table: six_chaff "Six Chaff" 20: plains = 6; shown: the'
                " others may capture its cards",
            )
            return False
        return True

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
        amount = self.amount(opt.amount, opt.loc.file, opt.loc)
        heavy = self._weighted.get(counts[0], frozenset()) if self.weights else frozenset()
        extra = extra_cards(heavy, self.weights)
        return ir.Bonus(amount=amount, cards=counts[0].cards, over=counts[0].n, extra=extra)

    # ------------------------------------------------------------ multiplier
    def multiplier(self) -> ir.FieldMultiplier:
        tiers = []
        for factor in sorted(self.d.tiers, reverse=True):
            tier = self.d.tiers[factor]
            if tier.cond is not None:
                resolved = self.condition_tier(tier)
                if resolved is not None:
                    tiers.append(resolved)
                continue
            try:
                cards = self.union(tier.items, self.default)
            except _Unresolved:
                continue
            text = ", ".join(ast.set_text(i) for i in tier.items)
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

    def condition_tier(self, tier: ast.Tier) -> ir.Tier | None:
        """`x4 if all of rainman, phoenix`: any condition on the field at the deal; its carry
        counts the cards the condition names."""
        assert tier.cond is not None
        try:
            if not self.usable(tier.cond, "tier"):
                return None
            condition = self.top_cond(tier.cond, self.default)
        except _Unresolved:
            return None
        cards = tuple(sorted(_named_cards(condition)))
        if tier.carry_at is not None and not cards:
            self.error(
                f"tier x{tier.factor}: 'carry if {tier.carry_at} or more' counts the cards the"
                " tier names, and it names none",
                tier.loc,
                "name the cards: x4 if all of rainman, phoenix; carry if 2 or more",
            )
            return None
        return ir.Tier(
            factor=tier.factor,
            cards=cards,
            carry_at=tier.carry_at,
            condition=condition,
            text=tier.text,
        )

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
        if self.d.void_hand is not None:
            locs["void hand"] = self.d.void_hand.loc
        if self.d.draw_at_count is not None:
            locs["draw"] = self.d.draw_at_count.loc
        for at, opts in self.d.deal_sizes.items():
            locs["deal" if at is None else f"deal@{at}"] = opts["hand"].loc
        for at, stmt in self.d.teams.items():
            locs[f"teams@{at}"] = stmt.loc
        return locs

    def options(self, kind: str) -> dict[str, Any]:
        """The options written for a mechanic (merged along `extends`), by name: the names are
        those of the IR model's fields, so what is not written takes the IR's default."""
        return {
            name: self.in_unit(opt.value) if isinstance(opt.value, ast.Amount) else opt.value
            for name, opt in self.d.mechanics.get(kind, {}).items()
        }

    def in_unit(self, value: ast.Amount) -> int:
        """A value written with the unit (`start at -5 kan`): always in the unit in force,
        whichever value it is (a par, a target, a start, a fee)."""
        return self.amount(value, value.loc.file, value.loc)

    def mechanics(self, yaku: ir.YakuTable | None) -> dict[str, Any]:
        result: dict[str, Any] = {
            "seats": self.sit_out(self.seats()),
            "setup": self.setup(),
            "fold": self.fold(),
            "first_dealer": ir.FirstDealer(**self.options("first_dealer")),
            "continuation": self.continuation(),
            "count": self.count(),
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
            result["length"] = ir.Length(**self.options("rounds"), tie_break=self.tie_break())
        if "joker" in self.d.mechanics:
            result["joker"] = ir.Joker(**self.options("joker"))
            setup = result["setup"]
            if "joker" not in setup:  # before the hands are read (teyaku, instant wins)
                readers = [s for s in ("teyaku", "instant_win") if s in setup]
                first = min(readers, key=setup.index) if readers else None
                result["setup"] = (
                    self._before(setup, "joker", first) if first else (*setup, "joker")
                )
        if self.d.bonus and "bonus" not in result["setup"]:  # bonus cards: once the field is out
            setup = result["setup"]
            readers = [s for s in ("teyaku", "instant_win") if s in setup]
            if "field" in setup:
                i = setup.index("field") + 1
                result["setup"] = (*setup[:i], "bonus", *setup[i:])
            elif readers:
                result["setup"] = self._before(setup, "bonus", min(readers, key=setup.index))
            else:
                result["setup"] = (*setup, "bonus")
        if "dealer_captures" in self.d.mechanics:
            result["dealer_captures"] = self.options("dealer_captures")["size"]
        if "dealer_claim" in self.d.mechanics:
            claim = self.dealer_claim(result["seats"])
            if claim is not None:
                result["dealer_claim"] = claim
        if "stock" in self.d.mechanics:
            result["play_out_stock"] = self.options("stock")["played_out"]
        if "still_draws" in self.d.mechanics:
            result["still_draws"] = self.options("still_draws")["still_draws"]
        if "instant_all" in self.d.mechanics:
            result["instant_all"] = self.options("instant_all")["instant_all"]
        if "hiki" in self.d.mechanics:
            result["hiki"] = self.options("hiki")["enabled"]
        for kind in ("hiki_offer", "swap_offer"):
            if kind in self.d.mechanics:
                self.offered_step(kind, result)
        if self.d.void is not None and self.d.void.cond is not None:
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                self.usable(self.d.void.cond, "void")
                result["void_field"] = self.top_cond(self.d.void.cond, self.default)
                result["void_text"] = self.d.void.text
        if self.d.void_hand is not None and self.d.void_hand.cond is not None:
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                self.usable(self.d.void_hand.cond, "void hand")
                result["void_hand"] = self.top_cond(self.d.void_hand.cond, self.default)
                result["void_hand_text"] = self.d.void_hand.text
        if self.d.draw_at_count is not None and self.d.draw_at_count.cond is not None:
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                self.usable(self.d.draw_at_count.cond, "draw")
                result["draw_at_count"] = self.top_cond(self.d.draw_at_count.cond, self.default)
                result["draw_at_count_text"] = self.d.draw_at_count.text
        if self.d.liable is not None:
            known = [e.name for e in yaku.entries] if yaku else []
            for n in self.d.liable.names:
                if n.text not in known:
                    self.error(f"unknown yaku '{n.text}'", n.loc, did_you_mean(n.text, known))
            result["liability"] = ir.Liability(
                yaku=tuple(n.text for n in self.d.liable.names),
                min_hand=self.d.liable.number("min_hand"),
            )
        if "instant_wins" in self.d.tables:
            result["instant_wins"] = self.instant_wins(self.d.tables["instant_wins"])
        if result.get("instant_all") == "draw" and not result.get("instant_wins"):
            self.error(
                "'every hand winning at once is a draw': no dealt hand wins at once in this"
                " variant",
                self.d.mechanics["instant_all"]["instant_all"].loc,
                "say first which hand wins: instant win 3 if a hand has a month of 4",
            )
            result.pop("instant_all")
        if self.d.wild is not None:
            result["wild"] = self.wild(self.d.wild)
        if self.d.lone is not None:
            result["lone"] = self.lone(self.d.lone)
        result["teams"] = self.teams()
        if self.d.compensation is not None:
            result["compensation"] = self.compensation(self.d.compensation, result)
        if "declare" in self.d.mechanics:
            result["declarations"] = self.declarations(result)
        if "stacks" in self.d.mechanics:
            result["stacks"] = True
        if "bonus_on_pair" in self.d.mechanics:
            self.bonus_on_pair(result)
        if "draw_offer" in self.d.mechanics:
            offer = self.draw_offer(result["continuation"])
            if offer is not None:
                result["draw_offer"] = offer
        if "bomb" in self.d.mechanics:
            bomb = self.bomb(result.get("hiki", False))
            if bomb is not None:
                result["bomb"] = bomb
        if self.d.events:
            result["events"] = self.events(result.get("stacks", False))
        result.update(self.scoring_stage())
        if self.d.mechanics.get("declare") and not self.declared_read:
            self.declaration_changes_something(result.get("declarations", ()))
        return result

    def count(self) -> ir.Settlement:
        """The count; a par per table size (`par 88 at 3 seats, 66 at 4 seats`): each at a
        size the game seats, and without a bare par one at every size it seats; the best net
        wins a round of players only."""
        opts = self.options("count")
        written = self.d.mechanics.get("count", {})
        pars: dict[int, int] = {}
        for name in sorted(k for k in opts if k.startswith("par@")):
            value, n = opts.pop(name), int(name.removeprefix("par@"))
            if self.seats_at(n, written[name].loc, f"par {value} at {n} seats"):
                pars[n] = value
        if pars and "par" not in opts:
            seats = self.seats()
            missing = [n for n in range(seats.min, seats.max + 1) if n not in pars]
            if missing:
                self.error(
                    f"no par at {_either([str(n) for n in missing])} seats",
                    written["method"].loc,
                    "give each table size its par, or one par for the others: par 88, 66 at 4"
                    " seats",
                )
            opts["par"] = pars[min(pars)]
        opts["par_at"] = tuple(
            ir.ParAt(seats=n, par=p) for n, p in sorted(pars.items()) if p != opts.get("par")
        )
        self.best_net_of_players(opts)
        self.round_paid_of_round_wins(opts)
        opts["round_by"] = self.round_by(opts)
        return ir.Settlement(**opts)

    def round_by(self, opts: dict[str, Any]) -> tuple[ir.RoundKey, ...]:
        """`round wins by yaku points, then plains, then points`: each criterion; a class
        counts its cards, a card treated as N of it listed N times."""
        written = self.d.mechanics.get("count", {})
        keys: list[ir.RoundKey] = []
        for name in sorted((k for k in opts if k.startswith("round_by#")), key=_key_number):
            value, loc = opts.pop(name), written[name].loc
            if _key_number(name) == MAX_ROUND_KEYS:
                self.error(
                    f"round wins by at most {MAX_ROUND_KEYS} criteria",
                    loc,
                    "for example: round wins by yaku points, then plains, then points",
                )
            if value in ("yaku", "points"):
                label = "yaku points" if value == "yaku" else "points"
                keys.append(ir.RoundKey(key=value, label=label))
                continue
            word = value.removeprefix("cards:")
            cls = next(
                (c for c in (word, _plural_stem(word)) if c is not None and c in self.classes),
                None,
            )
            if cls is None:
                self.error(
                    f"round wins by '{word}': no such class",
                    loc,
                    did_you_mean(word, [*self.classes, "yaku points", "points"])
                    or "a class (plains), yaku points or points",
                )
                continue
            heavy = {c: w.weight for w in self.weighted_ir if w.cls == cls for c in w.cards}
            cards = [
                cid
                for cid, classes in sorted(self.default.items())
                if cls in classes
                for _ in range(heavy.get(cid, 1))
            ]
            keys.append(ir.RoundKey(key="cards", cards=tuple(cards), label=word))
        return tuple(keys)

    def round_paid_of_round_wins(self, opts: dict[str, Any]) -> None:
        """`paid by each other player` is an option of a count by round wins or by steps of
        card points (dropped if not); a step is of 1 card point or more."""
        written = self.d.mechanics.get("count", {})
        if opts.get("round_paid") == "others" and opts.get("method") not in (
            "round_wins",
            "per_points",
        ):
            self.error(
                "'paid by each other player': only a count by round wins or by steps of card"
                " points (1 per 10 points) is paid by the other players",
                written["round_paid"].loc,
                "count: round wins; paid by each other player",
            )
            opts.pop("round_paid")
        value, step = opts.get("step_value", 1), opts.get("step_points", 10)
        if value < 1 or step < 1:
            self.error(
                f"'{value} per {step} points': a count by steps of card points needs a step of"
                " at least 1 point, worth at least 1",
                written["step_points"].loc,
                "for example: count: 1 per 10 points; paid by each other player",
            )
            opts.pop("step_value")
            opts.pop("step_points")

    def seats_at(self, n: int, loc: Loc, what: str) -> bool:
        """Whether the game seats `n` players (`at 9 seats` of a 3-to-6-seat game: an error)."""
        seats = self.seats()
        if seats.min <= n <= seats.max:
            return True
        allowed = f"{seats.min}" + (f" to {seats.max}" if seats.max != seats.min else "")
        self.error(
            f"{what}: this game seats {allowed} players, not {n}",
            loc,
            f"a table size it seats: {allowed}",
        )
        return False

    def offered_step(self, kind: str, result: dict[str, Any]) -> None:
        """`hiki only if COND`, `swap only if COND`: a condition on a choice the variant has
        (a hiki, the setup's swap step), into result's hiki_offers or swap_offers."""
        option = kind.removesuffix("_offer")
        has = result.get("hiki", False) if option == "hiki" else "swap" in result["setup"]
        if not has:
            where = self.d.mechanics[kind]["offer 1"].loc
            example = {
                "hiki": "hiki: capture all four cards of a month seen in hand and field",
                "swap": "setup: hands, swap, field",
            }[option]
            missing = "no hiki" if option == "hiki" else "no swap step in its setup"
            self.error(
                f"'{option} only if ...': this variant has {missing}",
                where,
                f"add it first: {example}",
            )
            return
        opts = self.options(kind)
        result[f"{option}_offers"] = self.offers(opts, kind, option)

    def declarations(self, mechanics: dict[str, Any]) -> tuple[ir.Declaration, ...]:
        """`declare NAME: ...`: a declaration needs a stake; one about the fold (`he must
        join`, `N from each who folds`) is the dealer's, made before the fold, and needs
        players who choose to fold; a penalty needs what he must do."""
        written = self.d.mechanics["declare"]
        opts = self.scaled_options("declare", ("from_each_folder", "award", "penalty"))
        seen = opts.get("moment", "before_deal") != "before_deal"
        opts["offers"] = self.offers(opts, "declare", "declaration seen" if seen else "declaration")
        about_fold = opts.get("must_join") or opts.get("from_each_folder")
        per_month = opts.get("factor_per_month", 0)
        if per_month and not 1 <= per_month <= 4:
            self.error(
                f"declare {opts['name']}: a month has 4 cards, not {per_month}",
                written["factor_per_month"].loc,
                "for example: x2 on his winnings for each month of 3",
            )
            opts.pop("factor_per_month")
        if opts.get("penalty") and opts.get("success", "none") == "none":
            self.error(
                f"declare {opts['name']}: a penalty if he fails, but nothing he must do",
                written["penalty"].loc,
                "say it: he must win the round, or he must make a yaku",
            )
        if about_fold:
            self.fold_stakes(opts, mechanics, written)
        return (ir.Declaration(**opts),)

    def declaration_changes_something(self, declarations: tuple[ir.Declaration, ...]) -> None:
        """A declaration needs a stake, or a condition that reads it (`declared NAME`, in the
        yaku or the scoring stage, resolved after it)."""
        for d in declarations:
            stake = d.must_join or d.from_each_folder or d.factor > 1 or d.award or d.penalty
            if not stake:
                self.error(
                    f"declare {d.name}: the declaration changes nothing",
                    self.d.mechanics["declare"]["name"].loc,
                    "say its stake: he must join; 10 from each who folds; x2 on his winnings;"
                    " 5 from each other player; 5 to each other player if he fails; or read it"
                    f" in a condition: declared {d.name}",
                )

    def draw_offer(self, cont: ir.Continuation) -> ir.DrawOffer | None:
        """`offer a draw: when he has no safe play`: a draw could make him a safe play when it
        raises his yaku to the stop minimum, read from the continuation's `choice only if
        score >= N` (no other condition on the choice says what it is); the refuser pays for
        all only where a stop is paid (as the first continuer does)."""
        written = self.d.mechanics["draw_offer"]
        at = written["offered"].loc
        minimum = 1
        for offer in cont.offers:
            if offer.option != "choice" or offer.condition is None:
                continue
            cond = offer.condition
            if not isinstance(cond, ir.ScoreCmp) or cond.op not in (">=", ">"):
                self.error(
                    "offer a draw: a safe play is a draw that reaches the stop minimum, read"
                    " from the continuation's `choice only if score >= N`; this choice's"
                    " condition is not one",
                    at,
                    "write the choice's condition as: choice only if score >= 3",
                )
                return None
            minimum = max(minimum, cond.n + (cond.op == ">"))
        opts = self.options("draw_offer")
        opts.pop("offered")
        if opts.get("refuser_pays") == "for_all" and cont.paid != "stop":
            self.error(
                "'the refuser pays for all if another wins' moves a stop's payments to the"
                " refuser: the continuation must be paid when stopping",
                written["refuser_pays"].loc,
                'continue "Go": paid when stopping; ...',
            )
            return None
        return ir.DrawOffer(minimum=minimum, **opts)

    def bomb(self, hiki: bool) -> ir.Bomb | None:
        """`bomb: N of a month from the hand take the rest from the field`: 2 or 3 from the hand
        (the rest, at least one, on the field); a variant has a hiki or a bomb, not both (both
        take a month whole as the play)."""
        written = self.d.mechanics["bomb"]
        opts = self.options("bomb")
        if opts["hand"] not in (2, 3):
            self.error(
                f"bomb: {opts['hand']} of a month from the hand: a bomb plays 2 or 3 of a month"
                " onto the rest of it on the field",
                written["hand"].loc,
                "bomb: 3 of a month from the hand take the rest from the field",
            )
            return None
        if hiki:
            self.error(
                "a bomb and a hiki: both take a month whole as the play; a variant has one",
                written["hand"].loc,
                "keep one of them: remove hiki, or remove bomb",
            )
            return None
        return ir.Bomb(**opts)

    def bonus_on_pair(self, result: dict[str, Any]) -> None:
        """`the bonus cards drawn onto the pair just made stay with it if it becomes a stack`: it
        needs the stacking draw, and bonus cards in the deck."""
        loc = self.d.mechanics["bonus_on_pair"]["bonus_on_pair"].loc
        if not result.get("stacks"):
            self.error(
                "'the bonus cards drawn onto the pair just made stay with it': the draw never"
                " stacks on the pair here",
                loc,
                "say so first: the draw stacks on the pair just made",
            )
        elif not self.d.bonus:
            self.error(
                "'the bonus cards drawn onto the pair just made stay with it': the deck has no"
                " bonus card",
                loc,
                'a deck with bonus cards: deck "common/korean"',
            )
        else:
            result["bonus_on_pair"] = "stays"

    def events(self, stacks: bool) -> tuple[ir.Event, ...]:
        """`event NAME: WHAT; EFFECT; ...`: an event needs an effect; the class its opponents
        give is the deck's; a stack is left only where the draw stacks on the pair just made."""
        out = []
        for name, written in self.d.events.items():
            opts: dict[str, Any] = {k: o.value for k, o in written.items()}
            at = written["name"].loc
            steal = written.get("steal")
            if steal is not None and isinstance(steal.value, int | ast.Amount):
                opts["steal"] = self.amount(steal.value, at.file, steal.loc)
            give = written.get("give")
            if give is not None:
                cls = str(give.value)
                if cls not in self.classes and cls.endswith("s") and cls[:-1] in self.classes:
                    cls = cls[:-1]
                if cls not in self.classes:
                    self.error(
                        f"event {name}: unknown class '{cls}'",
                        give.loc,
                        did_you_mean(cls, self.classes)
                        or "the deck's classes: " + ", ".join(self.classes),
                    )
                    continue
                opts["give"] = cls
            wins = opts.get("outcome") == "wins_round"
            if not give and not opts.get("steal") and opts.get("factor", 1) == 1 and not wins:
                self.error(
                    f"event {name}: the event changes nothing",
                    at,
                    "say its effect: each opponent gives a plain; each opponent pays 3;"
                    " x2 on his winnings; he wins the round",
                )
                continue
            if opts.get("first_turn") and opts.get("in_a_row"):
                self.error(
                    f"event {name}: 'on his first turn' and 'on his first turns in a row' say"
                    " the same first turn twice",
                    written["in_a_row"].loc,
                    "keep one: 'on his first turns in a row' counts from his first turn",
                )
                continue
            row_with = written.get("row_with")
            if row_with is not None and not self.row_with(name, opts, row_with):
                continue
            if opts["kind"] == "stack_left" and not stacks:
                self.error(
                    f"event {name}: a stack is left only where the draw stacks on the pair just"
                    " made",
                    written["kind"].loc,
                    "say so first: the draw stacks on the pair just made",
                )
                continue
            out.append(ir.Event(**opts))
        return tuple(out)

    def row_with(self, name: str, opts: dict[str, Any], written: ast.Opt) -> bool:
        """`turns of first_ddadak count in the row`: other events of the file, for a row
        (`on his first turns in a row`); their names become the option's tuple."""
        names = tuple(str(written.value).split(","))
        if not opts.get("in_a_row"):
            self.error(
                f"event {name}: turns of {names[0]} count in a row, and the event has none",
                written.loc,
                "say the row first: on his first turns in a row",
            )
            return False
        for other in names:
            if other == name or other not in self.d.events:
                known = [e for e in self.d.events if e != name]
                what = (
                    "its own turns count in it already"
                    if other == name
                    else f"the variant has no event {other}"
                )
                hint = "the variant's other events: " + ", ".join(known) if known else ""
                if other != name:
                    hint += f" (a file that removes {other} writes {name} again without it)"
                self.error(
                    f"event {name}: turns of {other} count in the row: {what}",
                    written.loc,
                    did_you_mean(other, known) or hint.strip() or None,
                )
                return False
        opts["row_with"] = names
        return True

    def fold_stakes(self, opts: dict[str, Any], mechanics: dict[str, Any], written: Any) -> None:
        """A stake about the fold is the dealer's, made before the fold, where players choose
        to fold."""
        at = written["name"].loc
        if opts.get("by") == "any" or opts.get("moment") == "before_play":
            self.error(
                f"declare {opts['name']}: joining and folders' payments are the dealer's stake,"
                " made before the fold",
                written["by"].loc if opts.get("by") == "any" else written["moment"].loc,
                "write them with: by the dealer; before the deal (or after seeing the hand)",
            )
        folds = "fold" in mechanics["setup"] and mechanics["seats"].sit_out == "fold"
        if not folds or mechanics["seats"].active is None:
            self.error(
                f"declare {opts['name']}: nobody chooses to fold in this variant, so joining"
                " and folders' payments mean nothing",
                at,
                "seat more than play (seats 3 to 6, 3 play) with a fold step in the setup and"
                " 'sit out: by folding'",
            )

    def instant_wins(self, t: TableDraft) -> tuple[ir.InstantWin, ...]:
        """The table of dealt hands that win at once: a value and a condition each, no options
        (an instant win is paid as written, by each other player)."""
        out = []
        for group in t.exclusive:
            self.error(
                "instant wins have no 'exclusive' groups: a hand with several is paid the highest",
                group[0].loc,
            )
        for e in t.entries.values():
            for opt in e.opts.values():
                self.error(
                    f"instant win '{e.name.text}' takes no options",
                    opt.loc,
                    'write NAME "Label" VALUE: CONDITION',
                )
            if e.parts:
                self.error(
                    f"instant win '{e.name.text}' is written with a condition, not parts",
                    e.name.loc,
                    'for example: teshi "Teshi (four of a month)" 6: a month of 4',
                )
                continue
            if e.cond is None or e.value is None:
                continue  # reported by the draft
            try:
                if not self.usable(e.cond, "instant win"):
                    continue
                condition = self.top_cond(e.cond, self.default)
            except _Unresolved:
                continue
            out.append(
                ir.InstantWin(
                    name=e.name.text,
                    label=e.label or e.name.text.replace("_", " ").capitalize(),
                    value=self.amount(e.value, e.value_file, e.name.loc),
                    condition=condition,
                    text=e.cond_text or "",
                )
            )
        return tuple(out)

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
        opts = self.scaled_options("continuation", ("per_continue",))
        self.per_continue_at_the_stop(opts)
        if opts.get("outstopped_pays") == "first" and opts.get("paid", "made") != "stop":
            self.error(
                "'the first continuer pays for all' pays for the yaku paid at a stop, but here"
                " they are not paid when stopping",
                self.d.mechanics["continuation"]["outstopped_pays"].loc,
                "add 'paid when stopping' to the continue statement",
            )
            opts.pop("outstopped_pays")
        if "beaten" in opts:  # the whole `if beaten` clause, replaced as one option
            beaten = str(opts.pop("beaten")).split(",")
            opts["refund_half"] = "refund_half" in beaten
            opts["pay_for_all"] = "pay_for_all" in beaten
            opts["beaten_forfeit"] = "forfeit" in beaten
        opts["offers"] = self.offers(opts, "continuation", "choice")
        return ir.Continuation(**self.paid_in_play(opts))

    def per_continue_at_the_stop(self, opts: dict[str, Any]) -> None:
        """`+1 per continue` is added to the yaku paid at the stop: it needs `paid when
        stopping` (dropped if not)."""
        if "per_continue" in opts and opts.get("paid", "made") != "stop":
            self.error(
                "'+N per continue' is added to the yaku paid at the stop, but here they are"
                " not paid when stopping",
                self.d.mechanics["continuation"]["per_continue"].loc,
                "add 'paid when stopping' to the continue statement",
            )
            opts.pop("per_continue")

    def offers(self, opts: dict[str, Any], kind: str, where: str) -> tuple[ir.Offer, ...]:
        """The conditions on a choice's options (`stop only if score >= 2`, `fold only if not
        dealer`), in the order written; taken out of `opts` (the options `offer 1`...)."""
        written = self.d.mechanics.get(kind, {})
        out = []
        for name in [n for n in opts if n.startswith("offer ")]:
            opts.pop(name)
            o = written[name]
            option, limit = str(o.value).split(":")
            if kind == "continuation" and opts.get("ends_round") is False:
                self.error(
                    f"'{option} ...': nobody stops or continues when yaku do not end the round",
                    o.loc,
                    "drop the condition, or 'yaku do not end the round'",
                )
                continue
            if option == "stop" and limit == "once_per_round":
                self.error(
                    "'stop at most once per round': a stop ends the round",
                    o.loc,
                    "limit the continues instead: continue at most once per round",
                )
                continue
            if o.cond is None:
                out.append(ir.Offer.model_validate({"option": option, "limits": (limit,)}))
                continue
            with contextlib.suppress(_Unresolved):  # the unknown name is reported already
                if self.usable(o.cond, where):
                    cond = self.top_cond(o.cond, self.default)
                    out.append(ir.Offer.model_validate({"option": option, "condition": cond}))
        return tuple(out)

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
        if opt.value in ("loser", "winner"):
            many = [n for n in range(seats.min, seats.max + 1) if n - seats.playing(n) != 1]
            if many:
                n = many[0]
                self.error(
                    f"'sit out: the {opt.value}': one player sits out a round, but at {n} seats"
                    f" {n - seats.playing(n)} do",
                    opt.loc,
                    f"seat one more than play: seats {seats.playing(n) + 1}, {seats.playing(n)}"
                    " play; or 'sit out: each in turn'",
                )
                return seats
        return seats.model_copy(update={"sit_out": opt.value})

    def best_net_of_players(self, opts: dict[str, Any]) -> None:
        """The best net wins a round of players, not of teams (drops the option if so)."""
        best_net = self.d.mechanics.get("count", {}).get("winner")
        if opts.get("winner") == "net" and self.d.teams and best_net is not None:
            self.error(
                "'the best net wins': a round played in teams is won by a side, not by a net",
                best_net.loc,
                "drop 'the best net wins', or remove the teams (remove teams)",
            )
            opts.pop("winner")

    def tie_break(self) -> tuple[str, ...]:
        """`tie break: ...`: its parts in order, each once."""
        opt = self.d.mechanics.get("tie_break", {}).get("tie_break")
        if opt is None:
            return ()
        parts = tuple(str(opt.value).split(","))
        if len(set(parts)) < len(parts):
            self.error(
                "'tie break' names a part twice: the second would never decide",
                opt.loc,
                "for example: tie break: the most rounds won, then the first in play order from"
                " the dealer",
            )
            return tuple(dict.fromkeys(parts))
        return parts

    def fold(self) -> ir.Fold:
        """The fold phase; a declaration before the deal needs players who choose to fold."""
        opts = self.scaled_options("fold", ("fee", "forced_fee"))
        opts["offers"] = self.offers(opts, "fold", "join or fold")
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
        card = next(iter(cards))
        last = next((o for o in stmt.opts if o.kind == "last_to_holder"), None)
        others = [c for c in self.d.cards if c // 10 == card // 10 and c != card]
        others = [c for c in others if c not in self.left_out]
        if last is not None and len(others) != 3:
            self.error(
                f"the wild card's month has {len(others)} other cards: `the last of its month"
                " goes to the holder of the other two` needs 3",
                last.loc,
                "leave the option out, or make a card of a month of four cards wild",
            )
        return ir.WildCard(
            card=card,
            any_target="any_target" in flags,
            collects_month="collects_month" in flags,
            respects_hiki="respects_hiki" in flags,
            lay_when_blocked="lay_when_blocked" in flags,
            not_own_month="not_own_month" in flags,
            taken_by_draw="taken_by_draw" in flags,
            sweeps_when_last="sweeps_when_last" in flags,
            drawn_any_target="drawn_any_target" in flags,
            last_to_holder="last_to_holder" in flags,
        )

    def dealer_claim(self, seats: ir.Seats) -> ir.DealerClaim | None:
        """`the dealer may take 2 of a month of 3 on the field and play second`: fewer than
        the month's cards on the field, a month of at most 4, at a table where two play."""
        opts = self.d.mechanics["dealer_claim"]
        take, size = opts["take"], opts["size"]
        n, of = int(str(take.value)), int(str(size.value))  # (numbers as written)
        example = "for example: the dealer may take 2 of a month of 3 on the field and play second"
        if not 2 <= of <= 4:
            self.error(f"a month of {of}: a month on the field has 2 to 4 cards", size.loc, example)
            return None
        if not 1 <= n < of:
            self.error(
                f"take {n} of a month of {of}: he takes at least one card and leaves at least one",
                take.loc,
                example,
            )
            return None
        many = [n for n in range(seats.min, seats.max + 1) if seats.playing(n) != 2]
        if many:
            self.error(
                f"'play second' needs two players in each round, not {seats.playing(many[0])}"
                f" (at {many[0]} seats)",
                take.loc,
                "write it in a file of two players (seats 2)",
            )
            return None
        return ir.DealerClaim(take=n, size=of)

    def lone(self, stmt: ast.Mechanic) -> ir.LoneCards | None:
        """`lone phoenix: goes to whoever plays or draws it`."""
        try:
            cards = self.union(stmt.cards, self.default)
        except _Unresolved:
            return None  # the unknown name is reported already
        if not cards:
            self.error("'lone' names no card", stmt.loc, "for example: lone phoenix: ...")
            return None
        if self.d.wild is not None and set(cards) & set(
            self.union(self.d.wild.cards, self.default)
        ):
            self.error("the wild card cannot be a lone card", stmt.loc)
            return None
        return ir.LoneCards(cards=tuple(sorted(cards)))

    def compensation(self, stmt: ast.Mechanic, mechanics: dict[str, Any]) -> ir.Compensation | None:
        """`compensation: 2 per card of SET; x2 if he holds COND; paid by ...`: paid to a player
        forced to fold, so a variant whose players choose to fold (more seated than play)."""
        at = stmt.loc
        seats = mechanics["seats"]
        folds = "fold" in mechanics["setup"] and seats.sit_out == "fold"
        if not folds or seats.active is None:
            self.error(
                "compensation: nobody is forced to fold in this variant, so nobody is paid it",
                at,
                "seat more than play (seats 4 to 6, 3 play) with a fold step in the setup and"
                " 'sit out: by folding'",
            )
            return None
        try:
            cards = self.union(stmt.cards, self.default)
        except _Unresolved:
            return None  # the unknown name is reported already
        if not cards:
            self.error(
                "compensation: the set names no card",
                at,
                "for example: compensation: 2 per card of lights",
            )
            return None
        opts: dict[str, Any] = {o.kind: o.value for o in stmt.opts}
        written = next(o for o in stmt.opts if o.kind == "per_card")
        value = written.value if isinstance(written.value, int | ast.Amount) else 0
        opts["per_card"] = self.amount(value, at.file, written.loc)
        opts["cards"] = tuple(sorted(cards))
        if stmt.cond is not None:
            try:
                if not self.usable(stmt.cond, "compensation"):
                    return None
                opts["condition"] = self.top_cond(stmt.cond, self.default)
            except _Unresolved:
                return None  # the unknown name is reported already
        if opts["per_card"] == 0:
            self.error(
                "compensation: 0 per card pays nothing",
                written.loc,
                "for example: compensation: 2 per card of lights",
            )
            return None
        return ir.Compensation(**opts)

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

    # ------------------------------------------------------------ units and the scoring stage
    def file_unit(self, file: str | None) -> int | None:
        """The size of the unit in force where `file` was written: the last one its own file or
        a file it extends declares."""
        current = None
        for f in self.d.files:
            current = self.d.file_units.get(f, current)
            if f == file:
                return current
        return None

    def amount(self, value: int | ast.Amount, file: str | None, loc: Loc) -> int:
        """A table value in points: `2 kan` is two of the unit in force; a number written where
        the unit had another size is rescaled to this one (`unit kan = 12 points` over a file
        that said 10: 15 -> 18), and must stay whole."""
        unit = self.d.unit
        if isinstance(value, ast.Amount):
            if unit is None:
                self.error(
                    f"'{value.n} {value.unit.text}': no unit is declared",
                    value.unit.loc,
                    f"declare it first: unit {value.unit.text} = 10 points",
                )
                return value.n
            if value.unit.text != unit.name.text:
                self.error(
                    f"unknown unit '{value.unit.text}'",
                    value.unit.loc,
                    did_you_mean(value.unit.text, [unit.name.text])
                    or f"the unit is {unit.name.text}",
                )
                return value.n
            return value.n * unit.points
        written = self.file_unit(file)
        if unit is None or written is None or written == unit.points:
            return value
        if value * unit.points % written:
            self.error(
                f"unit {unit.name.text} = {unit.points} points makes the value {value} written at"
                f" {loc} (at {written} points to the {unit.name.text}) worth"
                f" {value * unit.points / written:g}, not a whole number",
                unit.loc,
                "restate that value in this file, or choose a size that keeps it whole",
            )
            return value
        return value * unit.points // written

    def scores_shown(self) -> bool:
        """`show scores in kan`: the unit declared, by its name."""
        stmt = self.d.show_scores
        if stmt is None:
            return False
        name = stmt.names[0]
        unit = self.d.unit
        if unit is None:
            self.error(
                f"'show scores in {name.text}': no unit is declared",
                name.loc,
                f"declare it first: unit {name.text} = 10 points",
            )
            return False
        if name.text != unit.name.text:
            self.error(
                f"unknown unit '{name.text}'",
                name.loc,
                did_you_mean(name.text, [unit.name.text]) or f"the unit is {unit.name.text}",
            )
            return False
        return True

    def scaled_options(self, kind: str, values: tuple[str, ...]) -> dict[str, Any]:
        """A mechanic's options, its `values` (fees) rescaled to the unit in force."""
        opts = self.options(kind)
        for name, opt in self.d.mechanics.get(kind, {}).items():
            if name in values and isinstance(opt.value, int | ast.Amount):
                opts[name] = self.amount(opt.value, opt.loc.file, opt.loc)
        return opts

    def scoring_stage(self) -> dict[str, Any]:
        """The steps of the scoring stage, in order, the unit, and the game's length checks."""
        result: dict[str, Any] = {"scoring": tuple(self.steps())}
        if self.d.unit is not None:
            result["unit"] = ir.Unit(
                name=self.d.unit.name.text, points=self.d.unit.points, shown=self.scores_shown()
            )
        else:
            self.scores_shown()  # (reports `show scores in` without a unit)
        target = self.d.mechanics.get("rounds", {}).get("target")
        values = self.options("rounds")
        start_value = values.get("start", 0)
        if target is not None and values["target"] <= start_value:
            self.error(
                f"until a score of {values['target']}: every player starts at {start_value}, so the"
                " game would end before it starts",
                target.loc,
                "the target is above the starting score: rounds 12; start at 100; until a score"
                " of 500",
            )
        return result

    def steps(self) -> list[ir.Factor | ir.Award]:
        out: list[ir.Factor | ir.Award] = []
        for s, condition in self.step_conditions(self.default):
            if isinstance(s, ast.Factor):
                out.append(self.factor_step(s, condition))
            else:
                out.append(self.award_step(s, condition))
        return out

    def step_conditions(
        self, classes: ClassMap
    ) -> list[tuple[ast.Factor | ast.Award, ir.Condition | None]]:
        """The scoring steps kept, each with its condition resolved in `classes` (read the
        owner's choice's second way too: owners_choice)."""
        out: list[tuple[ast.Factor | ast.Award, ir.Condition | None]] = []
        for s in self.d.scoring.values():
            condition = None
            if s.cond is not None:
                try:
                    if not self.usable(s.cond, "scoring"):
                        continue
                    condition = self.top_cond(s.cond, classes)
                except _Unresolved:
                    continue
            if (
                isinstance(s, ast.Award)
                and condition is not None
                and self.payer_in_award(s, condition)
            ):
                continue
            out.append((s, condition))
        return out

    def factor_step(self, s: ast.Factor, condition: ir.Condition | None) -> ir.Factor:
        if s.on == "teyaku" and "teyaku" not in self.d.tables:
            self.error(
                f"x{s.factor} on teyaku: this game has no teyaku",
                s.loc,
                "on yaku, on the count or on everything",
            )
        name = s.name.text if s.name else ""
        return ir.Factor(
            seats=self.step_seats(s),
            factor=s.factor,
            on=s.on,  # the grammar writes one of the four
            condition=condition,
            text=s.text,
            name=name,
            label=s.label or name.replace("_", " ").capitalize(),
        )

    def payer_in_award(self, s: ast.Award, condition: ir.Condition) -> bool:
        """An award's condition is tested once, for its payee: `the payer has` is a factor's
        (reported; True: the award is dropped)."""
        if not any(isinstance(c, ir.PayerHas) for c in ir.parts_of(condition)):
            return False
        self.error(
            f"award '{s.name.text}': 'the payer has' cannot be used in an award, whose condition"
            " is tested once for its payee",
            s.loc,
            'test the payer in a factor: double "Doubled" x2 if the payer has lights = 0',
        )
        return True

    def step_seats(self, s: ast.Factor | ast.Award) -> int | None:
        """`at 5 seats: ...`: the table size a step is played at (None: every size)."""
        if s.seats is None or s.seats_loc is None:
            return None
        ok = self.seats_at(s.seats, s.seats_loc, f"at {s.seats} seats")
        return s.seats if ok else None

    def award_step(self, s: ast.Award, condition: ir.Condition | None) -> ir.Award:
        if s.payee == "winner" and isinstance(condition, ir.NobodyWon):
            self.error(
                f"award '{s.name.text}': the winner takes nothing when nobody won",
                s.loc,
                "the dealer takes 6 if nobody won",
            )
        return ir.Award(
            seats=self.step_seats(s),
            name=s.name.text,
            label=s.label or s.name.text.replace("_", " ").capitalize(),
            payee=s.payee,  # the grammar writes dealer, winner, second or third
            value=self.amount(s.value, s.loc.file, s.loc),
            split=s.split,
            multiplied=s.multiplied,
            condition=condition,
            text=s.text,
        )
