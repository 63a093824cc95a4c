"""The variant being assembled: statements of a file chain applied one after another.

A base file defines; a file that `extends` another overrides by name: an entry line with an
existing name changes only the parts it writes, `remove` drops one, a new name adds one. A
mechanic statement restated replaces the whole of it (what it does not write takes the IR's
default, never the parent's options); a restated multiplier section replaces the parent's tiers;
`remove hiki` (liability, wild, teams, joker, ...) drops an inherited statement. Any statement
given twice in one file is an error. Names are not resolved here (see resolve.py); only the
shape of each override is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from rulekit.errors import Loc, RuleError, RulekitError, did_you_mean, source_line
from rulekit.lang import ast

# options of one statement that say opposite things though they set different parts of it
_CONTRADICTIONS = {
    frozenset({"rotate", "winner_deals"}),
    frozenset({"rotate", "drawn_keeps_dealer"}),
}
# table header options that set the same part (`best only` and `all add`: the policy)
_TABLE_PARTS = {
    "best": "policy",
    "all": "policy",
    "between_all": "between",
    "between_highest": "between",
    "split": "split",
    "each_payer": "split",
    "view": "view",
}


def _written(loc: Loc) -> str:
    """The text an option is written as, for a message (its kind if the line is unknown)."""
    line = source_line(loc.file, loc.line) or ""
    text = " ".join(line[loc.col - 1 : loc.col - 1 + loc.width].split())
    return text or "this option"


@dataclass
class EntryDraft:
    name: ast.Name
    label: str | None
    value: int | ast.Amount | None
    cond: ast.Cond | None
    cond_text: str | None
    parts: tuple[ast.Name, ...]
    opts: dict[str, ast.EntryOpt]
    loc: Loc
    value_file: str | None = None  # where the value was written (its unit: resolve.py)


@dataclass
class TableDraft:
    kind: str
    policy: str | None = None
    view: ast.Name | None = None
    between: str = "all"
    entries: dict[str, EntryDraft] = field(default_factory=dict)
    exclusive: list[tuple[ast.Name, ...]] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    split: bool = False  # an entry's value is the total, split between its payers


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
    without: list[ast.Without] = field(default_factory=list)  # cards left out of the deck
    bonus: dict[int, ast.BonusDecl] = field(default_factory=dict)  # bonus cards (no month)
    weighted: list[ast.Weighted] = field(default_factory=list)  # `treat lightning as 2 plains`
    choices: list[ast.OwnersChoice] = field(default_factory=list)  # owner's choices
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
    void_hand: ast.Mechanic | None = None  # `void if a hand has ...`
    draw_at_count: ast.Mechanic | None = None  # `the round is a draw if a player has ...`
    show_scores: ast.Mechanic | None = None  # `show scores in kan`
    liable: ast.Mechanic | None = None
    instant_win: ast.Mechanic | None = None
    wild: ast.Mechanic | None = None
    lone: ast.Mechanic | None = None  # `lone phoenix: goes to whoever plays or draws it`
    compensation: ast.Mechanic | None = None  # `compensation: 2 per card of lights; ...`
    teams: dict[int, ast.Mechanic] = field(default_factory=dict)
    events: dict[str, dict[str, ast.Opt]] = field(default_factory=dict)  # by name, in order
    errors: list[RulekitError] = field(default_factory=list)
    scoring: dict[str, ast.Factor | ast.Award] = field(default_factory=dict)  # in order
    unit: ast.UnitDecl | None = None
    file_units: dict[str, int] = field(default_factory=dict)  # the unit each file declares


# Statements that live inside a section; any other statement ends the section.
_IN_SECTION = (
    ast.Entry, ast.Exclusive, ast.Remove, ast.Tier, ast.PerCard, ast.Factor, ast.Award,
    ast.AtSeats,
)  # fmt: skip


class Applier:
    """Applies the statements of one file to a draft."""

    def __init__(self, draft: Draft, overriding: bool, deck_file: bool = False) -> None:
        self.d = draft
        self.overriding = overriding
        self.scope = "deck" if deck_file else "rules"
        self.section: str | None = None  # teyaku | yaku | multiplier
        self.given: dict[str, Loc] = {}  # statements of this file, by what they set
        self.tiers_restated = False  # this file's multiplier section replaced the parent's

    def error(self, message: str, loc: Loc | None, hint: str | None = None) -> None:
        self.d.errors.append(RuleError(message, loc, hint))

    def once(self, key: str, what: str, loc: Loc) -> bool:
        """True the first time this file sets `key`; a second time is an error at the second,
        pointing at the first (one file says a thing once; a house rule restates it in its own
        file)."""
        first = self.given.get(key)
        if first is not None:
            self.error(
                f"{what} is given twice in this file (first at {first})",
                loc,
                "say it once; to change what a file extends, restate it in the extending file",
            )
            return False
        self.given[key] = loc
        return True

    def said_once(self, opts: Iterable[tuple[str, Loc]]) -> None:
        """One statement says each thing once: an option given twice, or one that contradicts
        another (`if unfinished keep; if unfinished forfeit`, `best only, all add`, `winner
        deals; dealer rotates`), is an error at the second, quoting the first."""
        seen: list[tuple[str, Loc]] = []
        for kind, loc in opts:
            for other, first in seen:
                if other != kind and frozenset((other, kind)) not in _CONTRADICTIONS:
                    continue
                a, b = _written(first), _written(loc)
                if a == b:
                    message = f"'{b}' is given twice in this statement (first at {first})"
                else:
                    message = f"'{b}' contradicts '{a}' (at {first})"
                self.error(message, loc, "a statement says each thing once: keep one of them")
                break
            else:
                seen.append((kind, loc))

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

    def own_totals(self, s: ast.Stmt) -> None:
        """The deck files' own totals were about the whole deck: a file that leaves cards out
        or adds bonus cards states its own (`expect cards 40`)."""
        self.d.expects = {
            k: v for k, v in self.d.expects.items() if k[0] != "deck" or v[0].loc.file == s.loc.file
        }

    def on_Without(self, s: ast.Without) -> None:
        self.own_totals(s)
        self.d.without.append(s)

    def on_BonusDecl(self, s: ast.BonusDecl) -> None:
        if s.id in self.d.cards and not self.overriding:
            prev = self.d.cards[s.id]
            self.error(f"card {s.id} is declared twice (first at {prev.loc})", s.loc)
        self.own_totals(s)
        self.d.cards[s.id] = ast.CardDecl(s.loc, s.id, s.name, s.label, s.cls, ())
        self.d.bonus[s.id] = s
        self.d.weighted.append(ast.Weighted(s.loc, ast.SCard(s.id, s.loc), s.weight, s.cls))

    def on_Weighted(self, s: ast.Weighted) -> None:
        self.d.weighted.append(s)

    def on_OwnersChoice(self, s: ast.OwnersChoice) -> None:
        # a later file's choice replaces the files' before it; two in one file: an error
        self.d.choices = [c for c in self.d.choices if c.loc.file == s.loc.file]
        self.d.choices.append(s)

    def on_ViewDecl(self, s: ast.ViewDecl) -> None:
        if self.once(f"view {s.name.text}", f"view '{s.name.text}'", s.name.loc):
            self.d.views[s.name.text] = s

    def on_SetDecl(self, s: ast.SetDecl) -> None:
        if self.once(f"set {s.name.text}", f"set '{s.name.text}'", s.name.loc):
            self.d.sets[s.name.text] = s

    # ------------------------------------------------------------ sections
    def on_TableHeader(self, s: ast.TableHeader) -> None:
        self.section = s.table
        table = self.d.tables.get(s.table)
        if table is None:
            table = self.d.tables[s.table] = TableDraft(s.table)
        self.said_once((_TABLE_PARTS.get(o.kind, o.kind), o.loc) for o in s.opts)
        for opt in s.opts:
            if opt.kind in ("best", "all"):
                table.policy = opt.kind
            elif opt.kind == "view":
                table.view = opt.arg
            elif opt.kind == "between_all":
                table.between = "all"
            elif opt.kind == "between_highest":
                table.between = "highest"
            elif opt.kind in ("split", "each_payer"):
                table.split = opt.kind == "split"

    def on_MultiplierHeader(self, s: ast.MultiplierHeader) -> None:
        self.section = "multiplier"

    def on_InstantWinsHeader(self, s: ast.InstantWinsHeader) -> None:
        """Instant wins are a table of named entries: changed and removed by name."""
        self.section = "instant_wins"
        self.instant_wins()

    def instant_wins(self) -> TableDraft:
        table = self.d.tables.get("instant_wins")
        if table is None:
            table = self.d.tables["instant_wins"] = TableDraft("instant win")
        return table

    def _table(self, loc: Loc, what: str) -> TableDraft | None:
        if self.section in ("teyaku", "yaku", "instant_wins"):
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
        if self.section is None or self._names_statements(s):
            self.remove_statements(s)
            return
        if self.section == "scoring":
            self.remove_steps(s)
            return
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

    def _names_statements(self, s: ast.Remove) -> bool:
        """A `remove` line right under a section that names statements, not entries
        (`remove hiki` after the yaku): the statements are meant."""
        entries = self.d.tables.get(self.section or "")
        known = {*(entries.entries if entries is not None else {}), *self.d.scoring}
        return all(n.text in REMOVABLE and n.text not in known for n in s.names)

    def remove_statements(self, s: ast.Remove) -> None:
        """`remove hiki, liability`: inherited statements dropped by name; what they set takes
        the IR's default (no hiki, no liability, ...)."""
        for n in s.names:
            remover = REMOVABLE.get(n.text)
            if remover is None and n.text.startswith("event "):  # `remove event jjok`
                remover = _drop_event(n.text.removeprefix("event "))
            tables = [t for t in self.d.tables.values() if n.text in t.entries]
            if remover is None and tables:
                self.error(
                    f"'{n.text}' is a {tables[0].kind}: remove it under a '{tables[0].kind}' line",
                    n.loc,
                    f"{tables[0].kind}\n  remove {n.text}",
                )
            elif remover is None:
                named = [k for k in REMOVABLE if " at " not in k]
                self.error(
                    f"'{n.text}' is no statement that can be removed",
                    n.loc,
                    did_you_mean(n.text, named)
                    or "statements removed by name: "
                    + ", ".join([*sorted(named), "teams at N seats", "deal at N seats"]),
                )
            elif not remover(self.d):
                self.error(
                    f"no '{n.text}' to remove: the files extended do not say it",
                    n.loc,
                    "remove only what a file extended says",
                )

    def on_Entry(self, s: ast.Entry) -> None:
        table = self._table(s.loc, f"entry '{s.name.text}'")
        if table is None:
            return
        key = f"{table.kind} {s.name.text}"
        first = self.given.get(key)
        if first is not None:
            self.error(
                f"{table.kind} '{s.name.text}' is defined twice in this file (first at {first})",
                s.name.loc,
                "say it once; to change what a file extends, restate it in the extending file",
            )
            return
        self.given[key] = s.loc
        self.said_once((o.kind, o.loc) for o in s.opts)
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
                value_file=s.loc.file if s.value is not None else existing.value_file,
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
            s.name, s.label, s.value, s.cond, s.cond_text, s.parts, opts, s.loc, s.loc.file
        )
        table.removed.discard(s.name.text)

    def _in_multiplier(self, loc: Loc, what: str) -> bool:
        if self.section != "multiplier":
            self.error(
                f"{what} outside the multiplier section", loc, "put it under a 'multiplier' line"
            )
            return False
        return True

    def restate_multiplier(self) -> None:
        """The first tier (or `+N per`) a file writes replaces the multiplier it extends whole:
        a new x3 tier does not sit beside an old x2 (a section of `remove` lines only edits)."""
        if not self.tiers_restated:
            self.tiers_restated = True
            self.d.tiers.clear()
            self.d.per_card = None

    def on_Tier(self, s: ast.Tier) -> None:
        if self.section == "scoring":  # `x2 if score >= 7`: an unnamed factor on yaku
            cond = s.cond if s.cond is not None else ast.CAnyOf(s.items, s.loc)
            text = s.text or "any of " + ", ".join(ast.set_text(i) for i in s.items)
            self.on_Factor(ast.Factor(s.loc, None, None, s.factor, "yaku", cond, text))
            return
        if self._in_multiplier(s.loc, f"tier x{s.factor}") and self.once(
            f"tier x{s.factor}", f"tier x{s.factor}", s.loc
        ):
            self.restate_multiplier()
            self.d.tiers[s.factor] = s

    def on_PerCard(self, s: ast.PerCard) -> None:
        if self._in_multiplier(s.loc, "'+N per ...'") and self.once(
            "per card", "'+N per ...'", s.loc
        ):
            self.restate_multiplier()
            self.d.per_card = s

    # ------------------------------------------------------------ mechanics
    def on_Mechanic(self, s: ast.Mechanic) -> None:
        """A restated statement replaces the whole of it: `count: round wins` over `count:
        points; always; opponents lose each yaku` keeps none of the options it does not write
        (they take the IR's defaults). A statement is given once per file (per table size for
        `deal at`, `teams at`)."""
        key, words = statement_key(s)
        if not self.once(key, words, s.loc):
            return
        self.said_once((o.kind, o.loc) for o in s.opts if o.loc != s.loc)
        beaten = next((o for o in s.opts if o.kind == "beaten"), None)
        if beaten is not None:  # `if beaten refund half and forfeit`: each part once
            parts = str(beaten.value).split(",")
            if len(set(parts)) < len(parts) or ("no_penalty" in parts and len(parts) > 1):
                self.error(
                    f"'{_written(beaten.loc)}' says a part twice, or 'no penalty' with a penalty",
                    beaten.loc,
                    "a statement says each thing once: keep one of them",
                )
        if s.kind == "deal":
            at = s.opt("seats")
            self.d.deal_sizes[at if isinstance(at, int) else None] = {
                o.kind: o for o in s.opts if o.kind != "seats"
            }
        elif s.kind == "setup":
            self.d.setup = s.names
        elif s.kind == "void":
            self.d.void = s
        elif s.kind == "void_hand":
            self.d.void_hand = s
        elif s.kind == "draw_at_count":
            self.d.draw_at_count = s
        elif s.kind == "show_scores":
            self.d.show_scores = s
        elif s.kind == "liable":
            self.d.liable = s
        elif s.kind == "instant_win":  # the one-line form: the table's entry `instant_win`
            self.d.instant_win = s
            self.instant_wins().entries["instant_win"] = EntryDraft(
                ast.Name("instant_win", s.loc), "Instant win", _value(s), s.cond,
                s.text, (), {}, s.loc,
            )  # fmt: skip
        elif s.kind == "wild":
            self.d.wild = s
        elif s.kind == "lone":
            self.d.lone = s
        elif s.kind == "compensation":
            self.d.compensation = s
        elif s.kind == "teams":
            self.d.teams[s.number("seats")] = s
        elif s.kind == "event":  # a named event: an extending file replaces it by name
            self.d.events[str(s.opt("name"))] = {o.kind: o for o in s.opts}
        else:
            self.d.mechanics[s.kind] = {o.kind: o for o in s.opts}

    # ------------------------------------------------------------ the scoring stage
    def on_ScoringHeader(self, s: ast.ScoringHeader) -> None:
        self.section = "scoring"

    def on_Factor(self, s: ast.Factor) -> None:
        if self.section != "scoring":
            self.error(
                f"factor x{s.factor} outside the scoring section",
                s.loc,
                "put it under a 'scoring' line",
            )
            return
        if s.name is None:  # unnamed: added, never replaced
            self.d.scoring[f"{s.loc.file}:{s.loc.line}"] = s
            return
        self.step(s.name, s)

    def on_Award(self, s: ast.Award) -> None:
        if self.section != "scoring":
            self.error(
                f"award '{s.name.text}' outside the scoring section",
                s.loc,
                "put it under a 'scoring' line",
            )
            return
        self.said_once((o.kind, o.loc) for o in s.opts)
        self.step(s.name, s)

    def step(self, name: ast.Name, s: ast.Factor | ast.Award) -> None:
        """A named step: a new name adds it, an inherited one is replaced whole in its place."""
        if self.once(f"scoring {name.text}", f"scoring step '{name.text}'", name.loc):
            self.d.scoring[name.text] = s

    def remove_steps(self, s: ast.Remove) -> None:
        for n in s.names:
            if n.text not in self.d.scoring:
                named = [k for k in self.d.scoring if ":" not in k]
                self.error(
                    f"no scoring step named '{n.text}' to remove",
                    n.loc,
                    did_you_mean(n.text, named),
                )
            else:
                del self.d.scoring[n.text]

    def on_AtSeats(self, s: ast.AtSeats) -> None:
        """`at N seats:` before a statement that is not a scoring step."""
        self.error(
            f"'at {s.seats} seats:' is written before a scoring step (an award or a factor)",
            s.loc,
            "a deal, the par, the joker and teams say their own table size: deal at 4 seats:"
            " ..., count: par 88 at 3 seats, 66 at 4 seats",
        )

    def on_UnitDecl(self, s: ast.UnitDecl) -> None:
        if not self.once("unit", "the unit", s.loc):
            return
        if self.d.unit is not None and self.d.unit.name.text != s.name.text:
            self.error(
                f"the unit is '{self.d.unit.name.text}' in the files extended, not '{s.name.text}'",
                s.name.loc,
                f"a unit keeps its name; give its new size: unit {self.d.unit.name.text} ="
                f" {s.points} points",
            )
            return
        if s.points < 1:
            self.error(
                "a unit is worth at least 1 point", s.loc, "for example: unit kan = 10 points"
            )
            return
        self.d.unit = s
        self.d.file_units[s.loc.file] = s.points

    def on_EveryWorth(self, s: ast.EveryWorth) -> None:
        """Every entry of the table so far, inherited ones included, takes the value."""
        if not self.once(f"every {s.table}", f"'every {s.table} is worth'", s.loc):
            return
        table = self.d.tables.get(s.table)
        if table is None or not table.entries:
            self.error(
                f"no {s.table} to set: 'every {s.table} is worth' changes the entries written"
                " before it",
                s.loc,
                f"put it after the {s.table} section, or in a file that extends one",
            )
            return
        for name, entry in table.entries.items():
            table.entries[name] = replace(entry, value=s.value, value_file=s.loc.file)


