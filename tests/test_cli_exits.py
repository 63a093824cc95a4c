"""Issue 21, item 19: every command exits as the README's table says. A value out of range, or a
name that names nothing, is a usage error (2) whether Click or the library finds it; Ctrl-C in
`play` saves the game and exits 130; a write that fails after the work is an error (1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rulekit.cli import cli
from rulekit.scenario.runner import run_scenario

VARY = ["--vary", "triple 10..40 step 5"]

OUT_OF_RANGE = [
    # simulate
    (["simulate", "hachihachi", "--rounds", "-5"], "at least 1"),
    (["simulate", "hachihachi", "--rounds", "0"], "at least 1"),
    (["simulate", "hachihachi", "--games", "-1"], "at least 1"),
    (["simulate", "hachihachi", "--rounds", "1" + "0" * 20], "at most"),
    (["simulate", "hachihachi", "--rounds", "5", "--games", "5"], "not both"),
    (["simulate", "hachihachi", "--seats", "9"], "seats 3 to 6 players, not 9"),
    (["simulate", "hachihachi", "--seats", "0"], "0 is not in the range x>=1"),
    (["simulate", "hachihachi", "--bots", "smart"], "no bot named 'smart'"),
    (["simulate", "hachihachi", "--rollouts", "0"], "0 is not in the range x>=1"),
    (["simulate", "hachihachi", "--think-ms", "0"], "0.0 is not in the range x>0"),
    (["simulate", "hachihachi", "--jobs", "0"], "0 is not from 1 to"),
    (["simulate", "hachihachi", "--engine", "fast"], "'fast' is not one of"),
    (["simulate", "sakura", "--bots", "strong", "--engine", "batch"], "cannot play this"),
    # compare
    (["compare", "hachihachi", "hachihachi", "--rounds", "-5"], "at least 2 rounds"),
    (["compare", "hachihachi", "hachihachi", "--rounds", "1"], "at least 2 rounds"),
    (["compare", "hachihachi", "hachihachi", "--rounds", "1" + "0" * 20], "at most"),
    (["compare", "hachihachi", "hachihachi", "--seats", "9"], "cannot seat 9 players"),
    (["compare", "hachihachi", "koikoi"], "no table size suits every variant"),
    (["compare", "hachihachi", "hachihachi", "--bots", "smart"], "no bot named 'smart'"),
    (["compare", "hachihachi", "hachihachi", "--report", "x.txt"], "FILE.html or FILE.md"),
    # tune
    (["tune", "hachihachi", *VARY, "--rounds", "-1"], "at least 2 rounds"),
    (["tune", "hachihachi", *VARY, "--seats", "9"], "cannot seat 9 players"),
    (["tune", "hachihachi", *VARY, "--bots", "smart"], "no bot named 'smart'"),
    (["tune", "hachihachi", "--vary", "tripel 10..40 step 5"], "tripel"),
    (["tune", "hachihachi", *VARY, "--plot", "tune.jpg"], "PNG"),
    # odds
    (["odds", "hachihachi", "--seats", "9"], "seats 3 to 6 players, not 9"),
    (["odds", "hachihachi", "--seats", "-5"], "seats 3 to 6 players, not -5"),
    (["odds", "minhwatu"], "has no teyaku or instant wins"),
    # play
    (["play", "koikoi", "--seats", "3"], "seats 2 players, not 3"),
    (["play", "hachihachi", "--seat", "7"], "--seat is from 0 to 2"),
    (["play", "hachihachi", "--bots", "smart"], "no bot named 'smart'"),
    (["play", "hachihachi", "--think-ms", "0"], "0 is not in the range x>=1"),
    (["play", "hachihachi", "--watch", "--delay", "-1"], "-1.0 is not in the range x>=0"),
    (["play", "--resume", "no-such-game.scenario.toml"], "no saved game at"),
    # eval
    (["eval", "hachihachi", "--hand", "10", "11", "12", "13", "20", "21", "99"], "no card 99"),
    (["eval", "hachihachi", "--hand", "10", "11", "12"], "a dealt hand has 7 cards; 3 given"),
    (["eval", "hachihachi", "--captured", "cran"], "unknown card 'cran'"),
    (["eval", "hachihachi", "--field", "10", "10"], "given twice"),
    (["eval", "koikoi", "--hand", *"10 11 12 13 20 21 22 23".split()], "has no teyaku"),
    # the others
    (["serve", "--port", "70000"], "70000 is not in the range 0<=x<=65535"),
    (["describe", "hachihachi", "--format", "pdf"], "'pdf' is not one of"),
    (["diff", "hachihachi", "hachihachi", "--format", "pdf"], "'pdf' is not one of"),
    (["schema", "rules"], "'rules' is not one of"),
    (["list", "--all"], "No such option '--all'"),
    (["check", "--strict", "hachihachi"], "No such option '--strict'"),
    (["test", "--fast"], "No such option '--fast'"),
]


def invoke(args: list[str], **kwargs: Any) -> Result:
    return CliRunner().invoke(cli, args, **kwargs)


@pytest.mark.parametrize(
    ("args", "message"), [pytest.param(a, m, id=" ".join(a)) for a, m in OUT_OF_RANGE]
)
def test_out_of_range_values_exit_2_as_the_readme_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)  # a default save or a report would land here: none may
    result = invoke(args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_in_play_saves_the_game_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.console import Console

    typed = iter(["1"])  # the person's first move; then Ctrl-C at the next prompt

    def keyboard(self: Console, prompt: str = "", **kwargs: Any) -> str:
        move = next(typed, None)
        if move is None:
            raise KeyboardInterrupt
        return move

    monkeypatch.setattr(Console, "input", keyboard)
    save = tmp_path / "interrupted.scenario.toml"
    args = ["play", "hachihachi", "--bots", "greedy", "--seed", "2", "--save", str(save)]
    result = invoke(args)
    assert result.exit_code == 130, result.output
    assert f"game saved to {save}" in result.stdout and "rulekit play --resume" in result.stdout
    assert "interrupted" in result.stderr
    assert '"You: play' in save.read_text(encoding="utf-8")
    assert run_scenario(save).passed


def test_quit_in_play_still_exits_0(tmp_path: Path) -> None:
    save = tmp_path / "quit.scenario.toml"
    args = ["play", "hachihachi", "--bots", "greedy", "--seed", "2", "--save", str(save)]
    result = invoke(args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert run_scenario(save).passed


def test_a_write_that_fails_after_the_run_is_an_error_not_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path passed the check before the run; the folder is gone when the report is
    written (as a full disk would refuse it): exit 1, and no file half written."""
    import rulekit.sim.report as report

    monkeypatch.setattr(report, "check_outputs", lambda **paths: None)
    target = tmp_path / "gone" / "compare.md"
    args = ["compare", "hachihachi", "hachihachi/kirisame", "--bots", "random", "--rounds", "2"]
    result = invoke([*args, "--report", str(target)])
    assert result.exit_code == 1, result.output
    assert f"cannot write {target}" in result.stderr
    assert list(tmp_path.iterdir()) == []
