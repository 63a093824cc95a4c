"""The test command: run scenario files, and find them when no path is given."""

from __future__ import annotations

import os
import sys
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
    rules' scenarios and the current folder's. Each file once, however it is reached."""
    from rulekit.resources import rules_dir
    from rulekit.scenario.load import find_scenarios

    out: list[Path] = []
    seen: set[Path] = set()
    for root in paths or [rules_dir(), Path(".")]:
        files = _scenarios_under(root) if root.is_dir() else find_scenarios([root])
        for f in files:
            if f.resolve() not in seen:
                seen.add(f.resolve())
                out.append(f)
    return out


@command("test")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
def test_cmd(paths: tuple[Path, ...], quiet: bool) -> None:
    """Run scenario files (*.scenario.toml) and folders of them; report each failure.

    With no PATHS: the bundled rules' scenarios and those under the current folder. Hidden
    folders (.git, .venv), virtual environments and site-packages are not searched.
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
