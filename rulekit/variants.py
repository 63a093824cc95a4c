"""The bundled variants: every bundled rule file that is a game to play (it has teyaku or
yaku, or names its variant, as a game scored by its cards alone does; a deck file does
neither), with what `rulekit list` and `rulekit serve` show of it."""

from __future__ import annotations

from typing import Any

from rulekit import ir


def table_sizes(seats: ir.Seats) -> str:
    """`3 to 6 (3 play)`: how many may sit, and how many play when more sit."""
    sizes = f"{seats.min}" if seats.min == seats.max else f"{seats.min} to {seats.max}"
    return sizes + (f" ({seats.active} play)" if seats.active is not None else "")


def bundled_variants() -> list[dict[str, Any]]:
    """Every bundled rule file that is a variant: its name, the short names that mean it, its
    title, table sizes and source."""
    from rulekit.lang import load_rules
    from rulekit.lang.files import _defaults, bundled_names

    defaults = _defaults()
    out = []
    for name in bundled_names():
        if name in defaults:
            continue
        rules = load_rules(name)
        if rules.teyaku is None and rules.yaku is None and not rules.variant:
            continue  # a deck or a base file the variants include
        out.append(
            {
                "name": name,
                "default_for": sorted(k for k, v in defaults.items() if v == name),
                "title": rules.title,
                "seats": {"min": rules.seats.min, "max": rules.seats.max},
                "playing": rules.seats.active,
                "table_sizes": table_sizes(rules.seats),
                "source": rules.source,
            }
        )
    return out