# How a statement is named in messages (`continue`, not `continuation`).
STATEMENT_WORDS = {
    "continuation": "'continue'",
    "first_dealer": "'first dealer'",
    "instant_win": "'instant win'",
    "dealer_captures": "'the dealer captures'",
    "dealer_claim": "'the dealer may take'",
    "liable": "'liable'",
    "sit_out": "'sit out'",
    "void_hand": "'void if a hand has'",
    "draw_at_count": "'the round is a draw if a player has'",
    "show_scores": "'show scores in'",
    "tie_break": "'tie break'",
    "stacks": "'the draw stacks on the pair just made'",
    "bonus_on_pair": "'the bonus cards drawn onto the pair just made stay with it'",
    "bomb": "'bomb'",
    "draw_offer": "'offer a draw'",
    "stock": "'play out the stock'",
    "still_draws": "'the player with no hand card still draws'",
    "instant_all": "'every hand winning at once is a draw'",
}


def _value(s: ast.Mechanic) -> int | ast.Amount:
    """The one-line instant win's value: a number, or a value in the unit."""
    value = s.opt("value")
    assert isinstance(value, int | ast.Amount), "the grammar writes a value"
    return value


def statement_key(s: ast.Mechanic) -> tuple[str, str]:
    """What a mechanic statement sets (one per file), and how to name it."""
    words = STATEMENT_WORDS.get(s.kind, f"'{s.kind}'")
    if s.kind == "event":
        return f"event {s.opt('name')}", f"'event {s.opt('name')}'"
    if s.kind in ("deal", "teams") and isinstance(s.opt("seats"), int):
        at = s.opt("seats")
        return f"{s.kind} at {at}", f"'{s.kind} at {at} seats'"
    return s.kind, words


