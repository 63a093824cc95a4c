"""Finding rule files: a path, or a bundled name such as `hachihachi/kirisame`."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

from rulekit.errors import Loc, RuleError, did_you_mean
from rulekit.resources import rules_dir

SUFFIXES = (".rk", ".json")


@lru_cache(maxsize=1)
def _defaults() -> dict[str, str]:
    index = rules_dir() / "index.toml"
    if not index.is_file():
        return {}
    data = tomllib.loads(index.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.get("defaults", {}).items()}


def bundled_names() -> list[str]:
    """Every bundled rule file by name (`hachihachi/kirisame`), and each game's default."""
    root = rules_dir()
    names = sorted(
        str(p.relative_to(root).with_suffix(""))
        for p in root.rglob("*.rk")
        if "scenarios" not in p.parts
    )
    return sorted(set(names) | set(_defaults()))


def display_name(path: Path) -> str:
    """How a file is named in messages: bundled files as `rules/...`, others as given."""
    try:
        return "rules/" + path.resolve().relative_to(rules_dir().resolve()).as_posix()
    except ValueError:
        pass
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _bundled(name: str) -> Path | None:
    name = _defaults().get(name, name)
    for suffix in SUFFIXES:
        candidate = rules_dir() / f"{name}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def find_rules(ref: str, relative_to: Path | None = None, loc: Loc | None = None) -> Path:
    """A rule file by path (relative to the including file, or to the working directory) or by
    bundled name; a located error with a suggestion when there is none."""
    candidates = []
    base = relative_to.parent if relative_to is not None else Path.cwd()
    raw = Path(ref)
    candidates.append(raw if raw.is_absolute() else base / raw)
    if not raw.suffix:
        candidates.extend((base / raw).with_suffix(s) for s in SUFFIXES)
    for c in candidates:
        if c.is_file():
            return c
    bundled = _bundled(ref.removesuffix(".rk"))
    if bundled is not None:
        return bundled
    if raw.is_dir() or (base / raw).is_dir():
        raise RuleError(f"'{ref}' is a folder, not a rule file", loc)
    hint = did_you_mean(ref, bundled_names()) or "bundled: " + ", ".join(bundled_names())
    raise RuleError(f"no rule file '{ref}' (neither a file nor a bundled name)", loc, hint)
