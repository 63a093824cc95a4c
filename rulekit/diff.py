"""What differs between two variants, read from their IR (never from the text): card classes and
points, views, entries added, removed or changed, multiplier tiers, and the round mechanics.
A house-rule file diffed against the file it extends shows exactly its overrides.

Asked to (`pair_renamed`), it also pairs an entry or a view one variant names differently from
the other with the same meaning (kirisame's Blue Poems is Fudawiki's Blue ribbons): one rule
renamed, not one removed and another added. `rules_changed` counts the rules a diff changes,
leaving out what only names things (the variant's name, labels, renames)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from rulekit import ir
from rulekit.describe import (
    BONUS_ON_PAIR_SENTENCE,
    STACKS_SENTENCE,
    TIE_BREAK_WORDS,
    card_names,
    compensation_sentence,
    condition_text,
    declaration_sentence,
    entry_options,
    event_sentence,
    offer_text,
    owners_choice_sentence,
)

MECHANICS = (
    "seats", "deal", "setup", "fold", "joker", "first_dealer", "continuation", "liability",
    "count", "length", "dealer_captures", "dealer_claim", "wild", "hiki", "teams", "bomb",
    "play_out_stock", "instant_all", "still_draws", "draw_offer",
)  # fmt: skip
# Ruleset fields diffed as tables of named entries (each entry added, removed or changed).
NAMED_TABLES = ("instant_wins",)


@dataclass(frozen=True)
class Change:
    section: str  # cards, points, views, teyaku, yaku, multiplier, round
    what: str  # the part changed: "red", "x4", "continuation.paid"
    before: str | None  # None: added
    after: str | None  # None: removed
    words: str = ""  # the change said as the rulebook would say it, when `what` is a field name
    subject: str = ""  # the rule changed, when not `what` itself: an entry's name for its parts
    naming: bool = False  # only a name changed (the variant's name, a label, a rename)

    @property
    def rule(self) -> str:
        """The rule this change belongs to: an entry's value and options are one rule."""
        return self.subject or self.what

    def sentence(self) -> str:
        if self.words:
            return self.words
        if self.before is None:
            return f"{self.what}: added: {self.after}"
        if self.after is None:
            return f"{self.what}: removed (was {self.before})"
        return f"{self.what}: {self.before} -> {self.after}"


def _condition(rules: ir.Ruleset, e: ir.Yaku) -> str:
    if e.parts:
        return " + ".join(e.parts)
    return e.text or condition_text(e.condition, rules)


def _entry(rules: ir.Ruleset, e: ir.Yaku) -> str:
    """An entry whole, as the rule file has it: label, value, condition and every option."""
    options = "".join(f"; {o}" for o in entry_options(e))
    return f"{e.label} {e.value}: {_condition(rules, e)}{options}"


def _options(e: ir.Yaku) -> str:
    """The options of an entry, as the rulebook says them (exclusive groups are diffed apart)."""
    return "; ".join(entry_options(e)) or "none"


def _entry_changes(kind: str, a: ir.Ruleset, b: ir.Ruleset, x: ir.Yaku, y: ir.Yaku) -> list[Change]:
    """What differs in one entry (`y` is `x` renamed when their names differ: its label is said
    by the rename, and its condition is the same by meaning)."""
    name = y.name
    out = []
    if x.value != y.value:
        out.append(Change(kind, f"{name} value", str(x.value), str(y.value), subject=name))
    if x.name == y.name and x.label != y.label:
        out.append(Change(kind, f"{name} label", x.label, y.label, subject=name, naming=True))
    if x.name == y.name and x.condition != y.condition:
        before, after = _condition(a, x), _condition(b, y)
        words = ""
        if before == after:  # the same words over other cards
            words = f"{name} condition: {after} ({_cards_now(a, b, x.condition, y.condition)})"
        out.append(Change(kind, f"{name} condition", before, after, words, subject=name))
    if _options(x) != _options(y):
        out.append(Change(kind, f"{name} options", _options(x), _options(y), subject=name))
    return out


def _cards_now(a: ir.Ruleset, b: ir.Ruleset, was: ir.Condition, now: ir.Condition) -> str:
    """Of a condition said in the same words over other cards (`plains >= 10` once the deck has
    bonus cards counted as plains): which cards it counts now, and no longer."""

    def named(cond: ir.Condition) -> set[int]:
        return {
            card
            for part in ir.parts_of(cond)
            if isinstance(part, ir.AllOf | ir.AnyOf | ir.Count)
            for card in part.cards
        }

    added, gone = sorted(named(now) - named(was)), sorted(named(was) - named(now))
    said = [f"now also counting {card_names(b, tuple(added))}"] if added else []
    said += [f"no longer counting {card_names(a, tuple(gone))}"] if gone else []
    return "; ".join(said) or "the same words, tested otherwise"


def meaning(condition: ir.Condition) -> str:
    """What a condition tests, without the words it was written in (a count's label): two
    entries with one meaning are made by the same hands, whatever they are called."""
    return json.dumps(_unworded(condition.model_dump()), sort_keys=True)


