"""Exact odds of the dealt hands: the probability that one seat's hand counts each teyaku, and
what the teyaku pay per round, and that it makes each instant win (a dealt hand that wins the
round at once), by counting hands month by month (no sampling).

The field multiplier is counted exactly too: given the light cards a hand holds, the field is
any 6 of the other cards, so its expected multiplier follows from hypergeometric counts.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb
from typing import Any

from rulekit import ir
from rulekit.engine.tables import CompiledRules
from rulekit.errors import UsageError
from rulekit.hands import HandSpace


def expected_multiplier(rules: ir.Ruleset, held: list[int], hand: int, field: int) -> Fraction:
    """The field's expected multiplier when the hand holds `held[j]` cards of tier j (the
    tiers' card sets, disjoint), the field being `field` of the cards not in the hand."""
    m = rules.multiplier
    tiers = list(m.tiers)
    groups = [set(t.cards) for t in tiers]
    per_card = set(m.per_card)
    if per_card and m.step:
        groups.append(per_card - set().union(*groups) if groups else per_card)
    remaining = len(rules.deck.cards) - hand
    left = [len(g) - h for g, h in zip(groups, held, strict=True)]
    others = remaining - sum(left)
    total = comb(remaining, field)
    expected = Fraction(0)
    for ks in product(*(range(min(r, field) + 1) for r in left)):
        rest = field - sum(ks)
        if rest < 0 or rest > others:
            continue
        ways = comb(others, rest)
        for k, r in zip(ks, left, strict=True):
            ways *= comb(r, k)
        factor = max([t.factor for t, k in zip(tiers, ks, strict=False) if k] or [1])
        if per_card and m.step:
            on_field = sum(k for g, k in zip(groups, ks, strict=True) if g & per_card)
            factor += m.step * on_field
        expected += Fraction(ways * factor, total)
    return expected


def left_out(rules: ir.Ruleset, seats: int) -> list[str]:
    """What the exact count does not include at this table, in words, so a reader does not take
    the expected payment for more than it is."""
    out = []
    if any(t.carry_at for t in rules.multiplier.tiers):
        out.append(
            "the multiplier carried over from the round before (the field of this deal only)"
        )
    if rules.void_field is not None:
        what = f" ({rules.void_text})" if rules.void_text else ""
        out.append(f"redeals: every deal is counted, also a void field{what} that is redealt")
    if rules.void_hand is not None:
        what = f" ({rules.void_hand_text})" if rules.void_hand_text else ""
        out.append(f"redeals: every deal is counted, also a void hand{what} that is redealt")
    if rules.seats.playing(seats) < seats:
        playing = rules.seats.playing(seats)
        out.append(f"folding: a hand is counted as dealt, before {seats} seated fold to {playing}")
    return out


# what a hand alone decides: an instant win asking anything else (the field, the dealer, the
# round, every hand) depends on more than one seat's cards, and is not counted
_HAND_ONLY = (ir.AllOf, ir.AnyOf, ir.Count, ir.Shape, ir.PointsCmp, ir.And, ir.Or, ir.Not)


def instant_win_odds(rules: ir.Ruleset, hand: int) -> dict[str, Any]:
    """Per instant win: the probability that one seat's dealt hand of `hand` cards makes it
    (each alone: a hand may make two), and that it makes any of them. The hands are dealt from
    the deck without its bonus cards (one dealt is replaced at once). An instant win whose
    condition asks more than the hand is listed with no probability, and said to be left out."""
    bonus = set(rules.deck.bonus)
    deck = rules.deck.model_copy(
        update={"cards": tuple(c for c in rules.deck.cards if c.id not in bonus)}
    )
    space = HandSpace(deck, rules.points)
    total = comb(len(deck.cards), hand)
    countable = [
        w
        for w in rules.instant_wins
        if all(isinstance(c, _HAND_ONLY) for c in ir.parts_of(w.condition))
    ]
    made: dict[str, int] = {}
    none = total
    if countable:
        terms, states = space.count([w.condition for w in countable], hand)
        none = 0
        for state, ways in states.items():
            hit = [w.name for w in countable if space.holds(w.condition, state, terms)]
            for name in hit:
                made[name] = made.get(name, 0) + ways
            none += 0 if hit else ways
    entries = []
    for w in rules.instant_wins:
        counted = w in countable
        hands = made.get(w.name, 0)
        entries.append(
            {
                "name": w.name,
                "label": w.label,
                "value": w.value,
                "probability": float(Fraction(hands, total)) if counted else None,
                "one_in": float(Fraction(total, hands)) if hands else None,
                "hands": hands if counted else None,
            }
        )
    left = [
        f"{w.label} ({w.text or w.name}): it asks more than the hand (the field, the dealer,"
        " the round or every hand), which one seat's odds cannot count"
        for w in rules.instant_wins
        if w not in countable
    ]
    return {
        "instant_wins": entries,
        "any_instant_win": float(1 - Fraction(none, total)) if countable else None,
        "leaves_out": left,
    }


