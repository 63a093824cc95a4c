"""Where each value of a JSON text stands: its path (keys and indices) to its line and column,
so that an error in a JSON IR file is located in that file, at the value it is about.

Python's json module keeps no positions; this scanner walks a text json.loads has accepted
(nested at most MAX_JSON_DEPTH deep) and notes where every value starts.
"""

from __future__ import annotations

from rulekit.errors import Loc

Path = tuple[str | int, ...]
_WS = " \t\r\n"


def positions(text: str) -> dict[Path, int]:
    """The offset at which each value starts, by its path (the whole text's value: `()`)."""
    out: dict[Path, int] = {}
    _value(text, _skip(text, 0), (), out)
    return out


def locate(name: str, text: str, path: Path, where: dict[Path, int] | None = None) -> Loc:
    """The place of the value at `path` in the JSON text, or of its nearest parent that is
    there (the top of the text for a path of nothing it has)."""
    where = positions(text) if where is None else where
    for n in range(len(path), -1, -1):
        offset = where.get(tuple(path[:n]))
        if offset is not None:
            line = text.count("\n", 0, offset) + 1
            col = offset - (text.rfind("\n", 0, offset) + 1) + 1
            return Loc(name, line, col, _width(text, offset))
    return Loc(name, 1, 1)


def _width(text: str, at: int) -> int:
    """The caret's width: a string or a number whole, one character for an object or a list."""
    if text[at] == '"':
        return _string_end(text, at) - at
    end = at
    while end < len(text) and text[end] not in ",]}" + _WS:
        end += 1
    return max(1, end - at)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """The offset just after the string that starts at `i` (its opening quote)."""
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _value(text: str, i: int, path: Path, out: dict[Path, int]) -> int:
    """Note where the value at `i` starts, and those inside it; the offset after it."""
    out[path] = i
    c = text[i]
    if c == "{":
        i = _skip(text, i + 1)
        while text[i] != "}":
            end = _string_end(text, i)
            key = text[i + 1 : end - 1]  # (escapes in a key are rare in the IR: kept as written)
            i = _skip(text, _skip(text, end) + 1)  # past the colon
            i = _skip(text, _value(text, i, (*path, key), out))
            if text[i] == ",":
                i = _skip(text, i + 1)
        return i + 1
    if c == "[":
        i = _skip(text, i + 1)
        k = 0
        while text[i] != "]":
            i = _skip(text, _value(text, i, (*path, k), out))
            k += 1
            if text[i] == ",":
                i = _skip(text, i + 1)
        return i + 1
    if c == '"':
        return _string_end(text, i)
    while i < len(text) and text[i] not in ",]}" + _WS:
        i += 1
    return i


def depth(text: str) -> tuple[int, int]:
    """The deepest nesting of arrays and objects in a JSON text, and where it is first
    reached (an offset); strings are skipped. Read before parsing, so that no depth can
    exhaust a parser."""
    depth = deepest = at = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, i
        elif ch in "]}":
            depth -= 1
    return deepest, at
