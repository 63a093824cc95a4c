"""The table as one player sees it, drawn with rich: field, hand, piles, multiplier, stock,
scores, teyaku shown, yaku progress."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulekit import ir
from rulekit.engine import actions as A
from rulekit.engine.ledger import Amount
from rulekit.engine.round import Round
from rulekit.engine.view import PlayerView
from rulekit.output import amount_text

STYLE = {"light": "bold yellow", "animal": "green", "ribbon": "red", "plain": "white"}
TAG_STYLE = {"blue": "bold blue", "poetry": "bold magenta"}


def card_text(rules: ir.Ruleset, card_id: int) -> Text:
    card = rules.card(card_id)
    style = next(
        (TAG_STYLE[t] for t in card.tags if t in TAG_STYLE), STYLE.get(card.classes[0], "")
    )
    return Text(f"{card_id} {card.name}", style=style)


def cards_line(rules: ir.Ruleset, ids: Sequence[int]) -> Text:
    out = Text()
    for i, cid in enumerate(ids):
        if i:
            out.append("  ")
        out.append_text(card_text(rules, cid))
    return out if ids else Text("(none)", style="dim")


def sorted_ids(view: PlayerView, mask: int) -> list[int]:
    ix = view.compiled.index
    return sorted(ix.ids_of(mask))


def progress(entry: ir.Yaku, pile: set[int]) -> tuple[int, int] | None:
    """How far a pile is toward a yaku made of named cards: (have, need)."""
    cond = entry.condition
    items = cond.items if isinstance(cond, ir.And) else (cond,)
    for c in items:
        if isinstance(c, ir.AllOf):
            return len(pile & set(c.cards)), len(c.cards)
        if isinstance(c, ir.Count) and c.op == ">=" and c.n <= 10:
            return min(len(pile & set(c.cards)), c.n), c.n
    return None


def progress_text(view: PlayerView, seat: int) -> str:
    table = view.compiled.rules.yaku
    if table is None:
        return ""
    pile = set(view.compiled.index.ids_of(view.captured[seat]))
    made = set(view.yaku_made.get(seat, []))
    parts = []
    for e in table.entries:
        if e.name in made or e.at_count:
            continue
        p = progress(e, pile)
        if p and 0 < p[0] < p[1] and p[0] * 2 >= p[1]:
            parts.append(f"{e.label} {p[0]}/{p[1]}")
    return ", ".join(parts)


def scores_line(names: Sequence[str], totals: Sequence[Amount]) -> Text:
    out = Text("scores: ", style="bold")
    for i, (n, v) in enumerate(zip(names, totals, strict=True)):
        if i:
            out.append("   ")
        out.append(
            f"{n} {'+' if v > 0 else ''}{amount_text(v)}",
            style="green" if v > 0 else "red" if v < 0 else "",
        )
    return out


def table(
    view: PlayerView, names: Sequence[str], totals: Sequence[Amount], round_no: int, rounds: int
) -> RenderableType:
    """Everything the player may see, in one block."""
    rules = view.compiled.rules
    header = Text(
        f"{rules.title}  ·  round {round_no} of {rounds}  ·  dealer {names[view.dealer]}  ·  "
        f"x{view.multiplier}  ·  stock {view.stock_count}",
        style="bold cyan",
    )
    piles = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    piles.add_column("player")
    piles.add_column("pts", justify="right")
    piles.add_column("captured")
    piles.add_column("yaku")
    for s, name in enumerate(names):
        if view.folded[s]:
            piles.add_row(Text(name, style="dim"), "", Text("folded", style="dim"), "")
            continue
        mark = " (dealer)" if s == view.dealer else ""
        you = " (you)" if s == view.seat else ""
        pile = sorted_ids(view, view.captured[s])
        made = ", ".join(view.yaku_made.get(s, []))
        going = progress_text(view, s)
        yaku = Text(made, style="bold green")
        if going:
            yaku.append(("  " if made else "") + going, style="dim")
        piles.add_row(
            name + mark + you,
            str(view.compiled.index.points(view.captured[s])),
            cards_line(rules, pile),
            yaku,
        )
    lines: list[RenderableType] = [header, scores_line(names, totals), Text("")]
    lines.append(Text("field: ", style="bold") + cards_line(rules, sorted_ids(view, view.field)))
    if view.drawn >= 0:
        lines.append(
            Text("drawn: ", style="bold") + card_text(rules, view.compiled.index.ids[view.drawn])
        )
    lines.append(piles)
    for s, names_shown in view.teyaku.items():
        shown = sorted_ids(view, view.revealed.get(s, 0))
        label = ", ".join(rules.teyaku.entry(n).label if rules.teyaku else n for n in names_shown)
        lines.append(Text(f"{names[s]} shows {label}: ", style="bold") + cards_line(rules, shown))
    return Group(*lines)


def hand_block(view: PlayerView) -> RenderableType:
    """The player's hand, sorted by month, numbered for picking."""
    rules = view.compiled.rules
    ids = hand_ids(view)
    t = Table(show_header=False, box=None, pad_edge=False)
    for i, cid in enumerate(ids, start=1):
        card = rules.card(cid)
        t.add_row(
            f"{i})",
            card_text(rules, cid),
            Text(card.classes[0], style="dim"),
            str(rules.card_points(cid)),
        )
    return Group(Text("your hand:", style="bold"), t)


def hand_ids(view: PlayerView) -> list[int]:
    return sorted_ids(view, view.hand)


def action_line(rnd: Round, names: Sequence[str], seat: int, action: int) -> str:
    """One line for a move made, in the same words the player types."""
    return f"{names[seat]}: {A.describe(action, rnd.ix)}"
