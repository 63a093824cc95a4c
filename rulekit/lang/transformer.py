"""Parse tree -> syntax tree (rulekit.lang.ast), every node with its location.

`__default__` raises on any rule it does not handle, so the grammar and this file cannot drift
apart silently.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.tree import Meta

from rulekit.errors import Loc
from rulekit.lang import ast


def _strip(token: Token) -> str:
    return str(token)[1:-1]


class _ToAst(Transformer[Token, list[ast.Stmt]]):
    def __init__(self, filename: str, text: str) -> None:
        super().__init__()
        self.filename = filename
        self.text = text

    # ------------------------------------------------------------ helpers
    def loc(self, meta: Meta) -> Loc:
        if getattr(meta, "empty", True):
            return Loc(self.filename, 1, 1)
        width = 1
        if meta.line == meta.end_line:
            width = max(1, meta.end_column - meta.column)
        else:
            line = self.text.splitlines()[meta.line - 1]
            width = max(1, len(line.rstrip()) - meta.column + 1)
        return Loc(self.filename, meta.line, meta.column, width)

    def tok_loc(self, token: Token) -> Loc:
        return Loc(self.filename, token.line or 1, token.column or 1, max(1, len(token)))

    def name(self, token: Token) -> ast.Name:
        return ast.Name(str(token), self.tok_loc(token))

    def source_text(self, meta: Meta) -> str:
        return " ".join(self.text[meta.start_pos : meta.end_pos].split())

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
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

    @v_args(meta=True)
    def expect(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Expect(self.loc(meta), tuple(c))

    # ------------------------------------------------------------ classes, views, sets
    def point_item(self, c: list[Token]) -> tuple[ast.Name, int]:
        return (self.name(c[0]), int(c[1]))

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
    def best_only(self, meta: Meta, c: list[Any]) -> ast.TableOpt:
        return ast.TableOpt("best", self.loc(meta))

    @v_args(meta=True)
    def all_add(self, meta: Meta, c: list[Any]) -> ast.TableOpt:
        return ast.TableOpt("all", self.loc(meta))

    @v_args(meta=True)
    def table_view(self, meta: Meta, c: list[Token]) -> ast.TableOpt:
        return ast.TableOpt("view", self.loc(meta), self.name(c[0]))

    @v_args(meta=True)
    def between_all(self, meta: Meta, c: list[Any]) -> ast.TableOpt:
        return ast.TableOpt("between_all", self.loc(meta))

    @v_args(meta=True)
    def between_highest(self, meta: Meta, c: list[Any]) -> ast.TableOpt:
        return ast.TableOpt("between_highest", self.loc(meta))

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
    def remove(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return ast.Remove(self.loc(meta), tuple(self.name(t) for t in c))

    # ------------------------------------------------------------ entries
    def value(self, c: list[Token]) -> int:
        return int(c[0])

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
        return ast.EntryOpt("bonus", self.loc(meta), amount=int(c[0]))

    @v_args(meta=True)
    def at_count(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("at_count", self.loc(meta))

    @v_args(meta=True)
    def paid_to_dealer(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("paid_to_dealer", self.loc(meta))

    @v_args(meta=True)
    def cancels(self, meta: Meta, c: list[Any]) -> ast.EntryOpt:
        return ast.EntryOpt("cancels", self.loc(meta))

    @v_args(meta=True)
    def entry(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        name = self.name(c[0])
        label: str | None = None
        value: int | None = None
        cond: ast.Cond | None = None
        cond_text: str | None = None
        parts: tuple[ast.Name, ...] = ()
        opts: list[ast.EntryOpt] = []
        for item in c[1:]:
            if isinstance(item, Token):
                label = _strip(item)
            elif isinstance(item, int):
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
        factor = int(str(c[0])[1:])
        carry = c[2] if len(c) > 2 else None
        return ast.Tier(self.loc(meta), factor, c[1], carry)

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

    def month_list(self, c: list[Token]) -> tuple[ast.Name, ...]:
        return tuple(self.name(t) for t in c)

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
    def opt(self, meta: Meta, kind: str, value: int | str | None = None) -> ast.Opt:
        return ast.Opt(kind, self.loc(meta), value)

    def mechanic(self, meta: Meta, kind: str, opts: list[Any], **extra: Any) -> ast.Stmt:
        return ast.Mechanic(
            self.loc(meta), kind, tuple(o for o in opts if isinstance(o, ast.Opt)), **extra
        )

    @v_args(meta=True)
    def seats_max(self, meta: Meta, c: list[Token]) -> ast.Opt:
        return self.opt(meta, "max", int(c[0]))

    @v_args(meta=True)
    def seats_play(self, meta: Meta, c: list[Token]) -> ast.Opt:
        return self.opt(meta, "active", int(c[0]))

    @v_args(meta=True)
    def seats(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "seats", [self.opt(meta, "min", int(c[0])), *c[1:]])

    @v_args(meta=True)
    def deal_sizes(self, meta: Meta, c: list[Token]) -> list[ast.Opt]:
        return [self.opt(meta, "hand", int(c[0])), self.opt(meta, "field", int(c[1]))]

    @v_args(meta=True)
    def deal(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "deal", c[0])

    @v_args(meta=True)
    def deal_at(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "deal", [self.opt(meta, "seats", int(c[0])), *c[1]])

    @v_args(meta=True)
    def by_dice(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "dice")

    @v_args(meta=True)
    def by_draw(self, meta: Meta, c: list[Any]) -> ast.Opt:
        text = self.source_text(meta)
        return self.opt(meta, "draw", "best" if text.endswith("card") else "month")

    @v_args(meta=True)
    def first_dealer(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "first_dealer", c)

    @v_args(meta=True)
    def setup(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "setup", [], names=c[0])

    @v_args(meta=True)
    def fold_fee(self, meta: Meta, c: list[Token]) -> ast.Opt:
        return self.opt(meta, "fee", int(c[0]))

    @v_args(meta=True)
    def fee_times_multiplier(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "times_multiplier", 1)

    @v_args(meta=True)
    def fee_flat(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "times_multiplier", 0)

    @v_args(meta=True)
    def forced_free(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "forced_fee", 0)

    @v_args(meta=True)
    def forced_pay(self, meta: Meta, c: list[Token]) -> ast.Opt:
        return self.opt(meta, "forced_fee", int(c[0]))

    @v_args(meta=True)
    def starts_at_dealer(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "start", "dealer")

    @v_args(meta=True)
    def starts_after_dealer(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "start", "after_dealer")

    @v_args(meta=True)
    def fold(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "fold", c)

    @v_args(meta=True)
    def joker(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return self.mechanic(meta, "joker", [self.opt(meta, "seats", int(c[0]))])

    @v_args(meta=True)
    def void(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        return ast.Mechanic(self.loc(meta), "void", (), cond=c[0], text=text)

    @v_args(meta=True)
    def paid_when_made(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "paid", "made")

    @v_args(meta=True)
    def paid_when_stopping(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "paid", "stop")

    def refund_half(self, c: list[Any]) -> str:
        return "refund_half"

    def pay_for_all(self, c: list[Any]) -> str:
        return "pay_for_all"

    def beaten_forfeit(self, c: list[Any]) -> str:
        return "forfeit"

    def no_penalty(self, c: list[Any]) -> str:
        return ""

    @v_args(meta=True)
    def if_beaten(self, meta: Meta, c: list[str]) -> ast.Opt:
        """The whole `if beaten` clause is one option: a house rule replaces it whole."""
        return self.opt(meta, "beaten", ",".join(x for x in c if x))

    @v_args(meta=True)
    def keep(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "if_unfinished", "keep")

    @v_args(meta=True)
    def pay_half(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "if_unfinished", "pay_half")

    @v_args(meta=True)
    def earn_half(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "if_unfinished", "earn_half")

    @v_args(meta=True)
    def forfeit(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "if_unfinished", "forfeit")

    def if_unfinished(self, c: list[ast.Opt]) -> ast.Opt:
        return c[0]

    @v_args(meta=True)
    def koi_multiplier(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "multiplier_per_yaku", 1)

    @v_args(meta=True)
    def play_on(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "ends_round", 0)

    @v_args(meta=True)
    def continuation(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        opts: list[Any] = [self.opt(meta, "allowed", 1)]
        for item in c:
            if isinstance(item, Token):
                opts.append(self.opt(meta, "label", _strip(item)))
            else:
                opts.append(item)
        return self.mechanic(meta, "continuation", opts)

    @v_args(meta=True)
    def no_continue(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "continuation", [self.opt(meta, "allowed", 0)])

    @v_args(meta=True)
    def liable(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "liable", [self.opt(meta, "min_hand", int(c[1]))], names=c[0])

    @v_args(meta=True)
    def par(self, meta: Meta, c: list[Token]) -> list[ast.Opt]:
        return [self.opt(meta, "method", "par"), self.opt(meta, "par", int(c[0]))]

    @v_args(meta=True)
    def difference(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "method", "difference")

    @v_args(meta=True)
    def no_count(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "method", "none")

    @v_args(meta=True)
    def only_without_yaku(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "only_without_yaku", 1)

    @v_args(meta=True)
    def always(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "only_without_yaku", 0)

    @v_args(meta=True)
    def count(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        opts: list[Any] = []
        for item in c:
            opts.extend(item if isinstance(item, list) else [item])
        return self.mechanic(meta, "count", opts)

    @v_args(meta=True)
    def winner_deals(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "winner_deals", 1)

    @v_args(meta=True)
    def drawn_keeps(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "drawn_keeps_dealer", 1)

    @v_args(meta=True)
    def dealer_rotates(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "rotate", 1)

    @v_args(meta=True)
    def points_score(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "method", "points")

    @v_args(meta=True)
    def round_wins(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "method", "round_wins")

    @v_args(meta=True)
    def opponents_lose(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "opponents_lose", 1)

    @v_args(meta=True)
    def instant_win(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        text = self.source_text(meta).split(" has ", 1)[-1]
        opts = (self.opt(meta, "value", int(c[0])),)
        return ast.Mechanic(self.loc(meta), "instant_win", opts, cond=c[1], text=text)

    @v_args(meta=True)
    def dealer_captures(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        return self.mechanic(meta, "dealer_captures", [self.opt(meta, "size", int(c[0]))])

    @v_args(meta=True)
    def wild_any(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "any_target", 1)

    @v_args(meta=True)
    def wild_collects(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "collects_month", 1)

    @v_args(meta=True)
    def wild_respects_hiki(self, meta: Meta, c: list[Any]) -> ast.Opt:
        return self.opt(meta, "respects_hiki", 1)

    @v_args(meta=True)
    def wild(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return ast.Mechanic(self.loc(meta), "wild", tuple(c[1:]), cards=(c[0],))

    @v_args(meta=True)
    def hiki(self, meta: Meta, c: list[Any]) -> ast.Stmt:
        return self.mechanic(meta, "hiki", [self.opt(meta, "enabled", 1)])

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
        return self.mechanic(meta, "rounds", [self.opt(meta, "rounds", int(c[0])), *c[1:]])


def to_ast(tree: Tree[Token], filename: str, text: str) -> list[ast.Stmt]:
    """Turn a parse tree into statements."""
    result = _ToAst(filename, text).transform(tree)
    assert isinstance(result, list)
    return result
