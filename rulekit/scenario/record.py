"""Writing a finished round (or game) down as a scenario file that replays to the same ledger."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekit.cards import bits
from rulekit.engine import actions as A
from rulekit.engine.ledger import BANK, Payment
from rulekit.engine.round import Round
from rulekit.lang.files import SUFFIXES, find_rules
from rulekit.output import plain_amount
from rulekit.resources import rules_dir

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace"]


def seat_names(n: int, taken: Sequence[str] = ()) -> list[str]:
    """`n` names for bots' seats, none of them in `taken` (the person's name)."""
    names = [x for x in NAMES if x not in taken]
    if n <= len(names):
        return names[:n]
    return [x for x in (f"P{i + 1}" for i in range(n + len(taken))) if x not in taken][:n]


def rules_ref(rules: str, folder: Path, relative_to: Path | None = None) -> str:
    """How a scenario written to `folder` names the rule file `rules` (as given on the command
    line, or in a file at `relative_to`): a bundled file by its name, any other file by its
    path relative to `folder`, .rk or .json alike."""
    found = find_rules(rules, relative_to).resolve()
    root = rules_dir().resolve()
    if found.is_relative_to(root):
        base = relative_to.parent if relative_to is not None else Path.cwd()
        written = base / rules
        candidates = [
            written,
            *([] if written.suffix else [written.with_suffix(s) for s in SUFFIXES]),
        ]
        if any(c.is_file() for c in candidates):  # a path into the bundled files: their name
            return found.relative_to(root).with_suffix("").as_posix()
        return rules
    return os.path.relpath(found, folder.resolve())


def _card(rnd: Round, bit: int) -> int | str:
    return "joker" if bit == rnd.joker_bit else rnd.ix.ids[bit]


def payment(p: Payment, names: Sequence[str]) -> dict[str, Any]:
    def who(seat: int) -> str:
        return "bank" if seat == BANK else names[seat]

    entry: dict[str, Any] = {
        "payer": who(p.payer),
        "payee": who(p.payee),
        "amount": plain_amount(p.amount),
        "reason": p.reason,
    }
    if p.detail:
        entry["detail"] = p.detail
    return entry


def round_record(
    rnd: Round, moves: Sequence[tuple[int, int]], names: Sequence[str]
) -> dict[str, Any]:
    """The round's stacked deal, every move, and everything that came of it."""
    ix = rnd.ix
    field_ids = set(ix.ids_of(rnd.laid_field))
    hands = {names[s]: [_card(rnd, b) for b in bits(h)] for s, h in enumerate(rnd.initial_hands)}
    stock = [
        ix.ids[b] for b in rnd.initial_stock if b != rnd.joker_bit and ix.ids[b] not in field_ids
    ]
    deal: dict[str, Any] = {"field": sorted(field_ids), "stock": stock}
    if rnd.restocked is not None:
        deal["restock"] = [
            ix.ids[b] for b in rnd.restocked if b != rnd.joker_bit and ix.ids[b] not in field_ids
        ]
    deal["hands"] = hands
    result = rnd.result()
    expect: dict[str, Any] = {"void": True} if result.void else {}
    if result.void:  # nothing paid (or returned), the same dealer deals again
        expect["ledger"] = [payment(p, names) for p in result.ledger]
        expect["next_dealer"] = names[result.next_dealer]
        expect["ended_by"] = result.ended_by
    else:
        expect["multiplier"] = result.multiplier
        table = rnd.c.teyaku
        if table is not None:
            expect["teyaku"] = {
                names[s]: [table.names[i] for i in c] for s, c in sorted(rnd.teyaku_counted.items())
            }
        expect["yaku"] = {names[s]: v for s, v in sorted(result.yaku.items())}
        expect["points"] = {names[s]: result.points[s] for s in result.active}
        expect["ledger"] = [payment(p, names) for p in result.ledger]
        expect["net"] = {names[s]: plain_amount(v) for s, v in enumerate(result.net)}
        expect["winner"] = "none" if result.winner is None else names[result.winner]
        expect["next_dealer"] = names[result.next_dealer]
        expect["ended_by"] = result.ended_by
    return {
        "dealer": names[rnd.dealer],
        "deal": deal,
        "moves": [f"{names[s]}: {move_text(a, rnd)}" for s, a in moves],
        "expect": expect,
    }


def move_text(action: int, rnd: Round) -> str:
    """A move as a scenario writes it, cards by name: `play crane onto pine_plain_1`."""
    ix = rnd.ix

    def name(bit: int) -> str:
        return ix.card(ix.ids[bit]).name

    if A.is_play(action):
        target = A.play_target(action)
        return f"play {name(A.played_card(action))}" + (
            f" onto {name(target)}" if target is not None else ""
        )
    taken = chosen_card(action)
    if taken is not None:
        return f"take {name(taken)}"
    return A.describe(action, ix, rnd.rules.owners_choice)


def chosen_card(action: int) -> int | None:
    """The field card (bit) a move chooses to take: a play's named target, or the card a
    `take` takes; None for any other move."""
    if A.is_play(action):
        return A.play_target(action)
    return A.taken_card(action)


def scenario_record(
    title: str,
    rules: str,
    names: Sequence[str],
    rounds: list[dict[str, Any]],
    seed: int = 0,
    round_no: int | None = None,
) -> dict[str, Any]:
    """A scenario document: one round at the top level, or a game of several. `round_no`: the
    number (from 1) of the round written, or of the game's first (the round's month depends on
    it): given for a simulation's single rounds; a game written whole starts at round 1."""
    doc: dict[str, Any] = {"title": title, "rules": rules, "seats": list(names), "seed": seed}
    if round_no is not None:
        doc["round"] = round_no
    if len(rounds) == 1:
        doc.update(rounds[0])
    else:
        doc["dealer"] = rounds[0]["dealer"]
        doc["rounds"] = rounds
    return doc


# ---------------------------------------------------------------- TOML


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() and k.isascii() else _str(k)


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _lines(key: str, items: list[Any], per_line: int = 1) -> list[str]:
    if not items:
        return [f"{key} = []"]
    out = [f"{key} = ["]
    for i in range(0, len(items), per_line):
        out.append("  " + ", ".join(_value(x) for x in items[i : i + per_line]) + ",")
    out.append("]")
    return out


def _table(prefix: str, data: dict[str, Any], out: list[str]) -> None:
    simple = {
        k: v
        for k, v in data.items()
        if not isinstance(v, dict) or k in ("teyaku", "yaku", "points", "net")
    }
    nested = {k: v for k, v in data.items() if k not in simple}
    for k, v in simple.items():
        if k in ("moves", "ledger") and isinstance(v, list):
            out.extend(_lines(k, v, 3 if k == "moves" else 1))
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in nested.items():
        out.append("")
        out.append(f"[{prefix}{k}]")
        _table(f"{prefix}{k}.", v, out)


def to_toml(doc: dict[str, Any]) -> str:
    out: list[str] = []
    top = {k: v for k, v in doc.items() if k != "rounds"}
    _table("", top, out)
    for r in doc.get("rounds", []):
        out.append("")
        out.append("[[rounds]]")
        _table("rounds.", r, out)
    return "\n".join(out) + "\n"
