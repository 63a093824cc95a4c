"""The `rulekit` command line: `cli` is the Click group, `main` the console script."""

import gc

# A command's objects (the rules' IR, the grammar, the kernel's types) live until it exits. With
# Python's thresholds (a collection every 700 new objects) a short comparison's start ran some
# 300 collections, 30 of them through the older objects too: an eighth of a second that no
# second process shares (`--jobs 2` waits for it). Collecting less often finds the same
# cycles, later.
gc.set_threshold(100_000, 50, 100)

from rulekit.cli.app import cli, main  # noqa: E402

__all__ = ["cli", "main"]
