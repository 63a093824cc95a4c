"""Loading a variant: follow `extends` and `deck`, apply each file in order, resolve, check."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from rulekit import ir
from rulekit.errors import Loc, RuleError, RuleErrors, RulekitError, register_source
from rulekit.lang import ast
from rulekit.lang.draft import Applier, Draft
from rulekit.lang.files import display_name, find_rules
from rulekit.lang.parser import parse_text
from rulekit.lang.resolve import Resolver
from rulekit.lang.transformer import to_ast


@dataclass(frozen=True)
class ParsedFile:
    path: Path
    name: str
    stmts: list[ast.Stmt]


def parse_file(path: Path) -> ParsedFile:
    name = display_name(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(f"{name} is not UTF-8 text ({exc.reason})", Loc(name, 1, 1)) from None
    except OSError as exc:
        raise RuleError(f"cannot read {name}: {exc.strerror}") from None
    return ParsedFile(path, name, to_ast(parse_text(text, name), name, text))


def _first(stmts: list[ast.Stmt], kind: type[ast.Stmt]) -> ast.Stmt | None:
    found = [s for s in stmts if isinstance(s, kind)]
    return found[0] if found else None


class Loader:
    """Builds one draft from a file and everything it extends or includes."""

    def __init__(self) -> None:
        self.draft = Draft()
        self.seen: list[Path] = []
        self.decks: set[Path] = set()

    def load(self, path: Path, via: Loc | None = None) -> None:
        resolved = path.resolve()
        if resolved in self.seen:
            chain = " -> ".join(display_name(p) for p in [*self.seen, resolved])
            raise RuleError(f"the files extend each other in a circle: {chain}", via)
        self.seen.append(resolved)
        self.apply_file(parse_file(path), path)

    def apply_file(self, parsed: ParsedFile, path: Path) -> None:
        """Apply a parsed file after what it extends; `path` anchors its relative references."""
        ext = _first(parsed.stmts, ast.Extends)
        overriding = False
        if isinstance(ext, ast.Extends):
            extras = [s for s in parsed.stmts if isinstance(s, ast.Extends)]
            if len(extras) > 1:
                raise RuleError("a file extends only one other file", extras[1].loc)
            parent = find_rules(ext.path, path, ext.loc)
            self.load(parent, ext.loc)
            overriding = True
        for stmt in parsed.stmts:
            if isinstance(stmt, ast.DeckRef):
                self.include_deck(find_rules(stmt.path, path, stmt.loc))
        self.draft.files.append(parsed.name)
        Applier(self.draft, overriding).apply(parsed.stmts)

    def include_deck(self, path: Path) -> None:
        resolved = path.resolve()
        if resolved in self.decks:
            return
        self.decks.add(resolved)
        parsed = parse_file(path)
        self.draft.files.append(parsed.name)
        Applier(self.draft, False, deck_file=True).apply(parsed.stmts)


def load_draft(ref: str | Path) -> Draft:
    path = find_rules(str(ref)) if not isinstance(ref, Path) else ref
    loader = Loader()
    loader.load(path)
    return loader.draft


def load_rules(ref: str | Path, *, check: bool = True) -> ir.Ruleset:
    """The IR of a rule file (path or bundled name), or RuleErrors with every problem found."""
    path = find_rules(str(ref)) if not isinstance(ref, Path) else ref
    if path.suffix == ".json":
        return load_json_rules(path)
    return _resolve(load_draft(path), check)


def load_rules_text(text: str, name: str, anchor: Path, *, first_line: int = 1) -> ir.Ruleset:
    """A variant written inline (a scenario's house rules): `text` in the rule language, named
    `name` in messages, its lines numbered from `first_line`, references relative to `anchor`."""
    padded = "\n" * (first_line - 1) + text
    parsed = ParsedFile(anchor, name, to_ast(parse_text(padded, name), name, padded))
    loader = Loader()
    loader.apply_file(parsed, anchor)
    return _resolve(loader.draft, True)


def _resolve(draft: Draft, check: bool) -> ir.Ruleset:
    resolver = Resolver(draft)
    rules = resolver.run()
    errors: list[RulekitError] = list(draft.errors)
    if rules is not None and check and not errors:
        from rulekit.lang.checks import static_checks

        declared = {cid: classes[0] for cid, classes in resolver.declared.items()}
        errors.extend(static_checks(rules, declared))
    if errors:
        raise RuleErrors(errors)
    assert rules is not None
    return rules


def load_json_rules(path: Path) -> ir.Ruleset:
    """A variant given as JSON IR, validated against the IR's JSON Schema."""
    from rulekit.lang.checks import static_checks

    name = display_name(path)
    text = path.read_text(encoding="utf-8")
    register_source(name, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError(f"not valid JSON: {exc.msg}", Loc(name, exc.lineno, exc.colno)) from None
    import jsonschema  # only JSON IR needs it: keep it out of every other command's start-up

    validator = jsonschema.Draft202012Validator(ir_schema())
    problems = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if problems:
        raise RuleErrors(
            [
                RuleError(
                    f"{'/'.join(map(str, p.absolute_path)) or '(top)'}: {p.message}",
                    Loc(name, 1, 1),
                )
                for p in problems[:10]
            ]
        )
    try:
        rules = ir.Ruleset.model_validate(data)
    except ValidationError as exc:
        raise RuleErrors(
            [
                RuleError(f"{'/'.join(map(str, e['loc']))}: {e['msg']}", Loc(name, 1, 1))
                for e in exc.errors()[:10]
            ]
        ) from None
    errors = static_checks(rules)
    if errors:
        raise RuleErrors(errors)
    return rules


def ir_schema() -> dict[str, object]:
    """The JSON Schema of the IR (what `rulekit schema ir` prints)."""
    schema = ir.Ruleset.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "rulekit rule IR"
    return schema
