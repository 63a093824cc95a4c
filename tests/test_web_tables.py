"""Tables friends sit at (issue 24, item 4), through the API and its WebSocket: two people play
a whole round, each seeing only his own hand in every message; a spectator sees no hand; no one
acts for another seat; a person comes back to his seat; a bot stands in for a person away on his
turn; a full table, an unknown token and an expired table are refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rulekit.web import tables as tables_module
from rulekit.web.app import create_app

HOSTS = ("testserver",)


@pytest.fixture
def client() -> Iterator[TestClient]:
    """One client for every browser of a test: its WebSockets share one event loop, as a
    server's connections do."""
    with TestClient(create_app(allowed_hosts=HOSTS, table_wait=0.3)) as c:
        yield c


def open_table(c: TestClient, rules: str = "koikoi", **spec: Any) -> dict[str, Any]:
    body = {"rules": rules, "people": 2, "seed": 7, "name": "Ann", "bots": ["greedy"], **spec}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def latest(ws: Any, at_least: int, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The first state pushed of at least this version (every message kept in `seen`)."""
    while True:
        message = ws.receive_json()
        assert "state" in message, message
        if seen is not None:
            seen.append(message)
        if message["state"]["version"] >= at_least:
            return message["state"]  # type: ignore[no-any-return]


def error_of(ws: Any) -> str:
    """The next error said to this browser (the states pushed before it passed over)."""
    while True:
        message = ws.receive_json()
        if "error" in message:
            return str(message["error"])


def card_ids(node: Any) -> set[int]:
    """Every card object's id anywhere in a message."""
    if isinstance(node, dict):
        found = {node["id"]} if "face" in node and isinstance(node.get("id"), int) else set()
        for value in node.values():
            found |= card_ids(value)
        return found
    if isinstance(node, list):
        return set().union(*(card_ids(v) for v in node)) if node else set()
    return set()


def hand_of(c: TestClient, table_id: str, seat: int) -> set[int]:
    """A seat's hand now, from the server's own state (the truth the messages are held to)."""
    table = c.app.state.tables.get(table_id)  # type: ignore[attr-defined]
    session = table.game.session
    if session.round is None:
        return set()
    view = session.views[seat]
    return set(view.compiled.index.ids_of(view.hand))


def test_two_people_play_a_round_and_never_see_each_others_hand(client: TestClient) -> None:
    opened = open_table(client)
    tid = opened["table"]
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Ben"}).json()
    assert joined["seat"] == 1
    with client.websocket_connect(f"/ws/tables/{tid}?token={opened['token']}") as wa:
        a = latest(wa, 0)
        with client.websocket_connect(f"/ws/tables/{tid}?token={joined['token']}") as wb:
            b = latest(wb, 0)
            a = latest(wa, b["version"])
            assert [p["name"] for p in a["places"]] == ["Ann", "Ben"]
            for _ in range(120):
                for me, other, state in ((0, 1, a), (1, 0, b)):
                    hidden = hand_of(client, tid, other)
                    assert not card_ids(state) & hidden  # never the other's hand
                    if state["table"]:
                        mine = {c["id"] for c in state["table"]["hand"]}
                        assert mine == hand_of(client, tid, me) or state["table"]["phase"] == "swap"
                if a["waiting"]:
                    break
                state, ws = (a, wa) if a["table"]["your_turn"] else (b, wb)
                assert state["table"]["your_turn"], (a["table"], b["table"])
                ws.send_json({"action": state["table"]["moves"][0]["action"]})
                a, b = latest(wa, state["version"] + 1), latest(wb, state["version"] + 1)
            assert a["waiting"] and a["last_round"]["number"] == 1
            assert a["last_round"] == b["last_round"]  # the same round's end for both


def test_no_one_acts_for_another_seat_and_a_spectator_sees_no_hand(client: TestClient) -> None:
    opened = open_table(client, "hachihachi", people=2)
    tid = opened["table"]
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Ben"}).json()
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={opened['token']}") as wa,
        client.websocket_connect(f"/ws/tables/{tid}?token={joined['token']}") as wb,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        a, b = latest(wa, 0), latest(wb, 0)
        seen = latest(watcher, 0)
        v = seen["version"]
        a, b = latest(wa, v), latest(wb, v)
        assert seen["you"] is None and seen["table"]["hand"] == []
        assert not card_ids(seen) & (hand_of(client, tid, 0) | hand_of(client, tid, 1))
        idle, idle_ws = (b, wb) if a["table"]["your_turn"] else (a, wa)
        mover = a if idle is b else b
        action = mover["table"]["moves"][0]["action"]
        idle_ws.send_json({"action": action})  # another seat's move: refused
        assert "not your turn" in error_of(idle_ws)
        watcher.send_json({"action": action})
        assert "spectator" in error_of(watcher)
        idle_ws.send_text("x" * 5000)
        assert "at most" in error_of(idle_ws)


def test_a_person_comes_back_to_his_seat(client: TestClient) -> None:
    opened = open_table(client, people=1)
    tid, token = opened["table"], opened["token"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        first = latest(ws, 0)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        again = latest(ws, 0)
    assert again["you"] == first["you"] == 0
    assert again["table"]["hand"] == first["table"]["hand"]


def test_a_bot_stands_in_for_a_person_away_on_his_turn(client: TestClient) -> None:
    opened = open_table(client, "hachihachi", people=2)  # Ben never comes
    tid = opened["table"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={opened['token']}") as wa:
        a = latest(wa, 0)
        for _ in range(40):  # Ann plays; when Ben's turn comes, a bot plays it in 0.3 s
            if any(p["bot_playing"] for p in a["places"]) or a["waiting"]:
                break
            if a["table"]["your_turn"]:
                wa.send_json({"action": a["table"]["moves"][0]["action"]})
            a = latest(wa, a["version"] + 1)
        ben = next(p for p in a["places"] if p["seat"] == 1)
        assert ben["bot_playing"] and not ben["joined"]
        assert any(line.startswith("seat 2 ") for line in a["log"])  # his seat moved


def test_a_full_table_a_token_of_no_seat_and_an_expired_table_are_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = open_table(client, people=1)
    tid = opened["table"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Ben"})
    assert r.status_code == 400 and "taken" in r.json()["error"]
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/tables/{tid}?token=not-a-token") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4404
    monkeypatch.setattr(tables_module, "IDLE_SECONDS", 0.0)
    time.sleep(0.01)
    assert client.get(f"/api/tables/{tid}").status_code == 404


def test_a_socket_from_another_site_is_refused(client: TestClient) -> None:
    opened = open_table(client, people=1)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(
            f"/ws/tables/{opened['table']}?token={opened['token']}",
            headers={"origin": "http://evil.example"},
        ) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4403


def test_serve_opens_a_table_and_prints_both_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulekit serve --table koikoi`: the opener's seat link (its token in the fragment) and
    the friends' link, printed before the server runs; an unknown name is said and exits."""
    import uvicorn
    from click.testing import CliRunner

    from rulekit.cli import cli

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append(app))
    result = CliRunner().invoke(cli, ["serve", "--table", "koikoi", "--port", "0"])
    assert result.exit_code == 0, result.output
    seat_line = next(ln for ln in result.output.splitlines() if ln.startswith("your seat"))
    friends = next(ln for ln in result.output.splitlines() if ln.startswith("your friends"))
    table_id, token = seat_line.split("/table/")[1].split("#seat=")
    assert f"/table/{table_id}" in friends and token not in friends
    table = ran[0].state.tables.get(table_id)
    assert table.seat_of(token) == 0 and [p.token is None for p in table.places.values()] == [
        False,
        True,
    ]
    bad = CliRunner().invoke(cli, ["serve", "--table", "koikio", "--port", "0"])
    assert bad.exit_code != 0 and "did you mean 'koikoi'" in bad.output
