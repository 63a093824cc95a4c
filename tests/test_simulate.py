"""`rulekit simulate`: the report, its keys, zero-sum means, and --jobs giving the same totals."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.errors import UsageError
from rulekit.sim.simulate import simulate
from tests.conftest import rules


def run_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_simulate_json_has_the_documented_keys_and_zero_sum_means() -> None:
    data = run_json("hachihachi", "--rounds", "400", "--seed", "1")
    assert {"rounds", "seconds", "rounds_per_second", "seats", "teyaku", "yaku"} <= set(data)
    assert data["rounds"] == 400
    seats = data["seats"]
    assert isinstance(seats, list) and len(seats) == 3
    assert {"mean", "ci95", "wins"} <= set(seats[0])
    assert sum(s["total"] for s in seats) == 0
    assert abs(sum(s["mean"] for s in seats)) < 1e-9
    assert isinstance(data["teyaku"], dict) and isinstance(data["yaku"], dict)


def test_jobs_give_the_same_totals_as_one_job() -> None:
    one = simulate(rules("hachihachi"), seats=4, rounds=600, seed=3, jobs=1)
    two = simulate(rules("hachihachi"), seats=4, rounds=600, seed=3, jobs=2)
    for key in ("rounds", "voids", "teyaku", "yaku", "ended_by", "turns_per_round"):
        assert one[key] == two[key]
    assert [(s["total"], s["wins"], s["ci95"]) for s in one["seats"]] == [
        (s["total"], s["wins"], s["ci95"]) for s in two["seats"]
    ]


def test_the_same_seed_gives_the_same_report_and_another_seed_another() -> None:
    a = simulate(rules("hachihachi/kirisame"), rounds=200, seed=9)
    b = simulate(rules("hachihachi/kirisame"), rounds=200, seed=9)
    c = simulate(rules("hachihachi/kirisame"), rounds=200, seed=10)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("seconds", "rounds_per_second")}  # noqa: E731
    assert strip(a) == strip(b) != strip(c)


def test_games_play_the_files_number_of_rounds() -> None:
    data = run_json("hachihachi/kirisame", "--games", "3", "--bots", "greedy,random")
    assert data["games"] == 3 and data["rounds"] == 36
    assert [s["bot"] for s in data["seats"]] == ["greedy", "random", "greedy"]  # type: ignore[index]


def test_greedy_beats_random() -> None:
    data = simulate(rules("hachihachi"), bots=["greedy", "random", "random"], rounds=1500, seed=4)
    greedy = data["seats"][0]
    assert greedy["mean"] - greedy["ci95"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "gredy"], "no bot named 'gredy'"),
        (["--seats", "9"], "seats 3 to 6 players, not 9"),
        (["--rounds", "0"], "at least 1"),
        (["--rounds", "5", "--games", "5"], "not both"),
    ],
)
def test_bad_arguments_get_a_clear_error(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", "hachihachi", *args])
    assert result.exit_code == 2  # a usage error
    assert message in result.stderr and "Traceback" not in result.stderr


def test_an_unknown_bot_suggests_the_close_name() -> None:
    with pytest.raises(UsageError) as info:
        simulate(rules("hachihachi"), bots=["gredy"], rounds=1)
    assert info.value.hint == "did you mean 'greedy'?"


def test_text_report() -> None:
    result = CliRunner().invoke(cli, ["simulate", "hachihachi", "--rounds", "200"])
    assert result.exit_code == 0
    assert "mean net / round" in result.stdout and "rounds/s" in result.stdout
