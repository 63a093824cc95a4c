"""`show scores in kan` (issue 23, item 8): a file that asks for it has its players' scores
and totals shown in the unit (BGA's kan-only table score): the terminal play screen, the
browser's, and `simulate --games`."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit import ir
from rulekit.describe import scoring_paragraphs
from rulekit.errors import RuleErrors
from rulekit.lang.loader import load_rules_text
from rulekit.output import score_text
from rulekit.play.screen import scores_line
from rulekit.sim.simulate import simulate

KAN = 'extends "hachihachi/fudawiki"\nshow scores in kan\n'  # unit kan = 10 points


def load(text: str) -> ir.Ruleset:
    return load_rules_text(text, "house.rk", Path(__file__))


def test_show_scores_in_kan_is_read_and_described() -> None:
    rules = load(KAN)
    assert rules.unit == ir.Unit(name="kan", points=10, shown=True)
    assert "Scores are shown in kan." in scoring_paragraphs(rules)
    assert rules.unit is not None and score_text(25, rules.unit) == "2.5 kan"
    assert score_text(25, load('extends "hachihachi/fudawiki"\n').unit) == "25"


def test_show_scores_in_an_unknown_unit_is_a_located_error() -> None:
    with pytest.raises(RuleErrors) as e:
        load('extends "hachihachi/fudawiki"\nshow scores in kanz\n')
    (error,) = e.value.errors
    assert error.message == "unknown unit 'kanz'" and error.hint == "did you mean 'kan'?"
    assert error.loc is not None and (error.loc.line, error.loc.col) == (2, 16)


def test_show_scores_in_a_unit_no_file_declares_is_an_error() -> None:
    with pytest.raises(RuleErrors, match="'show scores in kan': no unit is declared"):
        load('extends "koikoi/sloper"\nshow scores in kan\n')


def test_the_play_screens_scores_line_shows_kan() -> None:
    unit = load(KAN).unit
    assert scores_line(["Alice", "Bob"], [30, -30], unit).plain == (
        "scores: Alice +3 kan   Bob -3 kan"
    )
    assert scores_line(["Alice", "Bob"], [30, -30]).plain == "scores: Alice +30   Bob -30"


def test_simulate_games_reports_the_unit_its_scores_are_shown_in() -> None:
    shown = simulate(load(KAN), seats=3, bots=["greedy"], seed=1, games=2, engine="scalar")
    assert shown["score_unit"] == {"name": "kan", "points": 10}
    plain = simulate(
        load('extends "hachihachi/fudawiki"\n'), seats=3, bots=["greedy"], seed=1, games=2,
        engine="scalar",
    )  # fmt: skip
    assert "score_unit" not in plain and plain["seats"] == shown["seats"]


def test_the_browser_game_shows_scores_in_kan(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="the API tests need httpx")
    from starlette.testclient import TestClient

    from rulekit.web.app import create_app

    (tmp_path / "kan.rk").write_text(KAN)
    c = TestClient(create_app([tmp_path], allowed_hosts=("testserver",)))
    r = c.post(
        "/api/games", json={"rules": str(tmp_path / "kan.rk"), "bots": ["greedy"], "seed": 5}
    )
    assert r.status_code == 200, r.text
    assert all(s.endswith(" kan") for s in r.json()["scores"])
