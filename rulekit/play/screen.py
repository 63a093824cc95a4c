"""The table as one player sees it, drawn with rich: field, hand, piles, multiplier, stock,
scores, teyaku shown, yaku progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulekit import ir, output
from rulekit.cards import CardIndex
from rulekit.engine import actions as A
from rulekit.engine.asking import Reading
from rulekit.engine.ledger import BANK, Amount, Payment
from rulekit.engine.round import Round
from rulekit.engine.setup import claimed
from rulekit.engine.tables import ChoiceTable, CompiledTable
from rulekit.engine.view import PlayerView
from rulekit.play.session import Move

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


def field_ids(view: PlayerView) -> list[tuple[int, bool]]:
    """The field's cards by id, each bonus card riding a stack (engine/riders.py) right after
    its stack's cards, so that the table shows it with them: (id, rides)."""
    ix = view.compiled.index
    rides = view.rides
    out = []
    for cid in ix.ids_of(view.field):
        stack = rides.get(ix.bit[cid])
        key = (max(ix.ids_of(stack)), 1, cid) if stack else (cid, 0, 0)
        out.append((key, cid, stack is not None))
    return [(cid, riding) for _, cid, riding in sorted(out)]


def field_line(rules: ir.Ruleset, view: PlayerView) -> Text:
    """cards_line of the field, a bonus card riding a stack joined to it by '+'."""
    out = Text()
    for i, (cid, riding) in enumerate(field_ids(view)):
        if i:
            out.append(" + " if riding else "  ")
        out.append_text(card_text(rules, cid))
    return out if out else Text("(none)", style="dim")


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


def reading_text(view: PlayerView, seat: int) -> str:
    """How the owner's choice reads the seat's pile, when it holds its cards (`sake as 2
    plains`): the reading his yaku are counted in (engine/tables.ChoiceTable)."""
    choice, table = view.compiled.rules.owners_choice, view.compiled.yaku
    pile = view.captured[seat]
    if choice is None or not isinstance(table, ChoiceTable) or not pile & table.choice:
        return ""
    held = [i for i in view.compiled.index.ids_of(pile) if i in choice.cards]
    cards = ", ".join(view.compiled.rules.card(i).name for i in held)
    if not table.second_reading(pile):
        return f"{cards} as {choice.first}"
    plural = "s" if choice.weight > 1 else ""
    return f"{cards} as {choice.weight} {choice.second}{plural}"


def reading_line(rules: ir.Ruleset, reading: Reading) -> str:
    """A reading offered at the count, and what it makes: `sake as 2 plains: Ten plains, Moon
    viewing (7); the count pays you 21`."""
    yaku = ", ".join(labels(rules, reading.yaku)) or "no yaku"
    paid = output.score_text(-reading.paid if reading.paid < 0 else reading.paid, rules.unit)
    pays = (
        f"the count pays you {paid}"
        if reading.paid > 0
        else f"the count costs you {paid}"
        if reading.paid < 0
        else "the count pays you nothing"
    )
    return f"{reading.words}: {yaku} ({reading.worth}); {pays}"


def progress_text(view: PlayerView, seat: int) -> str:
    table = view.compiled.rules.yaku
    if table is None:
        return ""
    reading = reading_text(view, seat)
    pile = set(view.compiled.index.ids_of(view.captured[seat]))
    made = set(view.yaku_made.get(seat, []))
    parts = []
    for e in table.entries:
        if e.name in made or e.at_count:
            continue
        p = progress(e, pile)
        if p and 0 < p[0] < p[1] and p[0] * 2 >= p[1]:
            parts.append(f"{e.label} {p[0]}/{p[1]}")
    return ", ".join([reading, *parts] if reading else parts)


def scores_line(
    names: Sequence[str], totals: Sequence[Amount], unit: ir.Unit | None = None
) -> Text:
    """The players' totals, in points or in the unit the file shows them in."""
    out = Text("scores: ", style="bold")
    for i, (n, v) in enumerate(zip(names, totals, strict=True)):
        if i:
            out.append("   ")
        out.append(
            f"{n} {'+' if v > 0 else ''}{output.score_text(v, unit)}",
            style="green" if v > 0 else "red" if v < 0 else "",
        )
    return out


