"""The command line's bounds and manners: --jobs capped at the usable CPUs, rounds streamed in
constant memory, exit statuses (Ctrl-C 130, a closed pipe 0), `rulekit test` with no path,
`odds --seats`, `list`, `--version`, shell completion, packaging files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulekit.sim.backends as backends
from rulekit import __version__
from rulekit.cli import cli
from rulekit.cli.test import scenario_files
from rulekit.lang import load_rules
from rulekit.sim.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str, **kwargs: Any) -> Any:
    return CliRunner().invoke(cli, list(args), **kwargs)


# ---------------------------------------------------------------- B7 --jobs
def test_jobs_above_the_usable_cpus_is_a_usage_error_that_says_the_limit() -> None:
    limit = backends.usable_cpus()
    result = invoke("simulate", "hachihachi", "--rounds", "5", "--jobs", "100000")
    assert result.exit_code == 2
    assert f"from 1 to {limit}" in result.stderr and "usable CPU" in result.stderr
    assert invoke("compare", "hachihachi", "hachihachi", "--jobs", "0").exit_code == 2


def test_jobs_at_the_limit_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "usable_cpus", lambda: 1)
    assert invoke("simulate", "hachihachi", "--rounds", "3", "--jobs", "2").exit_code == 2
    assert invoke("simulate", "hachihachi", "--rounds", "3", "--jobs", "1").exit_code == 0


# ---------------------------------------------------------------- B8 streaming
def test_chunks_are_made_lazily_whatever_the_count() -> None:
    spans = backends.tapered(10**19, 250, 250, 1)
    assert next(spans) == (0, 250) and next(spans) == (250, 500)


@pytest.mark.parametrize(
    ("engine", "size"), [("scalar", 250), ("batch", 250 * backends.FAST_CHUNKS)]
)
def test_a_huge_count_starts_at_once_and_hands_out_only_a_few_chunks(
    monkeypatch: pytest.MonkeyPatch, engine: str, size: int
) -> None:
    """1e15 rounds: the run is stopped after three chunks; listing the work would never end.
    (The default bots play on either engine, each with spans of its own size.)"""
    import rulekit.sim.simulate as sim

    seen: list[tuple[int, int]] = []
    real = sim.run_part

    def counted(plan: Any, start: int, stop: int) -> Any:
        seen.append((start, stop))
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(plan, start, stop)

    monkeypatch.setattr(sim, "run_part", counted)
    result = invoke("simulate", "hachihachi", "--rounds", str(10**15), "--engine", engine)
    assert result.exit_code == 130, result.output
    assert seen == [(0, size), (size, 2 * size), (2 * size, 3 * size)]
    assert "interrupted" in result.stderr


def test_a_count_no_one_could_wait_for_is_refused_with_the_limit() -> None:
    result = invoke("simulate", "hachihachi", "--rounds", "1" + "0" * 20)
    assert result.exit_code == 2 and "at most" in result.stderr


def test_progress_counts_up_to_the_total_in_order() -> None:
    seen: list[tuple[int, int]] = []
    simulate(load_rules("koikoi"), rounds=600, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(250, 600), (500, 600), (600, 600)]


def test_streamed_jobs_give_the_one_job_totals() -> None:
    r = load_rules("koikoi")
    one = simulate(r, rounds=1300, seed=5, jobs=1)
    two = simulate(r, rounds=1300, seed=5, jobs=2)
    for report in (one, two):
        report.pop("seconds")
        report.pop("rounds_per_second")
    assert one == two


# ---------------------------------------------------------------- B9 exit statuses
def test_help_documents_the_exit_statuses() -> None:
    for args in ([], ["simulate"], ["check"]):
        out = invoke(*args, "--help").stdout
        assert "Exit status" in out and "130" in out and "Example" in out


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulekit.lang as lang

    def interrupted(ref: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lang, "load_rules", interrupted)
    result = invoke("describe", "hachihachi")
    assert result.exit_code == 130 and "interrupted" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["check", "hachihachi", "hachihachi/kirisame"], ["describe", "hachihachi"], ["list"]],
)
def test_a_closed_pipe_ends_quietly_with_0(args: list[str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulekit", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


# ---------------------------------------------------------------- B10 test with no path
def test_test_with_no_path_runs_bundled_and_local_scenarios_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "mine.scenario.toml"
    mine.write_text("x")
    for skipped in (".venv/lib", "venv/site-packages/rulekit", ".git", "env"):
        folder = tmp_path / skipped
        folder.mkdir(parents=True)
        (folder / "copy.scenario.toml").write_text("x")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.chdir(tmp_path)
    files = scenario_files([])
    local = [f for f in files if f.resolve().is_relative_to(tmp_path.resolve())]
    assert local == [Path("mine.scenario.toml")]
    bundled = [f for f in files if f not in local]
    assert bundled and len({f.resolve() for f in bundled}) == len(bundled)


def test_test_in_the_checkout_does_not_run_the_bundled_scenarios_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    files = scenario_files([])
    resolved = [f.resolve() for f in files]
    assert len(set(resolved)) == len(resolved)
    assert not any(".venv" in f.parts or "site-packages" in f.parts for f in resolved)


def installed_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: Path) -> Path:
    """A project folder holding `rules` (a copy of RULES) and a .venv with the package
    installed in it, whose bundled rules are another copy; the current folder."""
    import shutil

    import rulekit.resources as resources

    project = tmp_path / "project"
    shutil.copytree(rules, project / "rules")
    venv = project / ".venv"
    installed = venv / "lib" / "python3.11" / "site-packages" / "rulekit" / "_data" / "rules"
    shutil.copytree(rules, installed)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.setattr(resources, "rules_dir", lambda: installed)
    monkeypatch.chdir(project)
    return project


def test_test_with_no_path_in_a_project_with_rules_and_an_installed_copy_runs_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21, item 20: the checkout's rules/ and the copy installed in its .venv were
    both run (346 for 173); the scenarios of the current folder run, once each."""
    bundled = sorted((ROOT / "rules").rglob("*.scenario.toml"))
    project = installed_project(tmp_path, monkeypatch, ROOT / "rules")
    files = scenario_files([])
    assert len(files) == len(bundled)
    assert all(f.resolve().is_relative_to(project / "rules") for f in files)
    edited = project / "rules" / bundled[0].relative_to(ROOT / "rules")
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert len(scenario_files([])) == len(bundled) + 1  # not a copy: the installed one runs too


