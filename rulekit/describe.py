"""A variant's rulebook, rendered from its IR: cards, multipliers, teyaku and yaku tables.

The rulebook is a list of sections of paragraphs and tables, rendered as Markdown or as rich
tables for the terminal, so both formats always say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit import ir


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def card_names(rules: ir.Ruleset, ids: tuple[int, ...]) -> str:
    """Cards by name, `crane, rainman`; an id the deck does not hold stays a number."""

    def name(card_id: int) -> str:
        try:
            return rules.card(card_id).name
        except KeyError:
            return str(card_id)

    return ", ".join(name(i) for i in ids)


# ir.Offer.limits in words, as the rule file writes them
LIMIT_WORDS = {
    "once_per_round": "at most once per round",
    "hand_not_empty": "not with an empty hand",
}


def offer_text(o: ir.Offer, rules: ir.Ruleset) -> str:
    """A condition on an option of the choice, as written: `stop only if score >= 2`."""
    parts = [f"only if {condition_text(o.condition, rules)}"] if o.condition is not None else []
    parts += [LIMIT_WORDS[limit] for limit in o.limits]
    return f"{o.option} " + ", ".join(parts)


def offer_sentences(
    offers: tuple[ir.Offer, ...], rules: ir.Ruleset, options: tuple[str, str] = ("stop", "continue")
) -> list[str]:
    """The conditions on a choice's options, and what follows when one is not offered (with
    neither, the first of `options`: he stops, he joins)."""
    if not offers:
        return []
    out = ["Offered: " + "; ".join(offer_text(o, rules) for o in offers) + "."]
    if any(o.option in options for o in offers):
        out.append(
            "When one option is not offered the player is not asked: he takes the other (with"
            f" neither, he {options[0]}s)."
        )
    if any(o.option == "choice" for o in offers):
        out.append(
            "When the choice itself is not offered he is not asked and neither stops nor"
            " continues (no continue counted): play goes on."
        )
    return out


def single_offer_sentences(
    offers: tuple[ir.Offer, ...], rules: ir.Ruleset, instead: str
) -> list[str]:
    """The conditions on a choice of one option (the swap, a hiki, a declaration), and what
    the player does when it is not offered."""
    if not offers:
        return []
    said = "; ".join(offer_text(o, rules) for o in offers)
    return [f"Offered: {said}; when it is not, the player is not asked: he {instead}."]


def condition_text(c: ir.Condition, rules: ir.Ruleset) -> str:
    """A condition in words, for IR that carries no source text (JSON IR)."""
    if isinstance(c, ir.AllOf):
        return f"all of {card_names(rules, c.cards)}"
    if isinstance(c, ir.AnyOf):
        return f"any of {card_names(rules, c.cards)}"
    if isinstance(c, ir.Count):
        what = c.label or f"[{card_names(rules, c.cards)}]"
        if c.op == "=" and c.n == 0:
            return f"none of {what}"
        return f"{what} {c.op} {c.n}"
    if isinstance(c, ir.Shape):
        parts = []
        for g in c.groups:
            months = f" in {', '.join(map(str, g.months))}" if g.months else ""
            count = "a month" if g.count == 1 else f"{g.count} months"
            parts.append(f"{count} of {g.size}{months}")
        return " and ".join(parts)
    if isinstance(c, ir.PointsCmp):
        return f"points {c.op} {c.n}"
    if isinstance(c, ir.Everyone):
        return f"everyone has {condition_text(c.item, rules)}"
    if isinstance(c, ir.Dealt):
        return ("captured dealt " if c.captured else "dealt ") + ", ".join(c.names)
    if isinstance(c, ir.And):
        return " and ".join(condition_text(i, rules) for i in c.items)
    if isinstance(c, ir.Or):
        return " or ".join(f"({condition_text(i, rules)})" for i in c.items)
    if isinstance(c, ir.Not):
        if isinstance(c.item, ir.IsDealer):
            return "not dealer"
        return f"not ({condition_text(c.item, rules)})"
    return round_condition_text(c, rules)


def _times(n: int) -> str:
    return "" if n == 1 else f" {n} or more times"


def round_condition_text(c: ir.Condition, rules: ir.Ruleset) -> str:
    """A condition that sees the round (its number or month, the dealer, the continues, the
    score, the field at the deal, a round nobody won), in the words of the rule file."""
    if isinstance(c, ir.RoundCmp):
        return f"round {c.op} {c.n}"
    if isinstance(c, ir.RoundMonth):
        if c.all:
            return "all of round month"
        if c.op == ">=":
            return f"{c.n} of round month"
        return f"round month {c.op} {c.n}"
    if isinstance(c, ir.IsDealer):
        return "dealer"
    if isinstance(c, ir.SeatFromDealer):
        return SEATS_FROM_DEALER.get(c.place, f"{c.place}th in play order from the dealer")
    if isinstance(c, ir.Continued):
        who = "continued" if c.who == "self" else "an opponent continued"
        if c.op == ">=":
            return who + _times(c.n)
        return f"{who} {c.op} {c.n} times"
    if isinstance(c, ir.ScoreCmp):
        return f"score {c.op} {c.n}"
    if isinstance(c, ir.OnField):
        return f"the field had {condition_text(c.item, rules)}"
    if isinstance(c, ir.PayerHas):
        return f"the payer has {condition_text(c.item, rules)}"
    if isinstance(c, ir.NobodyWon):
        return "nobody won"
    if isinstance(c, ir.DrawnBefore):
        return "after a drawn round" if c.n == 1 else f"after {c.n} drawn rounds"
    if isinstance(c, ir.Declared):
        return f"declared {c.name}"
    raise AssertionError(f"unhandled condition {c!r}")


def entry_options(e: ir.Yaku, table: ir.YakuTable | None = None) -> list[str]:
    """An entry's options in words (bonus, unless, at the count, ...); with its table, also
    the entries it is exclusive with. The rulebook's notes column and `diff` both say these."""
    notes = []
    if e.bonus:
        notes.append(f"+{e.bonus.amount} per card over {e.bonus.over}")
    if e.unless:
        notes.append(f"unless {', '.join(e.unless)}")
    for group in table.exclusive if table is not None else ():
        if e.name in group:
            others = [n for n in group if n != e.name]
            notes.append(f"exclusive with {', '.join(others)}")
    if e.at_count:
        notes.append("at the count")
    if e.paid_to_dealer:
        notes.append("paid to the dealer")
    if e.cancels:
        notes.append("cancels the card count and teyaku")
    if e.cancels_yaku != "none":
        whose = "every yaku" if e.cancels_yaku == "all" else "the other players' yaku"
        notes.append(f"cancels {whose} decided at the count")
    if e.wins_round:
        notes.append("wins the round at once (no continue)")
    if e.shown:
        notes.append(
            "shown or kept hidden, as its holder chooses: shown, it is paid and its cards stay"
            " face up in his hand, for the others to capture as field cards"
        )
    if e.flat:
        notes.append("flat (not multiplied by the field)")
    return notes


