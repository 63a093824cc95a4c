"""Issue 22, item 4: the batch path of simulate, compare and tune sums the kernel's arrays
rather than one Python object per round, and prints exactly what it printed before: every
case's `--json --no-timings` output is compared byte for byte with the output of the code
before that change (tests/tallies_today/, written by the code of commit "tests: the JSON of
simulate, compare and tune today"). The scalar path's counting bots play by the bots' cheap
choices, and count the same choices.

To write the expected outputs again (only where a change of what a seed plays is intended,
said in its commit): `python -m tests.test_tallies_in_arrays --write`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli

TODAY = Path(__file__).parent / "tallies_today"
QUIET = ("--json", "--no-timings")

# (name, arguments): the batch engine (greedy and random bots, a few seeds, Hachi-Hachi at 3,
# 4 and 5 seats with their shares of a third, Koi-Koi and its house files, renamed entries, a
# comparison of a variant the batch engine plays with one it does not), and the scalar engine
# (the counting bots: rulewise, and hiki and the wild card of Sakura/Hawaii)
CASES: list[tuple[str, tuple[str, ...]]] = [
    ("simulate-hachihachi-greedy", ("simulate", "hachihachi", "--bots", "greedy",
        "--rounds", "3000", "--seed", "1", "--engine", "batch")),
    ("simulate-hachihachi-4-random", ("simulate", "hachihachi", "--seats", "4", "--bots",
        "random", "--rounds", "3000", "--seed", "2", "--engine", "batch")),
    ("simulate-fudawiki-5-random", ("simulate", "hachihachi/fudawiki", "--seats", "5",
        "--bots", "random,greedy", "--rounds", "2000", "--seed", "5", "--engine", "batch")),
    ("simulate-koikoi-mixed", ("simulate", "koikoi", "--bots", "greedy,random",
        "--rounds", "3000", "--seed", "3", "--engine", "batch")),
    ("simulate-viewings-rain-random", ("simulate", "koikoi/house/viewings-rain", "--bots",
        "random", "--rounds", "2000", "--seed", "-7", "--engine", "batch")),
    ("compare-hachihachi-kirisame-greedy", ("compare", "hachihachi", "hachihachi/kirisame",
        "--bots", "greedy", "--rounds", "2000", "--seed", "1", "--engine", "batch")),
    ("compare-hachihachi-4-random", ("compare", "hachihachi", "hachihachi/fudawiki",
        "hachihachi/house/kan-12", "--seats", "4", "--bots", "random", "--rounds", "2000",
        "--seed", "2", "--engine", "batch")),
    ("compare-fudawiki-5-greedy", ("compare", "hachihachi/fudawiki",
        "hachihachi/house/grand-field-both", "--seats", "5", "--bots", "greedy,random",
        "--rounds", "1200", "--seed", "6", "--engine", "batch")),
    ("compare-koikoi-house-random", ("compare", "koikoi", "koikoi/house/viewings-rain",
        "koikoi/house/teshi-kuttsuki", "--bots", "random", "--rounds", "2000", "--seed", "3",
        "--engine", "batch")),
    ("compare-koikoi-sloper-greedy", ("compare", "koikoi", "koikoi/sloper", "--bots",
        "greedy", "--rounds", "1500", "--seed", "4", "--engine", "batch")),
    ("compare-koikoi-seven-or-more-auto", ("compare", "koikoi",
        "koikoi/house/seven-or-more-doubled", "--bots", "greedy", "--rounds", "400",
        "--seed", "1", "--engine", "auto")),
    ("compare-hachihachi-kirisame-rulewise-scalar", ("compare", "hachihachi",
        "hachihachi/kirisame", "--rounds", "60", "--seed", "1", "--engine", "scalar")),
    ("compare-koikoi-rulewise-scalar", ("compare", "koikoi", "koikoi/house/viewings-rain",
        "--rounds", "80", "--seed", "2", "--engine", "scalar")),
    ("compare-sakura-hawaii-greedy-scalar", ("compare", "sakura", "sakura/hawaii", "--bots",
        "greedy,random", "--rounds", "200", "--seed", "3", "--engine", "scalar")),
    ("tune-hachihachi-triple-greedy", ("tune", "hachihachi", "--vary",
        "triple 10..30 step 10", "--bots", "greedy", "--rounds", "1000", "--seed", "1",
        "--engine", "batch")),
    ("tune-koikoi-instant-random", ("tune", "koikoi", "--vary", "instant_win 2..6 step 2",
        "--target", "by_yaku", "--aim", "max", "--bots", "random", "--rounds", "1000",
        "--seed", "2", "--engine", "batch")),
]  # fmt: skip


def printed(args: tuple[str, ...]) -> str:
    """What `rulekit ARGS --json --no-timings` prints (the kernel compiled beforehand)."""
    result = CliRunner().invoke(cli, [*args, *QUIET])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(("name", "args"), CASES, ids=[name for name, _ in CASES])
def test_the_json_is_todays_byte_for_byte(name: str, args: tuple[str, ...]) -> None:
    assert printed(args) == (TODAY / f"{name}.json").read_text()


def write() -> None:
    """Write every case's output as the expected one."""
    TODAY.mkdir(exist_ok=True)
    for name, args in CASES:
        (TODAY / f"{name}.json").write_text(printed(args))
        print(f"wrote {name}")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
