"""Every example of the README and docs/ whose output is shown runs and prints that output
(issue 21, item 21: the README's `diff` example showed 4 differences where its file gives 2).

An example is a `$ rulekit ...` line in a fenced block, and the lines after it up to the next
`$` or the end of the block are its output. In the output, a line `...` stands for any number
of lines and `...` inside a line for any text (timings, long tables). A code block whose first
line is a comment naming a file (`# my-table.rk: ...`) defines that file for the examples after
it in the same document; commands run in a folder holding those files, with the checkout's
`rules/` and `tests/` beside them, 100 columns wide. Commands whose output is not shown (`play`,
`serve`) are not run here.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```[\w-]*\n(.*?)^```", re.S | re.M)
_DEFINES = re.compile(r"^# ([\w.-]+\.(?:rk|toml|json))\b")  # a name, not a path


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    command: str
    output: tuple[str, ...]
    files: tuple[tuple[str, str], ...]  # the files defined above it in its document

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def examples() -> list[Example]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        blocks = list(_FENCE.finditer(text))
        # the files the document defines, where: an example takes the nearest definition
        # above it, or the first below it
        defined = [
            (b.start(), named.group(1), b.group(1))
            for b in blocks
            if (named := _DEFINES.match(b.group(1)))
        ]
        for block in blocks:
            if _DEFINES.match(block.group(1)):
                continue
            files: dict[str, str] = {}
            for at, name, body in defined:
                if at < block.start() or name not in files:
                    files[name] = body
            start = text.count("\n", 0, block.start(1)) + 1
            lines = block.group(1).splitlines()
            for i, line in enumerate(lines):
                if not line.startswith("$ rulekit "):
                    continue
                shown: list[str] = []
                for after in lines[i + 1 :]:
                    if after.startswith("$ "):
                        break
                    shown.append(after)
                while shown and not shown[-1].strip():
                    shown.pop()
                if shown:
                    name = str(doc.relative_to(ROOT))
                    command = line[2:].split("  #")[0].strip()
                    out.append(
                        Example(name, start + i, command, tuple(shown), tuple(files.items()))
                    )
    return out


def matches(shown: tuple[str, ...], got: list[str]) -> bool:
    """The output as the docs show it: `...` alone is any lines, `...` in a line any text."""
    parts = []
    for line in (s.rstrip() for s in shown):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(map(re.escape, line.split("..."))) + r"\n")
    text = "".join(line.rstrip() + "\n" for line in got)
    return re.fullmatch("".join(parts), text) is not None


@pytest.mark.parametrize("example", examples(), ids=str)
def test_the_example_prints_what_the_docs_show(example: Example, tmp_path: Path) -> None:
    for name, body in example.files:
        (tmp_path / name).write_text(body, encoding="utf-8")
    for folder in ("rules", "tests"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    args = shlex.split(example.command)[1:]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
        result = runner.invoke(cli, args, prog_name="rulekit")
    finally:
        os.chdir(cwd)
    got = result.output.rstrip("\n").splitlines()
    assert matches(example.output, got), f"{example} `{example.command}` printed:\n" + "\n".join(
        got
    )


def test_every_doc_with_examples_is_read() -> None:
    found = {e.doc for e in examples()}
    assert {"README.md", "docs/language.md", "docs/house-rules.md", "docs/tune.md"} <= found
