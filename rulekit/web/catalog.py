"""The rule files `rulekit serve` offers, by name, and the one way rule text from a page is
loaded: within reach of the bundled rule files and those served, its errors rendered under one
lock so that a message never quotes another request's text."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
    """The rule files a page may name: the bundled ones, and the .rk/.json files given to
    `rulekit serve` (or found in the folders given). A page names one of these, never a path."""

    def __init__(self, given: Sequence[str | Path] = ()) -> None:
        from rulekit.variants import bundled_variants

        self.refs: dict[str, str] = {}
        self.folders: list[Path] = []  # what rule text from the page may reach, with the bundled
        for v in bundled_variants():  # the games, each default under its short name too
            for name in (*v["default_for"], v["name"]):
                self.refs[name] = name
        for item in given:
            path = Path(item)
            if path.is_dir():
                self.folders.append(path.resolve())
                files = sorted(p for p in path.rglob("*") if p.suffix in (".rk", ".json"))
                for f in files:
                    if "scenarios" not in f.parts:
                        self.refs[str(f)] = str(f.resolve())
            elif path.is_file():
                self.refs[str(path)] = str(path.resolve())
                self.folders.append(path.resolve().parent)
            else:
                from rulekit.lang import find_rules

                found = find_rules(str(item))  # a bundled name, or a located error
                self.refs[str(item)] = str(item) if str(item) in self.refs else str(found)

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
        `name`). Its `extends` and `deck` reach only bundled files and the folders given;
        relative names are read beside the offered file `beside` (else the bundled rules)."""
        from rulekit.lang import reaching_only
        from rulekit.lang.loader import load_rules_text
        from rulekit.resources import rules_dir

        anchor = rules_dir() / name
        if beside is not None:
            ref = Path(self.ref(beside))
            if ref.is_absolute():
                anchor = ref.parent / name
        with reaching_only(self.folders):
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