def teyaku_odds(rules: ir.Ruleset, seats: int | None = None) -> dict[str, Any]:
    """Per teyaku: the probability that a seat's dealt hand counts it, and its value; the chance
    of no teyaku; the expected teyaku value and payment per round for one seat, at a table of
    `seats` (its deal sizes and the number who play); and the odds of each instant win
    (instant_win_odds). A variant with neither has no odds to count."""
    if rules.teyaku is None and not rules.instant_wins:
        raise UsageError(f"{rules.title} has no teyaku or instant wins (dealt hands)")
    seats = rules.seats.min if seats is None else seats
    refusal = rules.seats.refusal(rules.title, seats)
    if refusal:
        low, high = rules.seats.min, rules.seats.max
        raise UsageError(
            refusal, hint=f"--seats {low}" if low == high else f"--seats {low} to {high}"
        )
    deal = rules.deal_for(seats)
    playing = rules.seats.playing(seats)
    wins = instant_win_odds(rules, deal.hand)
    return {
        "rules": rules.title,
        "seats": seats,
        "hand": deal.hand,
        "field": deal.field,
        "players": playing,
        **(
            _teyaku_figures(rules, deal, playing)
            if rules.teyaku is not None
            else _no_teyaku(rules, deal)
        ),
        "instant_wins": wins["instant_wins"],
        "any_instant_win": wins["any_instant_win"],
        "leaves_out": left_out(rules, seats) + wins["leaves_out"],
    }


def _no_teyaku(rules: ir.Ruleset, deal: ir.DealSize) -> dict[str, Any]:
    """teyaku_odds' teyaku figures for a variant without teyaku (its instant wins are counted)."""
    return {
        "hands": comb(len(rules.deck.cards) - len(rules.deck.bonus), deal.hand),
        "teyaku": [],
        "no_teyaku": 1.0,
        "any_teyaku": 0.0,
        "expected_value": 0.0,
        "expected_payment": 0.0,
        "expected_payment_table": 0.0,
    }


def _teyaku_figures(rules: ir.Ruleset, deal: ir.DealSize, playing: int) -> dict[str, Any]:
    """Each teyaku's odds, and what they pay a seat, over every hand of `deal.hand` cards."""
    assert rules.teyaku is not None
    compiled = CompiledRules(rules)
    table = compiled.teyaku
    assert table is not None
    space = HandSpace(rules.deck, rules.points)
    conditions = [e.condition for e in rules.teyaku.entries]
    tiers = [t.cards for t in rules.multiplier.tiers]
    if rules.multiplier.per_card and rules.multiplier.step:
        tiers.append(rules.multiplier.per_card)
    if len(set().union(*map(set, tiers)) if tiers else set()) != sum(len(t) for t in tiers):
        raise UsageError("odds: the multiplier's card sets overlap; the field cannot be counted")
    bonuses = [(i, e.bonus) for i, e in enumerate(rules.teyaku.entries) if e.bonus is not None]
    terms, states = space.count(conditions, deal.hand, [*tiers, *(b.cards for _, b in bonuses)])
    # where the state counts the cards held of each tier, and of each entry's bonus cards
    tier_slots = [1 + terms.index_mask(t) for t in tiers]
    bonus_slots = [(i, b.amount, 1 + terms.index_mask(b.cards), b.over) for i, b in bonuses]
    total_hands = comb(len(rules.deck.cards), deal.hand)
    counted: dict[str, int] = {}
    none = 0
    value_sum = Fraction(0)
    payment_sum = Fraction(0)
    mult_cache: dict[tuple[int, ...], Fraction] = {}
    for state, ways in states.items():
        hits = sum(1 << i for i, c in enumerate(conditions) if space.holds(c, state, terms))
        values = table.values
        if bonus_slots:
            values = list(values)
            for i, amount, slot, over in bonus_slots:
                values[i] += amount * max(0, state[slot] - over)
        chosen = table.select(hits, values.__getitem__)
        if not chosen:
            none += ways
            continue
        value = sum(values[i] for i in chosen)
        for i in chosen:
            counted[table.names[i]] = counted.get(table.names[i], 0) + ways
        held = tuple(state[k] for k in tier_slots)
        if held not in mult_cache:
            mult_cache[held] = expected_multiplier(rules, list(held), deal.hand, deal.field)
        value_sum += ways * value
        payment_sum += ways * value * mult_cache[held]
    p = Fraction(1, total_hands)
    entries = [
        {
            "name": e.name,
            "label": e.label,
            "value": e.value,
            "probability": float(counted.get(e.name, 0) * p),
            "one_in": float(Fraction(total_hands, counted[e.name]))
            if counted.get(e.name)
            else None,
            "hands": counted.get(e.name, 0),
        }
        for e in rules.teyaku.entries
    ]
    expected_value = value_sum * p
    payment = payment_sum * p * (playing - 1)
    return {
        "hands": total_hands,
        "teyaku": entries,
        "no_teyaku": float(none * p),
        "any_teyaku": float(1 - none * p),
        "expected_value": float(expected_value),
        "expected_payment": float(payment),
        "expected_payment_table": float(payment * playing),
    }
