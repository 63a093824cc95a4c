"""The API of `rulekit serve` through Starlette's test client: every endpoint, bad input, and
one browser's game out of another's reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit.web.app import MAX_BODY, create_app

HOSTS = ("testserver",)
JSON = {"content-type": "application/json"}
TOML = {"content-type": "application/toml"}  # a saved game, as the page sends it


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(allowed_hosts=HOSTS)


def client(app: Any) -> TestClient:
    return TestClient(app)


def new_game(c: TestClient, **spec: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"rules": "koikoi", "bots": ["greedy"], "seed": 5, **spec})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def play_out(c: TestClient, state: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """Play to the game's end with the `pick`th legal move, starting every round."""
    for _ in range(2000):
        if state["game_over"]:
            return state
        gid = state["id"]
        if state["waiting"]:
            r = c.post(f"/api/games/{gid}/next")
        else:
            moves = state["table"]["moves"]
            r = c.post(
                f"/api/games/{gid}/move", json={"action": moves[pick % len(moves)]["action"]}
            )
        assert r.status_code == 200, r.text
        state = r.json()
    raise AssertionError("the game did not end")


def test_page_script_style_and_options(app: Any) -> None:
    c = client(app)
    page = c.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert c.get("/static/app.js").status_code == 200
    assert c.get("/static/style.css").status_code == 200
    opts = c.get("/api/options").json()
    assert {"hachihachi", "koikoi", "sakura"} <= set(opts["rules"])
    assert opts["bots"] == ["random", "greedy", "search"]


def test_a_whole_koikoi_game_is_played_and_scored(app: Any) -> None:
    c = client(app)
    state = new_game(c)
    table = state["table"]
    if table["phase"] == "swap":  # asked before the hand is seen: no card shown
        assert table["hand"] == [] and {m["words"] for m in table["moves"]} == {"swap", "keep"}
        keep = next(m["action"] for m in table["moves"] if m["words"] == "keep")
        state = c.post(f"/api/games/{state['id']}/move", json={"action": keep}).json()
        table = state["table"]
    assert len(table["hand"]) == 8 and len(table["field"]) == 8
    assert state["names"][state["you"]] == "You"
    assert all(m["kind"] == "play" for m in table["moves"])
    end = play_out(c, state)
    assert end["game_over"] and len(end["final"]) == 2
    assert sum(f["score"] for f in end["final"]) == 0
    assert end["last_round"]["number"] == end["rounds"]


def test_a_two_match_choice_offers_each_field_card(app: Any) -> None:
    """A hand card matching two field cards is offered once per field card it may take."""
    c = client(app)
    for seed in range(40):
        table = new_game(c, seed=seed, rules="hachihachi")["table"]
        plays = [m for m in table["moves"] if m["kind"] == "play"]
        cards = [m["card"] for m in plays]
        double = next((card for card in cards if cards.count(card) == 2), None)
        if double is not None:
            break
    else:
        pytest.fail("no deal in 40 seeds gives a two-match choice")
    targets = {m["target"] for m in plays if m["card"] == double}
    field = {card["id"] for card in table["field"]}
    assert len(targets) == 2 and targets <= field


