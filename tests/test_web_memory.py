"""What `rulekit serve` keeps (issue 21, item 16): every store of the server is bounded, so that
no run of requests makes it grow without end. Held structurally (the stores' sizes), over a few
hundred mixed resumes; `benchmarks/bench_serve_memory.py` measures the resident memory of a real
server over 2,000."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit import errors
from rulekit.scenario import runner
from rulekit.web.app import create_app
from rulekit.web.games import GAMES, GAMES_PER_BROWSER
from tests.test_web_api import TOML

SAVED = """title = "A game of Koi-Koi (Sloper), saved by rulekit play"
rules = "koikoi"
{house}seats = ["You", "Alice"]
dealer = "Alice"
seed = {seed}

[play]
human = "You"
think_ms = 150

[play.bots]
Alice = "greedy"

[[rounds]]
moves = []
"""


def saved_game(i: int) -> bytes:
    """The i-th of five kinds of saved game: house rules of its own, none, house rules with a
    mistake, not TOML, a long text."""
    kind = i % 5
    if kind == 0:
        return SAVED.format(house=f'house_rules = "\\n# table {i}\\n"\n', seed=i).encode()
    if kind == 1:
        return SAVED.format(house="", seed=i).encode()
    if kind == 2:
        return SAVED.format(house=f'house_rules = """\nyaku nonsense {i}\n"""\n', seed=i).encode()
    if kind == 3:
        return f"rules = 'koikoi'\n[[ {i}".encode()
    return (SAVED.format(house="", seed=i) + "# a comment\n" * 2000).encode()


def resume(c: TestClient, i: int) -> Any:
    r = c.post("/api/resume", content=saved_game(i), headers=TOML)
    assert r.status_code == (400 if i % 5 in (2, 3) else 200), r.text
    if i % 5 == 2:  # the mistake quoted from this request's text, not another's
        assert f"yaku nonsense {i}" in r.json()["error"]
    return r


def test_memory_stays_bounded_over_hundreds_of_resumes() -> None:
    app = create_app(allowed_hosts=("testserver",))
    one_browser = TestClient(app)
    for i in range(5):  # each kind once: every file a resume reads is named now
        resume(one_browser, i)
    names = set(errors._SOURCES)
    for i in range(5, 255):  # half from new browsers, half from one
        resume(TestClient(app) if i % 2 else one_browser, i)
    assert set(errors._SOURCES) == names  # no request left a source of its own
    assert len(runner._CACHE.compiled) <= runner.RULES_KEPT < 50  # 50 house rules were resumed
    assert len(app.state.games) == GAMES < 125  # 125 new browsers resumed a game
    state = resume(one_browser, 256).json()  # the browser seen last keeps its last games
    assert one_browser.get(f"/api/games/{state['id']}").status_code == 200
    assert len(app.state.games) == GAMES and GAMES_PER_BROWSER < GAMES