def _drop_mechanic(kind: str) -> Callable[[Draft], bool]:
    def drop(d: Draft) -> bool:
        return d.mechanics.pop(kind, None) is not None

    return drop


def _drop_mechanics(*kinds: str) -> Callable[[Draft], bool]:
    """A statement and those that only add to it (`hiki`, and `hiki only if ...`)."""

    def drop(d: Draft) -> bool:
        dropped = [d.mechanics.pop(k, None) for k in kinds]
        return dropped[0] is not None

    return drop


def _drop_attr(attr: str) -> Callable[[Draft], bool]:
    def drop(d: Draft) -> bool:
        had = getattr(d, attr) is not None
        setattr(d, attr, None)
        return had

    return drop


def _drop_event(name: str) -> Callable[[Draft], bool]:
    def drop(d: Draft) -> bool:
        return d.events.pop(name, None) is not None

    return drop


def _drop_attr_dict(attr: str) -> Callable[[Draft], bool]:
    """`remove events`: every one inherited."""

    def drop(d: Draft) -> bool:
        had = bool(getattr(d, attr))
        getattr(d, attr).clear()
        return had

    return drop


def _drop_voids(d: Draft) -> bool:
    """`remove void`: no deal is void (the field's rule and the hand's)."""
    had = d.void is not None or d.void_hand is not None
    d.void = d.void_hand = None
    return had