def table(
    view: PlayerView,
    names: Sequence[str],
    totals: Sequence[Amount],
    round_no: int,
    rounds: int,
    you: bool = True,
) -> RenderableType:
    """Everything the player may see, in one block; `you`: the seat seen is the person's (a
    bot's, watched, is not marked "you")."""
    rules = view.compiled.rules
    header = Text(
        f"{rules.title}  ·  round {round_no} of {rounds}  ·  dealer {names[view.dealer]}  ·  "
        f"x{view.multiplier}  ·  stock {view.stock_count}",
        style="bold cyan",
    )
    points = rules.card_points_count()  # (not shown where they count for nothing)
    piles = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    piles.add_column("player")
    if points:
        piles.add_column("pts", justify="right")
    piles.add_column("captured")
    piles.add_column("yaku")
    for s, name in enumerate(names):
        if view.folded[s]:
            piles.add_row(Text(name, style="dim"), *[""] * points, Text("folded", style="dim"), "")
            continue
        mark = " (dealer)" if s == view.dealer else ""
        me = " (you)" if you and s == view.seat else ""
        pile = sorted_ids(view, view.captured[s])
        made = ", ".join(labels(rules, view.yaku_made.get(s, [])))
        going = progress_text(view, s)
        yaku = Text(made, style="bold green")
        if going:
            yaku.append(("  " if made else "") + going, style="dim")
        pts = [str(view.compiled.index.points(view.captured[s]))] if points else []
        piles.add_row(name + mark + me, *pts, cards_line(rules, pile), yaku)
    lines: list[RenderableType] = [header, scores_line(names, totals, rules.unit), Text("")]
    lines.append(Text("field: ", style="bold") + field_line(rules, view))
    if view.drawn >= 0:
        lines.append(
            Text("drawn: ", style="bold") + card_text(rules, view.compiled.index.ids[view.drawn])
        )
    lines.append(piles)
    capturable = view.capturable  # (ir.Yaku.shown: the others may take them as field cards)
    for s, names_shown in view.teyaku.items():
        shown = sorted_ids(view, view.revealed.get(s, 0))
        label = ", ".join(labels(rules, names_shown))
        free = " (the others may capture them)" if view.revealed.get(s, 0) & capturable else ""
        lines.append(
            Text(f"{says(names[s], 'show')} {label}{free}: ", style="bold")
            + cards_line(rules, shown)
        )
    for s, hand in view.offered_hands.items():  # shown to offer a draw (ir.DrawOffer)
        shown = sorted_ids(view, hand)
        lines.append(
            Text(f"{says(names[s], 'show')} his hand, a draw offered: ", style="bold")
            + cards_line(rules, shown)
        )
    return Group(*lines)


def swap_block(
    view: PlayerView, names: Sequence[str], totals: Sequence[Amount], round_no: int, rounds: int
) -> RenderableType:
    """The table before the non-dealer has looked at his hand: no hand, no cards, only where
    the game stands and the question to come."""
    rules = view.compiled.rules
    header = Text(
        f"{rules.title}  ·  round {round_no} of {rounds}  ·  dealer {names[view.dealer]}",
        style="bold cyan",
    )
    return Group(
        header,
        scores_line(names, totals, rules.unit),
        Text(""),
        Text(
            f"{names[view.dealer]} has dealt. Before you look at your hand you may swap it,"
            " unseen, for the dealer's.",
            style="bold",
        ),
    )


def declare_block(
    view: PlayerView, names: Sequence[str], totals: Sequence[Amount], round_no: int, rounds: int
) -> RenderableType:
    """The table before the deal, when the player may make the rule file's declaration: no
    hand, only where the game stands and what the declaration is."""
    from rulekit.describe import declaration_sentence

    rules = view.compiled.rules
    header = Text(
        f"{rules.title}  ·  round {round_no} of {rounds}  ·  dealer {names[view.dealer]}",
        style="bold cyan",
    )
    said = " ".join(declaration_sentence(d, rules) for d in rules.declarations)
    return Group(header, scores_line(names, totals), Text(""), Text(said, style="bold"))


def shows_teyaku(rules: ir.Ruleset) -> bool:
    """Whether a teyaku of the rule file is shown or kept hidden (ir.Yaku.shown)."""
    return rules.teyaku is not None and any(e.shown for e in rules.teyaku.entries)


def show_line(view: PlayerView) -> str:
    """A teyaku to show or keep hidden, as its holder is asked it: which, its value, and what
    showing it costs."""
    rules = view.compiled.rules
    table = view.compiled.teyaku
    assert table is not None and rules.teyaku is not None
    hits = table.match_play(view.hand) & view.compiled.shown_teyaku
    counted, value = table.counted_value(hits, view.hand)
    names = ", ".join(labels(rules, [table.names[i] for i in counted]))
    return (
        f"you hold {names}, worth {value} from each other player: show it to be paid (its cards"
        " stay face up in your hand, and the others may capture them as field cards), or pass"
        " to keep it hidden and unpaid"
    )


