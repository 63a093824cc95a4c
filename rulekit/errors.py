"""One error hierarchy for every mistake a person can make.

Callers catch `RulekitError`; the CLI renders it as `FILE:LINE:COL: message`, the source line, a
caret and a hint, and exits 1. Nothing here knows about rule files or games.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

# Source texts by display name, so that a location can show its line long after parsing.
_SOURCES: dict[str, str] = {}


def register_source(name: str, text: str) -> None:
    """Remember the text of a file so errors located in it can quote the line."""
    _SOURCES[name] = text


def source_lines(text: str) -> list[str]:
    """The lines of a text as a parser numbers them: split at "\n" only (str.splitlines also
    splits at "\f", "\v", "\u2028", ...), without the "\r" of "\r\n"."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def source_text(name: str) -> str | None:
    """The whole text of a registered file."""
    return _SOURCES.get(name)


def source_line(name: str, line: int) -> str | None:
    text = _SOURCES.get(name)
    if text is None:
        return None
    lines = source_lines(text)
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


_SHOWN = 100  # the most characters of a line quoted under a message


def _window(line: str, col: int) -> tuple[str, int]:
    """A long line (a JSON file on one line) cut to about _SHOWN characters around `col`, and
    the column in what is shown."""
    if len(line) <= _SHOWN:
        return line, col
    start = max(0, min(col - 1 - _SHOWN // 4, len(line) - _SHOWN))
    end = start + _SHOWN
    head = "..." if start else ""
    tail = "..." if end < len(line) else ""
    return head + line[start:end] + tail, col - start + len(head)


@dataclass(frozen=True)
class Loc:
    """A place in a file: 1-based line and column, and the width of the caret."""

    file: str
    line: int
    col: int
    width: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest known name to a mistyped one, if one is close enough."""
    pool = sorted(set(candidates))
    exact_case = [c for c in pool if c.lower() == word.lower()]
    if exact_case:
        return exact_case[0]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.7)
    return close[0] if close else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    best = suggest(word, candidates)
    return f"did you mean '{best}'?" if best else None


def either(items: Iterable[object]) -> str:
    """Alternatives in words: `7`, `7 or 8`, `3, 4 or 5`."""
    words = [str(i) for i in items]
    return "".join(words) if len(words) < 2 else f"{', '.join(words[:-1])} or {words[-1]}"


class RulekitError(Exception):
    """A mistake a person made: where, what was wrong, what was expected, a hint."""

    kind = "error"

    def __init__(self, message: str, loc: Loc | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.hint = hint

    def render(self) -> str:
        head = f"{self.loc}: {self.message}" if self.loc else f"{self.kind}: {self.message}"
        lines = [head]
        if self.loc is not None:
            text = source_line(self.loc.file, self.loc.line)
            if text is not None:
                number = str(self.loc.line)
                pad = " " * len(number)
                shown, col = _window(text.replace("\t", " "), self.loc.col)
                width = max(1, min(self.loc.width, len(shown) - col + 1))
                lines.append(f" {number} | {shown}")
                lines.append(f" {pad} | {' ' * (col - 1)}{'^' * width}")
        if self.hint:
            lines.append(f" = {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class RuleError(RulekitError):
    """A rule file (or its JSON IR) is wrong."""


class ScenarioError(RulekitError):
    """A scenario file is malformed or names something that does not exist."""


class MoveError(RulekitError):
    """An action that is not legal in the current state of a round."""


class UsageError(RulekitError):
    """A command-line argument is wrong (an unknown card, a bad count, ...)."""


class InternalError(RulekitError):
    """rulekit itself failed on an input (a bug), reported for that input so that a run of many
    goes on; the fuzzer counts it as a crash."""

    kind = "internal error"


class RuleErrors(RuleError):
    """Several rule errors found in one pass; `check` reports them all."""

    def __init__(self, errors: list[RulekitError]) -> None:
        self.errors = errors
        first = errors[0]
        super().__init__(first.message, first.loc, first.hint)

    def render(self) -> str:
        return "\n\n".join(e.render() for e in self.errors)
