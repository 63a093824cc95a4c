"""What rulekit hands a person: amounts and ledgers in words, and files written whole.

Files are written to a temporary file in the same folder, then moved into place: a failure
(a full disk, a missing folder, Ctrl-C) leaves the old file or none, never half of one. A path
refused before the work is a usage error (the command exits 2, as for any value that cannot
be); a write that fails after it is an error (1): the path was fine, the disk was not.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.engine.ledger import BANK, Amount, Payment
from rulekit.errors import RulekitError, UsageError

if TYPE_CHECKING:
    from rulekit import ir

# ---------------------------------------------------------------- amounts and ledgers


def plain_amount(value: Amount | float) -> int | float:
    """An amount as a plain number (for TOML and JSON): an int when it is whole."""
    if isinstance(value, int):
        return value
    return int(value) if float(value).is_integer() else float(value)


def amount_text(value: Amount | float) -> str:
    """An amount for a person: `12`, `-4`, `2.5`."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):g}"
    return str(plain_amount(value))


def score_text(value: Amount | float, unit: ir.Unit | None) -> str:
    """A score or total for a person: in points (`amount_text`), or in the unit where the file
    asks (`show scores in kan`: `2.5 kan`)."""
    if unit is None or not unit.shown:
        return amount_text(value)
    return f"{float(value) / unit.points:g} {unit.name}"


def ledger_lines(
    ledger: Sequence[Payment], seats: Sequence[str], empty: str = "(no payments)"
) -> list[str]:
    """Every payment on one numbered line: who paid whom, how much, what for, and the
    multiplier when there is one."""
    if not ledger:
        return [empty]
    names = {**dict(enumerate(seats)), BANK: "bank"}
    width = max(len(s) for s in names.values())
    out = []
    for i, p in enumerate(ledger, 1):
        base = f" ({amount_text(p.base)} x{p.multiplier})" if p.multiplier != 1 else ""
        detail = f" {p.detail}" if p.detail else ""
        who = f"{names[p.payer]:>{width}} -> {names[p.payee]:<{width}}"
        out.append(f"{i:2}. {who} {amount_text(p.amount):>6}  {p.reason}{detail}{base}")
    return out


# ---------------------------------------------------------------- files


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def check_writable(path: Path, doing: str = "write") -> None:
    """Refuse, before any work, a file that could not be written: a folder, a missing folder,
    a folder that takes no files. `doing` completes "cannot ... PATH"."""
    if path.is_dir():
        raise UsageError(f"cannot {doing} {path}: it is a folder")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(
            f"cannot {doing} {path}: there is no folder {folder}",
            hint="create the folder first, or choose another path",
        )
    probe = folder / f".{path.name}.{os.getpid()}.probe"
    try:
        probe.write_bytes(b"")
    except OSError as exc:
        raise UsageError(f"cannot {doing} {path}: {_reason(exc)}") from None
    with contextlib.suppress(OSError):
        probe.unlink()


def write_atomic(path: Path, data: str | bytes, doing: str = "write") -> None:
    """Write a whole file or nothing: a temporary file beside it, then moved into place.
    A RulekitError ("cannot write PATH: reason") if the file cannot be written."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(payload)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise RulekitError(f"cannot {doing} {path}: {_reason(exc)}") from None