def test_bad_input_is_a_400_with_the_message(app: Any) -> None:
    c = client(app)
    gid = new_game(c)["id"]
    r = c.post(f"/api/games/{gid}/move", json={"action": 999999})
    assert r.status_code == 400 and "not a legal move" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/move", json={"action": "crane"})
    assert r.status_code == 400 and "action" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/move", content=b"{not json", headers=JSON)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = c.post(f"/api/games/{gid}/next")
    assert r.status_code == 400 and "not over" in r.json()["error"]
    r = c.post("/api/games", json={"rules": "koikio"})
    assert r.status_code == 400 and "koikoi" in r.json()["error"]  # did you mean
    r = c.post("/api/games", json={"rules": "/etc/passwd"})
    assert r.status_code == 400 and "offered here" in r.json()["error"]
    r = c.post("/api/games", json={"rules": "koikoi", "bots": ["grredy"]})
    assert r.status_code == 400 and "greedy" in r.json()["error"]
    r = c.post("/api/games", json={"rules": "koikoi", "seats": 7})
    assert r.status_code == 400 and "Traceback" not in r.text
    r = c.post("/api/games", json={"rules": "koikoi", "think_ms": 10**9})
    assert r.status_code == 400 and "think_ms" in r.json()["error"]
    r = c.get(f"/api/games/{gid}/scenario?rounds=9")
    assert r.status_code == 400 and "no finished round 9" in r.json()["error"]


def test_request_and_host_bounds(app: Any) -> None:
    c = client(app)
    r = c.post("/api/games", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413
    r = c.get("/api/options", headers={"host": "evil.example"})
    assert r.status_code == 400  # another site's name for this server (DNS rebinding)


def test_another_browsers_game_is_out_of_reach(app: Any) -> None:
    mine, theirs = client(app), client(app)
    state = new_game(mine)
    gid = state["id"]
    action = state["table"]["moves"][0]["action"]
    for c in (theirs, TestClient(app, cookies={"rulekit_browser": "guessed"})):
        assert c.get(f"/api/games/{gid}").status_code == 404
        assert c.post(f"/api/games/{gid}/move", json={"action": action}).status_code == 404
        assert c.post(f"/api/games/{gid}/hint").status_code == 404
        assert c.get(f"/api/games/{gid}/scenario").status_code == 404
        assert c.post(f"/api/games/{gid}/next").status_code == 404
    assert mine.get(f"/api/games/{gid}").json() == state  # untouched
    assert mine.get("/api/games/nosuchgame").status_code == 404


def test_hint_gives_the_search_bots_choice(app: Any) -> None:
    c = client(app)
    state = new_game(c)
    hint = c.post(f"/api/games/{state['id']}/hint").json()
    legal = {m["action"] for m in state["table"]["moves"]}
    assert hint["action"] in legal and hint["estimates"][0]["action"] == hint["action"]
    assert hint["estimates"][0]["rollouts"] > 0


def test_a_saved_game_resumes_where_it_stopped(app: Any) -> None:
    c = client(app)
    state = new_game(c, rules="hachihachi")
    gid = state["id"]
    for _ in range(3):
        state = c.post(
            f"/api/games/{gid}/move", json={"action": state["table"]["moves"][0]["action"]}
        ).json()
    saved = c.get(f"/api/games/{gid}/scenario")
    assert saved.status_code == 200 and 'rules = "hachihachi"' in saved.text
    assert "attachment" in saved.headers["content-disposition"]
    resumed = c.post("/api/resume", content=saved.content, headers=TOML).json()
    assert resumed["id"] != gid
    assert resumed["table"]["hand"] == state["table"]["hand"]
    assert resumed["table"]["field"] == state["table"]["field"]
    assert resumed["scores"] == state["scores"]


def test_a_finished_round_downloads_as_a_scenario_that_replays(app: Any, tmp_path: Path) -> None:
    from rulekit.scenario.runner import run_scenario

    c = client(app)
    state = new_game(c)
    gid = state["id"]
    while not state["waiting"]:
        state = c.post(
            f"/api/games/{gid}/move", json={"action": state["table"]["moves"][-1]["action"]}
        ).json()
    text = c.get(f"/api/games/{gid}/scenario?rounds=1").text
    assert text.count("[[rounds]]") == 1 and "[rounds.expect]" in text
    path = tmp_path / "round.scenario.toml"
    path.write_text(text)
    outcome = run_scenario(path)
    assert outcome.passed, outcome.render()


def test_resume_refuses_what_the_server_does_not_offer(app: Any, tmp_path: Path) -> None:
    c = client(app)
    r = c.post("/api/resume", content=b"rules = 'x'\n[[", headers=TOML)
    assert r.status_code == 400 and "not TOML" in r.json()["error"]
    outside = tmp_path / "mine.rk"
    r = c.post("/api/resume", content=f'rules = "{outside}"\n'.encode(), headers=TOML)
    assert r.status_code == 400 and "not offered" in r.json()["error"]
    saved = b'rules = "koikoi"\nhouse_rules = "extends \\"/x\\""\n'
    r = c.post("/api/resume", content=saved, headers=TOML)
    assert r.status_code == 400  # house rules resume within reach: test_web_editor_api.py
    r = c.post("/api/resume", content=b'rules = "koikoi"\nseats = ["A", "B"]\n', headers=TOML)
    said = r.json()["error"]
    assert r.status_code == 400 and said.startswith("saved.scenario.toml:1:1:")
    assert "rulekit-serve" not in said  # the server's folder is not shown (issue 24)


def test_a_bad_rule_file_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "bad.rk").write_text('extends "koikoi"\nyaku nonsense here\n')
    c = TestClient(create_app([tmp_path], allowed_hosts=HOSTS))
    name = str(tmp_path / "bad.rk")
    assert name in c.get("/api/options").json()["rules"]
    r = c.post("/api/games", json={"rules": name, "bots": ["greedy"]})
    assert r.status_code == 400
    assert "bad.rk:2:" in r.json()["error"] and "Traceback" not in r.text


def test_serve_command_help_and_a_bad_rule_argument() -> None:
    from click.testing import CliRunner

    from rulekit.cli import cli

    helped = CliRunner().invoke(cli, ["serve", "--help"])
    assert helped.exit_code == 0 and "rulekit serve my-rules/" in helped.output
    assert "127.0.0.1" in helped.output
    bad = CliRunner().invoke(cli, ["serve", "koikio"])
    assert bad.exit_code == 1 and "did you mean 'koikoi'" in bad.output


def test_serve_on_a_port_in_use_is_a_usage_error() -> None:
    """Said before the address is shown, not as the server's own error after it."""
    import socket

    from click.testing import CliRunner

    from rulekit.cli import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot serve on 127.0.0.1:{port}" in result.output
    assert "open http" not in result.output
