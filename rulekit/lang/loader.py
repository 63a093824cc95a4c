"""Loading a variant: follow `extends` and `deck`, apply each file in order, resolve, check."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from rulekit import ir
from rulekit.errors import Loc, RuleError, RuleErrors, RulekitError, register_source
from rulekit.lang import ast, jsonpos, kept
from rulekit.lang.draft import Applier, Draft
from rulekit.lang.files import display_name, find_rules, reach_limited
from rulekit.lang.kept import Reads
from rulekit.lang.parser import parse_text
from rulekit.lang.resolve import Resolver
from rulekit.lang.transformer import to_ast


@dataclass(frozen=True)
class ParsedFile:
    name: str
    stmts: list[ast.Stmt]


def _read(path: Path, name: str) -> str:
    """A rule file's text (.rk or .json), or a located error a person can act on."""
    try:
        return path.read_text(encoding="utf-8-sig")  # a BOM (Windows editors) is not text
    except UnicodeDecodeError as exc:
        raise RuleError(f"{name} is not UTF-8 text ({exc.reason})", Loc(name, 1, 1)) from None
    except OSError as exc:
        raise RuleError(f"cannot read {name}: {exc.strerror}") from None


def parse_file(path: Path) -> ParsedFile:
    name = display_name(path)
    return parse_rule_text(_read(path, name), name)


def parse_rule_text(text: str, name: str) -> ParsedFile:
    """Statements of a rule file's text; a located error, never a RecursionError."""
    try:
        return ParsedFile(name, to_ast(parse_text(text, name), name, text))
    except RecursionError:
        raise RuleError("the file is nested too deeply to read", Loc(name, 1, 1)) from None


@lru_cache(maxsize=64)
def _parsed_file(text: str, name: str) -> ParsedFile:
    """parse_rule_text of a file read from disk, kept for the next load that reads the same
    text: the files a house rule or a scenario extends (a base game, its deck) are parsed once
    per process, not at every load (parsing is two thirds of a house file's load). The
    statements are frozen and the loader copies what it keeps, so sharing them is safe."""
    return parse_rule_text(text, name)


def _hand_sizes(draft: Draft) -> set[int]:
    """The sizes of hand the draft deals so far: those written, or the IR's default deal."""
    written = {o["hand"].value for o in draft.deal_sizes.values()}
    if not written:
        default: tuple[ir.DealSize, ...] = ir.Ruleset.model_fields["deal"].default
        return {d.hand for d in default}
    return {n for n in written if isinstance(n, int)}


class Loader:
    """Builds one draft from a file and everything it extends or includes."""

    def __init__(self) -> None:
        self.draft = Draft()
        self.seen: list[Path] = []
        self.decks: set[Path] = set()
        self.reads = Reads()  # what the load depended on (rulekit.lang.kept)

    def load(self, path: Path, via: Loc | None = None) -> None:
        resolved = path.resolve()
        if resolved in self.seen:
            chain = " -> ".join(display_name(p) for p in [*self.seen, resolved])
            raise RuleError(f"the files extend each other in a circle: {chain}", via)
        self.seen.append(resolved)
        self.apply_file(self._parse(path), path)

    def _parse(self, path: Path) -> ParsedFile:
        name = display_name(path)
        text = _read(path, name)
        self.reads.read(path, text)
        return _parsed_file(text, name)

    def _find(self, ref: str, written_in: Path, loc: Loc) -> Path:
        found = find_rules(ref, written_in, loc)
        self.reads.found(ref, written_in, found)
        return found

    def apply_file(self, parsed: ParsedFile, path: Path) -> None:
        """Apply a parsed file after what it extends; `path` anchors its relative references."""
        extends = [s for s in parsed.stmts if isinstance(s, ast.Extends)]
        if len(extends) > 1:
            raise RuleError("a file extends only one other file", extends[1].loc)
        if extends:
            self.load(self._find(extends[0].path, path, extends[0].loc), extends[0].loc)
        for stmt in parsed.stmts:
            if isinstance(stmt, ast.DeckRef):
                self.include_deck(self._find(stmt.path, path, stmt.loc), stmt.loc)
        self.draft.files.append(parsed.name)
        Applier(self.draft, overriding=bool(extends)).apply(parsed.stmts)
        self.draft.dealt |= _hand_sizes(self.draft)

    def include_deck(self, path: Path, via: Loc) -> None:
        resolved = path.resolve()
        if resolved in self.decks:
            return
        self.decks.add(resolved)
        parsed = self._parse(path)
        for stmt in parsed.stmts:
            if isinstance(stmt, ast.Game):
                raise RuleError(
                    "a game file cannot be included as a deck",
                    stmt.loc,
                    f"{parsed.name} is included as a deck at {via}; name a deck file there,"
                    " or extend a game file with 'extends'",
                )
            if isinstance(stmt, ast.Extends):
                raise RuleError(
                    "a deck file cannot extend another file",
                    stmt.loc,
                    f"{parsed.name} is included as a deck at {via}; a deck file may name the"
                    ' deck it changes (deck "common/hanafuda", then `without ...`)',
                )
            if isinstance(stmt, ast.DeckRef):  # a deck made from another (`without`)
                self.include_deck(self._find(stmt.path, path, stmt.loc), stmt.loc)
        self.draft.files.append(parsed.name)
        Applier(self.draft, False, deck_file=True).apply(parsed.stmts)


