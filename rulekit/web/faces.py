"""Which card face the page shows for a card: the 48 faces shipped in static/cards (Louie
Mantia, Jr.'s deck, CC BY-SA 4.0; their README) by the standard deck's card ids, month * 10 +
0..3. A file's number follows Commons' kinds (light, animal, ribbon, chaff), which is the
deck's own order in every month but December, where the yellow-banded plain (121) is
`m12-2` and the next plain (122) `m12-1`. Any other id (a bonus card) has no face: the page
draws one."""

from __future__ import annotations

from typing import Any

from rulekit import ir

# the deck's card ids whose face file is not m<month>-<last digit>
_MOVED = {121: "m12-2", 122: "m12-1"}


def face(card_id: int) -> str | None:
    """The face file's name (without .svg) of a standard card id, else None."""
    month, n = divmod(card_id, 10)
    if not (1 <= month <= 12 and 0 <= n <= 3):
        return None
    return _MOVED.get(card_id, f"m{month}-{n}")


def card_object(rules: ir.Ruleset, cid: int) -> dict[str, Any]:
    """A card as the pages draw it: its id, names, month, class, tags, points and face."""
    card = rules.card(cid)
    return {
        "id": cid,
        "name": card.name,
        "label": card.label,
        "month": card.month,
        "class": card.classes[0],
        "tags": list(card.tags),
        "points": rules.card_points(cid),
        "face": face(cid),
    }
