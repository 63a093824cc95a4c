"""The rules editor's API of `rulekit serve` through Starlette's test client: every endpoint,
bad input, text that tries to reach outside, and "Play this" saved as a scenario that
`rulekit test` replays and the page resumes."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rulekit.cli import cli
from rulekit.web.app import MAX_BODY, create_app
from rulekit.web.editor import MAX_HAND, MAX_TEXT

HOSTS = ("testserver",)
TOML = {"content-type": "application/toml"}  # a saved game, as the page sends it
HOUSE = 'extends "hachihachi/kirisame"\ngame "Mine" variant "house"\n'


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(allowed_hosts=HOSTS)


def check(c: TestClient, text: str, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/rules/check", json={"text": text, **extra})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def cli_check(tmp_path: Path, text: str) -> str:
    """What `rulekit check` prints of the same text, saved as a file beside nothing."""
    path = tmp_path / "editor.rk"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["check", str(path)]).output


def test_the_page_and_its_vendored_editor_are_served_locally(app: Any) -> None:
    c = TestClient(app)
    page = c.get("/editor")
    assert page.status_code == 200 and "/static/editor.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    for asset in ("editor.js", "editor.css", "vendor/ace/ace.js", "vendor/ace/LICENSE"):
        assert c.get(f"/static/{asset}").status_code == 200, asset
    script = c.get("/static/editor.js").text
    assert "http" not in script


def test_source_of_an_offered_file_a_template_and_an_unknown_name(app: Any) -> None:
    c = TestClient(app)
    r = c.get("/api/rules/source", params={"name": "hachihachi/kirisame"})
    assert r.status_code == 200
    assert r.json()["name"] == "hachihachi/kirisame" and "teyaku" in r.json()["text"]
    template = c.get("/api/rules/source").json()
    assert template["name"] is None and template["text"].startswith('extends "hachihachi"')
    assert check(c, template["text"])["ok"]
    r = c.get("/api/rules/source", params={"name": "hachihachi/kirisme"})
    assert r.status_code == 400 and "did you mean 'hachihachi/kirisame'" in r.json()["error"]
    r = c.get("/api/rules/source", params={"name": "../../etc/passwd"})
    assert r.status_code == 400 and "passwd" not in r.json()["error"].split("\n", 1)[1:]


def test_a_good_text_is_described_and_diffed_against_its_parent(app: Any) -> None:
    answer = check(TestClient(app), HOUSE)
    assert answer["ok"] and answer["diagnostics"] == []
    assert answer["title"] == "Mine (house)"
    assert answer["parent"] == "hachihachi/kirisame" and answer["parent_offered"]
    assert "Teyaku" in answer["describe"] and "Mine (house)" in answer["describe"]
    assert answer["diff"].startswith("hachihachi/kirisame -> editor.rk:")
    assert '"Hachi-Hachi" -> "Mine"' in answer["diff"]


def test_errors_are_located_diagnostics_with_the_cli_messages(app: Any, tmp_path: Path) -> None:
    text = HOUSE + "seats lots\nteyaku\n  kutsuki 4 hand\n"
    answer = check(TestClient(app), text)
    assert not answer["ok"] and answer["describe"] is None and answer["diff"] is None
    first = answer["diagnostics"][0]
    assert first["severity"] == "error" and first["file"] == "editor.rk"
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (3, 7, 3, 11)
    printed = cli_check(tmp_path, text)
    for d in answer["diagnostics"]:
        assert f"editor.rk:{d['line']}:{d['column']}: {d['message']}" in printed
        if d["hint"]:
            assert d["hint"] in printed
    assert answer["parent"] == "hachihachi/kirisame"  # still known: the buttons say why not


def test_a_warning_is_a_diagnostic_and_the_text_still_loads(app: Any) -> None:
    answer = check(TestClient(app), 'extends "hachihachi"\ncount: par 80; only without yaku\n')
    assert answer["ok"] and answer["describe"]
    [warning] = answer["diagnostics"]
    assert warning["severity"] == "warning" and warning["line"] == 2
    assert "not zero-sum" in warning["message"]


@pytest.mark.parametrize(
    "text",
    ['extends "../../etc/passwd"\n', 'extends "/etc/passwd.rk"\n', 'deck "../../../etc/x.rk"\n'],
)
def test_text_reaching_outside_opens_nothing(
    app: Any, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    real = Path.read_text

    def spy(self: Path, *args: Any, **kwargs: Any) -> str:
        opened.append(self.resolve())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", spy)
    answer = check(TestClient(app), text)
    assert not answer["ok"]
    [d] = answer["diagnostics"]
    assert (d["file"], d["line"], d["column"]) == ("editor.rk", 1, 1)
    assert "reads only the bundled rule files" in d["message"]
    assert all(not p.is_relative_to("/etc") for p in opened), opened


def test_bad_requests_are_400_and_413(app: Any) -> None:
    c = TestClient(app)
    for url in ("/api/rules/check", "/api/rules/eval"):
        r = c.post(url, content=b"{not json", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "not JSON" in r.json()["error"], url
        r = c.post(url, json=["a list"])
        assert r.status_code == 400 and "JSON object" in r.json()["error"]
        r = c.post(url, json={"text": 3})
        assert r.status_code == 400 and "text:" in r.json()["error"]
        r = c.post(url, json={"text": "x" * (MAX_TEXT + 1)})
        assert r.status_code == 400 and f"at most {MAX_TEXT}" in r.json()["error"]
        r = c.post(url, content=b"x" * (MAX_BODY + 1))
        assert r.status_code == 413 and "too large" in r.json()["error"]
        r = c.post(url, json={"text": HOUSE, "beside": "hachihachi/kirisme", "hand": "10"})
        assert r.status_code == 400 and "did you mean 'hachihachi/kirisame'" in r.json()["error"]
    assert c.get("/api/rules/check").status_code == 405


def test_relative_names_are_read_beside_a_served_file(tmp_path: Path) -> None:
    served = tmp_path / "served"
    served.mkdir()
    (served / "base.rk").write_text('extends "koikoi"\ngame "Base" variant "served"\n')
    c = TestClient(create_app([served], allowed_hosts=HOSTS))
    name = str(served / "base.rk")
    assert c.get("/api/rules/source", params={"name": name}).json()["text"].startswith("extends")
    answer = check(c, 'extends "base.rk"\ngame "Top" variant "x"\n', beside=name)
    assert answer["ok"] and answer["parent"] == name and answer["parent_offered"]
    assert answer["diff"].startswith(f"{name} -> editor.rk")
    lost = check(c, 'extends "base.rk"\n')  # without `beside`: read among the bundled rules
    assert not lost["ok"] and "base.rk" in lost["diagnostics"][0]["message"]


def test_eval_of_a_hand_says_what_the_cli_says(app: Any) -> None:
    c = TestClient(app)
    cards = "10 11 12 30 31 32 80"
    r = c.post("/api/rules/eval", json={"text": HOUSE, "hand": cards})
    assert r.status_code == 200, r.text
    answer = r.json()
    printed = CliRunner().invoke(cli, ["eval", "hachihachi/kirisame", "--hand", *cards.split()])
    as_json = CliRunner().invoke(
        cli, ["eval", "hachihachi/kirisame", "--hand", *cards.split(), "--json"]
    )
    assert answer["result"] == json.loads(as_json.output)
    assert answer["text"].startswith("Mine (house): hand ")
    assert printed.output.splitlines()[-1] in answer["text"]  # the value line
    field = c.post("/api/rules/eval", json={"text": HOUSE, "hand": "", "mode": "field"}).json()
    assert field["text"].splitlines()[-1].startswith("multiplier x")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"hand": "10 nosuchcard"}, "nosuchcard"),
        ({"hand": "10 10"}, "given twice"),
        ({"hand": ""}, "no cards given"),
        ({"hand": "1" * (MAX_HAND + 1)}, f"at most {MAX_HAND}"),
        ({"hand": ["10"]}, "hand:"),
        ({"hand": "10", "mode": "pile"}, "mode:"),
    ],
)
def test_eval_of_a_bad_hand_is_a_400(app: Any, spec: dict[str, Any], said: str) -> None:
    r = TestClient(app).post("/api/rules/eval", json={"text": HOUSE, **spec})
    assert r.status_code == 400 and said in r.json()["error"], r.text


def test_eval_under_broken_rules_gives_the_located_error(app: Any) -> None:
    r = TestClient(app).post("/api/rules/eval", json={"text": HOUSE + "seats lots\n", "hand": "10"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("editor.rk:3:7: unexpected 'lots'")


def test_play_this_saves_a_scenario_that_replays_and_resumes(app: Any, tmp_path: Path) -> None:
    c = TestClient(app)
    text = '# mine\nextends "koikoi"\ngame "Mine" variant "house"\ndeck "common/hanafuda.rk"\n'
    spec = {"text": text, "bots": ["greedy"], "seed": 11}
    r = c.post("/api/games", json=spec)
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["title"] == "Mine (house)" and state["rules"] == "koikoi"
    for _ in range(3):  # a few moves, so the replay has something to check
        if state["waiting"] or state["game_over"]:
            break
        action = state["table"]["moves"][0]["action"]
        state = c.post(f"/api/games/{state['id']}/move", json={"action": action}).json()
    saved = c.get(f"/api/games/{state['id']}/scenario").text
    assert 'rules = "koikoi"' in saved and "extends" not in saved
    house = tomllib.loads(saved)["house_rules"]  # line 2, the `extends`, blanked; a portable deck
    assert house == '# mine\n\ngame "Mine" variant "house"\ndeck "common/hanafuda"\n'
    path = tmp_path / "mine.scenario.toml"
    path.write_text(saved, encoding="utf-8")
    tested = CliRunner().invoke(cli, ["test", str(path)])
    assert tested.exit_code == 0, tested.output
    r = c.post("/api/resume", content=saved.encode(), headers=TOML)
    assert r.status_code == 200, r.text
    resumed = r.json()
    assert resumed["title"] == "Mine (house)"
    assert resumed["table"]["hand"] == state["table"]["hand"]


def test_play_this_refuses_text_it_cannot_save(app: Any) -> None:
    c = TestClient(app)
    alone = c.get("/api/rules/source", params={"name": "koikoi/sloper"}).json()["text"]
    assert check(c, alone)["ok"] and "extends" not in alone
    r = c.post("/api/games", json={"text": alone})
    assert r.status_code == 400 and "extends a rule file offered here" in r.json()["error"]
    r = c.post("/api/games", json={"text": 'extends "common/hanafuda"\n'})
    assert r.status_code == 400
    r = c.post("/api/games", json={"text": HOUSE + "seats lots\n"})
    assert r.status_code == 400 and r.json()["error"].startswith("editor.rk:3:7:")
    r = c.post("/api/games", json={"text": 'extends "../../etc/passwd"\n'})
    assert r.status_code == 400 and "reads only" in r.json()["error"]


def test_resumed_house_rules_reach_only_what_page_text_may(app: Any) -> None:
    c = TestClient(app)
    saved = c.get(
        f"/api/games/{c.post('/api/games', json={'text': HOUSE, 'seed': 2}).json()['id']}/scenario"
    ).text
    assert "house_rules" in saved
    sneaky = saved.replace('game \\"Mine\\" variant \\"house\\"', 'deck \\"../../../etc/x.rk\\"')
    assert sneaky != saved
    r = c.post("/api/resume", content=sneaky.encode(), headers=TOML)
    assert r.status_code == 400 and "reads only the bundled rule files" in r.json()["error"]


FRAGMENTS = [
    'extends "hachihachi"',
    'extends "../x"',
    "teyaku",
    "  kuttsuki 5",
    "seats 2",
    '"',
    "#",
    "(",
]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=6))
def test_any_text_is_checked_never_a_500(app: Any, lines: list[str]) -> None:
    answer = check(TestClient(app), "\n".join(lines))
    assert answer["ok"] == (not any(d["severity"] == "error" for d in answer["diagnostics"]))
    for d in answer["diagnostics"]:
        assert d["message"] and d["rendered"]
        if d["file"] == "editor.rk":
            assert 1 <= d["line"] <= len(lines) + 1 and d["end_column"] > d["column"]


def test_the_editor_warns_of_yaku_never_paid_and_shows_labels_as_written(app: Any) -> None:
    """Issue 21, items 9 and 17: the editor says what `rulekit check` says, and its rulebook
    prints a label with brackets as written."""
    text = (
        'extends "hachihachi/fudawiki"\ngame "Hachi-Hachi" variant "a [/] b [bold]x"\n'
        "continue: yaku do not end the round\n"
    )
    result = check(TestClient(app), text)
    assert any("the yaku are never paid" in d["message"] for d in result["diagnostics"])
    assert "a [/] b [bold]x" in result["describe"]