def _table_section(title: str, table: ir.YakuTable, rules: ir.Ruleset) -> Section:
    policy = (
        "Only a player's highest entry counts."
        if table.policy == "best"
        else "Every entry made counts; they add up."
    )
    paras = [policy]
    if table.view:
        view = next((v for v in rules.views if v.name == table.view), None)
        if view is not None:
            paras.append(
                f"Counted with the view '{view.label}': {'; '.join(c.text for c in view.changes)}."
            )
    if table.between_players == "highest":
        paras.append("Between players, only the highest is paid.")
    if table.split:
        paras.append("An entry's value is the total, split between its payers.")
    rows = []
    for e in table.entries:
        cond = e.text or condition_text(e.condition, rules)
        if e.parts:
            cond = " + ".join(table.entry(p).label for p in e.parts)
        rows.append([e.name, e.label, str(e.value), cond, "; ".join(entry_options(e, table))])
    return Section(
        title, paras, [Table(["name", title.lower(), "value", "condition", "notes"], rows)]
    )


def rulebook(rules: ir.Ruleset) -> list[Section]:
    sections = []
    intro = []
    if rules.source:
        intro.append(f"Source: {rules.source}.")
    if rules.files:
        intro.append("Rule files: " + ", ".join(rules.files) + ".")
    sections.append(Section(rules.title, intro))

    card_rows = []
    for c in rules.deck.cards:
        extra = f" (also {', '.join(c.classes[1:])})" if len(c.classes) > 1 else ""
        card_rows.append(
            [
                str(c.id),
                c.name,
                c.label,
                str(c.month) if c.month else "bonus",
                c.classes[0] + extra,
                str(rules.card_points(c.id)),
                ", ".join(c.tags),
            ]
        )
    counts = []
    for cls in rules.deck.classes:
        n = sum(1 for c in rules.deck.cards if c.classes[0] == cls)
        counts.append(f"{n} {cls}{'s' if n != 1 else ''} at {rules.points.get(cls, 0)}")
    total = sum(rules.card_points(c.id) for c in rules.deck.cards)
    cards_said = [f"{len(rules.deck.cards)} cards: {', '.join(counts)}; {total} points in all."]
    cards_said.extend(special_cards_sentences(rules))
    if rules.owners_choice is not None:
        cards_said.append(owners_choice_sentence(rules, rules.owners_choice))
    sections.append(
        Section(
            "Cards",
            cards_said,
            [Table(["id", "name", "card", "month", "class", "points", "tags"], card_rows)],
        )
    )
    if rules.views:
        sections.append(
            Section(
                "Views",
                [f"{v.label}: {'; '.join(c.text for c in v.changes)}." for v in rules.views],
            )
        )

    m = rules.multiplier
    paras = []
    for t in m.tiers:
        carry = (
            f"; the next round at least x{t.factor} too if {t.carry_at} or more of them are"
            if t.carry_at
            else ""
        )
        paras.append(tier_sentence(rules, t, carry))
    if m.tiers:
        paras.append("The highest kind present wins.")
    if m.step:
        paras.append(f"+{m.step} for each of {card_names(rules, m.per_card)} on the field.")
    sections.append(Section("Field multiplier", paras or ["None: x1."]))

    sections.append(Section("The round", round_paragraphs(rules)))
    scoring = scoring_paragraphs(rules)
    if scoring:
        sections.append(Section("Scoring", scoring))
    if rules.teyaku:
        sections.append(_table_section("Teyaku", rules.teyaku, rules))
    if rules.yaku:
        sections.append(_table_section("Yaku", rules.yaku, rules))
    return sections


