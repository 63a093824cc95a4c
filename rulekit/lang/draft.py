"""The variant being assembled: statements of a file chain applied one after another.

A base file defines; a file that `extends` another overrides by name: an entry line with an
existing name changes only the parts it writes, `remove` drops one, a new name adds one. Names
are not resolved here (see resolve.py); only the shape of each override is checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rulekit.errors import Loc, RuleError, RulekitError, did_you_mean
from rulekit.lang import ast


@dataclass
class EntryDraft:
    name: ast.Name
    label: str | None
    value: int | None
    cond: ast.Cond | None
    cond_text: str | None
    parts: tuple[ast.Name, ...]
    opts: dict[str, ast.EntryOpt]
    loc: Loc


@dataclass
class TableDraft:
    kind: str
    policy: str | None = None
    view: ast.Name | None = None
    between: str = "all"
    entries: dict[str, EntryDraft] = field(default_factory=dict)
    exclusive: list[tuple[ast.Name, ...]] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)


@dataclass
class Draft:
    game: str | None = None
    variant: str | None = None
    source: str = ""
    deck_name: str | None = None
    files: list[str] = field(default_factory=list)
    classes: list[ast.Name] = field(default_factory=list)
    tags: list[ast.Name] = field(default_factory=list)  # none declared: any tag goes
    months: dict[int, ast.MonthDecl] = field(default_factory=dict)
    cards: dict[int, ast.CardDecl] = field(default_factory=dict)
    expects: dict[tuple[str, str], tuple[ast.Name, int]] = field(default_factory=dict)
    points: dict[str, tuple[ast.Name, int]] = field(default_factory=dict)
    treats: list[ast.Reclass] = field(default_factory=list)
    views: dict[str, ast.ViewDecl] = field(default_factory=dict)
    sets: dict[str, ast.SetDecl] = field(default_factory=dict)
    tables: dict[str, TableDraft] = field(default_factory=dict)
    tiers: dict[int, ast.Tier] = field(default_factory=dict)
    per_card: ast.PerCard | None = None
    mechanics: dict[str, dict[str, ast.Opt]] = field(default_factory=dict)
    deal_sizes: dict[int | None, dict[str, ast.Opt]] = field(default_factory=dict)
    dealt: set[int] = field(default_factory=set)  # hand sizes dealt by each file of the chain
    setup: tuple[ast.Name, ...] | None = None
    void: ast.Mechanic | None = None
    liable: ast.Mechanic | None = None
    instant_win: ast.Mechanic | None = None
    wild: ast.Mechanic | None = None
    teams: dict[int, ast.Mechanic] = field(default_factory=dict)
    errors: list[RulekitError] = field(default_factory=list)


# Statements that live inside a section; any other statement ends the section.
_IN_SECTION = (ast.Entry, ast.Exclusive, ast.Remove, ast.Tier, ast.PerCard)


class Applier:
    """Applies the statements of one file to a draft."""

    def __init__(self, draft: Draft, overriding: bool, deck_file: bool = False) -> None:
        self.d = draft
        self.overriding = overriding
        self.scope = "deck" if deck_file else "rules"
        self.section: str | None = None  # teyaku | yaku | multiplier

    def error(self, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.d.errors.append(RuleError(message, loc, hint))

    def apply(self, stmts: list[ast.Stmt]) -> None:
        for stmt in stmts:
            if not isinstance(stmt, _IN_SECTION):
                self.section = None
            handler = getattr(self, "on_" + type(stmt).__name__)
            handler(stmt)

    # ------------------------------------------------------------ header
    def on_Game(self, s: ast.Game) -> None:
        self.d.game = s.title
        if s.variant is not None:
            self.d.variant = s.variant

    def on_Source(self, s: ast.Source) -> None:
        self.d.source = s.text

    def on_Extends(self, s: ast.Extends) -> None:
        """Followed by the loader before this file is applied."""

    def on_DeckRef(self, s: ast.DeckRef) -> None:
        """Followed by the loader before this file is applied."""

    def on_DeckName(self, s: ast.DeckName) -> None:
        self.d.deck_name = s.title

    # ------------------------------------------------------------ deck
    def on_Classes(self, s: ast.Classes) -> None:
        known = {c.text for c in self.d.classes}
        for n in s.names:
            if n.text in known:
                self.error(f"class '{n.text}' is declared twice", n.loc)
            known.add(n.text)
            self.d.classes.append(n)

    def on_Tags(self, s: ast.Tags) -> None:
        known = {t.text for t in self.d.tags}
        for n in s.names:
            if n.text not in known:
                self.d.tags.append(n)
                known.add(n.text)

    def on_MonthDecl(self, s: ast.MonthDecl) -> None:
        if s.number in self.d.months and not self.overriding:
            self.error(f"month {s.number} is declared twice", s.loc)
        self.d.months[s.number] = s

    def on_CardDecl(self, s: ast.CardDecl) -> None:
        if s.id in self.d.cards and not self.overriding:
            prev = self.d.cards[s.id]
            self.error(f"card {s.id} is declared twice (first at {prev.loc})", s.loc)
        self.d.cards[s.id] = s

    def on_Expect(self, s: ast.Expect) -> None:
        for name, value in s.items:
            self.d.expects[(self.scope, name.text)] = (name, value)

    # ------------------------------------------------------------ classes, views, sets
    def on_Points(self, s: ast.Points) -> None:
        for name, value in s.items:
            self.d.points[name.text] = (name, value)

    def on_Treat(self, s: ast.Treat) -> None:
        self.d.treats.append(s.reclass)

    def on_ViewDecl(self, s: ast.ViewDecl) -> None:
        self.d.views[s.name.text] = s

    def on_SetDecl(self, s: ast.SetDecl) -> None:
        self.d.sets[s.name.text] = s

    # ------------------------------------------------------------ sections
    def on_TableHeader(self, s: ast.TableHeader) -> None:
        self.section = s.table
        table = self.d.tables.get(s.table)
        if table is None:
            table = self.d.tables[s.table] = TableDraft(s.table)
        for opt in s.opts:
            if opt.kind in ("best", "all"):
                table.policy = opt.kind
            elif opt.kind == "view":
                table.view = opt.arg
            elif opt.kind == "between_all":
                table.between = "all"
            elif opt.kind == "between_highest":
                table.between = "highest"

    def on_MultiplierHeader(self, s: ast.MultiplierHeader) -> None:
        self.section = "multiplier"

    def _table(self, loc: Loc, what: str) -> TableDraft | None:
        if self.section in ("teyaku", "yaku"):
            return self.d.tables[self.section]
        where = "the multiplier section" if self.section == "multiplier" else "no section"
        self.error(
            f"{what} in {where}; it belongs under a 'teyaku' or 'yaku' line",
            loc,
        )
        return None

    def on_Exclusive(self, s: ast.Exclusive) -> None:
        table = self._table(s.loc, "an 'exclusive' line")
        if table is not None:
            table.exclusive.append(s.names)

    def on_Remove(self, s: ast.Remove) -> None:
        if self.section == "multiplier":
            for n in s.names:
                factor = n.text[1:] if n.text.startswith("x") else ""
                if not factor.isdigit() or int(factor) not in self.d.tiers:
                    known = [f"x{f}" for f in self.d.tiers]
                    self.error(
                        f"no multiplier tier '{n.text}' to remove",
                        n.loc,
                        did_you_mean(n.text, known),
                    )
                else:
                    del self.d.tiers[int(factor)]
            return
        table = self._table(s.loc, "a 'remove' line")
        if table is None:
            return
        for n in s.names:
            if n.text not in table.entries:
                self.error(
                    f"no {table.kind} named '{n.text}' to remove",
                    n.loc,
                    did_you_mean(n.text, table.entries),
                )
            else:
                del table.entries[n.text]
                table.removed.add(n.text)

    def on_Entry(self, s: ast.Entry) -> None:
        table = self._table(s.loc, f"entry '{s.name.text}'")
        if table is None:
            return
        complete = (s.cond is not None or s.parts) and (s.value is not None or s.parts)
        existing = table.entries.get(s.name.text)
        opts = {o.kind: o for o in s.opts}
        if existing is not None and not self.overriding:
            self.error(
                f"{table.kind} '{s.name.text}' is defined twice (first at {existing.loc})",
                s.name.loc,
            )
            return
        if existing is not None and not complete:
            table.entries[s.name.text] = replace(
                existing,
                name=s.name,
                label=s.label if s.label is not None else existing.label,
                value=s.value if s.value is not None else existing.value,
                cond=s.cond if s.cond is not None else existing.cond,
                cond_text=s.cond_text if s.cond is not None else existing.cond_text,
                parts=s.parts or existing.parts,
                opts={**existing.opts, **opts},
                loc=s.loc,
            )
            return
        if not complete:
            if self.overriding:
                self.error(
                    f"no {table.kind} named '{s.name.text}' to change",
                    s.name.loc,
                    did_you_mean(s.name.text, table.entries)
                    or 'a new entry needs a value and a condition: NAME "Label" VALUE: CONDITION',
                )
            else:
                missing = "a value" if s.value is None and not s.parts else "a condition"
                self.error(
                    f"{table.kind} '{s.name.text}' needs {missing}",
                    s.loc,
                    'write NAME "Label" VALUE: CONDITION, or NAME "Label" = PART + PART',
                )
            return
        table.entries[s.name.text] = EntryDraft(
            s.name, s.label, s.value, s.cond, s.cond_text, s.parts, opts, s.loc
        )
        table.removed.discard(s.name.text)

    def _in_multiplier(self, loc: Loc, what: str) -> bool:
        if self.section != "multiplier":
            self.error(
                f"{what} outside the multiplier section", loc, "put it under a 'multiplier' line"
            )
            return False
        return True

    def on_Tier(self, s: ast.Tier) -> None:
        if self._in_multiplier(s.loc, f"tier x{s.factor}"):
            if s.factor in self.d.tiers and not self.overriding:
                self.error(f"tier x{s.factor} is defined twice", s.loc)
            self.d.tiers[s.factor] = s

    def on_PerCard(self, s: ast.PerCard) -> None:
        if self._in_multiplier(s.loc, "'+N per ...'"):
            self.d.per_card = s

    # ------------------------------------------------------------ mechanics
    def on_Mechanic(self, s: ast.Mechanic) -> None:
        """Each option replaces the same option of the file extended; the rest stays. A `seats`
        line is one whole: `seats 2` means exactly two, whatever the file extended said."""
        if s.kind == "deal":
            at = s.opt("seats")
            sizes = self.d.deal_sizes.setdefault(at if isinstance(at, int) else None, {})
            sizes.update({o.kind: o for o in s.opts if o.kind != "seats"})
        elif s.kind == "setup":
            self.d.setup = s.names
        elif s.kind == "void":
            self.d.void = s
        elif s.kind == "liable":
            self.d.liable = s
        elif s.kind == "instant_win":
            self.d.instant_win = s
        elif s.kind == "wild":
            self.d.wild = s
        elif s.kind == "teams":
            self.d.teams[s.number("seats")] = s
        elif s.kind == "seats":
            self.d.mechanics[s.kind] = {o.kind: o for o in s.opts}
        else:
            self.d.mechanics.setdefault(s.kind, {}).update({o.kind: o for o in s.opts})