def _unworded(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unworded(v) for k, v in value.items() if k not in ("label", "text")}
    if isinstance(value, list | tuple):
        return [_unworded(v) for v in value]
    return value


def renamed(a: ir.Ruleset, b: ir.Ruleset, kind: str) -> list[tuple[ir.Yaku, ir.Yaku]]:
    """The entries of the `kind` table ("teyaku", "yaku") that `b` names differently from `a`
    with the same meaning: each entry only `a` has, with the one entry only `b` has that tests
    the same thing (no pair when several on either side test it: which is which is unsaid)."""
    ta: ir.YakuTable | None = getattr(a, kind)
    tb: ir.YakuTable | None = getattr(b, kind)
    if ta is None or tb is None:
        return []
    only_a = [e for e in ta.entries if e.name not in {x.name for x in tb.entries}]
    only_b = [e for e in tb.entries if e.name not in {x.name for x in ta.entries}]
    return list(_one_to_one(only_a, only_b, lambda e: meaning(e.condition)))


def renamed_views(a: ir.Ruleset, b: ir.Ruleset) -> dict[str, str]:
    """The views `b` names differently from `a` with the same changes of class: a's name to b's."""
    only_a = [v for v in a.views if v.name not in {x.name for x in b.views}]
    only_b = [v for v in b.views if v.name not in {x.name for x in a.views}]
    pairs = _one_to_one(only_a, only_b, lambda v: json.dumps(_unworded(v.model_dump()["changes"])))
    return {x.name: y.name for x, y in pairs}


T = TypeVar("T")


def _one_to_one(xs: list[T], ys: list[T], key: Callable[[T], str]) -> Iterable[tuple[T, T]]:
    """The pairs of an x and a y with one key that no other x or y has."""
    keys_x, keys_y = [key(x) for x in xs], [key(y) for y in ys]
    for x, k in zip(xs, keys_x, strict=True):
        if keys_x.count(k) == 1 and keys_y.count(k) == 1:
            yield x, ys[keys_y.index(k)]


def rules_changed(changes: list[Change]) -> int:
    """How many rules the changes change: an entry once however many of its parts differ, and
    nothing that only names things (the variant's name, a label, a rename)."""
    return len({(c.section, c.rule) for c in changes if not c.naming})


def _table(kind: str, a: ir.Ruleset, b: ir.Ruleset, pair: bool = False) -> list[Change]:
    ta: ir.YakuTable | None = getattr(a, kind)
    tb: ir.YakuTable | None = getattr(b, kind)
    if ta is None and tb is None:
        return []
    if ta is None or tb is None:
        return [
            Change(
                kind,
                f"the {kind} table",
                None if ta is None else "present",
                None if tb is None else "present",
            )
        ]
    views = renamed_views(a, b) if pair else {}
    out = []
    for attr, label in (
        ("policy", "policy"), ("view", "view"), ("between_players", "paid to"),
        ("split", "split"),
    ):  # fmt: skip
        x, y = getattr(ta, attr), getattr(tb, attr)
        if x != y:
            said = _said(f"table.{attr}", x, a), _said(f"table.{attr}", y, b)
            words = f"{TABLE_LABELS[attr].format(kind=kind)}: {said[0]} -> {said[1]}"
            alike = attr == "view" and x is not None and views.get(x) == y
            out.append(Change(kind, label, str(x), str(y), words, naming=alike))
    ea = {e.name: e for e in ta.entries}
    eb = {e.name: e for e in tb.entries}
    pairs = renamed(a, b, kind) if pair else []
    for name in ea.keys() - eb.keys() - {x.name for x, _ in pairs}:
        e = ea[name]
        out.append(Change(kind, name, _entry(a, e), None))
    for name in eb.keys() - ea.keys() - {y.name for _, y in pairs}:
        e = eb[name]
        out.append(Change(kind, name, None, _entry(b, e)))
    for name in [n for n in ea if n in eb]:
        out += _entry_changes(kind, a, b, ea[name], eb[name])
    for x, y in pairs:
        words = (
            f"{x.name} -> {y.name}: renamed {x.label} -> {y.label}"
            f" (the same condition: {_condition(b, y)})"
        )
        out.append(Change(kind, y.name, x.label, y.label, words, naming=True))
        out += _entry_changes(kind, a, b, x, y)
    ga = {frozenset(g) for g in ta.exclusive}
    gb = {frozenset(g) for g in tb.exclusive}
    for g in ga - gb:
        out.append(Change(kind, "exclusive " + ", ".join(sorted(g)), "exclusive", None))
    for g in gb - ga:
        out.append(Change(kind, "exclusive " + ", ".join(sorted(g)), None, "exclusive"))
    return sorted(out, key=lambda c: (c.rule, c.what))  # a renamed entry, then its changes


def _flat(prefix: str, value: Any) -> dict[str, Any]:
    """A mechanic as dotted paths to plain values."""
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flat(f"{prefix}.{k}", v))
        return out
    return {prefix: value}


NO_PAR = "none (the count is not by par)"