def special_cards_sentences(rules: ir.Ruleset) -> list[str]:
    """The deck's cards left out, cards that count as more than one, cards' own points."""
    out = []
    if rules.deck.bonus:
        names = card_names(rules, rules.deck.bonus)
        out.append(
            f"Bonus cards ({names}): whoever is dealt one captures it and draws a replacement"
            " from the stock into his hand; one dealt to the field goes to the player who"
            " leads, replaced from the stock; played or drawn, it goes to its player's pile,"
            " and a drawn one is replaced by the next card drawn."
        )
    if rules.left_out:
        ids = ", ".join(map(str, rules.left_out))
        out.append(f"Left out of the deck: {len(rules.left_out)} cards ({ids}).")
    for w in rules.weighted:
        names = card_names(rules, w.cards)
        out.append(
            f"{names[0].upper()}{names[1:]} counts as {w.weight} {w.cls}s in every count of"
            f" {w.cls}s."
        )
    for cid, value in sorted(rules.own_points.items()):
        name = card_names(rules, (cid,))
        out.append(f"{name[0].upper()}{name[1:]} scores {value} points of its own.")
    return out


def owners_choice_sentence(rules: ir.Ruleset, c: ir.OwnersChoice) -> str:
    """`treat sake as animal or 2 plains, owner's choice`, as the rulebook says it."""
    cards = card_names(rules, c.cards)
    first, second = (f"{'an' if cls[:1] in 'aeiou' else 'a'} {cls}" for cls in (c.first, c.second))
    second = f"{c.weight} {c.second}s" if c.weight > 1 else second
    return (
        f"{cards[0].upper()}{cards[1:]} counts as {first} or as {second}, at its owner's"
        " choice: wherever his captured yaku are counted (in play, and at the end of the"
        f" round), the reading whose yaku are worth more to him; worth the same, as {first}."
        f" Card points count it as {first}."
    )


def tier_sentence(rules: ir.Ruleset, t: ir.Tier, carry: str = "") -> str:
    """A multiplier tier in words: any of its cards on the field, or its condition."""
    if t.condition is None:
        return f"x{t.factor} if any of {card_names(rules, t.cards)} is on the field{carry}."
    cond = t.text or condition_text(t.condition, rules)
    carry = carry.replace("of them", f"of {card_names(rules, t.cards)}") if carry else ""
    return f"x{t.factor} if the field has {cond}{carry}."


def instant_win_sentences(rules: ir.Ruleset) -> list[str]:
    """The dealt hands that win at once, each with its value; a hand with several is paid the
    highest, and the first such hand in play order from the dealer wins."""
    wins = rules.instant_wins
    out = [
        f"{w.label}: a hand with {w.text or condition_text(w.condition, rules)} wins {w.value}"
        " at once from each other player."
        for w in wins
    ]
    if len(wins) > 1:
        out.append(
            "A hand that makes several of them is paid the highest; the first such hand in play"
            " order from the dealer wins."
        )
    if wins and rules.instant_all == "draw":
        out.append("If every hand of the round wins at once, the round is a draw: nobody is paid.")
    return out


