"""Parse tree -> syntax tree (rulekit.lang.ast), every node with its location.

A grammar rule is handled by the method of its name, or, for an option that is one fixed word
or number, by the tables below. `__default__` raises on any other rule, and a test checks that
every rule of the grammar is handled, so the grammar and this file cannot drift apart silently.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from lark import Token, Transformer, Tree, v_args
from lark.tree import Meta

from rulekit.errors import Loc
from rulekit.lang import ast


def _strip(token: Token) -> str:
    return str(token)[1:-1]


# Mechanic options: grammar rule -> (option, value). The option names are those of the IR
# model's fields; a value of None means the number written (`fee 10`).
OPTIONS: dict[str, tuple[str, int | str | None]] = {
    "seats_max": ("max", None),
    "seats_play": ("active", None),
    "fold_fee": ("fee", None),
    "fee_times_multiplier": ("times_multiplier", True),
    "fee_flat": ("times_multiplier", False),
    "forced_free": ("forced_fee", 0),
    "forced_pay": ("forced_fee", None),
    "starts_at_dealer": ("start", "dealer"),
    "starts_after_dealer": ("start", "after_dealer"),
    "paid_when_made": ("paid", "made"),
    "paid_when_stopping": ("paid", "stop"),
    "keep": ("if_unfinished", "keep"),
    "pay_half": ("if_unfinished", "pay_half"),
    "earn_half": ("if_unfinished", "earn_half"),
    "forfeit": ("if_unfinished", "forfeit"),
    "outstopped_forfeit": ("if_other_stops", "forfeit"),
    "outstopped_keep": ("if_other_stops", "keep"),
    "koi_multiplier": ("multiplier_per_yaku", True),
    "per_continue": ("per_continue", None),
    "play_on": ("ends_round", False),
    "difference": ("method", "difference"),
    "points_score": ("method", "points"),
    "round_wins": ("method", "round_wins"),
    "no_count": ("method", "none"),
    "only_without_yaku": ("only_without_yaku", True),
    "always": ("only_without_yaku", False),
    "opponents_lose": ("opponents_lose", True),
    "makers_score": ("makers_score", True),
    "teams_pool": ("team_cards", "pooled"),
    "teams_apart": ("team_cards", "apart"),
    "tie_draw": ("tie", "draw"),
    "tie_first": ("tie", "first"),
    "best_net_wins": ("winner", "net"),
    "best_count_wins": ("winner", "count"),
    "round_paid_by_others": ("round_paid", "others"),
    "winner_deals": ("winner_deals", True),
    "drawn_keeps": ("drawn_keeps_dealer", True),
    "dealer_rotates": ("rotate", True),
    "wild_any": ("any_target", True),
    "wild_collects": ("collects_month", True),
    "wild_respects_hiki": ("respects_hiki", True),
    "wild_lay_when_blocked": ("lay_when_blocked", True),
    "wild_not_own_month": ("not_own_month", True),
    "wild_taken_by_draw": ("taken_by_draw", True),
    "wild_sweeps": ("sweeps_when_last", True),
    "wild_drawn_any": ("drawn_any_target", True),
    "wild_last_to_holder": ("last_to_holder", True),
    # seats and roles: who sits out, who takes the fold fees, when the fold is decided
    "comp_by_players": ("payers", "players"),
    "comp_by_non_dealers": ("payers", "non_dealers"),
    "sit_out_fold": ("sit_out", "fold"),
    "sit_out_after_dealer": ("sit_out", "after_dealer"),
    "sit_out_dealer": ("sit_out", "dealer"),
    "sit_out_loser": ("sit_out", "loser"),
    "sit_out_winner": ("sit_out", "winner"),
    "sit_out_in_turn": ("sit_out", "in_turn"),
    "fee_to_winner": ("payee", "winner"),
    "fee_to_players": ("payee", "active"),
    "fee_to_dealer": ("payee", "dealer"),
    "fee_to_bank": ("payee", "bank"),
    "fold_before_deal": ("before_deal", True),
    "fold_after_deal": ("before_deal", False),
    "paid_at_count": ("paid", "count"),
    # a declaration: who may make it, when, and its stake
    "decl_by_dealer": ("by", "dealer"),
    "decl_by_any": ("by", "any"),
    "decl_before_deal": ("moment", "before_deal"),
    "decl_after_hand": ("moment", "after_hand"),
    "decl_before_play": ("moment", "before_play"),
    "decl_award": ("award", None),
    "decl_penalty": ("penalty", None),
    "decl_must_win": ("success", "wins"),
    "decl_must_yaku": ("success", "yaku"),
    "decl_must_join": ("must_join", True),
    "decl_from_folders": ("from_each_folder", None),
    "decl_times": ("times_multiplier", True),
    "decl_flat": ("times_multiplier", False),
    # an event during play: what happens, when it counts, and its effects
    "ev_sweep": ("kind", "sweep"),
    "ev_stack_left": ("kind", "stack_left"),
    "ev_stack_taken": ("kind", "stack_taken"),
    "ev_pair_twice": ("kind", "pair_twice"),
    "ev_draw_takes_play": ("kind", "draw_takes_play"),
    "ev_bomb": ("kind", "bomb"),
    "bomb_skips": ("skips", None),
    "refuser_pays_all": ("refuser_pays", "for_all"),
    "ev_steal": ("steal", None),
    "ev_first_turn": ("first_turn", True),
    "ev_not_last_turn": ("not_last_turn", True),
    "ev_in_a_row": ("in_a_row", True),
    "outstopped_pays_all": ("outstopped_pays", "first"),
    "ev_wins_round": ("outcome", "wins_round"),
}

# Table header options (`best only`) and entry options without an argument (`at count`).
TABLE_OPTIONS = {
    "best_only": "best",
    "all_add": "all",
    "between_all": "between_all",
    "between_highest": "between_highest",
}
ENTRY_FLAGS = (
    "at_count", "paid_to_dealer", "cancels",
    "cancels_every_yaku", "cancels_others_yaku", "wins_round",  # (issue 25)
    "shown_entry",  # (issue 25: Hana-Awase's chaff teyaku)
)  # fmt: skip

# The scoring stage: the game's target and start, and split tables.
OPTIONS.update({"until_score": ("target", None), "start_at": ("start", None)})
TABLE_OPTIONS.update({"split_payers": "split", "each_payer_pays": "each_payer"})


class _ToAst(Transformer[Token, list[ast.Stmt]]):
    def __init__(self, filename: str, text: str) -> None:
        super().__init__()
        self.filename = filename
        self.text = text
        self.lines = text.split("\n")  # as Lark counts lines (str.splitlines splits at more)

    # ------------------------------------------------------------ helpers
    def loc(self, meta: Meta) -> Loc:
        if getattr(meta, "empty", True):
            return Loc(self.filename, 1, 1)
        width = 1
        if meta.line == meta.end_line:
            width = max(1, meta.end_column - meta.column)
        else:
            line = self.lines[meta.line - 1]
            width = max(1, len(line.rstrip()) - meta.column + 1)
        return Loc(self.filename, meta.line, meta.column, width)

    def tok_loc(self, token: Token) -> Loc:
        return Loc(self.filename, token.line or 1, token.column or 1, max(1, len(token)))

    def name(self, token: Token) -> ast.Name:
        return ast.Name(str(token), self.tok_loc(token))

    def source_text(self, meta: Meta) -> str:
        return " ".join(self.text[meta.start_pos : meta.end_pos].split())

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        rule = str(data)
        if rule in OPTIONS:
            kind, value = OPTIONS[rule]
            return self.opt(meta, kind, _number_or_amount(children[0]) if value is None else value)
        if rule in TABLE_OPTIONS:
            return ast.TableOpt(TABLE_OPTIONS[rule], self.loc(meta))
        if rule in ENTRY_FLAGS:
            return ast.EntryOpt(rule, self.loc(meta))
        raise NotImplementedError(
            f"the rule-file transformer does not handle grammar rule {data!r}"
        )

    # ------------------------------------------------------------ file
    def start(self, children: list[ast.Stmt]) -> list[ast.Stmt]:
        return [c for c in children if isinstance(c, ast.Stmt)]

    @v_args(meta=True)
    def game(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.Game(self.loc(meta), _strip(c[0]), _strip(c[1]) if len(c) > 1 else None)

    @v_args(meta=True)
    def source(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.Source(self.loc(meta), _strip(c[0]))

    @v_args(meta=True)
    def extends(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.Extends(self.loc(meta), _strip(c[0]))

    @v_args(meta=True)
    def deck_ref(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.DeckRef(self.loc(meta), _strip(c[0]))

    @v_args(meta=True)
    def deck_name(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.DeckName(self.loc(meta), _strip(c[0]))

    # ------------------------------------------------------------ deck
    def name_list(self, c: list[Token]) -> tuple[ast.Name, ...]:
        return tuple(self.name(t) for t in c)

    month_list = name_list  # month numbers and names alike

    @v_args(meta=True)
    def classes(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Classes(self.loc(meta), c[0])

    @v_args(meta=True)
    def tags(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Tags(self.loc(meta), c[0])

    @v_args(meta=True)
    def month(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        number, name = int(c[0]), self.name(c[1])
        label = None
        aliases: tuple[ast.Name, ...] = ()
        for extra in c[2:]:
            if isinstance(extra, Token):
                label = _strip(extra)
            else:
                aliases = extra
        return ast.MonthDecl(self.loc(meta), number, name, label, aliases)

    @v_args(meta=True)
    def card(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.CardDecl(
            self.loc(meta),
            int(c[0]),
            self.name(c[1]),
            _strip(c[2]),
            self.name(c[3]),
            tuple(self.name(t) for t in c[4:]),
        )

    def expect_item(self, c: list[Token]) -> tuple[ast.Name, int]:
        return (self.name(c[0]), int(c[1]))

    point_item = expect_item

    @v_args(meta=True)
    def expect(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Expect(self.loc(meta), tuple(c))

    @v_args(meta=True)
    def bonus_card(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.BonusDecl(
            self.loc(meta), int(c[0]), self.name(c[1]), _strip(c[2]), int(c[3]), self.name(c[4])
        )

    @v_args(meta=True)
    def without(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Without(self.loc(meta), tuple(c[0]))

    # ------------------------------------------------------------ classes, views, sets
    @v_args(meta=True)
    def points(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Points(self.loc(meta), tuple(c))

    def reclass(self, c: list[Any]) -> ast.Reclass:
        also = len(c) == 3
        return ast.Reclass(c[0], also, self.name(c[-1]))

    @v_args(meta=True)
    def treat(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Treat(self.loc(meta), c[0])

    @v_args(meta=True)
    def treat_weighted(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Weighted(self.loc(meta), c[0], int(c[1]), self.name(c[2]))

    @v_args(meta=True)
    def owners_choice(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        expr, first, second = c[0], c[1], c[-2]
        weight = int(c[2]) if len(c) == 5 else 1  # `or 2 plains`; `or plain`: one
        return ast.OwnersChoice(self.loc(meta), expr, self.name(first), weight, self.name(second))

    @v_args(meta=True)
    def view(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name = self.name(c[0])
        rest = c[1:]
        label = None
        if rest and isinstance(rest[0], Token):
            label = _strip(rest[0])
            rest = rest[1:]
        return ast.ViewDecl(self.loc(meta), name, label, tuple(rest))

    @v_args(meta=True)
    def set_decl(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name = self.name(c[0])
        label = _strip(c[1]) if len(c) == 3 else None
        return ast.SetDecl(self.loc(meta), name, label, c[-1])

    # ------------------------------------------------------------ sections
    @v_args(meta=True)
    def table_view(self, meta: Meta, c: list[Token]) -> ast.TableOpt:
        return ast.TableOpt("view", self.loc(meta), self.name(c[0]))

    @v_args(meta=True)
    def teyaku_header(self, meta: Meta, c: list[ast.TableOpt]) -> ast.Stmt:
        return ast.TableHeader(self.loc(meta), "teyaku", tuple(c))

    @v_args(meta=True)
    def yaku_header(self, meta: Meta, c: list[ast.TableOpt]) -> ast.Stmt:
        return ast.TableHeader(self.loc(meta), "yaku", tuple(c))

    @v_args(meta=True)
    def multiplier_header(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.MultiplierHeader(self.loc(meta))

    @v_args(meta=True)
    def exclusive(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Exclusive(self.loc(meta), c[0])

    @v_args(meta=True)
    def remove(self, meta: Meta, c: list[Token | ast.Name]) -> ast.Stmt:
        names = tuple(t if isinstance(t, ast.Name) else self.name(t) for t in c)
        return ast.Remove(self.loc(meta), names)

    @v_args(meta=True)
    def phrase(self, meta: Meta, c: list[Token]) -> ast.Name:
        """A name of several words (`remove instant wins`), one name located over them all."""
        return ast.Name(" ".join(str(t) for t in c), self.loc(meta))

    # ------------------------------------------------------------ entries
    @v_args(meta=True)
    def value(self, meta: Meta, c: list[Token]) -> int | ast.Amount:
        """A value in points (`10`), or in the declared unit (`2 kan`)."""
        if len(c) > 1:
            return ast.Amount(int(c[0]), self.name(c[1]), self.loc(meta))
        return int(c[0])

    amount = points_amount = value

    @v_args(meta=True)
    def body_cond(self, meta: Meta, c: list[Any]) -> tuple[str, ast.Cond, str]:
        text = self.source_text(meta)
        return ("cond", c[0], text[1:].strip() if text.startswith(":") else text)

    def body_parts(self, c: list[Token]) -> tuple[str, tuple[ast.Name, ...]]:
        return ("parts", tuple(self.name(t) for t in c))

    @v_args(meta=True)
    def unless(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("unless", self.loc(meta), names=c[0])

    @v_args(meta=True)
    def bonus(self, meta: Meta, c: list[Token]) -> ast.EntryOpt:
        return ast.EntryOpt("bonus", self.loc(meta), amount=_number_or_amount(c[0]))

    @v_args(meta=True)
    def entry(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name = self.name(c[0])
        label: str | None = None
        value: int | ast.Amount | None = None
        cond: ast.Cond | None = None
        cond_text: str | None = None
        parts: tuple[ast.Name, ...] = ()
        opts: list[ast.EntryOpt] = []
        for item in c[1:]:
            if isinstance(item, Token):
                label = _strip(item)
            elif isinstance(item, int | ast.Amount):
                value = item
            elif isinstance(item, ast.EntryOpt):
                opts.append(item)
            elif item[0] == "cond":
                cond, cond_text = item[1], item[2]
            else:
                parts = item[1]
        return ast.Entry(self.loc(meta), name, label, value, cond, cond_text, parts, tuple(opts))

    def carry(self, c: list[Token]) -> int:
        return int(c[0])

    @v_args(meta=True)
    def tier(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`x2 if any of ...` keeps its old meaning (a set of cards, any one on the field);
        any other condition is kept whole."""
        factor = int(str(c[0])[1:])
        carry = c[2] if len(c) > 2 else None
        if isinstance(c[1], ast.CAnyOf):
            return ast.Tier(self.loc(meta), factor, c[1].items, carry)
        text = self.source_text(meta).split(" if ", 1)[-1]
        if carry is not None:
            text = text.rsplit(";", 1)[0].strip()
        return ast.Tier(self.loc(meta), factor, (), carry, cond=c[1], text=text)

    @v_args(meta=True)
    def instant_wins_header(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.InstantWinsHeader(self.loc(meta))

    @v_args(meta=True)
    def per_card(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.PerCard(self.loc(meta), int(c[0]), c[1])

    # ------------------------------------------------------------ conditions
    @v_args(meta=True)
    def or_(self, meta: Meta, c: list[ast.Cond]) -> ast.Cond:
        return c[0] if len(c) == 1 else ast.COr(tuple(c), self.loc(meta))

    @v_args(meta=True)
    def and_(self, meta: Meta, c: list[ast.Cond]) -> ast.Cond:
        return c[0] if len(c) == 1 else ast.CAnd(tuple(c), self.loc(meta))

    @v_args(meta=True)
    def not_(self, meta: Meta, c: list[ast.Cond]) -> ast.Cond:
        return ast.CNot(c[0], self.loc(meta))

    @v_args(meta=True)
    def all_of(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CAllOf(c[0], self.loc(meta))

    @v_args(meta=True)
    def any_of(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CAnyOf(c[0], self.loc(meta))

    @v_args(meta=True)
    def none_of(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CNoneOf(c[0], self.loc(meta))

    @v_args(meta=True)
    def at_least_of(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CAtLeast(int(c[0]), c[1], self.loc(meta))

    def cmp(self, c: list[Token]) -> str:
        op = str(c[0])
        return "=" if op == "==" else op

    @v_args(meta=True)
    def compare(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CCompare(c[0], c[1], int(c[2]), self.loc(meta))

    @v_args(meta=True)
    def rest(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CRest(c[0], self.loc(meta))

    def one(self, c: list[Any]) -> int:
        return 1

    def quantity(self, c: list[Token]) -> int:
        return int(c[0])

    @v_args(meta=True)
    def shape(self, meta: Meta, c: list[Any]) -> ast.Cond:
        count = c[0]
        size = int(c[1])
        months = c[2] if len(c) > 2 else ()
        return ast.CShape(count, size, months, self.loc(meta))

    @v_args(meta=True)
    def points_cmp(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CPoints(c[0], int(c[1]), self.loc(meta))

    @v_args(meta=True)
    def everyone(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CEveryone(c[0], self.loc(meta))

    @v_args(meta=True)
    def dealt(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CDealt(c[0], self.loc(meta))

    @v_args(meta=True)
    def captured_dealt(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CDealt(c[0], self.loc(meta), captured=True)

    # ------------------------------------------------------------ conditions on the round
    @v_args(meta=True)
    def round_cmp(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CRound(c[0], int(c[1]), self.loc(meta))

    @v_args(meta=True)
    def all_round_month(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CRoundMonth(0, self.loc(meta), all=True)

    @v_args(meta=True)
    def n_round_month(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CRoundMonth(int(c[0]), self.loc(meta))

    @v_args(meta=True)
    def is_dealer(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CDealer(self.loc(meta))

    @v_args(meta=True)
    def is_second(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CSeat(2, self.loc(meta))

    @v_args(meta=True)
    def is_third(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CSeat(3, self.loc(meta))

    def times(self, c: list[Token]) -> int:
        return int(c[0])

    @v_args(meta=True)
    def continued(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CContinued("self", c[0] if c else 1, self.loc(meta))

    @v_args(meta=True)
    def opponent_continued(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CContinued("opponent", c[0] if c else 1, self.loc(meta))

    @v_args(meta=True)
    def score_cmp(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CScore(c[0], int(c[1]), self.loc(meta))

    @v_args(meta=True)
    def field_had(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CFieldHad(c[0], self.loc(meta))

    @v_args(meta=True)
    def payer_has(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CPayerHas(c[0], self.loc(meta))

    @v_args(meta=True)
    def nobody_won(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CNobodyWon(self.loc(meta))

    @v_args(meta=True)
    def drawn_before(self, meta: Meta, c: list[Any]) -> ast.Cond:
        return ast.CDrawnBefore(c[0], self.loc(meta))

    @v_args(meta=True)
    def declared(self, meta: Meta, c: list[Token]) -> ast.Cond:
        return ast.CDeclared(str(c[0]), self.loc(meta))

    # ------------------------------------------------------------ sets
    def set_name(self, c: list[Token]) -> ast.SetExpr:
        return ast.SName(self.name(c[0]))

    def set_card(self, c: list[Token]) -> ast.SetExpr:
        return ast.SCard(int(c[0]), self.tok_loc(c[0]))

    @v_args(meta=True)
    def set_month(self, meta: Meta, c: list[Token]) -> ast.SetExpr:
        return ast.SMonth(self.name(c[0]), self.loc(meta))

    @v_args(meta=True)
    def union(self, meta: Meta, c: list[Any]) -> ast.SetExpr:
        return ast.SUnion(c[0], c[1], self.loc(meta))

    @v_args(meta=True)
    def minus(self, meta: Meta, c: list[Any]) -> ast.SetExpr:
        return ast.SMinus(c[0], c[1], self.loc(meta))

    def set_list(self, c: list[ast.SetExpr]) -> tuple[ast.SetExpr, ...]:
        return tuple(c)

    # ------------------------------------------------------------ mechanics
    def opt(self, meta: Meta, kind: str, value: int | str | ast.Amount | None = None) -> ast.Opt:
        return ast.Opt(kind, self.loc(meta), value)

    def number(self, token: Token, kind: str) -> ast.Opt:
        """An option that is the number written, located at the number."""
        return ast.Opt(kind, self.tok_loc(token), int(token))

    def mechanic(self, meta: Meta, kind: str, opts: list[Any], **extra: Any) -> ast.Stmt:
        return ast.Mechanic(
            self.loc(meta), kind, tuple(o for o in opts if isinstance(o, ast.Opt)), **extra
        )

    @v_args(meta=True)
    def seats(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "seats", [self.number(c[0], "min"), *c[1:]])

    @v_args(meta=True)
    def deal_sizes(self, meta: Meta, c: list[Token]) -> list[ast.Opt]:
        return [self.number(c[0], "hand"), self.number(c[1], "field")]

    @v_args(meta=True)
    def deal(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "deal", c[0])

    @v_args(meta=True)
    def deal_at(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "deal", [self.opt(meta, "seats", int(c[0])), *c[1]])

    @v_args(meta=True)
    def by_dice(self, meta: Meta, c: list[Any]) -> list[ast.Opt]:
        return [self.opt(meta, "method", "dice"), self.opt(meta, "best_card_breaks_ties", False)]

    @v_args(meta=True)
    def by_draw(self, meta: Meta, c: list[Any]) -> list[ast.Opt]:
        best = bool(c)  # `then best card`
        return [self.opt(meta, "method", "draw"), self.opt(meta, "best_card_breaks_ties", best)]

    def best_card(self, c: list[Any]) -> bool:
        return True

    @v_args(meta=True)
    def first_dealer(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "first_dealer", c[0])

    @v_args(meta=True)
    def setup(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "setup", [], names=c[0])

    @v_args(meta=True)
    def fold(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "fold", _numbered_offers(c))

    def offer_join(self, c: list[Any]) -> str:
        return "join"

    def offer_fold(self, c: list[Any]) -> str:
        return "fold"

    @v_args(meta=True)
    def fold_offer(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`fold only if not dealer`: as `offer` (the option, then its condition)."""
        return ast.Opt("offer", self.loc(meta), f"{c[0]}:", c[1])

    @v_args(meta=True)
    def sit_out(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "sit_out", c)

    @v_args(meta=True)
    def declare(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`declare mizuten "Mizuten": by the dealer; ...`: its name (and label) as options."""
        opts: list[Any] = [ast.Opt("name", self.tok_loc(c[0]), str(c[0]))]
        for item in c[1:]:
            if isinstance(item, Token):
                opts.append(ast.Opt("label", self.tok_loc(item), _strip(item)))
            elif isinstance(item, list):  # `by a player who holds ...`: who, and his offer
                opts.extend(item)
            else:
                opts.append(item)
        return self.mechanic(meta, "declare", _numbered_offers(opts))

    @v_args(meta=True)
    def decl_by_holder(self, meta: Meta, c: list[Any]) -> list[ast.Opt]:
        """`by a player who holds a month of 3`: any player, offered it only when his hand
        makes the condition (a condition on declaring, as `only if`)."""
        return [self.opt(meta, "by", "any"), ast.Opt("offer", self.loc(meta), "declare:", c[0])]

    @v_args(meta=True)
    def decl_factor(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`x2 on his winnings`: the factor, as a number."""
        return ast.Opt("factor", self.loc(meta), int(str(c[0])[1:]))

    @v_args(meta=True)
    def decl_factor_per_month(self, meta: Meta, c: list[Any]) -> list[ast.Opt]:
        """`x2 on his winnings for each month of 3`: the factor, and the month's size."""
        return [
            ast.Opt("factor", self.loc(meta), int(str(c[0])[1:])),
            ast.Opt("factor_per_month", self.tok_loc(c[1]), int(c[1])),
        ]

    @v_args(meta=True)
    def decl_offer(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`only if round >= 2`: a condition on declaring, as `offer` (the option, then it)."""
        return ast.Opt("offer", self.loc(meta), "declare:", c[0])

    @v_args(meta=True)
    def stacks(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "stacks", [self.opt(meta, "stacks", True)])

    @v_args(meta=True)
    def bonus_on_pair(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`the bonus cards drawn onto the pair just made stay with it if it becomes a stack`."""
        return self.mechanic(meta, "bonus_on_pair", [self.opt(meta, "bonus_on_pair", "stays")])

    @v_args(meta=True)
    def bomb(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`bomb: 3 of a month from the hand take the rest from the field; ...`."""
        return self.mechanic(meta, "bomb", [self.number(c[0], "hand"), *c[1:]])

    @v_args(meta=True)
    def draw_offer(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`offer a draw: when he has no safe play; the refuser pays for all if another wins`."""
        return self.mechanic(meta, "draw_offer", [self.opt(meta, "offered", True), *c])

    @v_args(meta=True)
    def event(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`event jjok "Jjok": the draw takes the card played; each opponent gives a plain`:
        its name (and label) as options, as a declaration's."""
        opts: list[Any] = [ast.Opt("name", self.tok_loc(c[0]), str(c[0]))]
        for item in c[1:]:
            if isinstance(item, Token):
                opts.append(ast.Opt("label", self.tok_loc(item), _strip(item)))
            elif isinstance(item, list):  # (a steal and how it grows)
                opts.extend(item)
            else:
                opts.append(item)
        return self.mechanic(meta, "event", opts)

    @v_args(meta=True)
    def ev_give(self, meta: Meta, c: list[Token]) -> ast.Opt:
        """`each opponent gives a plain`: the class, located at its name."""
        return ast.Opt("give", self.tok_loc(c[0]), str(c[0]))

    @v_args(meta=True)
    def ev_steal_doubling(self, meta: Meta, c: list[Any]) -> list[ast.Opt]:
        """`each opponent pays 3, doubled each time`: the steal, and how it grows."""
        return [
            self.opt(meta, "steal", _number_or_amount(c[0])),
            self.opt(meta, "steal_grows", "doubling"),
        ]

    @v_args(meta=True)
    def ev_row_with(self, meta: Meta, c: list[Token]) -> ast.Opt:
        """`turns of first_ddadak count in the row`: the events' names, located at the first."""
        return ast.Opt("row_with", self.tok_loc(c[0]), ",".join(str(t) for t in c))

    @v_args(meta=True)
    def ev_time(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`only the third time`: the time, as a number."""
        return self.opt(meta, "time", int(c[0]))

    def ord_2(self, c: list[Any]) -> int:
        return 2

    def ord_3(self, c: list[Any]) -> int:
        return 3

    def ord_4(self, c: list[Any]) -> int:
        return 4

    def ord_5(self, c: list[Any]) -> int:
        return 5

    @v_args(meta=True)
    def ev_factor(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`x2 on his winnings`: the factor, as a number."""
        return ast.Opt("factor", self.loc(meta), int(str(c[0])[1:]))

    @v_args(meta=True)
    def tie_break(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`tie break: A, then B`: one option, its parts in order (as `if beaten`'s)."""
        return self.mechanic(meta, "tie_break", [self.opt(meta, "tie_break", ",".join(c))])

    def tb_round_wins(self, c: list[Any]) -> str:
        return "round_wins"

    def tb_dealer_order(self, c: list[Any]) -> str:
        return "dealer_order"

    @v_args(meta=True)
    def joker(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return self.mechanic(meta, "joker", [self.opt(meta, "seats", int(c[0]))])

    @v_args(meta=True)
    def void(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        return ast.Mechanic(self.loc(meta), "void", (), cond=c[0], text=text)

    @v_args(meta=True)
    def void_hand(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        return ast.Mechanic(self.loc(meta), "void_hand", (), cond=c[0], text=text)

    @v_args(meta=True)
    def draw_at_count(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        return ast.Mechanic(self.loc(meta), "draw_at_count", (), cond=c[0], text=text)

    def refund_half(self, c: list[Any]) -> str:
        return "refund_half"

    def pay_for_all(self, c: list[Any]) -> str:
        return "pay_for_all"

    def beaten_forfeit(self, c: list[Any]) -> str:
        return "forfeit"

    def no_penalty(self, c: list[Any]) -> str:
        return "no_penalty"  # (sets nothing: written, so that a penalty beside it is refused)

    @v_args(meta=True)
    def if_beaten(self, meta: Meta, c: list[str]) -> ast.Opt:
        """The whole `if beaten` clause is one option: a house rule replaces it whole."""
        return self.opt(meta, "beaten", ",".join(x for x in c if x))

    def if_unfinished(self, c: list[ast.Opt]) -> ast.Opt:
        return c[0]

    def if_other_stops(self, c: list[ast.Opt]) -> ast.Opt:
        return c[0]

    @v_args(meta=True)
    def continuation(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        opts: list[Any] = [self.opt(meta, "allowed", True)]
        for item in c:
            if isinstance(item, Token):
                opts.append(self.opt(meta, "label", _strip(item)))
            else:
                opts.append(item)
        return self.mechanic(meta, "continuation", _numbered_offers(opts))

    def offer_stop(self, c: list[Any]) -> str:
        return "stop"

    def offer_continue(self, c: list[Any]) -> str:
        return "continue"

    def offer_choice(self, c: list[Any]) -> str:
        return "choice"

    def offer_if(self, c: list[Any]) -> ast.Cond:
        return cast(ast.Cond, c[0])

    def offer_once(self, c: list[Any]) -> str:
        return "once_per_round"

    def offer_hand_not_empty(self, c: list[Any]) -> str:
        return "hand_not_empty"

    @v_args(meta=True)
    def offer(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`stop only if score >= 2`, `continue at most once per round`: the option's name and
        its limit as the value (`continue:once_per_round`), a condition as the cond."""
        option, rule = c
        if isinstance(rule, str):
            return ast.Opt("offer", self.loc(meta), f"{option}:{rule}")
        return ast.Opt("offer", self.loc(meta), f"{option}:", rule)

    def bar_declared(self, c: list[Any]) -> str:
        return "declared"

    def bar_left(self, c: list[Any]) -> str:
        return "left"

    @v_args(meta=True)
    def after_loss(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "after_loss", str(c[0]))

    @v_args(meta=True)
    def no_continue(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "continuation", [self.opt(meta, "allowed", False)])

    @v_args(meta=True)
    def liable(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "liable", [self.opt(meta, "min_hand", int(c[1]))], names=c[0])

    @v_args(meta=True)
    def par(self, meta: Meta, c: list[ast.Opt]) -> list[ast.Opt]:
        return [self.opt(meta, "method", "par"), *c]

    @v_args(meta=True)
    def par_value(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`88` (the par at any table size) or `66 at 4 seats` (option `par@4`)."""
        value = _number_or_amount(c[0])
        return self.opt(meta, f"par@{int(c[1])}" if len(c) > 1 else "par", value)

    @v_args(meta=True)
    def at_seats(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`at 5 seats: STEP`: a scoring step played only at that table size (the draft
        refuses any other statement)."""
        seats, stmt = int(c[0]), c[1]
        if isinstance(stmt, ast.Factor | ast.Award):
            return replace(stmt, seats=seats, seats_loc=self.loc(meta))
        return ast.AtSeats(self.loc(meta), seats, stmt)

    @v_args(meta=True)
    def count(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        opts: list[Any] = []
        for item in c:
            opts.extend(item if isinstance(item, list) else [item])
        return self.mechanic(meta, "count", opts)

    @v_args(meta=True)
    def per_points(self, meta: Meta, c: list[Token]) -> list[ast.Opt]:
        """`1 per 10 points`: the method, the value of a step and the card points of one."""
        return [
            self.opt(meta, "method", "per_points"),
            self.opt(meta, "step_value", int(c[0])),
            self.opt(meta, "step_points", int(c[1])),
        ]

    @v_args(meta=True)
    def round_wins_by(self, meta: Meta, c: list[ast.Opt]) -> list[ast.Opt]:
        """`round wins by yaku points, then plains, then points`: the method, then each
        criterion as an option of its own (`round_by#0`, ...), located where it is written."""
        keys = [ast.Opt(f"round_by#{k}", o.loc, o.value) for k, o in enumerate(c)]
        return [self.opt(meta, "method", "round_wins"), *keys]

    @v_args(meta=True)
    def key_yaku(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "round_by", "yaku")

    @v_args(meta=True)
    def key_points(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "round_by", "points")

    @v_args(meta=True)
    def key_cards(self, meta: Meta, c: list[Token]) -> ast.Opt:
        return self.opt(meta, "round_by", f"cards:{c[0]}")

    @v_args(meta=True)
    def instant_win(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        opts = (self.opt(meta, "value", _number_or_amount(c[0])),)
        return ast.Mechanic(self.loc(meta), "instant_win", opts, cond=c[1], text=text)

    @v_args(meta=True)
    def compensation(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`compensation: 2 per card of lights + sake; x2 if he holds a month of 3; ...`: the
        amount an option, the cards the statement's set, the factor's condition its own."""
        opts = [self.opt(meta, "per_card", _number_or_amount(c[0])), *c[2:]]
        factor = next((o for o in opts if o.kind == "factor"), None)
        cond = factor.cond if factor is not None else None
        return ast.Mechanic(self.loc(meta), "compensation", tuple(opts), cards=(c[1],), cond=cond)

    @v_args(meta=True)
    def comp_factor(self, meta: Meta, c: list[Any]) -> ast.Opt:
        """`x2 if he holds a month of 3`: the factor, as a number, with its condition."""
        return ast.Opt("factor", self.loc(meta), int(str(c[0])[1:]), c[1])

    @v_args(meta=True)
    def play_out_stock(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return self.mechanic(meta, "stock", [self.opt(meta, "played_out", True)])

    @v_args(meta=True)
    def still_draws(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        """`the player with no hand card still draws` (Hana-Awase's shown chaff teyaku)."""
        return self.mechanic(meta, "still_draws", [self.opt(meta, "still_draws", True)])

    @v_args(meta=True)
    def instant_all_draw(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        """`every hand winning at once is a draw` (Go-Stop's GS 12)."""
        return self.mechanic(meta, "instant_all", [self.opt(meta, "instant_all", "draw")])

    @v_args(meta=True)
    def dealer_captures(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return self.mechanic(meta, "dealer_captures", [self.opt(meta, "size", int(c[0]))])

    @v_args(meta=True)
    def dealer_claim(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        """`the dealer may take 2 of a month of 3 on the field and play second` (TE 10)."""
        return self.mechanic(
            meta, "dealer_claim", [self.number(c[0], "take"), self.number(c[1], "size")]
        )

    @v_args(meta=True)
    def wild(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Mechanic(self.loc(meta), "wild", tuple(c[1:]), cards=(c[0],))

    @v_args(meta=True)
    def lone(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Mechanic(self.loc(meta), "lone", (), cards=(c[0],))

    @v_args(meta=True)
    def hiki(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "hiki", [self.opt(meta, "enabled", True)])

    @v_args(meta=True)
    def hiki_offer(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`hiki only if not dealer`: a statement of its own (a house file adds it to the hiki
        of the file it extends), its one offer."""
        offer = ast.Opt("offer 1", self.loc(meta), "hiki:", c[0])
        return self.mechanic(meta, "hiki_offer", [offer])

    @v_args(meta=True)
    def swap_offer(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`swap only if round >= 2`: as hiki_offer, for the setup's swap."""
        offer = ast.Opt("offer 1", self.loc(meta), "swap:", c[0])
        return self.mechanic(meta, "swap_offer", [offer])

    def team_pairs(self, c: list[Any]) -> int:
        return 2

    def team_threes(self, c: list[Any]) -> int:
        return 3

    @v_args(meta=True)
    def teams(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        opts = (self.opt(meta, "seats", int(c[0])), self.opt(meta, "size", c[1]))
        return ast.Mechanic(self.loc(meta), "teams", opts)

    @v_args(meta=True)
    def rounds(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "rounds", [self.number(c[0], "rounds"), *c[1:]])

    # ------------------------------------------------------------ the scoring stage
    @v_args(meta=True)
    def scoring_header(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.ScoringHeader(self.loc(meta))

    @v_args(meta=True)
    def every_teyaku_worth(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.EveryWorth(self.loc(meta), "teyaku", c[0])

    @v_args(meta=True)
    def every_yaku_worth(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.EveryWorth(self.loc(meta), "yaku", c[0])

    def step_name(self, c: list[Any]) -> tuple[ast.Name | None, str | None]:
        """The name and label a scoring step starts with, if written."""
        names = [x for x in c if isinstance(x, Token) and x.type == "NAME"]
        labels = [x for x in c if isinstance(x, Token) and x.type == "STRING"]
        return (
            self.name(names[0]) if names else None,
            _strip(labels[0]) if labels else None,
        )

    # The fixed words of factor and award lines, as (what, value) pairs `factor` and `award` sort.
    def on_yaku(self, c: list[Any]) -> tuple[str, str]:
        return ("on", "yaku")

    def on_teyaku(self, c: list[Any]) -> tuple[str, str]:
        return ("on", "teyaku")

    def on_count(self, c: list[Any]) -> tuple[str, str]:
        return ("on", "count")

    def on_all(self, c: list[Any]) -> tuple[str, str]:
        return ("on", "all")

    def payee_dealer(self, c: list[Any]) -> tuple[str, str]:
        return ("payee", "dealer")

    def payee_winner(self, c: list[Any]) -> tuple[str, str]:
        return ("payee", "winner")

    def payee_second(self, c: list[Any]) -> tuple[str, str]:
        return ("payee", "second")

    def payee_third(self, c: list[Any]) -> tuple[str, str]:
        return ("payee", "third")

    def from_each_other(self, c: list[Any]) -> tuple[str, bool]:
        return ("split", False)

    def split_between_others(self, c: list[Any]) -> tuple[str, bool]:
        return ("split", True)

    @v_args(meta=True)
    def award_multiplied(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "multiplied", 1)

    @v_args(meta=True)
    def award_flat(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "multiplied", 0)

    @v_args(meta=True)
    def factor(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name, label = self.step_name(c)
        mult = next(x for x in c if isinstance(x, Token) and x.type == "MULT")
        cond = _step_cond(c)
        text = ""
        if cond is not None:
            after = " " + " ".join(self.text[mult.end_pos : meta.end_pos].split())
            text = after.split(" if ", 1)[-1].strip()
        on = str(_step_words(c).get("on", "yaku"))
        return ast.Factor(self.loc(meta), name, label, int(str(mult)[1:]), on, cond, text)

    @v_args(meta=True)
    def exemption(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        """`exempt "Exemption" the payer pays nothing if ...`: a factor of 0, on everything
        unless its kind is written."""
        name, label = self.step_name(c)
        cond = _step_cond(c)
        text = ""
        if cond is not None:
            tail = self.source_text(meta).split(" pays nothing", 1)[-1]
            text = tail.split(" if ", 1)[-1].strip()
        on = str(_step_words(c).get("on", "all"))
        return ast.Factor(self.loc(meta), name, label, 0, on, cond, text)

    @v_args(meta=True)
    def award(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name, label = self.step_name(c)
        assert name is not None  # the grammar requires it
        words = _step_words(c)
        value = next(x for x in c if isinstance(x, int | ast.Amount))
        cond = _step_cond(c)
        text = ""
        if cond is not None:
            tail = self.source_text(meta).split(" takes ", 1)[-1]
            text = tail.split(" if ", 1)[-1].split(";", 1)[0].strip()
        opts = tuple(x for x in c if isinstance(x, ast.Opt))
        return ast.Award(
            self.loc(meta),
            name,
            label,
            str(words["payee"]),
            value,
            bool(words.get("split", False)),
            bool(opts[-1].value) if opts else False,
            cond,
            text,
            opts,
        )

    @v_args(meta=True)
    def unit(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.UnitDecl(self.loc(meta), self.name(c[0]), int(c[1]))

    @v_args(meta=True)
    def show_scores(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.Mechanic(self.loc(meta), "show_scores", (), names=(self.name(c[0]),))

    @v_args(meta=True)
    def flat_entry(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("flat", self.loc(meta), amount=1)

    @v_args(meta=True)
    def multiplied_entry(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("flat", self.loc(meta), amount=0)


def _number_or_amount(x: Any) -> int | ast.Amount:
    """A number written (a token), or a value written in the unit (`5 kan`)."""
    return x if isinstance(x, ast.Amount) else int(x)


def _step_words(c: list[Any]) -> dict[str, str | bool]:
    """The fixed words of a scoring step (SCORING_WORDS pairs), by what they set."""
    return dict(x for x in c if isinstance(x, tuple))


def _step_cond(c: list[Any]) -> ast.Cond | None:
    """A scoring step's condition: the one child that is neither a token, a word nor a value."""
    found = [x for x in c if not isinstance(x, Token | tuple | int | ast.Amount | ast.Opt)]
    return found[0] if found else None


def to_ast(tree: Tree[Token], filename: str, text: str) -> list[ast.Stmt]:
    """Turn a parse tree into statements."""
    result = _ToAst(filename, text).transform(tree)
    assert isinstance(result, list)
    return result


def _numbered_offers(opts: list[Any]) -> list[Any]:
    """A statement's offers (`stop only if ...`), each an option of its own: `offer 1`,
    `offer 2`... in the order written."""
    out: list[Any] = []
    n = 0
    for item in opts:
        if isinstance(item, ast.Opt) and item.kind == "offer":
            n += 1
            item = ast.Opt(f"offer {n}", item.loc, item.value, item.cond)
        out.append(item)
    return out
