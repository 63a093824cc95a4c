"""The rest of the play API's contract (tests/test_web_api.py has the main cases): every route
of the play page with bad input, wrong addresses and methods, the bounds of a browser's games,
the moment a request comes (not your turn, the game over), and what a Hachi-Hachi board holds."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit.web.app import COOKIE, MAX_BODY, MAX_SAVED, create_app
from rulekit.web.games import GAMES_PER_BROWSER
from tests.test_web_api import JSON, TOML, new_game, play_out


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(allowed_hosts=("testserver",))


def error(r: Any, status: int = 400) -> str:
    """The message of a refused request, after checking it is JSON and no traceback."""
    assert r.status_code == status, r.text
    assert "Traceback" not in r.text
    return str(r.json()["error"])


def to_round_end(c: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    while not state["waiting"] and not state["game_over"]:
        action = state["table"]["moves"][0]["action"]
        state = c.post(f"/api/games/{state['id']}/move", json={"action": action}).json()
    return state


# ---------------------------------------------------------------- page, static, addresses
def test_page_and_static_refuse_what_is_not_there(app: Any) -> None:
    c = TestClient(app)
    assert c.get("/static/nope.js").status_code == 404
    assert c.get("/static/../app.py").status_code == 404
    assert c.get("/static/%2e%2e/app.py").status_code == 404
    assert c.get("/static/%2e%2e/games.py").status_code == 404
    assert c.post("/").status_code == 405
    assert c.get("/", headers={"host": "evil.example"}).status_code == 400
    assert c.get("/static/app.js", headers={"host": "evil.example"}).status_code == 400


def test_an_unknown_api_address_or_method_is_json(app: Any) -> None:
    """The page reads every answer of /api/ as JSON: a wrong address or method too."""
    c = TestClient(app)
    assert "not found" in error(c.get("/api/nothing"), 404)
    assert "not allowed" in error(c.get("/api/games"), 405)
    assert "not allowed" in error(c.post("/api/options"), 405)
    assert "not allowed" in error(c.delete("/api/games/x"), 405)
    assert "not allowed" in error(c.get("/api/resume"), 405)
    assert c.get("/nothing").status_code == 404  # outside /api/: the plain answer


def test_options_name_what_a_new_game_accepts(app: Any) -> None:
    opts = TestClient(app).get("/api/options").json()
    assert opts["think_ms"] == [10, 2000] and "hachihachi/fudawiki" in opts["rules"]


# ---------------------------------------------------------------- a new game
@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"rules": 123}, "rules: a name"),
        ({"rules": "x" * 201}, "rules: a name"),
        ({"rules": "hachihachi/fudawik"}, "hachihachi/fudawiki"),  # did you mean
        ({"seed": -1}, "seed: a whole number"),
        ({"seed": 2**31}, "seed: a whole number"),
        ({"seed": True}, "seed: a whole number"),
        ({"seed": "5"}, "seed: a whole number"),
        ({"seats": 1}, "seats: a whole number from 2 to 8"),
        ({"seats": 2.5}, "seats: a whole number"),
        ({"think_ms": 5}, "think_ms: a whole number from 10 to 2000"),
        ({"bots": []}, "bots: a list of one to eight"),
        ({"bots": "greedy"}, "bots: a list of one to eight"),
        ({"bots": ["greedy"] * 9}, "bots: a list of one to eight"),
    ],
)
def test_a_new_game_refuses_bad_choices(app: Any, spec: dict[str, Any], said: str) -> None:
    r = TestClient(app).post("/api/games", json={"rules": "hachihachi", **spec})
    assert said in error(r)


def test_a_new_game_refuses_a_body_that_is_not_an_object(app: Any) -> None:
    c = TestClient(app)
    assert "not JSON" in error(c.post("/api/games", content=b"{rules", headers=JSON))
    assert "not JSON" in error(c.post("/api/games", content=b"\xff\xfe", headers=JSON))
    assert "not a JSON object" in error(c.post("/api/games", json=["hachihachi"]))
    assert "too large" in error(c.post("/api/games", content=b" " * (MAX_BODY + 1)), 413)
    r = c.post("/api/games", content=b"{}", headers={"content-length": "12x"})
    assert r.status_code in (400, 413)


def test_a_browser_gets_a_private_cookie_and_keeps_it(app: Any) -> None:
    c = TestClient(app)
    r = c.post("/api/games", json={"rules": "koikoi", "bots": ["greedy"], "seed": 1})
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    first = c.cookies[COOKIE]
    new_game(c, seed=2)
    assert c.cookies[COOKIE] == first  # the second game is the same browser's


def test_a_browser_keeps_its_last_games_only(app: Any) -> None:
    c = TestClient(app)
    ids = [new_game(c, seed=s)["id"] for s in range(GAMES_PER_BROWSER + 1)]
    assert c.get(f"/api/games/{ids[0]}").status_code == 404  # the oldest, dropped
    assert all(c.get(f"/api/games/{g}").status_code == 200 for g in ids[1:])


# ---------------------------------------------------------------- moves, rounds, hints
@pytest.mark.parametrize(
    "body", [{}, {"action": None}, {"action": True}, {"action": 1.5}, {"action": [1]}]
)
def test_a_move_must_be_a_whole_number(app: Any, body: dict[str, Any]) -> None:
    c = TestClient(app)
    gid = new_game(c)["id"]
    assert "action: a whole number" in error(c.post(f"/api/games/{gid}/move", json=body))


def test_a_move_body_must_be_a_bounded_object(app: Any) -> None:
    c = TestClient(app)
    gid = new_game(c)["id"]
    assert "not a JSON object" in error(c.post(f"/api/games/{gid}/move", json=[1]))
    big = b'{"action": 1' + b" " * MAX_BODY + b"}"
    assert "too large" in error(c.post(f"/api/games/{gid}/move", content=big), 413)
    assert "not a legal move" in error(c.post(f"/api/games/{gid}/move", json={"action": -1}))


def test_between_rounds_only_the_next_round_is_asked_for(app: Any) -> None:
    c = TestClient(app)
    state = to_round_end(c, new_game(c))
    gid = state["id"]
    assert state["waiting"] and state["table"] is None and state["last_round"]["number"] == 1
    assert "not your turn" in error(c.post(f"/api/games/{gid}/move", json={"action": 0}))
    assert "nothing to hint" in error(c.post(f"/api/games/{gid}/hint"))
    state = c.post(f"/api/games/{gid}/next").json()
    assert state["round"] == 2 and not state["waiting"] and state["table"] is not None
    assert "not over" in error(c.post(f"/api/games/{gid}/next"))


def test_after_the_game_nothing_more_is_played(app: Any) -> None:
    c = TestClient(app)
    end = play_out(c, new_game(c, rules="koikoi/six-rounds", bots=["random"]))
    gid = end["id"]
    assert end["game_over"] and not end["waiting"] and end["round"] == 6
    assert "game is over" in error(c.post(f"/api/games/{gid}/next"))
    assert "not your turn" in error(c.post(f"/api/games/{gid}/move", json={"action": 0}))
    assert "nothing to hint" in error(c.post(f"/api/games/{gid}/hint"))
    saved = c.get(f"/api/games/{gid}/scenario")
    assert saved.status_code == 200 and saved.text.count("[[rounds]]") == 6


# ---------------------------------------------------------------- the saved game
@pytest.mark.parametrize("rounds", ["abc", "-1", "1.5", "1234567", ""])
def test_scenario_rounds_must_be_a_whole_number(app: Any, rounds: str) -> None:
    c = TestClient(app)
    gid = new_game(c)["id"]
    assert "rounds: a whole number" in error(c.get(f"/api/games/{gid}/scenario?rounds={rounds}"))


def test_scenario_rounds_must_be_a_finished_round(app: Any) -> None:
    c = TestClient(app)
    gid = new_game(c)["id"]
    assert "no finished round 0" in error(c.get(f"/api/games/{gid}/scenario?rounds=0"))
    assert "no finished round 1" in error(c.get(f"/api/games/{gid}/scenario?rounds=1"))
    name = c.get(f"/api/games/{gid}/scenario").headers["content-disposition"]
    assert re.fullmatch(r'attachment; filename="rulekit-5\.scenario\.toml"', name)


def test_resume_refuses_bytes_too_many_or_not_text(app: Any) -> None:
    c = TestClient(app)
    assert "not UTF-8" in error(
        c.post("/api/resume", content=b'rules = "koikoi"\n\xff', headers=TOML)
    )
    assert "too large" in error(
        c.post("/api/resume", content=b"#" * (MAX_SAVED + 1), headers=TOML), 413
    )
    assert "not offered" in error(c.post("/api/resume", content=b""))


def test_a_saved_game_without_a_person_is_refused(app: Any) -> None:
    c = TestClient(app)
    state = new_game(c)
    saved = c.get(f"/api/games/{state['id']}/scenario").text
    assert 'human = "You"\n' in saved and "[play.bots]\n" in saved
    botted = saved.replace('human = "You"\n', "").replace(
        "[play.bots]\n", '[play.bots]\nYou = "greedy"\n'
    )
    assert "no person at the table" in error(c.post("/api/resume", content=botted, headers=TOML))


def test_a_resumed_game_is_the_resuming_browsers_only(app: Any) -> None:
    mine, theirs = TestClient(app), TestClient(app)
    state = new_game(mine)
    saved = mine.get(f"/api/games/{state['id']}/scenario").content
    resumed = theirs.post("/api/resume", content=saved, headers=TOML).json()
    assert theirs.get(f"/api/games/{resumed['id']}").status_code == 200
    assert mine.get(f"/api/games/{resumed['id']}").status_code == 404
    assert theirs.get(f"/api/games/{state['id']}").status_code == 404


# ---------------------------------------------------------------- the Hachi-Hachi board
def test_a_hachihachi_board_holds_what_the_page_shows(app: Any) -> None:
    """Three seats; captures grouped by class in the deck's order with their points; the
    multiplier, the stock count and the scores; shown teyaku with their cards."""
    c = TestClient(app)
    order = ["light", "animal", "ribbon", "plain"]
    shown = grouped = 0
    for seed in range(6):
        state = new_game(c, rules="hachihachi", seed=seed)
        assert len(state["names"]) == 3 and len(state["scores"]) == 3
        while not state["waiting"]:
            table = state["table"]
            assert table["multiplier"] >= 1 and 0 <= table["stock"] <= 48
            for p in table["players"]:
                classes = [g["class"] for g in p["captured"]]
                assert classes == sorted(classes, key=order.index)  # the deck's order
                cards = [card for g in p["captured"] for card in g["cards"]]
                assert p["points"] == sum(card["points"] for card in cards)
                grouped += len(classes) > 1
                shown += bool(p["teyaku"]) and bool(p["shown"])
            action = table["moves"][-1]["action"]
            state = c.post(f"/api/games/{state['id']}/move", json={"action": action}).json()
    assert grouped and shown


def test_the_log_says_what_each_move_took(app: Any) -> None:
    """A card played to the field and taken by the draw is said so, never "takes ;"."""
    c = TestClient(app)
    taken_by_draw = 0
    for seed in range(8):
        state = to_round_end(c, new_game(c, rules="hachihachi", seed=seed, bots=["random"]))
        for line in state["log"]:
            assert "takes ;" not in line and "take ;" not in line, line
            assert not line.endswith(("takes ", "take ")), line
            played = re.search(r"plays? (\d+) \S+ to the field; .* takes (.*)", line)
            if played and played.group(1) in played.group(2).split():
                taken_by_draw += 1
    assert taken_by_draw