def _pars(k: ir.Settlement) -> str:
    """The par, or the par at each table size that has its own (`the par (66 at 4 seats, 88
    otherwise)`)."""
    if not k.par_at:
        return str(k.par)
    return (
        f"the par ({', '.join(f'{p.par} at {p.seats} seats' for p in k.par_at)}, {k.par} otherwise)"
    )


def round_paragraphs(rules: ir.Ruleset) -> list[str]:
    """The round mechanics in sentences."""
    s = rules.seats
    out = []
    if s.min == s.max:
        out.append(
            f"{s.min} players."
            if s.active in (None, s.min)
            else f"{s.min} seated, {s.active} play."
        )
    else:
        who = "all play" if s.active is None else f"{s.active} play each round"
        out.append(f"{s.min} to {s.max} at the table, {who}.")
    for d in rules.deal:
        at = f"At {d.seats} seats: " if d.seats is not None else ""
        out.append(f"{at}{d.hand} cards to each, {d.field} to the field.")
    fd = rules.first_dealer
    out.append(
        "First dealer: dice, highest (ties re-roll)."
        if fd.method == "dice"
        else "First dealer: card draw, lowest month"
        + (", then the better card." if fd.best_card_breaks_ties else " (ties draw again).")
    )
    out.append("Setup: " + ", ".join(rules.setup) + ".")
    if s.active is not None and s.max > s.active:
        out.append(_sit_out_sentence(rules))
    if rules.compensation is not None:
        out.append(compensation_sentence(rules, rules.compensation))
    out.extend(declaration_sentence(d, rules) for d in rules.declarations)
    if rules.bomb is not None:
        out.append(bomb_sentence(rules.bomb))
    if rules.draw_offer is not None:
        out.append(draw_offer_sentence(rules.draw_offer))
    if rules.stacks:
        out.append(STACKS_SENTENCE)
    if rules.bonus_on_pair == "stays":
        out.append(BONUS_ON_PAIR_SENTENCE)
    out.extend(event_sentence(e) for e in rules.events)
    if rules.joker:
        out.append(
            f"At {rules.joker.seats} seats a joker is added;"
            " whoever is dealt it draws a replacement."
        )
    if rules.void_field is not None:
        out.append(
            f"A field with {rules.void_text or 'the void condition'} voids the deal:"
            " redealt by the same dealer."
        )
    if rules.void_hand is not None:
        out.append(
            f"A dealt hand with {rules.void_hand_text or 'the void condition'} voids the deal"
            " (each hand of the round, once the field is laid): redealt by the same dealer."
        )
    if rules.draw_at_count is not None:
        out.append(
            f"When the hands are counted, a player with {rules.draw_at_count_text or 'it'}"
            " makes the round a draw: every payment of the round is undone, the"
            " hands are not counted, and nobody wins it."
        )
    c = rules.continuation
    ranks = any(k.key == "yaku" for k in rules.count.round_by)
    if not c.ends_round:
        out.append(
            "Yaku do not end the round; each is paid as soon as made, the round playing on."
            if c.paid_in_play
            else "Yaku do not end the round; at the count their points rank the players."
            if ranks
            else "Yaku do not end the round; they are scored at the count."
        )
    elif not c.allowed:
        out.append("The first yaku ends the round.")
    else:
        words = [f"After a yaku: stop, or continue ({c.label or 'continue'})."]
        words.append(
            "Yaku are paid when made."
            if c.paid == "made"
            else "Yaku are paid when their maker stops."
        )
        beaten = [
            w
            for w, on in (
                ("refunds half of the yaku his continue followed to each", c.refund_half),
                ("pays the yaku that beat him for every payer", c.pay_for_all),
                ("forfeits his yaku", c.beaten_forfeit),
            )
            if on
        ]
        if beaten:
            words.append("A continuer beaten by another yaku " + " and ".join(beaten) + ".")
        unfinished = {
            "keep": "keeps what he made",
            "pay_half": "pays half its value to each other player",
            "earn_half": "earns only half",
            "forfeit": "forfeits it",
        }[c.if_unfinished]
        if c.if_other_stops is not None:
            outstopped = {"keep": "keeps what he made", "forfeit": "scores nothing"}
            words.append(
                f"If another player stops first, the continuer {outstopped[c.if_other_stops]}."
            )
        if c.outstopped_pays == "first":
            words.append(
                "When a player stops, the first of the others who continued in the round pays"
                " what each other player owes him, for them all."
            )
        words.append(f"If the round ends with no new yaku, the continuer {unfinished}.")
        if c.multiplier_per_yaku:
            words.append("The n-th yaku after continuing multiplies the score by n.")
        if c.per_continue:
            words.append(
                f"At his stop, a player's yaku are paid {c.per_continue} more for each time he"
                " continued, before any multiplier."
            )
        words += offer_sentences(c.offers, rules)
        if c.after_loss == "left":
            words.append(
                "After a yaku is lost, a new yaku gives the choice again when the total beats"
                " what is left (not the value last declared)."
            )
        out.append(" ".join(words))
    if rules.liability:
        out.append(
            f"Liability: {', '.join(rules.liability.yaku)} completed with a card another player"
            f" laid on the field (holding {rules.liability.min_hand} or more cards) are paid in"
            " full by that player."
        )
    if rules.play_out_stock:
        out.append(
            "When nobody holds a card, the stock is played out: in turn, each player draws its"
            " top card and plays it to the field."
        )
    if rules.still_draws:
        out.append(
            "A player with no hand card left (his shown cards captured) still takes his turns"
            " while the stock lasts: he draws the top card and plays it."
        )
    if rules.dealer_captures:
        out.append(
            f"A month of {rules.dealer_captures} dealt to the field is captured by the dealer."
        )
    if rules.dealer_claim is not None:
        out.append(dealer_claim_sentence(rules.dealer_claim))
    out.extend(instant_win_sentences(rules))
    if "swap" in rules.setup:
        out.append("Before looking, the player after the dealer may swap hands with the dealer.")
        out.extend(single_offer_sentences(rules.swap_offers, rules, "keeps his hand"))
    for t in rules.teams:
        kind = (
            "pairs, partners opposite"
            if t.size == 2
            else f"teams of {t.size}, partners alternating"
        )
        out.append(f"At {t.seats} players: {kind}.")
    if rules.wild:
        out.append(_wild_sentence(rules, rules.wild))
    if rules.lone:
        out.append(lone_sentence(rules, rules.lone))
    if rules.hiki:
        out.append(
            "Hiki: a player who sees all four cards of a month may capture them as his play."
        )
        out.extend(single_offer_sentences(rules.hiki_offers, rules, "plays a card"))
    k = rules.count
    opponents = (
        "; each yaku costs every opponent (or opposing team) its value" if k.opponents_lose else ""
    )
    if k.makers_score:
        opponents = "; each yaku is scored for its maker" + opponents
    method = {
        "par": f"(points - {_pars(k)}) x multiplier; the negative pay the positive",
        "difference": "the lower card total pays the difference x multiplier",
        "points": "each scores his card points" + opponents,
        "round_wins": _round_winner(k)
        + " wins the round, worth one"
        + (", paid by each other player" if k.round_paid == "others" else "")
        + opponents,
        "none": "no card count",
        "per_points": f"each player's card points count {k.step_value} for every full"
        f" {k.step_points}, "
        + (
            "paid him by each other player (each two settle the difference, x multiplier);"
            " the most card points win the round"
            if k.round_paid == "others"
            else "scored against the bank; the most card points win the round"
        ),
    }[k.method]
    only = " (only if no yaku was made)" if k.only_without_yaku else ""
    out.append(f"The count{only}: {method}.")
    if rules.teams and k.team_cards == "pooled":
        out.append("A team makes its yaku from its members' cards together.")
    if k.method in ("points", "round_wins") and k.tie == "draw":
        tied = "on every one of them" if k.round_by else "for the best score"
        out.append(f"A tie {tied} is a drawn round.")
    if k.winner == "net":
        out.append(
            "The best net of the round (yaku, teyaku and the count) wins it; a tie goes to the"
            " first in play order, and when nobody paid another the winner stands."
        )
    n = rules.length
    if n.rotate:
        deals = "; the deal passes to the next player."
    elif n.winner_deals:
        deals = "; the round winner deals next" + (
            "; a drawn round keeps the dealer." if n.drawn_keeps_dealer else "."
        )
    else:
        deals = "."
    out.append(f"A game is {n.rounds} rounds{deals}")
    return out


