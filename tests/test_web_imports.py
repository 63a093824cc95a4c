"""The modules of `rulekit serve` import one way: the app gathers the pages, the pages share the
plumbing and the catalog, and nothing imports back up (not even inside a function)."""

from __future__ import annotations

import ast
from pathlib import Path

import rulekit.web

WEB = Path(rulekit.web.__file__).parent


def web_imports() -> dict[str, set[str]]:
    """Each module of rulekit/web and the modules of rulekit/web it imports, anywhere in it."""
    graph: dict[str, set[str]] = {}
    for path in sorted(WEB.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found |= {n.split(".")[2] for n in names if n.startswith("rulekit.web.")}
        graph[path.stem] = found - {path.stem}
    return graph


def test_the_web_modules_import_one_way() -> None:
    graph = web_imports()
    assert "app" not in set().union(*graph.values()), graph  # the app gathers, nobody needs it
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"an import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for imported in graph.get(module, set()):
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