def _pars_at(flat: dict[str, Any]) -> dict[str, Any]:
    """The pars at table sizes, in words (`66 at 4 seats, 77 at 5 seats`; absent: none). A
    count by anything but par has none: the par it keeps from the file it extends says
    nothing (a par count replaced by a count by points is not a par of 132 become 88)."""
    if flat.get("count.method") != "par":
        flat["count.par"] = flat["count.par_at"] = NO_PAR
        return flat
    pars = flat.pop("count.par_at", None)
    if pars:
        flat["count.par_at"] = ", ".join(f"{p['par']} at {p['seats']} seats" for p in pars)
    return flat


def _round_by(flat: dict[str, Any]) -> dict[str, Any]:
    """What wins a round by round wins, in words (`yaku points, then plains`; absent: none)."""
    keys = flat.pop("count.round_by", None)
    if keys:
        flat["count.round_by"] = ", then ".join(f"the most {k['label']}" for k in keys)
    return flat


def _when_paid(flat: dict[str, Any]) -> dict[str, Any]:
    """When yaku are paid, as one part of the continuation: when made or at the stop where a
    yaku ends the round; as soon as made, or at the count, where none does."""
    in_play = flat.pop("continuation.paid_in_play", False)
    if not flat.get("continuation.ends_round", True):
        flat["continuation.paid"] = "in_play" if in_play else "count"
    return flat