def _round_winner(k: ir.Settlement) -> str:
    """Who wins a round by round wins: the best score, or the criteria written, in turn."""
    if not k.round_by:
        return "the best score"
    return "the most " + ", then the most ".join(key.label for key in k.round_by)


FEE_PAYEES = {
    "winner": "paid to the round winner",
    "active": "shared by the players of the round",
    "dealer": "paid to the dealer",
    "bank": "paid to the bank",
}


# ir.Length.tie_break -> how a tie for the game is broken, in words
TIE_BREAK_WORDS = {
    "round_wins": "the most rounds won",
    "dealer_order": "the first in play order from the last round's dealer",
}

# ir.Seats.sit_out by the last round's result -> who sits the next round out
BY_RESULT = {
    "loser": "The loser of a round (his net the lowest; a tie: the tied player last in play order)",
    "winner": "The winner of a round (his net the highest; a tie: the tied player last in play"
    " order)",
}


def _sit_out_sentence(rules: ir.Ruleset) -> str:
    """Who sits a round out: in turn (no choice, no fee), or those who fold (and what for)."""
    s, f = rules.seats, rules.fold
    if s.sit_out == "after_dealer":
        return "The players after the dealer sit the round out, in turn (no fee)."
    if s.sit_out == "dealer":
        return "The dealer sits the round out, then the players after him (no fee)."
    if s.sit_out in BY_RESULT:
        return (
            f"{BY_RESULT[s.sit_out]} sits the next round out (no fee); in the first round, the"
            " last in play order from the dealer."
        )
    if s.sit_out == "in_turn":
        return (
            "Each seat sits a round out in turn, whoever deals (no fee); in the first round, the"
            " last in play order from the dealer."
        )
    fee = f"{f.fee}" + (" x multiplier" if f.times_multiplier else "")
    forced = "free" if not f.forced_fee else f"{f.forced_fee}"
    start = "the dealer" if f.start == "dealer" else "the player after the dealer"
    when = "Before the deal, each" if f.before_deal else "Fold phase from"
    offers = " ".join(offer_sentences(f.offers, rules, ("join", "fold")))
    offers = f" {offers}" if offers else ""
    if f.before_deal:
        return (
            f"{when} player from {start} joins or folds, unseen: a fold costs {fee} (forced"
            f" folds: {forced}), {FEE_PAYEES[f.payee]}.{offers}"
        )
    return (
        f"{when} {start}: a fold costs {fee} (forced folds: {forced}),"
        f" {FEE_PAYEES[f.payee]}.{offers}"
    )


