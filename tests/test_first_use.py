"""The batch engine's first use (issue 22, item 5): its kernel's compile is said as it starts
(what, why, about how long, where it is cached), `rulekit warmup` does it ahead, and `auto`
says when it played the scalar engine only because the kernel was not compiled yet.

A fresh install is pretended: the kernel is neither loaded nor cached as far as rulekit can
tell, while the kernel itself runs as it is (loaded from the cache, or compiled for real)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulekit.batch.engine as batch
import rulekit.sim.simulate as sim
from rulekit.cli import cli

COMPILING = "compiling the batch engine's kernel"


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The kernel as on a fresh install; the compile's time is kept in the returned file."""
    monkeypatch.setattr(batch, "kernel_loaded", lambda: False)
    monkeypatch.setattr(batch, "kernel_cached", lambda: False)
    timed = tmp_path / "compile-seconds"
    monkeypatch.setattr(batch, "_timed_file", lambda: timed)
    return timed


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_warmup_compiles_the_kernel_and_says_what_while_it_does(cold: Path) -> None:
    out = invoke("warmup")
    assert out.exit_code == 0, out.output
    said = out.stderr.strip()
    assert said.startswith(COMPILING) and "once per rulekit version, about " in said
    assert f"cached in {batch.numba_cache_dir()}" in said
    assert out.stdout.startswith("compiled the batch engine's kernel in ")
    assert float(cold.read_text()) >= 0  # the next compile says about how long this one took


def test_warmup_does_nothing_when_the_kernel_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "kernel_ready", lambda: True)
    monkeypatch.setattr(batch, "load_kernel", lambda *a: pytest.fail("compiled it again"))
    out = invoke("warmup")
    assert out.exit_code == 0 and out.stderr == ""
    assert out.stdout.startswith("the batch engine's kernel is compiled already (cached in ")


def test_warmup_has_help_with_an_example() -> None:
    out = invoke("warmup", "--help")
    assert "Examples:" in out.stdout and "rulekit warmup" in out.stdout
    assert "warmup" in invoke("--help").stdout


def test_the_compile_note_says_how_long_the_last_compile_took(cold: Path) -> None:
    assert f"about {batch.COMPILE_SECONDS} s" in batch.compile_note()  # none timed here yet
    cold.write_text("41.6\n")
    assert "about 42 s" in batch.compile_note()


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "hachihachi", "--jobs", "2"],
        ["compare", "hachihachi", "hachihachi/kirisame"],
        ["tune", "hachihachi", "--vary", "triple 10,20"],
    ],
    ids=lambda command: command[0],
)
def test_a_run_says_it_compiles_the_kernel_before_it_does(cold: Path, command: list[str]) -> None:
    out = invoke(*command, "--bots", "greedy", "--rounds", "30", "--engine", "batch", "--json")
    assert out.exit_code == 0, out.output
    assert COMPILING in out.stderr and "cached in" in out.stderr
    assert json.loads(out.stdout)  # --json prints its object alone


def test_auto_says_it_played_the_scalar_engine_because_the_kernel_is_not_compiled(
    cold: Path,
) -> None:
    args = ["--bots", "greedy", "--rounds", "40"]
    for command in (["simulate", "hachihachi"], ["compare", "hachihachi", "hachihachi/kirisame"]):
        shown = invoke(*command, *args)
        assert shown.exit_code == 0, shown.output
        text = " ".join(shown.stdout.split())  # as wrapped at the terminal's width
        assert "played by the scalar engine (not the batch engine: its kernel is not" in text
        assert "rulekit warmup" in text
        assert COMPILING not in shown.stderr  # a short run does not wait for it
        data = json.loads(invoke(*command, *args, "--json").stdout)
        notes = [data["engine_note"]] if "engine_note" in data else [
            v["engine_note"] for v in data["variants"]
        ]  # fmt: skip
        assert all(n.startswith(sim.COLD_NOTE) and "rulekit warmup" in n for n in notes)


def test_auto_compiles_the_kernel_for_a_run_long_enough(
    cold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comparison's length is that of every variant's rounds: two variants of 60 rounds are
    120 rounds for the batch engine, enough here (where 100 pay for the compile)."""
    monkeypatch.setattr(sim, "COLD_ROUNDS", 100)
    args = ["--bots", "greedy", "--rounds", "60", "--json"]
    out = invoke("compare", "hachihachi", "hachihachi/kirisame", *args)
    assert out.exit_code == 0, out.output
    assert COMPILING in out.stderr
    assert [v["engine"] for v in json.loads(out.stdout)["variants"]] == ["batch", "batch"]
    short = invoke("simulate", "hachihachi", *args)
    assert json.loads(short.stdout)["engine"] == "scalar"


def test_a_cache_folder_that_cannot_be_written_is_said_before_any_compile(
    cold: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(batch, "numba_cache_dir", lambda: str(blocked / "batch-x"))
    monkeypatch.setattr(batch, "play", lambda *a, **k: pytest.fail("compiled anyway"))
    out = invoke("warmup")
    assert out.exit_code == 1, out.output
    assert "cannot write the batch engine's kernel cache in" in out.output
    assert "NUMBA_CACHE_DIR" in out.output and "Traceback" not in out.output


def test_one_process_compiles_the_kernel_while_another_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's first call holds a lock on its cache folder: another process finds it
    taken (and would wait, then read the kernel from the cache instead of compiling again)."""
    import fcntl

    from rulekit.batch import engine as batch_engine

    monkeypatch.setattr(batch_engine, "numba_cache_dir", lambda: str(tmp_path))
    with batch_engine._compile_lock():
        other = open(tmp_path / ".compiling", "a")  # noqa: SIM115 (another holder's handle)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            other.close()
    again = open(tmp_path / ".compiling", "a")  # noqa: SIM115
    try:
        fcntl.flock(again, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released after: free
    finally:
        again.close()