def _offers(name: str, a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """The conditions on a choice's options (`continuation` or `fold`), as written (`stop only
    if score >= 2`)."""
    xa, xb = getattr(a, name).offers, getattr(b, name).offers
    if xa == xb:
        return []
    x = "; ".join(offer_text(o, a) for o in xa) or None
    y = "; ".join(offer_text(o, b) for o in xb) or None
    both = "stop and continue" if name == "continuation" else "join and fold"
    always = f"none ({both} always offered)"
    words = f"{LABELS[name + '.offers']}: {x or always} -> {y or always}"
    return [Change("round", f"{name}.offers", x, y, words)]


def _show(v: Any, rules: ir.Ruleset) -> str:
    if isinstance(v, tuple | list):
        if v and all(isinstance(x, int) for x in v) and all(x >= 10 for x in v):
            return card_names(rules, tuple(v))
        return ", ".join(str(x) for x in v) or "none"
    return "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def _tier(t: ir.Tier | None, rules: ir.Ruleset) -> str | None:
    if t is None:
        return None
    carry = f"; carry if {t.carry_at} or more" if t.carry_at else ""
    if t.condition is not None:
        return f"{t.text or condition_text(t.condition, rules)}{carry}"
    return f"any of {card_names(rules, t.cards)}{carry}"


def _instant_win(rules: ir.Ruleset, w: ir.InstantWin) -> str:
    return f"{w.label} {w.value}: {w.text or condition_text(w.condition, rules)}"


def _instant_wins(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """Instant wins by name, as a yaku table: added, removed, or changed in a part."""
    wa = {w.name: w for w in a.instant_wins}
    wb = {w.name: w for w in b.instant_wins}
    out = []
    for name in [n for n in wa if n not in wb]:
        out.append(Change("instant_wins", name, _instant_win(a, wa[name]), None))
    for name in [n for n in wb if n not in wa]:
        out.append(Change("instant_wins", name, None, _instant_win(b, wb[name])))
    for name in [n for n in wa if n in wb]:
        x, y = wa[name], wb[name]
        if x.value != y.value:
            before, after = str(x.value), str(y.value)
            out.append(Change("instant_wins", f"{name} value", before, after, subject=name))
        if x.label != y.label:
            what = f"{name} label"
            out.append(Change("instant_wins", what, x.label, y.label, subject=name, naming=True))
        if x.condition != y.condition:
            before = x.text or condition_text(x.condition, a)
            after = y.text or condition_text(y.condition, b)
            out.append(Change("instant_wins", f"{name} condition", before, after, subject=name))
    return out


def diff(a: ir.Ruleset, b: ir.Ruleset, *, pair_renamed: bool = False) -> list[Change]:
    """Every difference from `a` to `b`; with `pair_renamed`, an entry or a view renamed with
    the same meaning is one change (a rename, `naming`) and its other changes, not a removal
    and an addition."""
    out: list[Change] = _identity(a, b)
    cards_a = {c.id: c for c in a.deck.cards}
    cards_b = {c.id: c for c in b.deck.cards}
    for cid in sorted(cards_a.keys() | cards_b.keys()):
        x, y = cards_a.get(cid), cards_b.get(cid)
        if x is None or y is None:
            before, after = None if x is None else x.name, None if y is None else y.name
            words = ""
            if cid in b.deck.bonus or cid in a.deck.bonus:
                words = f"{cid} {before or after}: " + (
                    "a bonus card added to the deck" if x is None else "a bonus card removed"
                )
            if cid in b.left_out or cid in a.left_out:  # `without`
                words = f"{cid} {before or after}: " + (
                    "left out of the deck" if y is None else "back in the deck"
                )
            out.append(Change("cards", str(cid), before, after, words))
        elif x.classes != y.classes:
            out.append(
                Change(
                    "cards",
                    f"{cid} {x.name} class",
                    " and ".join(x.classes),
                    " and ".join(y.classes),
                )
            )
    for cls in sorted(a.points.keys() | b.points.keys()):
        if a.points.get(cls) != b.points.get(cls):
            out.append(
                Change("points", cls, _show(a.points.get(cls), a), _show(b.points.get(cls), b))
            )
    out += _special_cards(a, b)
    va = {v.name: "; ".join(c.text for c in v.changes) for v in a.views}
    vb = {v.name: "; ".join(c.text for c in v.changes) for v in b.views}
    views = renamed_views(a, b) if pair_renamed else {}
    for was, now in views.items():
        words = f"{was} -> {now}: renamed (the same view: {vb[now]})"
        out.append(Change("views", f"{was} -> {now}", was, now, words, now, naming=True))
    for name in sorted((va.keys() | vb.keys()) - views.keys() - set(views.values())):
        if va.get(name) != vb.get(name):
            out.append(Change("views", name, va.get(name), vb.get(name)))
    out += _owners_choice(a, b)
    out += _table("teyaku", a, b, pair_renamed)
    out += _table("yaku", a, b, pair_renamed)
    out += _scoring(a, b)
    ta = {t.factor: t for t in a.multiplier.tiers}
    tb = {t.factor: t for t in b.multiplier.tiers}
    for f in sorted(ta.keys() | tb.keys(), reverse=True):
        before, after = _tier(ta.get(f), a), _tier(tb.get(f), b)
        if before != after:
            out.append(Change("multiplier", f"x{f}", before, after))
    if (a.multiplier.step, a.multiplier.per_card) != (b.multiplier.step, b.multiplier.per_card):
        out.append(
            Change(
                "multiplier",
                "per card on the field",
                f"+{a.multiplier.step} per {card_names(a, a.multiplier.per_card)}"
                if a.multiplier.step
                else None,
                f"+{b.multiplier.step} per {card_names(b, b.multiplier.per_card)}"
                if b.multiplier.step
                else None,
            )
        )
    out += _instant_wins(a, b)
    if a.void_text != b.void_text or a.void_field != b.void_field:
        out.append(Change("round", "void field", a.void_text or None, b.void_text or None))
    if a.void_hand_text != b.void_hand_text or a.void_hand != b.void_hand:
        out.append(Change("round", "void hand", a.void_hand_text or None, b.void_hand_text or None))
    if a.draw_at_count_text != b.draw_at_count_text or a.draw_at_count != b.draw_at_count:
        drawn = "a draw at the count, when a player has"
        was, now = a.draw_at_count_text, b.draw_at_count_text
        out.append(Change("round", drawn, was or None, now or None))
    for name in MECHANICS:
        whole = _whole_change(name, getattr(a, name), getattr(b, name), a, b)
        if whole is not None:
            out.append(whole)
            continue
        fa, fb = _flat(name, getattr(a, name)), _flat(name, getattr(b, name))
        if name == "continuation":
            fa, fb = _when_paid(fa), _when_paid(fb)
        if name == "count":
            fa, fb = _round_by(_pars_at(fa)), _round_by(_pars_at(fb))
        if name in ("continuation", "fold"):
            fa.pop(f"{name}.offers", None)
            fb.pop(f"{name}.offers", None)
            out += _offers(name, a, b)
        for key in sorted(fa.keys() | fb.keys()):
            x, y = fa.get(key), fb.get(key)
            if x != y:
                words = f"{_label(key)}: {_said(key, x, a)} -> {_said(key, y, b)}"
                out.append(Change("round", key, _show(x, a), _show(y, b), words))
    out += _single_offers(a, b)
    out += _declarations(a, b)
    out += _events(a, b)
    out += _compensation(a, b)
    return out


def _compensation(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """A forced folder's compensation added, removed or changed: said whole, in words."""
    if a.compensation == b.compensation:
        return []
    x = compensation_sentence(a, a.compensation).rstrip(".") if a.compensation else None
    y = compensation_sentence(b, b.compensation).rstrip(".") if b.compensation else None
    words = _said_whole("the compensation of a forced fold", x, y)
    return [Change("round", "compensation", x, y, words)]


def _events(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """The draw stacking on the pair said whole; an event added, removed or changed, by its
    name, each said whole in words."""
    out = []
    if a.stacks != b.stacks:
        said = STACKS_SENTENCE.rstrip(".")
        was, now = (said, None) if a.stacks else (None, said)
        out.append(Change("round", "stacks", was, now, _said_whole("the stacking draw", was, now)))
    if a.bonus_on_pair != b.bonus_on_pair:
        said = BONUS_ON_PAIR_SENTENCE.rstrip(".")
        was, now = (said, None) if a.bonus_on_pair == "stays" else (None, said)
        words = _said_whole("the bonus card on the stack", was, now)
        out.append(Change("round", "bonus_on_pair", was, now, words))
    out += _named_statements(a, b, a.events, b.events, "event", "an event", _event_said)
    return out


def _single_offers(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """The conditions on the swap and on a hiki, as written (`swap only if round >= 2`)."""
    out = []
    for name in ("swap_offers", "hiki_offers"):
        xa, xb = getattr(a, name), getattr(b, name)
        if xa != xb:
            x = "; ".join(offer_text(o, a) for o in xa) or None
            y = "; ".join(offer_text(o, b) for o in xb) or None
            always = "none (always offered)"
            words = f"{LABELS[name]}: {x or always} -> {y or always}"
            out.append(Change("round", name, x, y, words))
    return out


# ---------------------------------------------------------------- the mechanics in words
TABLE_LABELS = {
    "split": "an entry of the {kind} is a total split between its payers",
    "policy": "which {kind} count",
    "view": "the {kind} are counted with the view",
    "between_players": "between players, the {kind} paid",
}

LABELS = {
    "bomb.hand": "the cards of a month a bomb plays from the hand",
    "bomb.skips": "the later turns on which a bomber may skip the play",
    "draw_offer.minimum": "the yaku value a draw must reach to be a safe play (a draw offered)",
    "draw_offer.refuser_pays": "who refused a draw offered pays a stop of another's for all",
    "seats": "players at the table",
    "seats.min": "the fewest players at the table",
    "seats.max": "the most players at the table",
    "seats.active": "players who play each round (the others fold)",
    "seats.sit_out": "who sits a round out when more are seated than play",
    "fold.payee": "the fold fees go to",
    "fold.before_deal": "players join or fold before the deal, before seeing a card",
    "continuation.paid_in_play": "yaku that do not end the round are paid as soon as made"
    " (not at the count)",
    "deal": "the deal",
    "setup": "the steps of the deal, in order",
    "fold.fee": "the fee for folding",
    "fold.times_multiplier": "the fold fee is multiplied by the field multiplier",
    "fold.forced_fee": "the fee for a forced fold",
    "fold.start": "the fold phase starts from",
    "joker": "a joker added to the deck",
    "joker.seats": "a joker is added to the deck at this many seated players",
    "first_dealer.method": "the first dealer is chosen by",
    "first_dealer.best_card_breaks_ties": "in the draw for first dealer, the better card"
    " breaks a tie",
    "continuation.label": "the call to continue after a yaku",
    "continuation.allowed": "after a yaku, a player may continue rather than stop",
    "continuation.ends_round": "a yaku ends the round",
    "continuation.paid": "yaku are paid",
    "continuation.refund_half": "a continuer beaten by another yaku refunds half of what he"
    " was paid to each other player",
    "continuation.pay_for_all": "a continuer beaten by another yaku pays the new yaku for"
    " every payer",
    "continuation.beaten_forfeit": "a continuer beaten by another yaku forfeits his own yaku",
    "continuation.if_other_stops": "when another player stops the round first after a"
    " continue, the continuer",
    "continuation.if_unfinished": "when the round ends with no new yaku after a continue,"
    " the continuer",
    "continuation.multiplier_per_yaku": "the n-th yaku after continuing multiplies the score by n",
    "continuation.per_continue": "added to the yaku paid at a stop for each continue called,"
    " before any multiplier",
    "continuation.offers": "conditions on the choice after a yaku (an option is offered only"
    " when they hold)",
    "fold.offers": "conditions on joining or folding (an option is offered only when they hold)",
    "swap_offers": "conditions on the swap (it is offered only when they hold)",
    "hiki_offers": "conditions on a hiki (it is offered only when they hold)",
    "continuation.after_loss": "after a yaku is lost, a new yaku gives the choice when the"
    " total beats",
    "liability": "a player who lays the card that completes another's yaku pays it in full",
    "liability.yaku": "the yaku paid in full by the player who laid the card that completed them",
    "liability.min_hand": "that player pays in full only while holding at least this many cards",
    "count.method": "the count at the end of the round",
    "count.par": "the par of the count",
    "count.par_at": "the par at a table size",
    "count.only_without_yaku": "the count is made only when no yaku was made",
    "count.opponents_lose": "each yaku costs every opponent its value",
    "count.makers_score": "each yaku is scored for its maker (a count by points or round wins)",
    "count.team_cards": "with teams, a yaku is made from",
    "count.tie": "a tie for the best score",
    "count.round_paid": "a round won (a count by round wins) or a count by steps is paid by",
    "count.step_value": "a step of card points is worth (a count by steps)",
    "count.step_points": "the card points of a step (a count by steps)",
    "count.round_by": "what wins a round (a count by round wins)",
    "length.rounds": "rounds in a game",
    "length.winner_deals": "the winner of a round deals the next",
    "length.drawn_keeps_dealer": "a drawn round keeps its dealer",
    "length.rotate": "the deal passes to the next player each round",
    "length.target": "the game also ends when a player (or team) reaches a total of",
    "length.start": "every player starts the game with",
    "length.tie_break": "a tie for the best total at the game's end goes to",
    "count.winner": "who wins the round (and deals next, with 'winner deals')",
    "instant_win": "a dealt hand that wins the round at once",
    "instant_wins": "dealt hands that win the round at once",
    "instant_win.value": "a hand that wins at once is paid by each other player",
    "instant_win.text": "a dealt hand that wins the round at once",
    "dealer_captures": "the dealer captures a month dealt to the field whole, of this many cards",
    "dealer_claim": "the dealer's option to take cards of a month laid on the field and play"
    " second",
    "dealer_claim.take": "the cards the dealer may take of a month laid on the field",
    "dealer_claim.size": "the cards of a month laid on the field that offer the dealer his take",
    "play_out_stock": "when nobody holds a card, the players draw and play the rest of the stock"
    " in turn",
    "instant_all": "when every hand of the round wins at once",
    "still_draws": "a player with no hand card still draws in turn while the stock lasts",
    "continuation.outstopped_pays": "who pays a stop's yaku for every payer",
    "wild": "a wild card",
    "wild.card": "the wild card",
    "wild.any_target": "played from the hand, the wild card captures any field card",
    "wild.collects_month": "at the end, the wild card collects the field cards of its month",
    "wild.lay_when_blocked": "when a hiki blocks a target, the wild card may be laid on the"
    " field instead",
    "wild.respects_hiki": "the wild card may not take a card that completes another player's hiki",
    "wild.not_own_month": "the wild card may not take a card of its own month",
    "wild.taken_by_draw": "on the field, the wild card is taken by the next card drawn not of its"
    " month",
    "wild.sweeps_when_last": "drawn last, the wild card takes the whole field",
    "wild.drawn_any_target": "drawn, the wild card captures a field card it could take from the"
    " hand",
    "wild.last_to_holder": "at the end, the last card of the wild card's month goes to the holder"
    " of the other two",
    "hiki": "hiki: a player who sees all four cards of a month may capture them as his play",
    "teams": "teams",
}

WORDS = {
    "continuation.outstopped_pays": {
        "nobody": "nobody: each payer his own",
        "first": "the first of the others who continued in the round",
    },
    "instant_all": {
        "first": "the first from the dealer is paid",
        "draw": "the round is a draw, nobody paid",
    },
    "table.policy": {"best": "only a player's highest", "all": "every one made (they add up)"},
    "table.between_players": {"highest": "only the highest", "all": "all of them"},
    "fold.start": {"dealer": "the dealer", "after_dealer": "the player after the dealer"},
    "seats.sit_out": {
        "fold": "those who fold",
        "after_dealer": "the players after the dealer, in turn",
        "dealer": "the dealer, then the players after him",
        "loser": "the loser of the last round",
        "winner": "the winner of the last round",
        "in_turn": "each seat in turn, whoever deals",
    },
    "fold.payee": {
        "winner": "the round winner",
        "active": "the players of the round, shared",
        "dealer": "the dealer",
        "bank": "the bank (nobody)",
    },
    "first_dealer.method": {"dice": "dice", "draw": "drawing cards"},
    "continuation.paid": {
        "made": "when made",
        "stop": "when their maker stops",
        "in_play": "as soon as made, the round playing on",
        "count": "at the count",
    },
    "continuation.after_loss": {
        "declared": "the value last declared",
        "left": "what is left of it",
    },
    "continuation.if_other_stops": {
        "keep": "keeps his yaku (paid as if he had stopped)",
        "forfeit": "forfeits his yaku",
    },
    "count.team_cards": {
        "apart": "each member's pile alone",
        "pooled": "the team's piles together",
    },
    "count.round_paid": {
        "bank": "nobody: it is scored against the bank",
        "others": "each other player of the round",
    },
    "count.tie": {
        "first": "goes to the tied side first in play order from the dealer",
        "draw": "wins nobody the round",
    },
    "continuation.if_unfinished": {
        "keep": "keeps what he made",
        "pay_half": "pays half its value to each other player",
        "earn_half": "earns only half",
        "forfeit": "forfeits it",
    },
    "count.winner": {
        "count": "the yaku's maker, or the count's best",
        "net": "the best net of the round, yaku included",
    },
    "count.method": {
        "par": "points over par, times the multiplier",
        "difference": "the lower card total pays the difference",
        "points": "each scores his card points",
        "round_wins": "the best score wins the round, worth one",
        "none": "no card count",
        "per_points": "each player's card points in full steps (N per M points)",
    },
}

ABSENT = {
    "length.target": "none (the rounds only)",
    "length.tie_break": "every tied player (shared)",
    "continuation.label": "unnamed (a plain continue)",
    "continuation.if_other_stops": "as when the round ends with no new yaku",
    "seats.active": "everyone seated",
    "joker.seats": "never",
    "liability.yaku": "none",
    "liability.min_hand": "no liability",
    "dealer_captures": "never",
    "wild.card": "none",
    "instant_win.value": "no such hand",
    "instant_win.text": "none",
    "table.view": "none (the cards' own classes)",
    "count.par_at": "none (one par at every table size)",
    "count.round_by": "the best score",
}


def _label(key: str) -> str:
    """A mechanic's field in words; an unknown one (a new IR field) by its name, unspaced."""
    return LABELS.get(key) or key.replace(".", ": ").replace("_", " ")


def _said(key: str, v: Any, rules: ir.Ruleset) -> str:
    """A mechanic's value in words: yes / no, the rulebook's phrase for a choice, card names,
    entry labels, a deal as `7 to each, 6 to the field`."""
    if v is None or v == () or v == "":
        return ABSENT.get(key, "none")
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str) and key in WORDS:
        return WORDS[key].get(v, v)
    if key == "length.tie_break":
        return ", then ".join(TIE_BREAK_WORDS[x] for x in v)
    if key == "deal":
        return "; ".join(_deal(d) for d in v)
    if key == "teams":
        return "; ".join(_teams(t) for t in v)
    if key == "wild.card":
        return card_names(rules, (v,))
    if key == "liability.yaku":
        return ", ".join(_entry_label(rules, n) for n in v)
    if key == "setup":
        return ", ".join(str(x).replace("_", " ") for x in v)
    return _show(v, rules)


def _deal(d: Any) -> str:
    d = ir.DealSize.model_validate(d)
    at = f"at {d.seats} seats, " if d.seats is not None else ""
    return f"{at}{d.hand} to each, {d.field} to the field"


def _teams(t: Any) -> str:
    t = ir.Teams.model_validate(t)
    kind = "pairs, partners opposite" if t.size == 2 else f"teams of {t.size}, alternating"
    return f"at {t.seats} players, {kind}"


def _entry_label(rules: ir.Ruleset, name: str) -> str:
    for table in (rules.yaku, rules.teyaku):
        if table is not None:
            for e in table.entries:
                if e.name == name:
                    return e.label
    return name


SECTIONS = {
    "game": "The game",
    "cards": "Cards",
    "points": "Points",
    "views": "Views",
    "teyaku": "Teyaku",
    "yaku": "Yaku",
    "multiplier": "Field multiplier",
    "scoring": "Scoring",
    "instant_wins": "Instant wins (dealt hands that win the round at once)",
    "round": "The round",
}


def render(changes: list[Change], a: str, b: str, markdown: bool = False) -> str:
    if not changes:
        return f"{a} and {b} are the same variant\n"
    n = len(changes)
    counted = f"{n} difference{'s' if n != 1 else ''}"
    lines = [f"# {a} -> {b}" if markdown else f"{a} -> {b}: {counted}"]
    for section, title in SECTIONS.items():
        mine = [c for c in changes if c.section == section]
        if not mine:
            continue
        lines += ["", f"## {title}" if markdown else f"{title}:"]
        lines += [("- " if markdown else "  ") + c.sentence() for c in mine]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the scoring stage
def _step_key(step: ir.Factor | ir.Award) -> str:
    """A step by its name; an unnamed factor by what it says."""
    if step.name or isinstance(step, ir.Award):
        return step.name
    cond = f" if {step.text}" if step.text else ""
    if step.factor == 0:
        return f"the payer pays nothing on {step.on}{cond}"
    return f"x{step.factor} on {step.on}{cond}"


def _scoring(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """Scoring steps added, removed, changed or moved (by name), and the unit."""
    from rulekit.describe import step_sentence

    out = []
    sa = {_step_key(s): s for s in a.scoring}
    sb = {_step_key(s): s for s in b.scoring}
    for key in sa.keys() | sb.keys():
        x, y = sa.get(key), sb.get(key)
        if x == y:
            continue
        before = step_sentence(a, x) if x is not None else None
        after = step_sentence(b, y) if y is not None else None
        if before == after and a.deck != b.deck:
            continue  # the same words over another deck: its cards section says the change
        if before == after:  # the same words, another condition: say the condition's IR
            before, after = str(x), str(y)
        out.append(Change("scoring", f"step {key}", before, after))
    kept_a = [k for k in sa if k in sb]
    kept_b = [k for k in sb if k in sa]
    if kept_a != kept_b:
        out.append(
            Change(
                "scoring",
                "order",
                None,
                None,
                "the order of the scoring steps: " + ", ".join(kept_a) + " -> " + ", ".join(kept_b),
            )
        )
    if a.unit != b.unit:
        said = [
            f"{u.points} points to the {u.name}"
            + (f", scores shown in {u.name}" if u.shown else "")
            if u is not None
            else "none"
            for u in (a.unit, b.unit)
        ]
        out.append(Change("scoring", "unit", said[0], said[1], f"the unit: {said[0]} -> {said[1]}"))
    return sorted(out, key=lambda c: c.what)


def _special_cards(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """Cards counted as more than one (`treat lightning as 2 plains`) and cards' own points
    (`points moon 25`), card by card."""
    out = []
    wa = {c: (w.weight, w.cls) for w in a.weighted for c in w.cards}
    wb = {c: (w.weight, w.cls) for w in b.weighted for c in w.cards}
    both = {c.id for c in a.deck.cards} & {c.id for c in b.deck.cards}
    for cid in sorted((wa.keys() | wb.keys()) & both):
        if wa.get(cid) != wb.get(cid):
            name = b.card(cid).name
            before, after = (
                f"{w[0]} {w[1]}s" if w else "one card" for w in (wa.get(cid), wb.get(cid))
            )
            words = f"{cid} {name} counts as: {before} -> {after}"
            out.append(Change("cards", f"{cid} {name} counts as", before, after, words))
    la, lb = (r.lone.cards if r.lone else () for r in (a, b))
    if la != lb:
        before, after = (
            card_names(r, cards) if cards else "none" for r, cards in ((a, la), (b, lb))
        )
        words = f"cards that go to whoever plays or draws them: {before} -> {after}"
        out.append(Change("cards", "lone", before, after, words))
    for cid in sorted((a.own_points.keys() | b.own_points.keys()) & both):
        x, y = a.card_points(cid), b.card_points(cid)
        if x != y:
            name = b.card(cid).name
            out.append(Change("points", name, _show(x, a), _show(y, b)))
    return out


def _choice_key(c: ir.OwnersChoice | None) -> tuple[object, ...] | None:
    return None if c is None else (c.cards, c.first, c.second, c.weight)


def _owners_choice(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """The owner's choice added, removed or changed, said whole (its second reading's yaku
    follow the yaku, diffed on their own)."""
    x, y = a.owners_choice, b.owners_choice
    if _choice_key(x) == _choice_key(y):
        return []
    before = owners_choice_sentence(a, x).rstrip(".") if x is not None else None
    after = owners_choice_sentence(b, y).rstrip(".") if y is not None else None
    words = _said_whole("an owner's choice", before, after)
    return [Change("cards", "owner's choice", before, after, words)]


def _said_whole(what: str, before: str | None, after: str | None) -> str:
    """A statement said whole in words: added, removed, or what it was and what it is."""
    if before is None:
        return f"{what}: added: {after}"
    if after is None:
        return f"{what}: removed (was: {before})"
    return f"{what}: {before} -> {after}"


def _declarations(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """A declaration added, removed or changed, by its name: each said whole, in words."""
    return _named_statements(
        a, b, a.declarations, b.declarations, "declare", "a declaration", declaration_sentence
    )


def _event_said(e: ir.Event, _rules: ir.Ruleset) -> str:
    return event_sentence(e)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def _named_statements(
    a: ir.Ruleset,
    b: ir.Ruleset,
    xs: Iterable[N],
    ys: Iterable[N],
    keyword: str,
    kind: str,
    sentence: Callable[[N, ir.Ruleset], str],
) -> list[Change]:
    """Named statements (declarations, events) added, removed or changed, each said whole by
    `sentence(statement, its rule set)`."""
    xa = {x.name: x for x in xs}
    xb = {y.name: y for y in ys}
    out = []
    for name in sorted(xa.keys() | xb.keys()):
        x, y = xa.get(name), xb.get(name)
        if x == y:
            continue
        before = sentence(x, a).rstrip(".") if x is not None else None
        after = sentence(y, b).rstrip(".") if y is not None else None
        out.append(
            Change("round", f"{keyword} {name}", before, after, _said_whole(kind, before, after))
        )
    return out


# ---------------------------------------------------------------- whole statements
def _identity(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """The `game ... variant ...` line: a house file names itself, and the diff says so."""
    out = []
    for attr, label in (("game", "the game"), ("variant", "the variant's name")):
        x, y = getattr(a, attr), getattr(b, attr)
        if x != y:
            said = [f'"{v}"' if v else "unnamed" for v in (x, y)]
            words = f"{label}: {said[0]} -> {said[1]}"
            out.append(Change("game", attr, x or None, y or None, words, naming=True))
    return out


# An optional mechanic added or removed whole (`remove wild`) is one line, not one per option.
WHOLE_NAMES = {
    "wild": "the wild card", "liability": "liability", "joker": "the joker", "bomb": "the bomb",
    "dealer_claim": "the dealer's claim of the field", "draw_offer": "a draw offered",
}  # fmt: skip


def _whole_sentence(name: str, v: Any, rules: ir.Ruleset) -> str:
    """An optional mechanic in one sentence, as the rulebook says it."""
    from rulekit.describe import _wild_sentence

    if isinstance(v, ir.WildCard):
        return _wild_sentence(rules, v).rstrip(".")
    if isinstance(v, ir.Liability):
        paid = ", ".join(_entry_label(rules, n) for n in v.yaku)
        return (
            f"{paid} completed with a card another player laid on the field (while holding"
            f" {v.min_hand} or more cards) are paid in full by that player"
        )
    if isinstance(v, ir.Joker):
        return f"at {v.seats} seats a joker is added to the deck"
    if isinstance(v, ir.DealerClaim):
        from rulekit.describe import dealer_claim_sentence

        return dealer_claim_sentence(v).rstrip(".")
    if isinstance(v, ir.Bomb):
        from rulekit.describe import bomb_sentence

        return bomb_sentence(v).rstrip(".")
    if isinstance(v, ir.DrawOffer):
        from rulekit.describe import draw_offer_sentence

        return draw_offer_sentence(v).rstrip(".")
    return _show(v, rules)


def _whole_change(name: str, x: Any, y: Any, a: ir.Ruleset, b: ir.Ruleset) -> Change | None:
    """One line when an optional mechanic is there on one side only (None when both or neither
    have it: then its options are diffed one by one)."""
    if (x is None) == (y is None) or not isinstance(x if y is None else y, BaseModel):
        return None
    noun = WHOLE_NAMES.get(name, _label(name))
    if y is None:
        before = _whole_sentence(name, x, a)
        return Change("round", name, before, None, f"{noun}: removed (was: {before})")
    after = _whole_sentence(name, y, b)
    return Change("round", name, None, after, f"{noun}: added: {after}")