# ir.Declaration.by
DECLARERS = {"dealer": "the dealer", "any": "each player of the round, in turn from the dealer,"}
DECLARE_MOMENTS = {  # ir.Declaration.moment
    "before_deal": "Before the deal, his hand unseen,",
    "after_hand": "After seeing his hand (before the field is laid or anyone folds),",
    "before_play": "Before the first play,",
}
# ir.Declaration.success: what he must do, as "if he ..." and "if he fails to ..." say it
SUCCESS_WORDS = {
    "none": ("", ""),
    "wins": ("wins the round", "win the round"),
    "yaku": ("makes a yaku", "make a yaku"),
}


def declaration_sentence(d: ir.Declaration, rules: ir.Ruleset) -> str:
    """A declaration as the rulebook says it: who may make it, when, its stake, and the
    conditions on making it."""
    stakes = []
    if d.must_join:
        stakes.append("he plays the round (he is not asked to join or fold)")
    if d.from_each_folder:
        times = " x multiplier" if d.times_multiplier else ""
        stakes.append(f"each player who then folds by choice pays him {d.from_each_folder}{times}")
    if d.factor > 1 and d.factor_per_month:
        stakes.append(
            f"x{d.factor} on every payment to him in the round after it, once for each month of"
            f" {d.factor_per_month} cards in his hand when he declares"
        )
    elif d.factor > 1:
        stakes.append(f"x{d.factor} on every payment to him in the round after it")
    does, must = SUCCESS_WORDS[d.success]
    times = " x multiplier" if d.times_multiplier else ""
    if d.award:
        when = f" if he {does}" if does else ""
        stakes.append(f"each other player pays him {d.award}{times}{when}")
    if d.penalty:
        stakes.append(f"he pays each other player {d.penalty}{times} if he fails to {must}")
    return (
        f"{DECLARE_MOMENTS[d.moment]} {DECLARERS[d.by]} may declare {d.label or d.name}: "
        + " and ".join(stakes or [f"the conditions written 'declared {d.name}' hold"])
        + "."
        + "".join(" " + s for s in single_offer_sentences(d.offers, rules, "passes"))
    )


STACKS_SENTENCE = (
    "A drawn card of the month its hand card just took a pair of stays with the pair on the"
    " field: the three are stacked, for whoever takes them later."
)
BONUS_ON_PAIR_SENTENCE = (
    "A bonus card drawn after the hand card took a pair waits on the pair: if the next card"
    " drawn stacks on it, the bonus card stays with the stack, for whoever takes it later."
)
# ir.Event.time -> its word (`only the third time`)
ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
# ir.Event.kind -> what happened, in words
EVENT_WORDS = {
    "sweep": "a player's turn leaves the field empty",
    "stack_left": "a player's drawn card stacks on the pair his hand card just took",
    "stack_taken": "a player takes three field cards of a month with one card",
    "pair_twice": "a player's hand card and drawn card each take one of two field cards of a month",
    "draw_takes_play": "a player's drawn card takes the hand card he just laid on the field",
    "bomb": "a player bombs (his play takes a month whole)",
}