def _drop_teams(d: Draft) -> bool:
    had = bool(d.teams)
    d.teams.clear()
    return had


def _drop_instant_wins(d: Draft) -> bool:
    had = d.instant_win is not None or bool(d.tables.get("instant_wins"))
    d.instant_win = None
    d.tables.pop("instant_wins", None)
    d.mechanics.pop("instant_all", None)  # (what every hand winning at once does, with them)
    return had


def _drop_multiplier(d: Draft) -> bool:
    had = bool(d.tiers) or d.per_card is not None
    d.tiers.clear()
    d.per_card = None
    return had


def _drop_teams_at(n: int) -> Callable[[Draft], bool]:
    def drop(d: Draft) -> bool:
        return d.teams.pop(n, None) is not None

    return drop


def _drop_deal_at(n: int) -> Callable[[Draft], bool]:
    def drop(d: Draft) -> bool:
        return d.deal_sizes.pop(n, None) is not None

    return drop


# `remove NAME` outside a section: the statements an extending file may drop, by name. What a
# removed statement set takes the IR's default. (Seats, deal, count and rounds always hold
# something: they are restated, not removed.)
REMOVABLE: dict[str, Callable[[Draft], bool]] = {
    "hiki": _drop_mechanics("hiki", "hiki_offer"),
    "joker": _drop_mechanic("joker"),
    "dealer captures": _drop_mechanic("dealer_captures"),
    "play out the stock": _drop_mechanic("stock"),
    "still draws": _drop_mechanic("still_draws"),
    "instant draw": _drop_mechanic("instant_all"),
    "the dealer captures": _drop_mechanic("dealer_captures"),
    "the dealer may take": _drop_mechanic("dealer_claim"),
    "fold": _drop_mechanic("fold"),
    "sit out": _drop_mechanic("sit_out"),
    "tie break": _drop_mechanic("tie_break"),
    "continue": _drop_mechanic("continuation"),
    "first dealer": _drop_mechanic("first_dealer"),
    "declare": _drop_mechanic("declare"),
    "stacks": _drop_mechanic("stacks"),
    "bonus_on_pair": _drop_mechanic("bonus_on_pair"),
    "bomb": _drop_mechanic("bomb"),
    "draw offer": _drop_mechanic("draw_offer"),
    "events": _drop_attr_dict("events"),
    "liability": _drop_attr("liable"),
    "liable": _drop_attr("liable"),
    "wild": _drop_attr("wild"),
    "lone": _drop_attr("lone"),
    "compensation": _drop_attr("compensation"),
    "void": _drop_voids,
    "void field": _drop_attr("void"),
    "void hand": _drop_attr("void_hand"),
    "draw": _drop_attr("draw_at_count"),
    "show scores": _drop_attr("show_scores"),
    "setup": _drop_attr("setup"),
    "teams": _drop_teams,
    "instant win": _drop_instant_wins,
    "instant wins": _drop_instant_wins,
    "multiplier": _drop_multiplier,
    **{f"teams at {n} seats": _drop_teams_at(n) for n in range(2, 13)},
    **{f"deal at {n} seats": _drop_deal_at(n) for n in range(2, 13)},
}
