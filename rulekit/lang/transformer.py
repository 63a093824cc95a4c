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
    @v_args(meta=True)
    def seats(self, meta: Meta, c: list[Token]) -> ast.Stmt:
        low = int(c[0])
        high = int(c[1]) if len(c) > 1 else low
        active = int(c[2]) if len(c) > 2 else None
        return ast.Seats(self.loc(meta), low, high, active)


def to_ast(tree: Tree[Token], filename: str, text: str) -> list[ast.Stmt]:
    """Turn a parse tree into statements."""
    result = _ToAst(filename, text).transform(tree)
    assert isinstance(result, list)
    return result