def load_draft(ref: str | Path) -> Draft:
    path = find_rules(str(ref)) if not isinstance(ref, Path) else ref
    loader = Loader()
    loader.load(path)
    return loader.draft


def load_rules(ref: str | Path, *, check: bool = True) -> ir.Ruleset:
    """The IR of a rule file (path or bundled name), or RuleErrors with every problem found.
    A load of the same files by this rulekit is read back (rulekit.lang.kept)."""
    from rulekit.lang import load_rules as load

    return load(ref, check=check)


def load_unkept(path: Path, check: bool) -> ir.Ruleset:
    """A rule file loaded from its text (none of its loads is kept, or none may be), then kept
    when it loads without errors."""
    if path.suffix == ".json":
        return load_json_rules(path)
    keeping = not reach_limited()  # (rule text from a page finds files within its reach only)
    loader = Loader()
    loader.load(path)
    rules = _resolve(loader.draft, check)
    if keeping:
        kept.keep(path, check, loader.reads, rules)
    return rules


def load_rules_text(text: str, name: str, anchor: Path, *, first_line: int = 1) -> ir.Ruleset:
    """A variant written inline (a scenario's house rules): `text` in the rule language, named
    `name` in messages, its lines numbered from `first_line`, references relative to `anchor`."""
    padded = "\n" * (first_line - 1) + text.removeprefix("\ufeff")
    parsed = parse_rule_text(padded, name)
    loader = Loader()
    loader.apply_file(parsed, anchor)
    return _resolve(loader.draft, True)


def _resolve(draft: Draft, check: bool) -> ir.Ruleset:
    from rulekit.lang.checks import (
        check_void_every_deal,
        check_void_every_hand,
        playable_checks,
        static_checks,
    )

    resolver = Resolver(draft)
    rules = resolver.run()
    errors: list[RulekitError] = list(draft.errors)
    if rules is not None and not errors:  # what play would hit, checked even without `check`
        fallback = Loc(draft.files[-1], 1, 1) if draft.files else None
        locs = resolver.play_locs()
        errors.extend(playable_checks(rules, locs, fallback))
        if check and not errors:
            errors.extend(check_void_every_deal(rules, locs, fallback))
            errors.extend(check_void_every_hand(rules, locs, fallback))
    if rules is not None and check and not errors:
        declared = {cid: classes[0] for cid, classes in resolver.declared.items()}
        # A house rule that deals fewer cards (a scenario's 3-card hands) puts the teyaku of the
        # file it extends out of reach; they are not typos: any size dealt along the chain counts.
        sizes = set(rules.hand_sizes()) | draft.dealt
        errors.extend(static_checks(rules, declared, sizes))
    if errors:
        raise RuleErrors(errors)
    assert rules is not None
    return rules


MAX_JSON_DEPTH = 100  # nesting of JSON IR; deeper exhausts the recursion of its readers


def _offset_loc(name: str, text: str, offset: int) -> Loc:
    line = text.count("\n", 0, offset) + 1
    return Loc(name, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _big_numbers(node: object, path: str = "") -> list[str]:
    """JSON paths of the numbers beyond the language's bound (MAX_NUMBER either way)."""
    from rulekit.lang.parser import MAX_NUMBER

    if isinstance(node, bool):
        return []
    if isinstance(node, int):
        return [path or "(top)"] if abs(node) > MAX_NUMBER else []
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _big_numbers(v, f"{path}/{k}".lstrip("/"))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _big_numbers(v, f"{path}/{i}".lstrip("/"))]
    return []


