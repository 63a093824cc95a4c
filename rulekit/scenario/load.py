"""Reading a scenario file: TOML, then its JSON Schema, then the model; every problem located by
file, key path and line."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulekit.errors import Loc, ScenarioError, did_you_mean, register_source
from rulekit.lang.files import display_name
from rulekit.scenario.model import Scenario, scenario_schema

KeyPath = tuple[str | int, ...]


def path_text(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def line_of(text: str, path: KeyPath) -> int | None:
    """The line where a key path is written, found by walking the TOML text (best effort): the
    key's line, for `moves[3]` the line of the fourth element of the array, and for
    `rounds[1].expect.winner` the `winner` of the second `[[rounds]]`."""
    keys = [p for p in path if isinstance(p, str)]
    # the index written after each key of the path: rounds[1] -> {0: 1}
    index_after: dict[int, int] = {}
    for i, part in enumerate(path):
        if isinstance(part, int) and i > 0:
            index_after[sum(1 for p in path[:i] if isinstance(p, str)) - 1] = part
    counts: dict[str, int] = {}  # arrays of tables: the element being written
    fits = True  # the table being read lies within the array elements the path names
    table: list[str] = []
    best: int | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        header = re.match(r"^\[\[?\s*([^\]]+?)\s*\]\]?", line)
        if header:
            table = [k.strip().strip("\"'") for k in header.group(1).split(".")]
            joined = ".".join(table)
            if line.startswith("[["):
                counts[joined] = counts.get(joined, -1) + 1
                for nested in [k for k in counts if k.startswith(joined + ".")]:
                    del counts[nested]  # a new element: its own arrays start again
            fits = all(
                ".".join(table[: k + 1]) not in counts or counts[".".join(table[: k + 1])] == wanted
                for k, wanted in index_after.items()
                if k < len(table) and keys[: k + 1] == table[: k + 1]
            )
            if fits and keys[: len(table)] == table:
                best = number
            continue
        key = re.match(r"^([A-Za-z0-9_\-\"' ]+?)\s*=", line)
        if not key or not fits:
            continue
        full = [*table, key.group(1).strip().strip("\"'")]
        if keys[: len(full)] == full:
            element = index_after.get(len(full) - 1)
            best = number
            if element is not None:  # an element of an array written on this key
                best = _element_line(text, number, element) or number
    return best


def _element_line(text: str, key_line: int, index: int) -> int | None:
    """The line on which element `index` of the array that starts on `key_line` begins."""
    lines = text.split("\n")
    start = sum(len(x) + 1 for x in lines[: key_line - 1])
    pos = text.find("[", text.find("=", start))
    depth, count, in_str, line = 0, 0, "", key_line
    expecting = True
    in_comment = False
    for ch in text[pos:]:
        if ch == "\n":
            line += 1
            in_comment = False
        if in_comment:
            continue
        if in_str:
            if ch == in_str:
                in_str = ""
            continue
        if ch in "\"'":
            if depth == 1 and expecting:
                if count == index:
                    return line
                expecting = False
            in_str = ch
        elif ch in "[{":
            depth += 1
            if depth == 2 and expecting:
                if count == index:
                    return line
                expecting = False
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return None
        elif ch == "," and depth == 1:
            count += 1
            expecting = True
        elif ch == "#":  # a comment inside the array: its commas and quotes do not count
            in_comment = True
    return None


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(scenario_schema())


def _allowed_keys(schema_error: Any) -> list[str]:
    props = (
        schema_error.schema.get("properties", {}) if isinstance(schema_error.schema, dict) else {}
    )
    return list(props)


def _first_error(data: Any) -> Any:
    """The most telling schema error: inside `anyOf [X, null]`, what is wrong with X."""
    errors = sorted(
        _validator().iter_errors(data),
        key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))),
    )
    if not errors:
        return None
    e = errors[0]
    while e.context:
        useful = [
            c for c in e.context if not (c.validator == "type" and c.validator_value == "null")
        ]
        e = sorted(useful or e.context, key=lambda c: -len(c.absolute_path))[0]
    return e


def parse_scenario(text: str, name: str) -> Scenario:
    register_source(name, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        where = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line, col = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        reason = re.sub(r" \(at .*\)$", "", msg)
        raise ScenarioError(f"not valid TOML: {reason}", Loc(name, line, col)) from None
    except (ValueError, RecursionError) as exc:  # a number too long for int(), nesting too deep
        raise ScenarioError(f"not valid TOML: {str(exc)[:80]}", Loc(name, 1, 1)) from None
    e = _first_error(data)
    if e is not None:
        path: KeyPath = tuple(e.absolute_path)
        hint = None
        message = e.message
        if e.validator == "additionalProperties":
            extra = re.findall(r"'([^']+)' was unexpected", e.message) or re.findall(
                r"'([^']+)'", e.message
            )
            if extra:
                path = (*path, extra[0])
                message = f"unknown key '{extra[0]}'"
                hint = did_you_mean(extra[0], _allowed_keys(e)) or "keys: " + ", ".join(
                    _allowed_keys(e)
                )
        elif e.validator == "required":
            message = e.message.replace("is a required property", "is missing")
        line = line_of(text, path) or 1
        raise ScenarioError(f"{path_text(path)}: {message}", Loc(name, line, 1), hint)
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:  # the schema lets through what the model refuses: rare
        first = exc.errors()[0]
        path = tuple(first["loc"])
        raise ScenarioError(
            f"{path_text(path)}: {first['msg']}", Loc(name, line_of(text, path) or 1, 1)
        ) from None


def load_scenario(path: Path) -> tuple[Scenario, str, str]:
    """The scenario of a file, its display name, and its text."""
    name = display_name(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM (Windows editors) is not text
    except UnicodeDecodeError:
        raise ScenarioError(f"{name} is not UTF-8 text", Loc(name, 1, 1)) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read {name}: {exc.strerror}") from None
    return parse_scenario(text, name), name, text


def find_scenarios(paths: list[Path]) -> list[Path]:
    """Scenario files: the files given, and every *.scenario.toml under the folders given."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.scenario.toml")))
        elif p.is_file():
            found.append(p)
        else:
            raise ScenarioError(f"no file or folder '{p}'")
    return found