def claim_line(view: PlayerView, claim: ir.DealerClaim) -> str:
    """The dealer's claim of the field, as he is asked it: the cards it takes, and its price."""
    ix = view.compiled.index
    cards = claimed(claim, view.field, ix.month_masks)
    return (
        f"the field holds {claim.size} cards of a month: take {_cards(ix, ix.ids_of(cards))}"
        " and play second (the other player leads), or pass and lead"
    )


def draw_offer_line(view: PlayerView, names: Sequence[str]) -> str:
    """A draw offered, as the player asked to answer it hears it: who offered it, his hand, and
    what each answer does (ir.DrawOffer)."""
    ix = view.compiled.index
    offer = view.compiled.rules.draw_offer
    p = view.offerer
    hand = _cards(ix, ix.ids_of(view.offered_hands.get(p, 0)))
    pays = (
        ": you pay for all if another wins"
        if offer is not None and offer.refuser_pays == "for_all"
        else ""
    )
    return (
        f"{says(names[p], 'show')} {hand} and {verb(names[p], 'offer')} a draw: accept (the round"
        f" is a draw when all accept) or refuse (play goes on{pays})"
    )


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
    return f"{names[seat]}: {A.describe(action, rnd.ix, rnd.rules.owners_choice)}"


# ---------------------------------------------------------------- words


def labels(rules: ir.Ruleset, entries: Sequence[str]) -> list[str]:
    """Teyaku and yaku by the labels the rule file gives them."""
    return [label(rules, n) for n in entries]


def label(rules: ir.Ruleset, name: str) -> str:
    for table in (rules.yaku, rules.teyaku):
        if table is not None:
            for e in table.entries:
                if e.name == name:
                    return e.label or name
    return name


def is_you(name: str) -> bool:
    """The person is addressed in the second person when he plays as "You"."""
    return name.strip().lower() == "you"


def verb(name: str, word: str) -> str:
    """`word` conjugated for `name`: "play" for you, "plays" for Alice."""
    if is_you(name):
        return word
    if word == "have":
        return "has"
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")


def says(name: str, word: str) -> str:
    """Subject and verb: "You show", "Alice shows"."""
    return f"{name} {verb(name, word)}"


def call_word(rules: ir.Ruleset) -> str:
    """The call that continues after a yaku, as the rule file names it ("koi-koi",
    "sage"); "continue" when it has no name."""
    return rules.continuation.label.strip().lower() or "continue"


def action_words(rules: ir.Ruleset, action: int, ix: CardIndex) -> str:
    """An action in the words of the rules: the continuation by its name."""
    if action == A.CONTINUE:
        return call_word(rules)
    if action == A.DECLARE:
        return "declare " + ", ".join(d.label or d.name for d in rules.declarations)
    if action == A.CLAIM:
        return "claim: take the field's cards and play second"
    if action == A.SHOW:
        return "show: be paid, its cards face up for the others to capture"
    if action == A.OFFER:
        return "offer a draw (your hand is shown)"
    if action in (A.ACCEPT, A.REFUSE):
        return f"{A.describe(action, ix)} the draw"
    return A.describe(action, ix, rules.owners_choice)


def _cards(ix: CardIndex, ids: Sequence[int]) -> str:
    return " and ".join(ix.short(i) for i in ids)


