"""The batch engine's pieces and its place in simulate: the kernel's chance is the scalar
engine's bit for bit (SHA-512, the deal's permutation, a bot's draws), the engine says why it
does not apply, and simulate and the CLI use it where it applies and say so."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.agents.chance import Chance
from rulekit.batch import engine as batch
from rulekit.batch.chance import below, permutation, sha512_limbs, write_int
from rulekit.cli import cli
from rulekit.engine.deal import deal_order
from rulekit.engine.tables import CompiledRules
from rulekit.errors import UsageError
from rulekit.lang import load_rules
from rulekit.sim.simulate import choose_engine, simulate


def limbs(digest: bytes) -> list[int]:
    x = int.from_bytes(digest, "big")
    return [(x >> (32 * i)) & 0xFFFFFFFF for i in range(16)]


def ascii_array(text: bytes) -> np.ndarray:
    buf = np.zeros(128, dtype=np.int64)
    buf[: len(text)] = list(text)
    return buf


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=111))
def test_sha512_is_hashlib(text: bytes) -> None:
    out = np.zeros(16, dtype=np.int64)
    sha512_limbs(ascii_array(text), len(text), out, np.zeros(80, dtype=np.int64))
    assert out.tolist() == limbs(hashlib.sha512(text).digest())


@settings(max_examples=60, deadline=None)
@given(st.integers(-(10**12), 10**12), st.integers(0, 10**6), st.sampled_from([48, 49, 33, 7]))
def test_a_deal_is_deal_order(seed: int, number: int, n: int) -> None:
    text = f"{seed}:{number}".encode()
    x = np.array(limbs(hashlib.sha512(text).digest()), dtype=np.int64)
    out = np.zeros(64, dtype=np.int64)
    permutation(x, n, out)
    assert out[:n].tolist() == deal_order(text.decode(), n)


@settings(max_examples=30, deadline=None)
@given(
    st.text(alphabet="0123456789:-.", min_size=1, max_size=30),
    st.lists(st.integers(1, 60), max_size=200),
)
def test_a_bots_draws_are_chance(seed: str, ns: list[int]) -> None:
    """Drawn past the first block too (the refill: the hash of the block)."""
    chance = Chance(seed)
    x = np.zeros(32, dtype=np.int64)
    sha512_limbs(ascii_array(seed.encode()), len(seed), x[:16], np.zeros(80, dtype=np.int64))
    x[16:] = x[:16]
    scratch = np.zeros(144, dtype=np.int64)
    for n in [*ns, *ns, *ns]:
        assert below(x, scratch, n) == chance.below(n)


@pytest.mark.parametrize("value", [0, 7, -1, 10**15, -(10**17)])
def test_write_int_is_str(value: int) -> None:
    buf = np.zeros(32, dtype=np.int64)
    at = write_int(buf, 0, value)
    assert bytes(buf[:at].astype(np.uint8)) == str(value).encode()


def test_why_not_names_what_the_kernel_does_not_play() -> None:
    fudawiki = CompiledRules(load_rules("hachihachi/fudawiki"))
    assert batch.why_not(fudawiki, 3, ["random", "greedy", "random"]) is None
    assert batch.why_not(fudawiki, 3, ["rulewise", "random", "greedy"]) is None
    assert batch.why_not(fudawiki, 3, ["rulewise", "strong", "search"]) == (
        "it plays the random, greedy and rulewise bots only, not search, strong"
    )
    assert batch.why_not(fudawiki, 3, ["random"] * 3, seed=1 << 70) == (
        "the seed does not fit 64 bits"
    )
    sakura = CompiledRules(load_rules("sakura/hawaii"))  # (points, teams: the kernel's now)
    assert batch.why_not(sakura, 4, ["random"] * 4) is None


def test_choose_engine() -> None:
    rules = load_rules("hachihachi/fudawiki")
    bots = ("random",) * 3
    assert choose_engine("scalar", rules, 3, bots, 1, False, None, 10) == ("scalar", None)
    assert choose_engine("batch", rules, 3, bots, 1, False, None, 10) == ("batch", None)
    # whole games too (tests/test_batch_games.py); not --record, which keeps every move
    assert choose_engine("batch", rules, 3, bots, 1, True, None, 10) == ("batch", None)
    with pytest.raises(UsageError, match="cannot play this: --record writes every round"):
        choose_engine("batch", rules, 3, bots, 1, True, Path("out"), 10)
    with pytest.raises(UsageError, match="no engine named 'fast'"):
        choose_engine("fast", rules, 3, bots, 1, False, None, 10)


def test_simulate_says_which_engine_played() -> None:
    rules = load_rules("hachihachi/fudawiki")
    out = simulate(rules, seats=3, bots=["greedy"], seed=2, rounds=50, engine="batch")
    assert out["engine"] == "batch" and out["engine_note"] is None
    out = simulate(rules, seats=3, bots=["greedy"], seed=2, rounds=50, engine="scalar")
    assert out["engine"] == "scalar" and out["engine_note"] is None
    out = simulate(rules, seats=3, bots=["rulewise"], seed=2, rounds=50, engine="batch")
    assert out["engine"] == "batch" and out["engine_note"] is None
    out = simulate(rules, seats=3, bots=["greedy", "search"], seed=2, rounds=2)
    assert out["engine"] == "scalar" and out["engine_note"].startswith("it plays the random")


def test_cli_engine_option() -> None:
    runner = CliRunner()
    args = ["simulate", "hachihachi", "--bots", "random", "--rounds", "40", "--seed", "3"]
    fast = runner.invoke(cli, [*args, "--engine", "batch"])
    assert fast.exit_code == 0, fast.output
    assert "played by the batch engine" in fast.output
    slow = runner.invoke(cli, [*args, "--engine", "scalar", "--json", "--no-timings"])
    fast = runner.invoke(cli, [*args, "--engine", "batch", "--json", "--no-timings"])
    a, b = json.loads(slow.output), json.loads(fast.output)
    assert (a.pop("engine"), b.pop("engine")) == ("scalar", "batch")
    assert a == b
    refused = runner.invoke(cli, ["simulate", "sakura", "--bots", "strong", "--engine", "batch"])
    assert refused.exit_code == 2
    assert "the batch engine cannot play this: it plays the random, greedy" in refused.output


def test_compare_with_the_batch_engine_is_compare_with_the_scalar() -> None:
    """The same report, figure for figure (the rounds are the same), and it says so."""
    from rulekit.sim.compare import compare

    a, b = load_rules("hachihachi/fudawiki"), load_rules("hachihachi/kirisame")
    reports = []
    for engine in ("scalar", "batch"):
        out = compare(
            [a, b], ["a", "b"], rounds=120, seats=3, bots=["greedy", "random"], seed=3,
            engine=engine,
        )  # fmt: skip
        assert [v["engine"] for v in out["variants"]] == [engine, engine]
        for v in out["variants"]:
            del v["engine"], v["engine_note"]
        del out["seconds"]
        reports.append(out)
    assert reports[0] == reports[1]


def test_cli_compare_says_the_batch_engine_played() -> None:
    out = CliRunner().invoke(
        cli, ["compare", "hachihachi", "hachihachi/kirisame", "--bots", "random", "--rounds", "30",
              "--engine", "batch"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "played by the batch engine (the same rounds): hachihachi, hachihachi/kirisame" in (
        out.output
    )


def test_an_edited_module_compiles_the_kernel_again(tmp_path: Path) -> None:
    """rulekit.batch.cache_folder: any batch module's edit names another cache folder (numba
    keys each function's cache on its own file only); the same sources, the same folder."""
    from rulekit.batch import cache_folder

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 1\n")
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = cache_folder([a, b], env)
    assert first == cache_folder([b, a], env)
    assert first.parent == tmp_path / "cache"
    b.write_text("y = 2\n")
    assert cache_folder([a, b], env) != first
    assert cache_folder([a, b], {"XDG_CACHE_HOME": "/x"}).parent == Path("/x/rulekit")