def dealer_claim_sentence(claim: ir.DealerClaim) -> str:
    """`the dealer may take 2 of a month of 3 on the field and play second` in words."""
    return (
        f"Where the field is laid with {claim.size} cards of a month, the dealer may take"
        f" {claim.take} of them (the most valuable; of each such month) and play second:"
        " the other player leads the round. He is asked before the first play."
    )


def draw_offer_sentence(d: ir.DrawOffer) -> str:
    """The draw offered as the rulebook says it: who may offer it, the answers, the refuser."""
    reach = f"raise his yaku to {d.minimum}" if d.minimum > 1 else "make him a yaku"
    pays = (
        " The refuser pays, for every payer, a later stop of another player's (after"
        " a continuer who pays for all)."
        if d.refuser_pays == "for_all"
        else ""
    )
    return (
        "Draw offered: at the start of his turn a player with no safe play (no play of his"
        f" captures, and no card he has not seen, drawn after it, could {reach}) may show his"
        " hand and offer a draw: one offer a round. The others answer in turn: the first refusal"
        " ends the asking and he plays on; when all accept, the round ends as a draw." + pays
    )


def bomb_sentence(b: ir.Bomb) -> str:
    """The bomb as the rulebook says it: the play, then the plays he may skip."""
    skips = (
        f" He may then skip the play (draw only) on {b.skips} later turns, and must when his"
        " hand is empty."
        if b.skips
        else ""
    )
    return (
        f"Bomb: a player holding {b.hand} cards of a month, the rest of it on the field, may"
        f" play them at once as his play and take the whole month.{skips}"
    )


def event_sentence(e: ir.Event) -> str:
    """An event during play as the rulebook says it: when it counts, and its effects."""
    when = []
    if e.first_turn:
        when.append("on his first turn")
    if e.in_a_row:
        when.append(
            "on his first turns in a row: his first, then each next while it happened on"
            " every turn of his before"
        )
    if e.row_with:
        when.append(f"a turn on which {' or '.join(e.row_with)} happened to him counts in the row")
    if e.time:
        when.append(f"only the {ORDINALS[e.time]} time it happens to him in the round")
    if e.not_last_turn:
        when.append("not on the round's last turn")
    effects = []
    if e.give:
        effects.append(
            f"each opponent gives him a {e.give} from his pile (the one with the fewest points)"
        )
    if e.steal:
        doubled = (
            ", doubled for each time it happened to him before"
            if e.steal_grows == "doubling"
            else ""
        )
        effects.append(f"each opponent pays him {e.steal} at once{doubled}")
    if e.factor > 1:
        effects.append(f"x{e.factor} on his winnings in the round")
    if e.outcome == "wins_round":
        effects.append("he wins the round at once (nothing else is paid)")
    at = f" ({', '.join(when)})" if when else ""
    return (
        f"{e.label or e.name}: when {EVENT_WORDS[e.kind]}{at}, "
        + " and ".join(effects or ["nothing happens"])
        + "."
    )


# ir.Compensation.payers -> who pays a forced folder's compensation
COMPENSATION_PAYERS = {
    "players": "each player of the round",
    "non_dealers": "each player of the round but the dealer",
}


def compensation_sentence(rules: ir.Ruleset, comp: ir.Compensation) -> str:
    """`compensation: 2 per card of lights; x2 if he holds a month of 3; ...`, in words."""
    factor = (
        f", x{comp.factor} if he holds {condition_text(comp.condition, rules)}"
        if comp.condition is not None
        else ""
    )
    return (
        f"A player forced to fold is paid {comp.per_card} for each card of"
        f" {card_names(rules, comp.cards)} in the hand he folds{factor}, by"
        f" {COMPENSATION_PAYERS[comp.payers]} (flat, at the round's end)."
    )


def lone_sentence(rules: ir.Ruleset, lone: ir.LoneCards) -> str:
    """`lone phoenix: goes to whoever plays or draws it`, as the rulebook says it."""
    names = card_names(rules, lone.cards)
    one = len(lone.cards) == 1
    return (
        f"{names[0].upper()}{names[1:]} {'goes' if one else 'go'} to whoever plays or draws"
        f" {'it' if one else 'one'}: {'it takes' if one else 'they take'} nothing and"
        f" {'is' if one else 'are'} never laid on the field (dealt to the field,"
        f" {'it is an ordinary field card' if one else 'they are ordinary field cards'})."
    )


