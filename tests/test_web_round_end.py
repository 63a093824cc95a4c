"""The round's and the game's end on the page (issue 24, item 3): the final piles stay, each
player's count against the par, each yaku with its value, the payments in words with their
factors, a yaku called on and lost said as forfeited, and the game's rounds in a table."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit.engine import actions as A
from rulekit.engine.round import Round
from rulekit.engine.view import PlayerView
from rulekit.web.app import create_app
from rulekit.web.games import _card
from rulekit.web.round_end import round_end
from tests.conftest import compiled


def client() -> TestClient:
    return TestClient(create_app(allowed_hosts=("testserver",)))


def play_to_round_end(c: TestClient, rules: str, seed: int) -> dict[str, Any]:
    """A new game played by the first offered move until its first round ends."""
    state: dict[str, Any] = c.post(
        "/api/games", json={"rules": rules, "bots": ["greedy"], "seed": seed}
    ).json()
    for _ in range(300):
        if state["waiting"] or state["game_over"]:
            return state
        move = state["table"]["moves"][0]["action"]
        state = c.post(f"/api/games/{state['id']}/move", json={"action": move}).json()
    raise AssertionError("the round did not end")


def test_the_final_piles_stay_with_each_yaku_valued() -> None:
    state = play_to_round_end(client(), "koikoi", 7)
    last = state["last_round"]
    assert state["table"] is None  # between rounds: no live table...
    piles = [p["cards"] for p in last["players"]]
    assert sum(len(p) for p in piles) > 0  # ...but the piles are still shown
    made = [e for p in last["players"] for e in p["yaku"]]
    assert made and all(isinstance(e["value"], int) and e["value"] > 0 for e in made)
    for line in last["explained"]:
        assert " for " in line and ("pay " in line or "pays " in line)
    assert all(p["points"] is None for p in last["players"])  # Koi-Koi counts no card points


def test_a_par_count_says_each_players_points_against_the_par() -> None:
    state = play_to_round_end(client(), "hachihachi", 3)
    players = state["last_round"]["players"]
    assert {p["par"] for p in players} == {88}
    assert all(p["over_par"] == p["points"] - 88 for p in players)
    assert sum(p["points"] for p in players) == 264  # every card counted, 3 x 88


def random_rounds(name: str, deals: int, go_on: bool = False) -> Iterator[Round]:
    """Two-seat rounds of `name` played at random (always continuing, with `go_on`), ended."""
    c = compiled(name)
    for seed in range(deals):
        rnd = Round(c, 2, 0, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_terminal:
            legal = rnd.legal_actions()
            rnd.apply(A.CONTINUE if go_on and A.CONTINUE in legal else rng.choice(legal))
        yield rnd


def end_of(rnd: Round) -> dict[str, Any]:
    """The page's round end of a finished round, seen from seat 0."""
    view = PlayerView(rnd, 0)
    rules = view.compiled.rules
    return round_end(view, rnd.result(), ["You", "Alice"], lambda i: _card(rules, i))


def test_a_yaku_called_on_and_lost_in_a_drawn_round_is_said_forfeited() -> None:
    for rnd in random_rounds("koikoi", 400, go_on=True):
        result = rnd.result()
        view = PlayerView(rnd, 0)
        if result.winner is None and any(view.continues) and any(view.yaku_made.values()):
            end = end_of(rnd)
            assert end["forfeits"], end
            line = end["forfeits"][0]
            assert "called koi-koi with" in line and "the round was drawn" in line
            assert "forfeited" in line
            return
    raise AssertionError("no drawn round after a koi-koi in 400 deals")


def test_a_factor_is_said_with_the_payment() -> None:
    for rnd in random_rounds("koikoi/house/seven-or-more-doubled", 300):
        result = rnd.result()
        doubled = [p for p in result.ledger if p.multiplier != 1]
        if doubled:
            end = end_of(rnd)
            p = doubled[0]
            assert any(f": {p.base} x{p.multiplier}" in line for line in end["explained"])
            return
    raise AssertionError("no multiplied payment in 300 deals")


def test_the_game_keeps_every_rounds_result_and_who_called() -> None:
    c = client()
    state = play_to_round_end(c, "koikoi", 7)
    assert len(state["history"]) == 1 and len(state["history"][0]) == 2
    state = c.post(f"/api/games/{state['id']}/next").json()
    assert all("calls" in p for p in state["table"]["players"])


def test_play_again_keeps_the_rules_seats_and_bots_with_a_new_seed() -> None:
    app = create_app(allowed_hosts=("testserver",))
    c = TestClient(app)
    first = c.post(
        "/api/games",
        json={"text": 'extends "koikoi"\nrounds 1', "bots": ["random"], "seed": 3, "seats": 2},
    ).json()
    again = c.post(f"/api/games/{first['id']}/again", json={}).json()
    assert again["id"] != first["id"] and again["rounds"] == 1  # the text's rules, not koikoi's
    assert again["bots"] == first["bots"] and again["you"] == first["you"]
    other = TestClient(app)  # another browser (its own cookie) does not find the game
    assert other.post(f"/api/games/{first['id']}/again", json={}).status_code == 404


def test_each_players_last_move_is_marked() -> None:
    """The cards a bot's last move laid on the field or took are named for the page to mark
    (issue 24, item 2): laid cards are on the field, taken ones in its pile."""
    state = (
        client()
        .post("/api/games", json={"rules": "hachihachi", "bots": ["greedy"], "seed": 7})
        .json()
    )
    table = state["table"]
    field = {c["id"] for c in table["field"]}
    seen = 0
    for p in table["players"]:
        if p["last"] is None:
            continue
        seen += 1
        pile = {c["id"] for g in p["captured"] for c in g["cards"]}
        assert set(p["last"]["laid"]) <= field and set(p["last"]["took"]) <= pile
        assert p["last"]["laid"] or p["last"]["took"]
        assert p["name"] in p["last"]["said"]
    assert seen == 2  # both bots moved before the person's first turn


def test_why_says_each_payment_with_its_values() -> None:
    """The page's Why: the round's payments in words, each teyaku with its value (issue 24:
    it listed "81 yaku Ten plains" without the value or the factor)."""
    c = client()
    for seed in range(60):
        state = c.post(
            "/api/games", json={"rules": "hachihachi", "bots": ["greedy"], "seed": seed}
        ).json()
        said = state["table"]["payments"] if state["table"] else []
        if any("for teyaku" in line for line in said):
            line = next(line for line in said if "for teyaku" in line)
            assert re.search(r" pays? .+ for teyaku .+ \(\d+\)($|:)", line), line  # its value
            return
    raise AssertionError("no teyaku paid at the start of 60 deals")