def _parse_json(text: str, name: str) -> object:
    """The data of a JSON IR text, or a located error: never a RecursionError or a ValueError
    from Python's limits."""
    from rulekit.lang.parser import MAX_NUMBER

    deepest, at = jsonpos.depth(text)
    if deepest > MAX_JSON_DEPTH:
        raise RuleError(
            f"JSON nested more than {MAX_JSON_DEPTH} deep",
            _offset_loc(name, text, at),
            "see 'Bounds' in docs/language.md",
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError(f"not valid JSON: {exc.msg}", Loc(name, exc.lineno, exc.colno)) from None
    except (ValueError, RecursionError) as exc:  # a number too long for Python's int()
        raise RuleError(f"not valid JSON IR: {str(exc)[:80]}", Loc(name, 1, 1)) from None
    big = _big_numbers(data)
    if big:
        raise RuleError(
            f"{big[0]}: a number beyond {MAX_NUMBER:,}",
            Loc(name, 1, 1),
            "see 'Bounds' in docs/language.md",
        )
    return data


# jsonschema's messages are those of the published schema, but its time grows exponentially
# with the nesting of conditions (every alternative is tried at every level): past this depth
# the model's own (linear) messages are given instead.
_SCHEMA_MESSAGES_DEPTH = 14


def _schema_errors(data: object, at: Callable[[jsonpos.Path], Loc]) -> list[RulekitError]:
    """The JSON Schema's words for what is wrong, each at its value (empty if the data is too
    deep to ask)."""
    if jsonpos.depth(json.dumps(data))[0] > _SCHEMA_MESSAGES_DEPTH:
        return []
    import jsonschema  # only JSON IR needs it: keep it out of every other command's start-up

    validator = jsonschema.Draft202012Validator(ir_schema())
    problems = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [
        RuleError(
            f"{'/'.join(map(str, p.absolute_path)) or '(top)'}: {p.message}",
            at(tuple(p.absolute_path)),
        )
        for p in problems[:10]
    ]


def _pydantic_errors(exc: ValidationError, at: Callable[[jsonpos.Path], Loc]) -> list[RulekitError]:
    return [
        RuleError(f"{'/'.join(map(str, e['loc']))}: {e['msg']}", at(tuple(e["loc"])))
        for e in exc.errors()[:10]
    ]


def _json_located(rules: ir.Ruleset, name: str, at: Callable[[jsonpos.Path], Loc]) -> ir.Ruleset:
    """The IR as this JSON file has it: its entries and expectations located in it (a dump of
    a rule file carries the places of that file's lines), and the file as its only source."""

    def here(path: jsonpos.Path) -> ir.SourceLoc:
        loc = at(path)
        return ir.SourceLoc(file=loc.file, line=loc.line, col=loc.col, width=loc.width)

    update: dict[str, object] = {"files": (name,)}
    for kind in ("teyaku", "yaku"):
        table: ir.YakuTable | None = getattr(rules, kind)
        if table is not None:
            entries = tuple(
                e.model_copy(update={"loc": here((kind, "entries", i, "name"))})
                for i, e in enumerate(table.entries)
            )
            update[kind] = table.model_copy(update={"entries": entries})
    update["expectations"] = tuple(
        x.model_copy(update={"loc": here(("expectations", i))})
        for i, x in enumerate(rules.expectations)
    )
    return rules.model_copy(update=update)


def load_json_rules(path: Path) -> ir.Ruleset:
    """A variant given as JSON IR, validated against the IR's JSON Schema, then checked like
    a rule file: every card it names in the deck, every table size playable. Every error is
    located in the JSON file, at the value it is about."""
    from rulekit.lang.checks import (
        check_void_every_deal,
        check_void_every_hand,
        playable_checks,
        static_checks,
    )

    name = display_name(path)
    text = _read(path, name)
    register_source(name, text)
    data = _parse_json(text, name)
    where = jsonpos.positions(text)

    def at(json_path: jsonpos.Path) -> Loc:
        return jsonpos.locate(name, text, json_path, where)

    top = Loc(name, 1, 1)
    try:
        rules = ir.Ruleset.model_validate(data)
    except ValidationError as exc:
        raise RuleErrors(_schema_errors(data, at) or _pydantic_errors(exc, at)) from None
    unknown = ir.unknown_references(rules)
    if unknown:
        raise RuleErrors([RuleError(p, top) for p in unknown[:10]])
    rules = _json_located(rules, name, at)
    locs = {
        "seats": at(("seats", "max")),
        "setup": at(("setup",)),
        "void": at(("void_field",)),
        "void hand": at(("void_hand",)),
        "deal": at(("deal",)),
    }
    errors = (
        playable_checks(rules, locs, top)
        or check_void_every_deal(rules, locs, top)
        or check_void_every_hand(rules, locs, top)
    )
    errors = errors or static_checks(rules)
    if errors:
        raise RuleErrors(errors)
    return rules


def ir_schema() -> dict[str, object]:
    """The JSON Schema of the IR (what `rulekit schema ir` prints)."""
    schema = ir.Ruleset.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "rulekit rule IR"
    return schema