def _wild_sentence(rules: ir.Ruleset, w: ir.WildCard) -> str:
    name = card_names(rules, (w.card,))
    powers = [
        p
        for p, on in (
            ("played from the hand it captures any field card and keeps it", w.any_target),
            ("at the end it collects the field cards of that card's month", w.collects_month),
            ("it may not take a card that completes another player's hiki", w.respects_hiki),
            ("when a hiki blocks it, it may be laid on the field", w.lay_when_blocked),
            ("it may not take a card of its own month", w.not_own_month),
            ("on the field, the next card drawn not of its month takes it", w.taken_by_draw),
            ("drawn as the stock's last card, it takes the whole field", w.sweeps_when_last),
            (
                "drawn, it captures a field card it could take from the hand (its player's"
                " choice), or is laid on the field when there is none",
                w.drawn_any_target,
            ),
            (
                "at the end, the last card of its month left on the field goes to the player"
                " who captured the other two",
                w.last_to_holder,
            ),
        )
        if on
    ]
    return f"The {name} is wild: " + "; ".join(powers) + "."


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(sections: list[Section]) -> str:
    out: list[str] = []
    for i, s in enumerate(sections):
        out.append(("# " if i == 0 else "## ") + s.title)
        out.append("")
        for p in s.paragraphs:
            out.append(p)
            out.append("")
        for t in s.tables:
            out.append("| " + " | ".join(t.headers) + " |")
            out.append("|" + "|".join("---" for _ in t.headers) + "|")
            for row in t.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def to_rich(sections: list[Section]) -> list[Any]:
    """The rulebook as rich renderables for the terminal: a rule per section, its paragraphs,
    and its tables as rich tables (the same content as the Markdown)."""
    from rich.rule import Rule
    from rich.table import Table as RichTable
    from rich.text import Text

    out: list[Any] = []
    for i, s in enumerate(sections):
        out.append(Rule(Text(s.title, style="bold"), style="cyan" if i == 0 else "dim"))
        out.extend(Text(p) for p in s.paragraphs)
        for t in s.tables:
            table = RichTable(*t.headers, header_style="bold")
            for row in t.rows:
                table.add_row(*row)
            out.append(table)
        out.append(Text(""))
    return out


# ir.SeatFromDealer.place and ir.Award.payee -> their words
SEATS_FROM_DEALER = {2: "second", 3: "third"}
AWARD_PAYEES = {
    "dealer": "the dealer",
    "winner": "the winner",
    "second": "the second in play order from the dealer",
    "third": "the third in play order from the dealer",
}

FACTOR_ON = {
    "yaku": "yaku payments",
    "teyaku": "teyaku payments",
    "count": "the count's payments",
    "all": "every payment",
}


def step_sentence(rules: ir.Ruleset, step: ir.Factor | ir.Award) -> str:
    """A scoring step in words: a factor on payments of a kind, or an award at the round's
    end."""
    cond = ""
    if step.condition is not None:
        cond = f" if {step.text or condition_text(step.condition, rules)}"
    if step.seats is not None:
        cond += f" (only at {step.seats} seats)"
    if isinstance(step, ir.Factor):
        name = f"{step.label}: " if step.label else ""
        whose = " (tested for the payee, his score being the payment's base)" if cond else ""
        if step.factor == 0:  # (`the payer pays nothing if ...`)
            return f"{name}the payer pays nothing of {FACTOR_ON[step.on]}{cond}{whose}."
        return f"{name}x{step.factor} on {FACTOR_ON[step.on]}{cond}{whose}."
    share = "split between the others" if step.split else "from each other player"
    times = ", times the multiplier" if step.multiplied else ""
    return f"{step.label}: {AWARD_PAYEES[step.payee]} takes {step.value} {share}{times}{cond}."


def scoring_paragraphs(rules: ir.Ruleset) -> list[str]:
    """The scoring stage, the unit and the game's target and starting score, in sentences."""
    out = []
    if rules.unit is not None:
        out.append(f"Values are counted in points, {rules.unit.points} to the {rules.unit.name}.")
        if rules.unit.shown:
            out.append(f"Scores are shown in {rules.unit.name}.")
    if rules.scoring:
        out.append("The scoring steps, in order (awards are added at the round's end):")
        out.extend(step_sentence(rules, s) for s in rules.scoring)
    n = rules.length
    if n.start:
        out.append(f"Every player starts the game with {n.start}.")
    if n.target is not None:
        out.append(f"The game ends early when a player (or a team) reaches {n.target} in all.")
    if n.tie_break:
        parts = ", then ".join(TIE_BREAK_WORDS[x] for x in n.tie_break)
        out.append(f"A tie for the best total at the game's end goes to {parts}.")
    return out
