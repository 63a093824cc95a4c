"""Koi-Koi and Sakura on the same engine: their tables, values and mechanics, and an engine that
knows no game by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekit.cli import cli
from rulekit.engine.round import Round
from rulekit.errors import RuleErrors
from rulekit.evaluate import eval_captured, eval_field
from rulekit.lang import load_rules
from rulekit.lang.checks import deck_totals
from rulekit.sim.simulate import simulate
from tests.conftest import compiled, rules

ENGINE = Path(__file__).parent.parent / "rulekit" / "engine"


GAMES = (
    "koikoi", "koi-koi", "sakura", "hachi", "fudawiki", "kirisame", "sloper",
    "go-stop", "gostop", "matgo", "hana-awase", "hanaawase", "bakappana", "mushi", "min-hwatu",
    "minhwatu", "tensho", "dandruff", "sanju-sen-me",
)  # fmt: skip


def test_no_game_name_appears_in_the_engine() -> None:
    """Neither engine (the scalar one nor the batch kernel) names a game or its variations."""
    for path in [*ENGINE.rglob("*.py"), *(ENGINE.parent / "batch").rglob("*.py")]:
        text = path.read_text(encoding="utf-8").lower()
        for name in GAMES:
            assert name not in text, f"{path.name} names the game '{name}'"


def koi(cards: str) -> dict[str, int]:
    c = compiled("koikoi/sloper")
    result = eval_captured(c, c.index.parse_many([cards]))
    return {e["name"]: e["value"] for e in result["yaku"]}


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("10 30 80", {"dry_three": 8}),
        ("10 30 80 110", {"dry_three": 8, "rainy_four": 2}),
        ("10 30 80 120", {"dry_three": 8, "dry_four": 4}),
        ("10 30 80 110 120", {"dry_three": 8, "dry_four": 4, "five_lights": 4}),  # 8 + 4 + 4
        ("10 30 110", {}),  # the rain man makes no dry three
        (
            "11 21 31 61 91 101",
            {"red_ribbons": 3, "blue_ribbons": 3, "both_ribbons": 3, "five_ribbons": 2},
        ),
        ("90 80", {"moon_viewing": 5}),
        ("90 30", {"cherry_viewing": 5}),
        ("70 100 60", {"boar_deer_butterflies": 5}),
        ("12 13 22 23 32 33 42 43 52 53 62 63", {"ten_plains": 3}),  # 1, +1 per further plain
    ],
)
def test_koikoi_yaku_add_up_and_lights_are_cumulative(cards: str, expected: dict[str, int]) -> None:
    assert koi(cards) == expected


def test_the_sake_cup_is_an_animal_and_a_plain() -> None:
    # four animals and nine plains with the sake cup: both Five animals and Ten plains
    assert koi("20 40 50 60 90 12 13 22 23 32 33 42 43 52") == {"five_animals": 1, "ten_plains": 1}


def test_koikoi_field_lights_raise_the_multiplier_by_one_each() -> None:
    c = compiled("koikoi/sloper")
    assert eval_field(c, c.index.parse_many(["12 22"]))["multiplier"] == 1
    assert eval_field(c, c.index.parse_many(["10 22"]))["multiplier"] == 2
    assert eval_field(c, c.index.parse_many(["10 30 110"]))["multiplier"] == 4


def test_sakura_values_total_240_and_the_check_catches_19_plains(tmp_path: Path) -> None:
    totals = deck_totals(rules("sakura/hawaii"))
    assert (totals["lights"], totals["ribbons"], totals["animals"], totals["plains"]) == (
        4,
        11,
        10,
        23,
    )
    assert totals["points"] == 240
    r = rules("sakura/hawaii")
    assert r.card(110).classes == ("animal",) and r.card(121).classes == ("ribbon",)
    path = tmp_path / "nineteen.rk"
    path.write_text('extends "sakura/hawaii"\nexpect plains 19\n', encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    assert "the deck has 23 plains, but this file expects 19" in info.value.render()


def test_describe_sakura_shows_its_values_and_yaku() -> None:
    out = CliRunner().invoke(cli, ["describe", "sakura", "--format", "markdown"]).stdout
    assert (
        "48 cards: 4 lights at 20, 10 animals at 5, 11 ribbons at 10, 23 plains at 0;"
        " 240 points in all." in out
    )
    assert "| 110 | rainman | Rain man | 11 | animal | 5 |  |" in out
    assert "| 121 | paulownia_yellow | Yellow paulownia plain | 12 | ribbon | 10 |  |" in out
    for row in (
        "| i | I (い) | 50 | all of curtain, moon, sake |",
        "| chi | Chi (ち) | 50 | all of boar, geese, deer |",
    ):
        assert row in out
    assert "The lightning is wild" in out and "Hiki:" in out
    assert "At 4 players: pairs, partners opposite." in out


def test_sakura_deal_table_by_player_count() -> None:
    sizes = {
        n: (rules("sakura/hawaii").deal_for(n).hand, rules("sakura/hawaii").deal_for(n).field)
        for n in range(2, 8)
    }
    assert sizes == {2: (8, 8), 3: (7, 6), 4: (5, 8), 5: (4, 8), 6: (3, 12), 7: (3, 6)}


def test_sakura_teams() -> None:
    r = rules("sakura/hawaii")
    assert r.teams_for(4) == [[0, 2], [1, 3]]  # pairs sit opposite
    assert r.teams_for(6) == [[0, 2, 4], [1, 3, 5]]  # threes alternate
    assert r.teams_for(5) is None


def test_sakura_team_yaku_cost_the_opposing_team_shared() -> None:
    c = compiled("sakura/hawaii")
    for seed in range(200):
        rnd = Round(c, 4, 0, seed=seed)
        while not rnd.is_terminal:
            rnd.apply(rnd.legal_actions()[0])
        made = rnd.result().yaku
        if not made:
            continue
        maker, names = next(iter(made.items()))
        charged = [
            (p.payer, p.amount) for p in rnd.ledger if p.reason == "yaku" and p.detail == names[0]
        ]
        opponents = [s for s in range(4) if s % 2 != maker % 2]
        assert sorted(charged) == sorted((s, 25) for s in opponents)
        return
    pytest.fail("no yaku in 200 seeded rounds")


@pytest.mark.parametrize(("name", "seats"), [("koikoi", None), ("sakura", "4")])
def test_simulate_koikoi_and_sakura(name: str, seats: str | None) -> None:
    args = ["simulate", name, "--rounds", "300", "--bots", "greedy,random", "--json"]
    if seats:
        args += ["--seats", seats]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    assert '"rounds": 300' in result.stdout


def test_koikoi_drawn_rounds_keep_the_dealer_and_stoppers_deal() -> None:
    report = simulate(rules("koikoi/sloper"), rounds=400, seed=2, bots=["greedy", "random"])
    assert set(report["ended_by"]) <= {"yaku", "draw", "instant"}
    assert report["ended_by"]["yaku"] > 300


def test_the_engine_names_no_card_either() -> None:
    """Card values and names come from the rule files: no card id is written in the engine."""
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(crane|rainman|lightning|phoenix|sake)\b", text), path.name