def narrate(rules: ir.Ruleset, ix: CardIndex, names: Sequence[str], move: Move) -> str:
    """A move made, as one sentence by person: the play, the draw after it, what they took,
    and any yaku made ("Alice plays 10 crane and takes 11 pine_ribbon; she draws ...")."""
    name = names[move.seat]
    a = move.action
    if A.is_play(a):
        text = f"{says(name, 'play')} {ix.short(ix.ids[A.played_card(a)])}"
        text += (
            f" and {verb(name, 'take')} {_cards(ix, _others(move.took, ix.ids[A.played_card(a)]))}"
            if move.took
            else " to the field"
        )
    elif A.TAKE <= a < A.JOIN:
        text = f"{says(name, 'take')} {_cards(ix, move.took)}"
    elif a == A.CONTINUE:
        call = call_word(rules)
        text = says(name, "continue") if call == "continue" else f"{says(name, 'call')} {call}"
    elif a == A.SWAP:
        text = f"{says(name, 'swap')} hands with the dealer, unseen"
    elif a == A.KEEP:
        text = f"{says(name, 'keep')} the hand dealt"
    elif a == A.DECLARE:
        label = ", ".join(d.label or d.name for d in rules.declarations)
        unseen = rules.declarations[0].moment == "before_deal"
        text = f"{says(name, 'declare')} {label}" + (", unseen" if unseen else "")
    elif a == A.CLAIM:  # the dealer's claim of the field (ir.DealerClaim)
        text = f"{says(name, 'take')} {_cards(ix, move.took)} from the field, to play second"
    elif a == A.SHOW:  # a teyaku shown (ir.Yaku.shown)
        text = f"{says(name, 'show')} a teyaku: its cards stay face up for the others to capture"
    elif a == A.PASS:
        claims = rules.dealer_claim is not None or shows_teyaku(rules)
        text = says(name, "pass") + ("" if claims else ": no declaration")
    elif a == A.OFFER:  # a draw offered (ir.DrawOffer)
        text = f"{says(name, 'show')} the hand and {verb(name, 'offer')} a draw"
    elif a in (A.ACCEPT, A.REFUSE):
        text = f"{says(name, A.describe(a, ix))} the draw"
    elif a in (A.JOIN, A.FOLD, A.STOP):
        text = says(name, A.describe(a, ix))
    elif a in (A.READ_FIRST, A.READ_SECOND):  # asked at the count (engine/asking.py)
        reading = A.describe(a, ix, rules.owners_choice).removeprefix("read ")
        text = f"{says(name, 'count')} {reading}"
    else:
        text = f"{name}: {A.describe(a, ix)}"
    if move.drawn is not None:
        drawn = ix.short(move.drawn)
        text += f"; {'you' if is_you(name) else name} {verb(name, 'draw')} {drawn}"
        if move.draw_waits:
            text += ", which matches two field cards"
        elif move.draw_to_field:
            text += " to the field"
        else:
            text += f" and {verb(name, 'take')} {_cards(ix, move.draw_took)}"
    if move.made:
        text += f" — {verb(name, 'make')} {', '.join(labels(rules, move.made))}"
    return text


def _others(took: Sequence[int], played: int) -> list[int]:
    """The field cards a play took (the played card itself left out)."""
    return [c for c in took if c != played]


def ledger_lines(
    rules: ir.Ruleset, ledger: Sequence[Payment], names: Sequence[str], empty: str = "(no payments)"
) -> list[str]:
    """The payments, each on a line, with teyaku and yaku by their labels."""
    return output.ledger_lines([_labelled(rules, p) for p in ledger], names, empty=empty)


def _labelled(rules: ir.Ruleset, p: Payment) -> Payment:
    if not p.detail:
        return p
    parts = [n.strip() for n in p.detail.split(",")]
    named = [label(rules, n) for n in parts]
    if named == parts:
        return p
    return replace(p, detail=", ".join(named))


def valued(
    table: CompiledTable | None, made: Sequence[str], pile: int, rules: ir.Ruleset
) -> list[dict[str, Any]]:
    """Entries made, by label, each with its value (a bonus valued on `pile`)."""
    if table is None:
        return []
    out = []
    for name in made:
        i = table.position.get(name)
        value = table.value(i, pile) if i is not None else None
        out.append({"label": label(rules, name), "value": value})
    return out


def payment_sentence(p: Payment, names: Sequence[str], view: PlayerView) -> str:
    """One payment as a sentence: who pays whom, how much, for what (each yaku or teyaku with
    its value), and the factor that multiplied it."""
    rules = view.compiled.rules
    who = {**dict(enumerate(names)), BANK: "the bank"}
    what = p.reason
    if p.detail and p.reason in ("yaku", "teyaku"):
        table = view.compiled.yaku if p.reason == "yaku" else view.compiled.teyaku
        pile = view.captured[p.payee] if p.reason == "yaku" and 0 <= p.payee < len(names) else 0
        parts = valued(table, [n.strip() for n in p.detail.split(",")], pile, rules)
        what += " " + ", ".join(
            f"{e['label']} ({e['value']})" if e["value"] is not None else e["label"] for e in parts
        )
    elif p.detail:
        what += f" ({label(rules, p.detail)})"
    factor = f": {output.amount_text(p.base)} x{p.multiplier}" if p.multiplier != 1 else ""
    verb = "pay" if is_you(who[p.payer]) else "pays"
    return f"{who[p.payer]} {verb} {who[p.payee]} {output.amount_text(p.amount)} for {what}{factor}"
