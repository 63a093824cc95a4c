"""The engine's modules import one way (a debt paid with issue 21): no module of
rulekit/engine imports, at any depth, a module that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).parent.parent / "rulekit" / "engine"


def _imports(path: Path) -> set[str]:
    """The engine modules a module imports, at its top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("rulekit.engine."):
                out.add(node.module.split(".")[2])
            elif node.module == "rulekit.engine":
                out.update(a.name for a in node.names)
    return out - {path.stem}


def test_the_engine_has_no_import_circle() -> None:
    graph = {p.stem: _imports(p) for p in ENGINE.glob("*.py")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(m for m in graph if reaches(m, m, {m}))
    assert not circles, f"modules in an import circle: {circles}"
