"""The rules editor page of `rulekit serve`: rule text typed in the browser is checked as the
CLI checks a file (the same located errors and warnings), described, diffed against the file it
extends, and used to evaluate a hand. Rule text reaches only what `Catalog.load_text` allows:
the bundled rule files and those the server was started with."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from rulekit import ir
from rulekit.errors import RuleErrors, RulekitError, UsageError
from rulekit.web.api import guarded, read_json
from rulekit.web.catalog import RULE_TEXT, Catalog
from rulekit.web.faces import card_object
from rulekit.web.ruletext import MAX_TEXT, NAME, Parent, beside_of, parent_of, resolved, text_of

STATIC = Path(__file__).resolve().parent / "static"
MAX_HAND = 400  # characters of a hand to evaluate
MODES = ("hand", "captured", "field")
WIDTH = 100  # columns of the rulebook's text
__all__ = ["MAX_TEXT", "editor_routes"]


# ---------------------------------------------------------------- what the page asks
def template(catalog: Catalog) -> str:
    """A new file: the default rules extended, and how to go on."""
    default = "hachihachi" if "hachihachi" in catalog.refs else catalog.names[0]
    return (
        f'extends "{default}"\n'
        "# House rules: each line overrides the file above; see `rulekit describe`.\n"
        'game "My table" variant "house"\n'
    )


def source(catalog: Catalog, name: str | None) -> dict[str, Any]:
    """An offered rule file's text, to start from; a template without a name."""
    if not name:
        return {"name": None, "text": template(catalog)}
    path = resolved(catalog, name)
    if path.suffix != ".rk":
        raise UsageError(
            f"'{name[:60]}' is JSON IR, not rule text: it cannot be edited here",
            hint=f'start a new file with: extends "{name[:60]}"',
        )
    return {"name": name, "text": path.read_text(encoding="utf-8")}


def diagnostic(err: RulekitError, severity: str) -> dict[str, Any]:
    """An error or warning as the page underlines it: 1-based line and column, the end column
    exclusive; `rendered` is the CLI's text of it."""
    loc = err.loc
    return {
        "file": loc.file if loc else None,
        "line": loc.line if loc else None,
        "column": loc.col if loc else None,
        "end_line": loc.line if loc else None,
        "end_column": loc.col + max(1, loc.width) if loc else None,
        "message": err.message,
        "hint": err.hint,
        "severity": severity,
        "rendered": err.render(),
    }


def describe_text(rules: ir.Ruleset) -> str:
    """The rulebook as `rulekit describe` prints it, without colours."""
    from rich.console import Console

    from rulekit.describe import rulebook, to_rich

    out = io.StringIO()
    console = Console(
        file=out, width=WIDTH, color_system=None, highlight=False, soft_wrap=False, markup=False
    )
    for item in to_rich(rulebook(rules)):
        console.print(item)
    return out.getvalue()


def diff_text(parent: Parent | None, rules: ir.Ruleset) -> str | None:
    """What the text changes in the file it extends, as `rulekit diff PARENT FILE` says it."""
    from rulekit.diff import diff, render
    from rulekit.lang import load_rules

    if parent is None:
        return None
    try:
        before = load_rules(parent.path)  # in reach: found by parent_of under the same limit
    except RulekitError:
        return None
    return render(diff(before, rules), parent.name, NAME)


def check(catalog: Catalog, text: str, beside: str | None) -> dict[str, Any]:
    """The text checked as `rulekit check` checks a file: errors and warnings as located
    diagnostics, and, when it loads, its title, rulebook and diff against its parent."""
    from rulekit.lang.checks import rule_warnings

    with RULE_TEXT:
        parent = parent_of(catalog, text, beside)
        try:
            rules = catalog.load_text(text, NAME, beside)
        except RulekitError as err:
            errors = err.errors if isinstance(err, RuleErrors) else [err]
            return {
                "ok": False,
                "diagnostics": [diagnostic(e, "error") for e in errors],
                "title": None,
                "parent": parent.name if parent else None,
                "parent_offered": bool(parent and parent.offered),
                "describe": None,
                "diff": None,
            }
        warnings = [diagnostic(w, "warning") for w in rule_warnings(rules)]
        return {
            "ok": True,
            "diagnostics": warnings,
            "title": rules.title,
            "parent": parent.name if parent else None,
            "parent_offered": bool(parent and parent.offered),
            "describe": describe_text(rules),
            "diff": diff_text(parent, rules),
        }


