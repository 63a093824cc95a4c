"""What a hand, a captured pile or a field is worth under a variant (the `eval` command)."""

from __future__ import annotations

from typing import Any

from rulekit.engine.tables import CompiledRules, CompiledTable
from rulekit.errors import UsageError, either


def _entry(table: CompiledTable, i: int, x: int) -> dict[str, Any]:
    e = table.entries[i]
    item: dict[str, Any] = {"name": e.name, "label": e.label, "value": table.value(i, x)}
    if e.at_count:
        item["at_count"] = True
    return item


def eval_hand(
    compiled: CompiledRules, ids: list[int], hand_size: int | None = None
) -> dict[str, Any]:
    """Every teyaku the dealt hand makes, the one(s) counted, and the counted value. The hand
    has `hand_size` cards, or any size the variant deals."""
    if compiled.teyaku is None:
        raise UsageError(f"{compiled.rules.title} has no teyaku (dealt hands) to evaluate")
    sizes = compiled.rules.hand_sizes() if hand_size is None else [hand_size]
    if len(ids) not in sizes:
        raise UsageError(f"a dealt hand has {either(sizes)} cards; {len(ids)} given")
    table = compiled.teyaku
    x = compiled.index.mask(ids)
    matched = table.matching(x)
    counted = table.counted(sum(1 << i for i in matched), x)
    return {
        "teyaku": [_entry(table, i, x) for i in matched],
        "counted": [_entry(table, i, x) for i in counted],
        "value": sum(table.value(i, x) for i in counted),
    }


def eval_captured(compiled: CompiledRules, ids: list[int]) -> dict[str, Any]:
    """Every yaku a captured pile holds (those decided at the count too, when the pile alone
    decides them), and their value."""
    if compiled.yaku is None:
        raise UsageError(f"{compiled.rules.title} has no yaku to evaluate")
    table = compiled.yaku
    x = compiled.index.mask(ids)
    matched = table.matching(x, at_count=True)
    counted = table.counted(sum(1 << i for i in matched), x)
    return {
        "yaku": [_entry(table, i, x) for i in counted],
        "matched": [_entry(table, i, x) for i in matched],
        "value": sum(table.value(i, x) for i in counted),
        "points": compiled.index.points(x),
    }


def eval_field(compiled: CompiledRules, ids: list[int]) -> dict[str, Any]:
    """The field multiplier, and the multiplier the next round carries at least."""
    factor, carry = compiled.multiplier.of_field(compiled.index.mask(ids))
    return {"multiplier": factor, "next_round_at_least": carry}
