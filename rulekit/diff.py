"""What differs between two variants, read from their IR (never from the text): card classes and
points, views, entries added, removed or changed, multiplier tiers, and the round mechanics.
A house-rule file diffed against the file it extends shows exactly its overrides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rulekit import ir
from rulekit.describe import card_names, condition_text, entry_options

MECHANICS = (
    "seats", "deal", "setup", "fold", "joker", "first_dealer", "continuation", "liability",
    "count", "length", "instant_win", "dealer_captures", "wild", "hiki", "teams",
)  # fmt: skip


@dataclass(frozen=True)
class Change:
    section: str  # cards, points, views, teyaku, yaku, multiplier, round
    what: str  # the part changed: "red", "x4", "continuation.paid"
    before: str | None  # None: added
    after: str | None  # None: removed

    def sentence(self) -> str:
        if self.before is None:
            return f"{self.what}: added: {self.after}"
        if self.after is None:
            return f"{self.what}: removed (was {self.before})"
        return f"{self.what}: {self.before} -> {self.after}"


def _condition(rules: ir.Ruleset, e: ir.Yaku) -> str:
    if e.parts:
        return " + ".join(e.parts)
    return e.text or condition_text(e.condition, rules)


def _options(e: ir.Yaku) -> str:
    """The options of an entry, as the rulebook says them (exclusive groups are diffed apart)."""
    return "; ".join(entry_options(e)) or "none"


def _table(kind: str, a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
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
    out = []
    for attr, label in (("policy", "policy"), ("view", "view"), ("between_players", "paid to")):
        if getattr(ta, attr) != getattr(tb, attr):
            out.append(Change(kind, label, str(getattr(ta, attr)), str(getattr(tb, attr))))
    ea = {e.name: e for e in ta.entries}
    eb = {e.name: e for e in tb.entries}
    for name in ea.keys() - eb.keys():
        e = ea[name]
        out.append(Change(kind, name, f"{e.label} {e.value}: {_condition(a, e)}", None))
    for name in eb.keys() - ea.keys():
        e = eb[name]
        out.append(Change(kind, name, None, f"{e.label} {e.value}: {_condition(b, e)}"))
    for name in [n for n in ea if n in eb]:
        x, y = ea[name], eb[name]
        if x.value != y.value:
            out.append(Change(kind, f"{name} value", str(x.value), str(y.value)))
        if x.label != y.label:
            out.append(Change(kind, f"{name} label", x.label, y.label))
        if x.condition != y.condition:
            out.append(Change(kind, f"{name} condition", _condition(a, x), _condition(b, y)))
        if _options(x) != _options(y):
            out.append(Change(kind, f"{name} options", _options(x), _options(y)))
    ga = {frozenset(g) for g in ta.exclusive}
    gb = {frozenset(g) for g in tb.exclusive}
    for g in ga - gb:
        out.append(Change(kind, "exclusive " + ", ".join(sorted(g)), "exclusive", None))
    for g in gb - ga:
        out.append(Change(kind, "exclusive " + ", ".join(sorted(g)), None, "exclusive"))
    return sorted(out, key=lambda c: c.what)


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
    return f"any of {card_names(rules, t.cards)}{carry}"


def diff(a: ir.Ruleset, b: ir.Ruleset) -> list[Change]:
    """Every difference from `a` to `b`."""
    out: list[Change] = []
    cards_a = {c.id: c for c in a.deck.cards}
    cards_b = {c.id: c for c in b.deck.cards}
    for cid in sorted(cards_a.keys() | cards_b.keys()):
        x, y = cards_a.get(cid), cards_b.get(cid)
        if x is None or y is None:
            out.append(
                Change(
                    "cards", str(cid), None if x is None else x.name, None if y is None else y.name
                )
            )
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
    va = {v.name: "; ".join(c.text for c in v.changes) for v in a.views}
    vb = {v.name: "; ".join(c.text for c in v.changes) for v in b.views}
    for name in sorted(va.keys() | vb.keys()):
        if va.get(name) != vb.get(name):
            out.append(Change("views", name, va.get(name), vb.get(name)))
    out += _table("teyaku", a, b)
    out += _table("yaku", a, b)
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
    if a.void_text != b.void_text or a.void_field != b.void_field:
        out.append(Change("round", "void field", a.void_text or None, b.void_text or None))
    for name in MECHANICS:
        fa, fb = _flat(name, getattr(a, name)), _flat(name, getattr(b, name))
        if name == "instant_win":  # its condition shows as its text
            fa = {k: v for k, v in fa.items() if ".condition" not in k}
            fb = {k: v for k, v in fb.items() if ".condition" not in k}
        for key in sorted(fa.keys() | fb.keys()):
            if fa.get(key) != fb.get(key):
                out.append(Change("round", key, _show(fa.get(key), a), _show(fb.get(key), b)))
    return out


SECTIONS = {
    "cards": "Cards",
    "points": "Points",
    "views": "Views",
    "teyaku": "Teyaku",
    "yaku": "Yaku",
    "multiplier": "Field multiplier",
    "round": "The round",
}


def render(changes: list[Change], a: str, b: str, markdown: bool = False) -> str:
    if not changes:
        return f"{a} and {b} are the same variant\n"
    lines = [f"# {a} -> {b}" if markdown else f"{a} -> {b}: {len(changes)} differences"]
    for section, title in SECTIONS.items():
        mine = [c for c in changes if c.section == section]
        if not mine:
            continue
        lines += ["", f"## {title}" if markdown else f"{title}:"]
        lines += [("- " if markdown else "  ") + c.sentence() for c in mine]
    return "\n".join(lines) + "\n"
