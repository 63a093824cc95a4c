"""Rule text from a page as the server reads it: the request's fields (the text, the offered
file it is read beside), the file it extends, and the text as a saved game's house rules. The
editor's checks, "Play this" and resumed games share these."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.errors import RulekitError, UsageError
from rulekit.web.catalog import Catalog

NAME = "editor.rk"  # how the page's text is named in messages
MAX_TEXT = 48 * 1024  # characters of rule text (the body bound is 64 KiB)
_EXTENDS = re.compile(r'\s*extends\s+"[^"\n]*"\s*(#.*)?\r?$')


@dataclass(frozen=True)
class Parent:
    """The file the text extends: as written, where it is, and the offered name, if any."""

    written: str
    path: Path
    offered: str | None

    @property
    def name(self) -> str:
        return self.offered or self.written


# ---------------------------------------------------------------- the request's fields
def text_of(spec: dict[str, Any]) -> str:
    """The rule text of a request, bounded."""
    text = spec.get("text")
    if not isinstance(text, str):
        raise UsageError("text: the rule text, a string")
    if len(text) > MAX_TEXT:
        raise UsageError(f"text: at most {MAX_TEXT} characters of rule text")
    return text


def beside_of(spec: dict[str, Any], catalog: Catalog) -> str | None:
    """The offered file whose folder relative names are read in (None: the bundled rules)."""
    beside = spec.get("beside")
    if beside is None or beside == "":
        return None
    if not isinstance(beside, str) or len(beside) > 200:
        raise UsageError("beside: the name of an offered rule file")
    catalog.ref(beside)  # an unknown name: a UsageError with a suggestion
    return beside


def resolved(catalog: Catalog, name: str) -> Path:
    """Where an offered name's file is (a bundled name's file in the package)."""
    from rulekit.lang import find_rules, reaching_only

    with reaching_only(catalog.reach):
        return find_rules(catalog.ref(name))


def parent_of(catalog: Catalog, text: str, beside: str | None) -> Parent | None:
    """The file the text extends, found as loading finds it (within reach), or None when it
    extends nothing or cannot be read."""
    from rulekit.lang import find_rules, reaching_only
    from rulekit.lang.ast import Extends
    from rulekit.lang.loader import parse_rule_text

    try:
        try:
            parsed = parse_rule_text(text, NAME)
        except RulekitError:  # another line is broken: the `extends` lines alone, in place
            only = [ln if _EXTENDS.match(ln) else "" for ln in text.split("\n")]
            parsed = parse_rule_text("\n".join(only), NAME)
        stmt = next((s for s in parsed.stmts if isinstance(s, Extends)), None)
        if stmt is None:
            return None
        with reaching_only(catalog.reach):
            path = find_rules(stmt.path, _anchor(catalog, beside), stmt.loc).resolve()
    except RulekitError:
        return None
    return Parent(stmt.path, path, offered_name(catalog, stmt.path, path))


def house_rules(catalog: Catalog, text: str, beside: str | None) -> str | None:
    """The text as a scenario's house rules on top of the file it extends: the `extends` line
    blanked (the lines keep their numbers), a `deck` named so that it is found from anywhere
    (a bundled name, or the file's absolute path). None when nothing is left."""
    from rulekit.lang import find_rules, reaching_only
    from rulekit.lang.ast import DeckRef, Extends
    from rulekit.lang.loader import parse_rule_text

    lines = text.split("\n")
    anchor = _anchor(catalog, beside)
    for stmt in parse_rule_text(text, NAME).stmts:
        i = stmt.loc.line - 1
        if isinstance(stmt, Extends):
            lines[i] = ""
        elif isinstance(stmt, DeckRef):
            with reaching_only(catalog.reach):
                path = find_rules(stmt.path, anchor, stmt.loc)
            lines[i] = lines[i].replace(f'"{stmt.path}"', f'"{_portable(path)}"', 1)
    house = "\n".join(lines)
    return house if house.strip() else None


def _anchor(catalog: Catalog, beside: str | None) -> Path:
    """Where the page's text is read as if it were: beside the offered file, or in the bundled
    rules (as `Catalog.load_text` reads it)."""
    from rulekit.resources import rules_dir

    if beside is not None:
        ref = Path(catalog.ref(beside))
        if ref.is_absolute():  # a served file (a bundled one is named, not a path)
            return ref.parent / NAME
    return rules_dir() / NAME


def _portable(path: Path) -> str:
    """A rule file's name that finds it from any folder: bundled files by their name."""
    from rulekit.resources import rules_dir

    try:
        return path.resolve().relative_to(rules_dir().resolve()).with_suffix("").as_posix()
    except ValueError:
        return path.resolve().as_posix()


def offered_name(catalog: Catalog, written: str, path: Path) -> str | None:
    """The offered name of a file: the name as written if offered, else the first offered name
    of the same file."""
    names = catalog.files.get(path, [])
    return written if written in names else next(iter(names), None)
