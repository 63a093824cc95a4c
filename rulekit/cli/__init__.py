"""The `rulekit` command line: `cli` is the Click group, `main` the console script."""

from rulekit.cli.app import cli, main

__all__ = ["cli", "main"]
