"""Finding rule files: a path, or a bundled name such as `hachihachi/kirisame`."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from rulekit.errors import Loc, RuleError, did_you_mean
from rulekit.resources import rules_dir

SUFFIXES = (".rk", ".json")

# The folders rule text may reach while set (rule text sent to `rulekit serve`): a path outside
# them is refused before anything is looked up, so no file outside is opened or even probed.
_REACH: ContextVar[tuple[Path, ...] | None] = ContextVar("rulekit_reach", default=None)


@contextmanager
def reaching_only(folders: Sequence[Path]) -> Iterator[None]:
    """Rule files found inside this block may come only from the bundled rules and `folders`."""
    token = _REACH.set((rules_dir().resolve(), *(f.resolve() for f in folders)))
    try:
        yield
    finally:
        _REACH.reset(token)


def reach_limited() -> bool:
    """Whether rule files are looked up within reaching_only's folders here."""
    return _REACH.get() is not None


def _within_reach(path: Path) -> bool:
    reach = _REACH.get()
    if reach is None:
        return True
    try:
        resolved = path.resolve()
    except (OSError, ValueError, RuntimeError):
        return False
    return any(resolved.is_relative_to(root) for root in reach)


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


def _is_file(path: Path) -> bool:
    """Whether a path is a file; False for a name the system cannot look up (too long, NUL)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _bundled(name: str) -> Path | None:
    name = _defaults().get(name, name)
    for suffix in SUFFIXES:
        candidate = rules_dir() / f"{name}{suffix}"
        if _within_reach(candidate) and _is_file(candidate):
            return candidate
    return None


def find_rules(ref: str, relative_to: Path | None = None, loc: Loc | None = None) -> Path:
    """A rule file by path (relative to the including file, or to the working directory) or by
    bundled name; a located error with a suggestion when there is none. Only a `.rk` or `.json`
    path is ever opened: a rule file reads only rule files."""
    base = relative_to.parent if relative_to is not None else Path.cwd()
    raw = Path(ref)
    if raw.suffix and raw.suffix not in SUFFIXES:
        raise RuleError(
            f"'{ref}' is not a rule file: a rule file's name ends in .rk or .json",
            loc,
            "name a bundled rule file (hachihachi/kirisame) or a path to a .rk or .json file",
        )
    candidates = []
    if raw.suffix:
        candidates.append(raw if raw.is_absolute() else base / raw)
    elif raw.name:  # `extends "/"` names no file at all
        candidates.extend((base / raw).with_suffix(s) for s in SUFFIXES)
    bundled = None
    if _REACH.get() is not None:  # rule text from a page: a bundled name first, then in reach
        bundled = _bundled(ref.removesuffix(".rk")) if ref.strip() else None
        if bundled is not None:
            return bundled
        candidates = [c for c in candidates if _within_reach(c)]
        if not any(_is_file(c) for c in candidates):
            raise RuleError(
                f"no rule file '{ref[:77]}' here: rule text from the page reads only the"
                " bundled rule files and the folders the server was started with",
                loc,
                did_you_mean(ref, bundled_names())
                or "extend a bundled rule file by its name, such as hachihachi/fudawiki",
            )
    for c in candidates:
        if _is_file(c):
            return c
    bundled = _bundled(ref.removesuffix(".rk")) if ref.strip() else None
    if bundled is not None:
        return bundled
    if not raw.suffix and (_is_file(raw) or _is_file(base / raw)):  # found, but not opened
        raise RuleError(
            f"'{ref}' is not a rule file: a rule file's name ends in .rk or .json",
            loc,
            "name a bundled rule file (hachihachi/kirisame) or a path to a .rk or .json file",
        )
    if _is_dir(raw) or _is_dir(base / raw):
        raise RuleError(f"'{ref}' is a folder, not a rule file", loc)
    hint = did_you_mean(ref, bundled_names()) or "bundled: " + ", ".join(bundled_names())
    if len(ref) > 80:
        ref = ref[:77] + "..."
    raise RuleError(f"no rule file '{ref}' (neither a file nor a bundled name)", loc, hint)
