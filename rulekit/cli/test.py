"""The test command: run scenario files, and find them when no path is given."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from rulekit.cli.common import command
from rulekit.errors import RulekitError

SKIPPED_FOLDERS = frozenset({"site-packages", "dist-packages", "node_modules", "__pycache__"})


def _skipped(folder: Path) -> bool:
    """A folder no one keeps scenarios in: hidden (.git, .venv), a virtual environment (it
    holds an installed copy of the bundled rules), installed packages."""
    return (
        folder.name.startswith(".")
        or folder.name in SKIPPED_FOLDERS
        or (folder / "pyvenv.cfg").is_file()
    )


def _scenarios_under(root: Path) -> list[Path]:
    """The *.scenario.toml files under a folder, sorted, not looking into skipped folders."""
    found = []
    for here, folders, files in os.walk(root):
        folders[:] = [f for f in folders if not _skipped(Path(here) / f)]
        found += [Path(here) / f for f in files if f.endswith(".scenario.toml")]
    return sorted(found)


def scenario_files(paths: list[Path]) -> list[Path]:
    """The files given and the scenarios under the folders given; with none, the bundled
    rules' scenarios and the current folder's. Each scenario once, however it is reached:
    through two paths to one file, or as the installed copy of a file in the current folder
    (a checkout with the package installed in its .venv holds both)."""
    from rulekit.resources import rules_dir

    if paths:
        return _once(f for root in paths for f in _found(root))
    bundled_root = rules_dir()
    bundled = _scenarios_under(bundled_root)
    local = _scenarios_under(Path("."))
    copies = _installed_copies(bundled, bundled_root, local)
    return _once([*(f for f in bundled if f not in copies), *local])


def _found(root: Path) -> list[Path]:
    from rulekit.scenario.load import find_scenarios

    return _scenarios_under(root) if root.is_dir() else find_scenarios([root])


def _once(files: Iterable[Path]) -> list[Path]:
    """Each file once, in order: two paths to one file (a symbolic or a hard link, `.` inside
    the bundled folder) are one file."""
    out: list[Path] = []
    seen: set[tuple[int, int]] = set()
    for f in files:
        stat = f.stat()
        if (stat.st_dev, stat.st_ino) not in seen:
            seen.add((stat.st_dev, stat.st_ino))
            out.append(f)
    return out


def _installed_copies(bundled: list[Path], root: Path, local: list[Path]) -> set[Path]:
    """The bundled scenarios that a file of the current folder copies, byte for byte and at
    the same place under its rules folder: the one in the current folder runs instead."""
    by_name: dict[str, list[Path]] = {}
    for f in local:
        by_name.setdefault(f.name, []).append(f)
    copies = set()
    for f in bundled:
        where = f.relative_to(root).parts
        for mine in by_name.get(f.name, []):
            at_same_place = mine.resolve().parts[-len(where) :] == where
            if at_same_place and not mine.samefile(f) and mine.read_bytes() == f.read_bytes():
                copies.add(f)
                break
    return copies


@command("test")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
def test_cmd(paths: tuple[Path, ...], quiet: bool) -> None:
    """Run scenario files (*.scenario.toml) and folders of them; report each failure.

    With no PATHS: the bundled rules' scenarios and those under the current folder. Hidden
    folders (.git, .venv), virtual environments and site-packages are not searched; a scenario
    reached twice (through a link, or as the current folder's copy of a bundled one) runs once.
    A failure shows the expectation, what happened, and the round's ledger. The last line is
    `N passed, N failed`; the exit status is 1 on any failure or malformed scenario.

    \b
    Examples:
      rulekit test
      rulekit test rules/
      rulekit test my-table/disputed-sage.scenario.toml
    """
    from rulekit.scenario.runner import run_scenario

    files = scenario_files(list(paths))
    passed = failed = 0
    for path in files:
        try:
            outcome = run_scenario(path)
        except RulekitError as err:
            failed += 1
            click.echo(f"ERROR {path}\n{err.render()}\n", err=True)
            continue
        if outcome.passed:
            passed += 1
            if not quiet:
                click.echo(f"ok    {outcome.name}: {outcome.title}")
        else:
            failed += 1
            click.echo(outcome.render() + "\n")
    if not files:
        click.echo("no scenario files (*.scenario.toml) found", err=True)
    click.echo(f"{passed} passed, {failed} failed")
    if failed or not files:
        sys.exit(1)
