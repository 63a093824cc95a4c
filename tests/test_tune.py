"""`rulekit tune`: one named number of a rule file varied, every candidate played on the same
deals as the file (common random numbers), ranked by a figure of compare; spec errors located
in the argument, exit 2, never a traceback. Small rounds: these tests are about the mechanics,
not the findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.cli import cli
from rulekit.sim.tune import (
    MAX_CANDIDATES,
    Knob,
    SpecError,
    candidate,
    knobs,
    parse_spec,
    resolve,
    short_names,
)
from tests.conftest import rules

TRIPLE = ["tune", "hachihachi/fudawiki", "--vary", "triple 5..15 step 5", "--rounds", "60"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_a_bundled_variant_tuned_on_common_random_numbers() -> None:
    code, out = run(*TRIPLE, "--seed", "3", "--json", "--no-timings")
    assert code == 0, out
    result = json.loads(out)
    assert "seconds" not in result
    assert [c["value"] for c in result["candidates"]] == [5, 10, 15]
    assert result["vary"] == {
        "name": "teyaku.triple",
        "what": "teyaku Triple (sanbon)",
        "file_value": 10,
        "values": [5, 10, 15],
    }
    own = result["candidates"][1]
    # The candidate equal to the file's own value is the file: exactly 0 +- 0, same figure.
    assert own["against_file"] == {"mean": 0.0, "ci95": 0.0, "significant": False}
    assert own["changes"] == []
    assert own["figure"] == result["file"]
    assert result["candidates"][0]["changes"] == ["triple value: 10 -> 5"]
    assert result["target"] == {
        "figure": "fairness",
        "label": "fairness (best - worst seat)",
        "aim": "min",
    }
    means = {c["value"]: c["figure"]["mean"] for c in result["candidates"]}
    assert means[result["best"]] == min(means.values())
    assert result["runner_up"]["value"] != result["best"]
    assert result["verdict"].startswith(f"Best: teyaku.triple = {result['best']}")


def test_the_same_seed_gives_the_same_json() -> None:
    args = (*TRIPLE, "--seed", "5", "--json", "--no-timings")
    first, second = run(*args), run(*args)
    assert first[0] == 0 and first == second
    other = run(*TRIPLE, "--seed", "6", "--json", "--no-timings")
    assert json.loads(other[1])["file"] != json.loads(first[1])["file"]


def test_a_house_rule_award_moves_the_dealers_net_exactly() -> None:
    """Oya-ken pays the dealer 6 from the other player when nobody won: on the same deals,
    played by bots that do not read the award (greedy), the award at 0 and at 12 move the
    dealer's net by the same amount either way."""
    code, out = run(
        "tune", "rules/koikoi/house/oya-ken.rk", "--vary", "oya_ken 0..12 step 6",
        "--target", "position 0", "--aim", "max", "--rounds", "200", "--bots", "greedy",
        "--json",
    )  # fmt: skip
    assert code == 0, out
    result = json.loads(out)
    low, own, high = (c["against_file"]["mean"] for c in result["candidates"])
    assert own == 0.0
    assert low < 0 < high
    assert high == pytest.approx(-low)
    assert result["best"] == 12
    assert result["vary"]["name"] == "scoring.oya_ken"


def test_a_house_rule_unit_rescales_every_value() -> None:
    kan12 = rules("hachihachi/house/kan-12")
    knob = resolve(kan12, parse_spec("kan 6,12,24"))
    doubled = candidate(kan12, knob, 24, parse_spec("kan 6,12,24"))
    assert doubled.unit is not None and doubled.unit.points == 24
    assert doubled.teyaku is not None and kan12.teyaku is not None
    assert doubled.teyaku.entry("triple").value == 2 * kan12.teyaku.entry("triple").value
    assert doubled.fold.fee == 2 * kan12.fold.fee
    assert doubled.count.par == kan12.count.par  # not a value in kan
    assert candidate(kan12, knob, 12, parse_spec("kan 6,12,24")) == kan12


def test_a_combined_entry_follows_its_part() -> None:
    kirisame = rules("hachihachi/kirisame")
    knob = resolve(kirisame, parse_spec("teyaku.three 30"))
    changed = candidate(kirisame, knob, 30, parse_spec("teyaku.three 30"))
    assert changed.teyaku is not None and kirisame.teyaku is not None
    before, after = kirisame.teyaku.entry("red_three"), changed.teyaku.entry("red_three")
    three = kirisame.teyaku.entry("three").value
    assert after.value == before.value - three + 30


def test_the_plot_is_written(tmp_path: Path) -> None:
    plot = tmp_path / "tune.png"
    code, out = run(*TRIPLE, "--plot", str(plot))
    assert code == 0, out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {plot}" in out.replace("\n", " ").replace("wrote  ", "wrote ")
    assert "Best: teyaku.triple" in out