def test_the_batch_engine_over_processes_gives_one_process_totals() -> None:
    """--jobs 2 with the batch engine: each process plays its chunks, the same report."""
    rules = load_rules("hachihachi/wikipedia-draft")
    runs = [
        simulate(rules, seats=4, bots=["random", "greedy"], seed=9, rounds=600, engine=e, jobs=j)
        for e, j in (("batch", 1), ("batch", 2), ("scalar", 1))
    ]
    for run in runs:
        for key in ("seconds", "rounds_per_second", "engine", "engine_note"):
            del run[key]
    assert runs[0] == runs[1] == runs[2]


def test_a_copy_of_rulekit_elsewhere_finds_the_same_compiled_kernel(tmp_path: Path) -> None:
    """rulekit.batch.locating: the kernel's cached code is filed by the modules' place inside
    rulekit, so the same sources installed elsewhere (a new virtualenv, a CI clone) use the
    compile already made instead of compiling for a minute again."""
    import shutil
    import subprocess
    import sys

    import rulekit
    import rulekit.batch.kernel as K

    here = Path(rulekit.__file__).parent
    copy = tmp_path / "elsewhere"
    shutil.copytree(here, copy / "rulekit", ignore=shutil.ignore_patterns("__pycache__"))
    ask = "import rulekit.batch.kernel as K; print(K.play_deals._cache._cache_path)"
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = subprocess.run(
        [sys.executable, "-c", ask], env=env, capture_output=True, text=True, check=True
    )
    ours = K.play_deals._cache._cache_path
    assert Path(ours).name == "rulekit_batch_kernel"
    assert out.stdout.strip() == ours
