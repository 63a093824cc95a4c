"""Requests an attacker or a fuzzer sends to `rulekit serve` (issue 21, item 17): lone surrogates,
JSON and TOML nested past any parser's depth, wrong types, other sites' pages and other content
types. Each is answered with a clear JSON message and a 4xx status, never a 500; the server's own
pages and this machine's tools are answered as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rulekit.web.app import create_app
from tests.test_web_api import JSON, TOML, new_game

HOUSE = 'extends "koikoi"\ngame "Mine" variant "house"\n'
SURROGATE = "\ud800"  # sent as the JSON escape \ud800: JSON allows it, no text encoding does


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(allowed_hosts=("testserver", "127.0.0.1"))


def game_url(c: TestClient, path: str = "") -> str:
    return f"/api/games/{new_game(c)['id']}{path}"


def post(c: TestClient, url: str, body: Any, **headers: str) -> Any:
    """A POST of any JSON value, escaped as JSON escapes it (a lone surrogate as \\ud800)."""
    return c.post(url, content=json.dumps(body).encode(), headers={**JSON, **headers})


def refused(r: Any, status: int) -> str:
    """The message of a refusal: the status, JSON, a message and no traceback."""
    assert r.status_code == status, (r.status_code, r.text)
    assert "Traceback" not in r.text and "internal error" not in r.text
    return str(r.json()["error"])


# ---------------------------------------------------------------- what the body holds
BODIES_WITH_A_SURROGATE = [
    ("/api/games", {"rules": SURROGATE}),
    ("/api/games", {"rules": "koikoi", "bots": [SURROGATE]}),
    ("/api/games", {"text": SURROGATE}),
    ("/api/games", {"text": HOUSE, "beside": SURROGATE}),
    ("/api/games", {SURROGATE: 1}),
    ("/api/rules/check", {"text": f'extends "koikoi"\nyaku {SURROGATE}\n'}),
    ("/api/rules/check", {"text": HOUSE, "beside": SURROGATE}),
    ("/api/rules/eval", {"text": HOUSE, "hand": f"crane {SURROGATE}"}),
    ("/api/rules/eval", {"text": HOUSE, "hand": "crane", "mode": SURROGATE}),
    ("/api/compare", {"a": {"rules": SURROGATE}, "b": {"rules": "koikoi"}}),
    ("/api/compare", {"a": {"text": SURROGATE}, "b": {"rules": "koikoi"}}),
    ("/api/compare", {"a": {"rules": "koikoi"}, "b": {"rules": "koikoi"}, "bots": [SURROGATE]}),
]


@pytest.mark.parametrize(("url", "body"), BODIES_WITH_A_SURROGATE)
def test_a_lone_surrogate_in_a_field_is_a_400_not_a_500(app: Any, url: str, body: Any) -> None:
    message = refused(post(TestClient(app), url, body), 400)
    assert "not Unicode text (a lone surrogate)" in message


def test_a_lone_surrogate_in_a_move_is_a_400(app: Any) -> None:
    c = TestClient(app)
    message = refused(post(c, game_url(c, "/move"), {"action": SURROGATE}), 400)
    assert message.startswith("error: action: not Unicode text")


POST_URLS = ["/api/games", "/api/rules/check", "/api/rules/eval", "/api/compare"]


@pytest.mark.parametrize("url", POST_URLS)
@pytest.mark.parametrize(
    "body",
    [
        "[" * 60_000,  # past the parser's recursion
        '{"a":' * 5_000 + "1" + "}" * 5_000,
        '{"text": ' + "[" * 9 + "]" * 9 + "}",  # just past the bound
    ],
)
def test_deeply_nested_json_is_a_400_not_a_500(app: Any, url: str, body: str) -> None:
    r = TestClient(app).post(url, content=body.encode(), headers=JSON)
    assert "nested more than 8 deep" in refused(r, 400)


@pytest.mark.parametrize(
    "body", ['{"seats": NaN}', '{"seats": Infinity}', '{"seats": 1' + "0" * 5000 + "}"]
)
def test_numbers_json_does_not_have_are_a_400(app: Any, body: str) -> None:
    r = TestClient(app).post("/api/games", content=body.encode(), headers=JSON)
    assert "not JSON" in refused(r, 400)


@pytest.mark.parametrize(
    "nested",
    ["[" * 100_000, "[" * 3_000 + "]" * 3_000, "{a=" * 3_000 + "1" + "}" * 3_000],
)
def test_deeply_nested_toml_is_a_400_not_a_500(app: Any, nested: str) -> None:
    saved = f'rules = "koikoi"\nx = {nested}\n'.encode()
    r = TestClient(app).post("/api/resume", content=saved, headers=TOML)
    assert refused(r, 400).startswith("error: the saved game is not TOML")


def test_a_saved_game_with_a_number_too_long_is_a_400(app: Any) -> None:
    saved = f'rules = "koikoi"\nseed = {"9" * 5000}\n'.encode()
    r = TestClient(app).post("/api/resume", content=saved, headers=TOML)
    assert refused(r, 400).startswith("error: the saved game is not TOML")


@pytest.mark.parametrize(
    "path",
    [
        "/api/rules/source?name=%ED%A0%80",  # a surrogate's bytes, not UTF-8
        "/api/rules/source?name=%FF",
        "/api/rules/source?name=" + "x" * 300,
        "/api/games/%ED%A0%80",
        "/api/games/GAME/scenario?rounds=%ED%A0%80",
        "/api/games/GAME/scenario?rounds=99999999999",
        "/api/games/GAME/scenario?rounds=-1",
        "/api/compare/%FF",
        "/api/compare/%FF/report?format=%ED%A0%80",
    ],
)
def test_odd_addresses_and_queries_are_a_4xx_not_a_500(app: Any, path: str) -> None:
    c = TestClient(app)
    r = c.get(path.replace("GAME", new_game(c)["id"]))
    assert 400 <= r.status_code < 500 and r.json()["error"], r.text
    assert "Traceback" not in r.text


# ---------------------------------------------------------------- who sends it, and how
def requests_that_change_something(c: TestClient) -> list[tuple[str, str, Any]]:
    """Every POST and DELETE of the API, each with a body it would answer."""
    saved = c.get(game_url(c, "/scenario")).content
    return [
        ("POST", "/api/games", {"rules": "koikoi", "bots": ["greedy"]}),
        ("POST", "/api/resume", saved),
        ("POST", game_url(c, "/move"), {"action": 0}),
        ("POST", game_url(c, "/next"), None),
        ("POST", game_url(c, "/hint"), None),
        ("POST", "/api/rules/check", {"text": HOUSE}),
        ("POST", "/api/rules/eval", {"text": HOUSE, "hand": "crane"}),
        (
            "POST",
            "/api/compare",
            {"a": {"rules": "koikoi"}, "b": {"rules": "koikoi"}, "rounds": 10},
        ),
        ("DELETE", "/api/compare/some-job", None),
    ]


def send(c: TestClient, method: str, url: str, body: Any, **headers: str) -> Any:
    if isinstance(body, bytes):
        return c.request(method, url, content=body, headers={**TOML, **headers})
    if body is None:
        return c.request(method, url, headers=headers)
    return c.request(method, url, content=json.dumps(body).encode(), headers={**JSON, **headers})


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://localhost:3000",  # another server on this machine
        "http://testserver:8080",  # this name on another port
        "https://testserver",
        "null",  # a sandboxed frame, a file:// page
        "http://testserver.evil.example",
        "garbage",
    ],
)
def test_a_foreign_origin_is_refused_with_403(app: Any, origin: str) -> None:
    c = TestClient(app)
    for method, url, body in requests_that_change_something(c):
        r = send(c, method, url, body, origin=origin)
        message = refused(r, 403)
        assert f"a page from {origin} cannot use this server" in message, (url, message)
        assert "set-cookie" not in r.headers  # nothing started, no browser made


def test_the_servers_own_pages_and_this_machines_tools_are_answered(app: Any) -> None:
    c = TestClient(app)
    for origin in ("http://testserver", "HTTP://TESTSERVER:80", None):
        extra = {} if origin is None else {"origin": origin}
        for method, url, body in requests_that_change_something(c):
            if method == "POST" and url.endswith("/move"):
                continue  # a move needs the game's legal actions: played below
            r = send(c, method, url, body, **extra)
            assert r.status_code < 500 and r.status_code not in (403, 415), (origin, url, r.text)
    other = TestClient(app, base_url="http://127.0.0.1:8000")  # the address `serve` prints
    r = send(other, "POST", "/api/rules/check", {"text": HOUSE}, origin="http://127.0.0.1:8000")
    assert r.status_code == 200 and r.json()["ok"]
    state = new_game(c)
    action = state["table"]["moves"][0]["action"]
    r = send(c, "POST", f"/api/games/{state['id']}/move", {"action": action}, **{"origin": ""})
    assert r.status_code == 403  # an empty Origin is no origin of this server's


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",  # what a page of another site may send without asking first
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
        None,
    ],
)
def test_a_post_of_another_content_type_is_refused_with_415(
    app: Any, content_type: str | None
) -> None:
    c = TestClient(app)
    headers = {} if content_type is None else {"content-type": content_type}
    for method, url, body in requests_that_change_something(c):
        if method != "POST":
            continue
        raw = body if isinstance(body, bytes) else json.dumps(body or {}).encode()
        r = c.post(url, content=raw, headers=headers)
        message = refused(r, 415)
        expected = "application/toml" if url == "/api/resume" else "application/json"
        assert message.endswith(f": send {expected}"), (url, message)
        assert "set-cookie" not in r.headers
    saved = requests_that_change_something(c)[1][2]
    r = c.post("/api/resume", content=saved, headers=JSON)  # JSON where TOML is expected
    assert (
        refused(r, 415) == "the request's content type is application/json: send application/toml"
    )


def test_a_charset_with_the_content_type_is_answered(app: Any) -> None:
    r = TestClient(app).post(
        "/api/rules/check",
        content=json.dumps({"text": HOUSE}).encode(),
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 200 and r.json()["ok"]


# ---------------------------------------------------------------- anything at all
def with_surrogates(text: str, surrogate: str, at: int) -> str:
    at = min(at, len(text))
    return text[:at] + surrogate + text[at:]


TEXTS = st.one_of(
    st.sampled_from(["koikoi", "rules", "text", "greedy", "random", "hand", "field", HOUSE, ""]),
    st.text(max_size=20),
    st.builds(
        with_surrogates,
        st.text(max_size=10),
        st.sampled_from(["\ud800", "\udfff", "\udbff\udbff"]),
        st.integers(0, 10),
    ),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXTS,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=12,
)
FIELDS = [
    "rules", "text", "beside", "bots", "seats", "seed", "think_ms", "hand", "mode",
    "a", "b", "rounds", "action",
]  # fmt: skip


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    url=st.sampled_from([*POST_URLS, "move"]),
    body=st.one_of(
        st.dictionaries(st.sampled_from(FIELDS), TEXTS | st.lists(TEXTS, max_size=3), max_size=5),
        st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5),
        VALUES,
    ),
)
def test_any_json_to_any_post_endpoint_is_never_a_500(app: Any, url: str, body: Any) -> None:
    c = TestClient(app)
    if isinstance(body, dict) and url == "/api/games":
        body["think_ms"] = 10  # a search bot, if one is asked for, thinks briefly
    if url == "move":
        url = game_url(c, "/move")
    r = post(c, url, body)
    assert r.status_code in (200, 400, 404, 409, 429), (url, body, r.text)
    assert "Traceback" not in r.text
    if r.status_code != 200:
        assert r.json()["error"]
    elif url == "/api/compare":
        c.delete(f"/api/compare/{r.json()['job']}")  # no comparison left running


SAVED_LINES = [
    'rules = "koikoi"',
    'rules = "hachihachi"',
    'house_rules = "seats 2"',
    'house_rules = "\\nyaku x"',
    'seats = ["You", "Alice"]',
    'dealer = "Alice"',
    "seed = 3",
    "[play]",
    'human = "You"',
    "[play.bots]",
    'Alice = "greedy"',
    "[[rounds]]",
    'moves = ["You: swap"]',
    "x = [[[[",
    "y = {a={b=",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.lists(st.sampled_from(SAVED_LINES) | st.text(max_size=15), max_size=12).map(
            lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")
        ),
        st.binary(max_size=60),
    )
)
def test_any_saved_game_sent_back_is_never_a_500(app: Any, saved: bytes) -> None:
    r = TestClient(app).post("/api/resume", content=saved, headers=TOML)
    assert r.status_code in (200, 400), r.text
    assert "Traceback" not in r.text
    if r.status_code == 400:
        assert r.json()["error"]
