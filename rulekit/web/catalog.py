"""The rule files `rulekit serve` offers, by name, and the one way rule text from a page is
loaded: within reach of the bundled rule files and those served, its errors rendered under one
lock so that a message never quotes another request's text."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekit import ir
from rulekit.errors import RulekitError, UsageError, did_you_mean

# Located errors quote their line from one registry of sources by file name: rule text from the
# page is loaded, and its errors rendered, under this lock, so a message never quotes another
# request's text (the editor's checks and the comparisons share it).
RULE_TEXT = threading.Lock()


class Said(RulekitError):
    """A located error rendered while its source was registered (under RULE_TEXT), kept as
    it was said."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def render(self) -> str:
        return self.text


# ---------------------------------------------------------------- the rule files offered
class Catalog:
    """The rule files a page may name: the bundled ones, and the rule files given to `rulekit
    serve` or found in the folders given. A page names one of these, never a path; rule text
    from the page reaches only these and the files they extend."""

    def __init__(self, given: Sequence[str | Path] = ()) -> None:
        from rulekit.lang import find_rules
        from rulekit.variants import bundled_variants

        self.refs: dict[str, str] = {}  # what to load for each name offered
        self.reach: list[Path] = []  # the served files rule text may reach, with the bundled
        for v in bundled_variants():  # the games, each default under its short name too
            for name in (*v["default_for"], v["name"]):
                self.refs[name] = name
        for item in given:
            path = Path(item)
            if path.is_dir():
                for found in served_files(path):
                    self._serve(str(found), found)
            elif path.is_file():
                if path.suffix not in SUFFIXES:
                    raise UsageError(
                        f"'{item}' is not a rule file: a rule file's name ends in .rk or .json"
                    )
                self._serve(str(path), path)
            else:
                found = find_rules(str(item))  # a bundled name, or a located error
                self.refs[str(item)] = str(item) if str(item) in self.refs else str(found)
        self.files: dict[Path, list[str]] = {}  # the names each offered file is offered under
        for name, ref in self.refs.items():
            self.files.setdefault(find_rules(ref).resolve(), []).append(name)

    def _serve(self, name: str, path: Path) -> None:
        """Offer a served file by name, and put it and the files it needs in reach."""
        self.refs[name] = str(path.resolve())
        self.reach.extend(needed(path.resolve()))

    @property
    def names(self) -> list[str]:
        return list(self.refs)

    def ref(self, name: str) -> str:
        """What to load for a name the page sent; a UsageError for any other name."""
        if name not in self.refs:
            hint = did_you_mean(name, self.refs) or "choose one of the rule files offered"
            raise UsageError(f"no rule file '{name[:60]}' is offered here", hint=hint)
        return self.refs[name]

    def load_text(self, text: str, name: str = "page.rk", beside: str | None = None) -> Any:
        """The IR of rule text sent from the page (an ir.Ruleset, or RuleErrors located in
        `name`). Its `extends` and `deck` reach only the bundled files and `reach`;
        relative names are read beside the offered file `beside` (else the bundled rules)."""
        from rulekit.lang import reaching_only
        from rulekit.lang.loader import load_rules_text
        from rulekit.resources import rules_dir

        anchor = rules_dir() / name
        if beside is not None:
            ref = Path(self.ref(beside))
            if ref.is_absolute():
                anchor = ref.parent / name
        with reaching_only(self.reach):
            return load_rules_text(text, name, anchor)

    def rules_of_text(self, text: str, name: str = "page.rk", beside: str | None = None) -> Any:
        """`load_text` under RULE_TEXT, its errors rendered there (a Said)."""
        with RULE_TEXT:
            try:
                return self.load_text(text, name, beside)
            except RulekitError as err:
                raise Said(err.render()) from None

    def allows(self, rules: str) -> bool:
        """Whether a saved game's `rules` is one this server offers."""
        return rules in self.refs.values() or rules in self.refs


# ---------------------------------------------------------------- what a served folder holds
SUFFIXES = (".rk", ".json")
MAX_IR_BYTES = 8 * 1024 * 1024  # a .json file larger is not read to see whether it is rule IR
IR_KEYS = frozenset(k for k, f in ir.Ruleset.model_fields.items() if f.is_required())


def served_files(folder: Path) -> list[Path]:
    """The rule files below a folder, sorted: the .rk files and the .json files that are rule
    IR, not in a `scenarios` folder, and really inside it (a link out of it is not followed)."""
    root = folder.resolve()
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in SUFFIXES or "scenarios" in path.relative_to(folder).parts:
            continue
        try:
            inside = path.is_file() and path.resolve().is_relative_to(root)
        except (OSError, RuntimeError):  # a link to nowhere, or in a circle
            continue
        if inside and (path.suffix == ".rk" or is_rule_ir(path)):
            found.append(path)
    return found


def is_rule_ir(path: Path) -> bool:
    """Whether a .json file is rule IR: an object with the IR's required keys. Any other JSON
    in a served folder (a package.json, a configuration) is neither offered nor ever quoted."""
    try:
        if path.stat().st_size > MAX_IR_BYTES:
            return False
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.keys() >= IR_KEYS


def needed(path: Path) -> list[Path]:
    """A served file and the rule files it extends or takes its deck from, found as loading it
    finds them: rule text from the page that extends it reads them too. A file with a mistake
    brings those found before it (the mistake is said when the file is played)."""
    if path.suffix != ".rk":
        return [path]
    from rulekit.lang.loader import Loader

    loader = Loader()
    with contextlib.suppress(RulekitError):
        loader.load(path)
    found = [*loader.seen, *loader.decks]
    return [path, *(p for p in found if p.suffix == ".rk" or is_rule_ir(p))]