def test_test_with_no_path_runs_an_installed_copy_once_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = tmp_path / "one" / "hachihachi" / "scenarios"
    rules.mkdir(parents=True)
    (rules / "worked.scenario.toml").write_bytes(
        (ROOT / "rules/hachihachi/scenarios/fudawiki/worked-example.scenario.toml").read_bytes()
    )
    installed_project(tmp_path, monkeypatch, tmp_path / "one")
    result = invoke("test")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_test_runs_a_scenario_reached_through_a_hard_link_once(tmp_path: Path) -> None:
    first = tmp_path / "a.scenario.toml"
    first.write_text("x")
    (tmp_path / "again").mkdir()
    (tmp_path / "again" / "b.scenario.toml").hardlink_to(first)
    (tmp_path / "c.scenario.toml").symlink_to(first)
    assert scenario_files([tmp_path]) == [first]


# ---------------------------------------------------------------- B11 odds --seats
@pytest.mark.parametrize("seats", ["-5", "0", "7"])
def test_odds_refuses_a_table_size_the_variant_has_not(seats: str) -> None:
    result = invoke("odds", "hachihachi", "--seats", seats)
    assert result.exit_code == 2
    assert "seats 3 to 6 players" in result.stderr and f"not {seats}" in result.stderr
    assert "players" not in result.stdout


def test_odds_at_a_table_says_who_plays_and_what_it_leaves_out() -> None:
    import json

    data = json.loads(invoke("odds", "hachihachi", "--seats", "5", "--json").stdout)
    assert data["seats"] == 5 and data["players"] == 3
    left = " ".join(data["leaves_out"])
    assert "carried" in left and "redeal" in left and "fold" in left
    text = " ".join(invoke("odds", "hachihachi", "--seats", "5").stdout.split())
    assert "5 at the table, 3 play" in text and "not counted:" in text
    assert "fold" not in " ".join(
        json.loads(invoke("odds", "hachihachi/kirisame", "--json").stdout)["leaves_out"]
    )


# ---------------------------------------------------------------- C16 list, version, completion
def test_list_names_every_bundled_variant_with_title_sizes_and_source() -> None:
    import json

    data = json.loads(invoke("list", "--json").stdout)["variants"]
    names = {v["name"] for v in data}
    rk = {
        p.relative_to(ROOT / "rules").with_suffix("").as_posix()
        for pattern in ("rules/*/*.rk", "rules/*/house/*.rk")  # house rules are variants too
        for p in ROOT.glob(pattern)
    }
    assert names == {n for n in rk if not n.startswith("common/")}  # the decks are no variants
    kirisame = next(v for v in data if v["name"] == "hachihachi/kirisame")
    assert kirisame["title"] == "Hachi-Hachi (kirisame)" and kirisame["table_sizes"] == "3"
    assert "kirisame" in kirisame["source"]
    fudawiki = next(v for v in data if v["name"] == "hachihachi/fudawiki")
    assert (
        fudawiki["default_for"] == ["hachihachi"] and fudawiki["table_sizes"] == "3 to 6 (3 play)"
    )
    text = invoke("list").stdout
    assert "hachihachi/two-player" in text and "2 to 7" in text


def test_version() -> None:
    for flag in ("--version", "-V"):
        result = invoke(flag)
        assert result.exit_code == 0 and result.stdout.strip() == f"rulekit, version {__version__}"


def test_shell_completion_offers_the_bundled_names() -> None:
    env = {
        "_RULEKIT_COMPLETE": "bash_complete",
        "COMP_WORDS": "rulekit describe hachihachi/k",
        "COMP_CWORD": "2",
    }
    result = CliRunner().invoke(cli, [], env=env, prog_name="rulekit")
    assert "plain,hachihachi/kirisame" in result.stdout
    assert "hachihachi/fudawiki" not in result.stdout
    env["COMP_WORDS"] = "rulekit diff koikoi sak"
    env["COMP_CWORD"] = "3"
    assert "plain,sakura/hawaii" in CliRunner().invoke(cli, [], env=env, prog_name="rulekit").stdout


# ---------------------------------------------------------------- C17 packaging
def test_the_license_file_matches_the_declared_license() -> None:
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "rulekit" / "py.typed").is_file()


def test_the_readme_says_how_to_activate_and_the_defaults() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "source .venv/bin/activate" in readme and "_RULEKIT_COMPLETE" in readme
    assert "| 130 |" in readme and "par of 88" in readme


def test_two_search_runs_with_one_seed_print_identical_json() -> None:
    """A seed fixes everything but the time a run took, which --no-timings leaves out."""
    args = ["simulate", "koikoi", "--bots", "search", "--rollouts", "8", "--rounds", "3"]
    args += ["--seed", "5", "--json", "--no-timings"]
    runs = [CliRunner().invoke(cli, args) for _ in range(2)]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    assert runs[0].output == runs[1].output
    assert "seconds" not in json.loads(runs[0].output)