def test_a_wrong_plot_path_is_refused_before_the_run(tmp_path: Path) -> None:
    code, out = run(*TRIPLE, "--plot", str(tmp_path / "tune.jpg"))
    assert code == 2 and "PNG" in out and "Traceback" not in out
    assert not list(tmp_path.iterdir())


def test_list_shows_what_can_be_varied() -> None:
    code, out = run("tune", "hachihachi/fudawiki", "--list", "--json")
    assert code == 0
    found = {k["name"]: k for k in json.loads(out)["numbers"]}
    assert found["triple"]["value"] == 10 and found["triple"]["full_name"] == "teyaku.triple"
    assert {"par", "kan", "fee", "x4"} <= set(found)
    code, out = run("tune", "hachihachi/kirisame", "--list")
    assert code == 0 and "red_three" in out and "fee" not in out  # kirisame does not fold


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--vary", "tripel 10..40 step 5"], "did you mean 'triple'?"),
        (["--vary", "triple 40..10"], "the range 40..10 is empty"),
        (["--vary", "triple 10..40 step 0"], "step 0: a step is a whole number of 1 or more"),
        (["--vary", "triple 1..1000"], f"1000 candidates: at most {MAX_CANDIDATES}"),
        (["--vary", "triple 10..x"], "the values are not LO..HI [step S] or A,B,C"),
        (["--vary", "triple"], "no values for 'triple'"),
        (["--vary", "triple 10,10"], "10 is listed twice"),
        (["--vary", "kan 0,10"], "points to the kan is at least 1, not 0"),
        (["--vary", "kan 10,7"], "unit.kan = 7 is not a valid rule"),
        (["--vary", "triple 10,20", "--target", "fairnes"], "did you mean 'fairness'?"),
        (["--vary", "triple 10,20", "--target", "turns"], "say what is better"),
        (["--vary", "triple 10,20", "--target", "turns", "--aim", "mx"], "did you mean 'max'?"),
        ([], "say what to vary"),
    ],
)
def test_a_bad_spec_is_a_located_usage_error(args: list[str], said: str) -> None:
    code, out = run("tune", "hachihachi/fudawiki", *args)
    assert code == 2, out
    assert said in out
    assert "Traceback" not in out


def test_the_caret_is_under_the_wrong_part() -> None:
    with pytest.raises(SpecError) as err:
        parse_spec("triple 10..40 step 0")
    lines = err.value.render().splitlines()
    assert lines[1].strip() == "triple 10..40 step 0"
    assert lines[2].index("^") == lines[1].index("0", len("    triple 10..40 step "))


def test_a_name_in_two_tables_must_say_which() -> None:
    def knob(name: str) -> Knob:
        return Knob(name, name, 1, None, lambda r, v: r)

    names = short_names([knob("teyaku.red"), knob("yaku.red"), knob("yaku.blue")])
    assert "red" not in names and {"teyaku.red", "yaku.red", "blue"} <= set(names)


def test_every_knob_of_every_house_file_sets_a_valid_ruleset() -> None:
    """Each knob at its own value gives back the file itself: the setters change nothing
    else."""
    for name in ("koikoi/house/seven-or-more-doubled", "hachihachi/house/kan-12", "sakura"):
        r = rules(name)
        for k in knobs(r):
            spec = parse_spec(f"{k.name} {k.value}")
            assert candidate(r, k, k.value, spec) == r, (name, k.name)


@settings(max_examples=60, deadline=None)
@given(
    lo=st.integers(-100, 100),
    span=st.integers(0, 300),
    step=st.integers(1, 40),
)
def test_a_range_spec_is_the_range(lo: int, span: int, step: int) -> None:
    text = f"triple {lo}..{lo + span} step {step}"
    expected = list(range(lo, lo + span + 1, step))
    if len(expected) > MAX_CANDIDATES:
        with pytest.raises(SpecError):
            parse_spec(text)
    else:
        assert list(parse_spec(text).values) == expected


def test_a_number_the_table_never_uses_is_said_plainly() -> None:
    """Three seated, three play: nobody folds, so the fold fee cannot move anything."""
    code, out = run(
        "tune", "hachihachi", "--vary", "fee 0,10,20", "--rounds", "40", "--json"
    )  # fmt: skip
    assert code == 0, out
    result = json.loads(out)
    assert all(c["against_file"]["ci95"] == 0 for c in result["candidates"])
    assert result["verdict"].startswith("Every candidate has exactly the fairness")
    assert result["best"] == 10  # a tie goes to the file's own value


@pytest.mark.parametrize(
    "text", ["triple 1," + "9" * 5000, "triple " + "9" * 4301 + "..3", "fee -1000001..0"]
)
def test_a_vary_value_beyond_the_bound_is_a_located_usage_error(text: str) -> None:
    """Issue 21, item 8: a 4,301-digit number ended in "internal error"."""
    with pytest.raises(SpecError) as info:
        parse_spec(text)
    rendered = info.value.render()
    assert "a value is at most 1,000,000 either way" in rendered
    assert max(len(line) for line in rendered.splitlines()) < 200
