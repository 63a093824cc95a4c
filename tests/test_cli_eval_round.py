"""Issue 21, item 14: `eval` sees the round. --round (its month follows, as the engine counts
it) and --dealer / --not-dealer decide the conditions on the round; what eval is not told or
cannot know leaves an entry undecided, said and not counted; --field says when the field voids
the deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.engine.tables import CompiledRules
from rulekit.evaluate import Facts, eval_captured, eval_hand
from rulekit.lang import load_rules

TSUKIFUDA = "koikoi/house/tsukifuda"
PINES = ["10", "11", "12", "13"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def house(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.rk"
    path.write_text(text, encoding="utf-8")
    return str(path)


def names(entries: list[dict[str, Any]]) -> list[str]:
    return [e["name"] for e in entries]


def test_eval_counts_tsukifuda_for_the_four_pines_in_round_1() -> None:
    data = as_json("eval", TSUKIFUDA, "--captured", *PINES, "--round", "1")
    assert names(data["yaku"]) == ["tsukifuda"] and data["value"] == 4
    assert (data["round"], data["month"], data["undecided"]) == (1, "pine", [])
    code, out, _ = run("eval", TSUKIFUDA, "--captured", *PINES, "--round", "1")
    assert code == 0 and "round 1 (pine)" in out and "tsukifuda" in out and "value: 4" in out


@pytest.mark.parametrize(("round_no", "month", "counts"), [(2, "plum", False), (13, "pine", True)])
def test_eval_takes_the_month_from_the_round_as_the_engine_does(
    round_no: int, month: str, counts: bool
) -> None:
    """Round 13 is January again (the deck's first month after the last)."""
    data = as_json("eval", TSUKIFUDA, "--captured", *PINES, "--round", str(round_no))
    assert data["month"] == month
    assert names(data["yaku"]) == (["tsukifuda"] if counts else [])
    assert data["undecided"] == []


def test_eval_without_the_round_says_tsukifuda_depends_on_it() -> None:
    data = as_json("eval", TSUKIFUDA, "--captured", *PINES)
    assert data["yaku"] == [] and data["value"] == 0
    assert data["undecided"] == [
        {
            "name": "tsukifuda",
            "label": "Tsukifuda (the round's month)",
            "value": 4,
            "depends_on": ["the round (--round)"],
        }
    ]
    _, out, _ = run("eval", TSUKIFUDA, "--captured", *PINES)
    assert "undecided: Tsukifuda" in " ".join(out.split()) and "--round" in out
    # three pines make no month's four: decided without the round, nothing to say
    assert as_json("eval", TSUKIFUDA, "--captured", "10", "11", "12")["undecided"] == []


def test_eval_dealer_decides_a_teyaku_of_the_dealer(tmp_path: Path) -> None:
    rules = house(
        tmp_path,
        'extends "hachihachi/fudawiki"\nteyaku\n'
        '  lucky "Lucky dealer" 60: dealer and a month of 3\n',
    )
    hand = ["--hand", "10", "11", "12", "30", "31", "42", "80"]
    dealer = as_json("eval", rules, *hand, "--dealer")
    assert names(dealer["counted"]) == ["lucky"] and dealer["value"] == 60
    assert dealer["dealer"] is True
    other = as_json("eval", rules, *hand, "--not-dealer")
    assert names(other["counted"]) == ["triple"] and other["undecided"] == []
    untold = as_json("eval", rules, *hand)
    assert names(untold["counted"]) == ["triple"]
    assert untold["undecided"][0]["name"] == "lucky"
    assert untold["undecided"][0]["depends_on"] == [
        "whose cards they are (--dealer or --not-dealer)"
    ]


def test_eval_says_what_it_cannot_know_and_decides_what_it_can(tmp_path: Path) -> None:
    rules = house(
        tmp_path,
        'extends "hachihachi/fudawiki"\nyaku\n'
        '  late "Late lights" 3: lights >= 3 and round >= 10\n'
        '  koi "Koi ribbons" 2: continued and ribbons >= 1\n'
        '  calm "Calm" 1: not an opponent continued and plains >= 1\n',
    )
    pile = ["--captured", "10", "30", "21", "22"]  # two lights, a ribbon, a plain
    data = as_json("eval", rules, *pile)
    undecided = {e["name"]: e["depends_on"] for e in data["undecided"]}
    assert undecided == {
        "koi": ["the continues called this round"],
        "calm": ["the continues called this round"],
    }  # `late` is false whatever the round: two lights
    assert data["yaku"] == [] and data["value"] == 0
    late = as_json("eval", rules, "--captured", "10", "30", "80", "--round", "10")
    assert names(late["yaku"]) == ["late"]


def test_eval_all_eights_is_undecided_only_for_a_pile_of_88() -> None:
    compiled = CompiledRules(load_rules("hachihachi"))
    eighty_eight = compiled.index.parse_many(["10 30 20 40 50 21 31 41 12 13 22"])
    assert compiled.index.points(compiled.index.mask(eighty_eight)) == 88
    result = eval_captured(compiled, eighty_eight)
    assert result["undecided"][0]["name"] == "all_eights"
    assert result["undecided"][0]["depends_on"] == ["the other players' piles"]
    fewer = eval_captured(compiled, compiled.index.parse_many(["10 30 20"]))
    assert fewer["undecided"] == [] and fewer["yaku"] == []


def test_eval_of_a_library_caller_without_facts_keeps_its_values() -> None:
    """The values are those eval gave before: an undecided entry was, and is, not counted."""
    compiled = CompiledRules(load_rules("hachihachi/kirisame"))
    result = eval_hand(compiled, compiled.index.parse_many(["10 11 12 30 31 32 80"]))
    assert result["value"] == 72 and result["round"] is None
    told = eval_hand(
        compiled, compiled.index.parse_many(["10 11 12 30 31 32 80"]), facts=Facts(5, True)
    )
    assert told["value"] == 72 and (told["round"], told["month"]) == (5, "iris")


def test_eval_field_says_when_the_field_voids_the_deal() -> None:
    four_pines = as_json("eval", "koikoi", "--field", *PINES, "20", "21", "30", "31")
    assert four_pines["void"] is True
    assert as_json("eval", "koikoi", "--field", "10", "20", "30", "40")["void"] is False
    _, out, _ = run("eval", "koikoi", "--field", *PINES, "20", "21", "30", "31")
    assert "voids the deal" in out


def test_eval_field_with_a_condition_on_the_round_needs_the_round(tmp_path: Path) -> None:
    rules = house(
        tmp_path,
        'extends "koikoi/sloper"\nmultiplier\n  x3 if 2 of round month\n'
        "void if the field has a month of 4 or round = 12 and any of rainman\n",
    )
    code, _, err = run("eval", rules, "--field", "10", "11", "22")
    assert code == 2 and "the multiplier of this field depends on the round" in err
    assert "--round" in err
    assert as_json("eval", rules, "--field", "10", "11", "22", "--round", "1")["multiplier"] == 3
    assert as_json("eval", rules, "--field", "10", "11", "22", "--round", "2")["multiplier"] == 1
    code, _, err = run("eval", rules, "--field", "110", "22")
    assert code == 2 and "the void rule of this field depends on the round" in err
    assert as_json("eval", rules, "--field", "110", "22", "--round", "12")["void"] is True
    assert as_json("eval", rules, "--field", "110", "22", "--round", "11")["void"] is False
    # no month holds two of these, nor is a rain man on it: decided without the round
    assert as_json("eval", rules, "--field", "12", "22")["multiplier"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--field", "10", "--dealer"], "--dealer with --field: the field is nobody's"),
        (["--captured", *PINES, "--round", "0"], "0 is not in the range x>=1"),
    ],
)
def test_eval_refuses_round_options_that_cannot_be(args: list[str], message: str) -> None:
    code, _, err = run("eval", TSUKIFUDA, *args)
    assert code == 2 and message in err