def evaluate(catalog: Catalog, text: str, beside: str | None, spec: dict[str, Any]) -> Any:
    """What `rulekit eval` says of cards under the text's rules: the result (as --json) and
    its words (as printed)."""
    from rulekit.engine.tables import CompiledRules
    from rulekit.evaluate import eval_captured, eval_field, eval_hand

    cards = spec.get("hand")
    mode = spec.get("mode", "hand")
    if not isinstance(cards, str) or len(cards) > MAX_HAND:
        raise UsageError(f"hand: the cards, ids or names, at most {MAX_HAND} characters")
    if mode not in MODES:
        raise UsageError("mode: hand, captured or field")
    compiled = CompiledRules(catalog.rules_of_text(text, NAME, beside))  # a 400 as from the CLI
    if not cards.strip() and mode != "field":
        raise UsageError(f"no cards given for the {mode}")
    ids = compiled.index.parse_many([cards], mode)
    result = {"hand": eval_hand, "captured": eval_captured, "field": eval_field}[mode](
        compiled, ids
    )
    return {
        "mode": mode,
        "result": result,
        "text": eval_words(compiled, mode, ids, result),
        "cards": [card_object(compiled.rules, i) for i in ids],  # drawn with their faces
    }


def eval_words(compiled: Any, mode: str, ids: list[int], result: dict[str, Any]) -> str:
    """The result in the words `rulekit eval` prints."""
    shown = ", ".join(compiled.index.short(i) for i in ids)
    lines = [f"{compiled.rules.title}: {mode} {shown}"]
    if mode == "field":
        carry = result["next_round_at_least"]
        lines.append(f"multiplier x{result['multiplier']}; next round at least x{carry}")
        return "\n".join(lines) + "\n"
    key, listed = ("teyaku", "teyaku") if mode == "hand" else ("yaku", "matched")
    counted = {e["name"] for e in result.get("counted", result[key])}
    if not result[listed]:
        lines.append(f"no {key}")
    for e in result[listed]:
        counts = "" if e["name"] in counted else "  (does not count)"
        lines.append(f"  {e['label']} ({e['name']}): {e['value']}{counts}")
    points = f"   card points: {result['points']}" if "points" in result else ""
    lines.append(f"value: {result['value']}{points}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the routes
def editor_routes(catalog: Catalog) -> list[Route]:
    """The editor's page and API, added to the app's routes; errors as the app's (JSON)."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "editor.html")

    async def get_source(request: Request) -> Response:
        name = request.query_params.get("name")
        if name is not None and len(name) > 200:
            raise UsageError("name: an offered rule file's name, at most 200 characters")
        return JSONResponse(await run_in_threadpool(source, catalog, name))

    async def post_check(request: Request) -> Response:
        spec = await read_json(request)
        text, beside = text_of(spec), beside_of(spec, catalog)
        return JSONResponse(await run_in_threadpool(check, catalog, text, beside))

    async def post_eval(request: Request) -> Response:
        spec = await read_json(request)
        text, beside = text_of(spec), beside_of(spec, catalog)
        return JSONResponse(await run_in_threadpool(evaluate, catalog, text, beside, spec))

    # the games are started by POST /api/games with {"text"}: see Games.start
    return [
        Route("/editor", page),
        Route("/api/rules/source", guarded(get_source)),
        Route("/api/rules/check", guarded(post_check), methods=["POST"]),
        Route("/api/rules/eval", guarded(post_eval), methods=["POST"]),
    ]
