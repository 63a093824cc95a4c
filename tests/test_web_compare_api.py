"""The compare API of `rulekit serve` through Starlette's test client: every endpoint, the
result equal to the CLI's for the same arguments, bad input answered with the CLI's located
messages, the bounds, and one browser's comparison out of another's reach."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rulekit.cli import cli
from rulekit.web import comparing
from rulekit.web.app import MAX_BODY, create_app

HOSTS = ("testserver",)
SMALL = {
    "a": {"rules": "koikoi"},
    "b": {"rules": "koikoi/six-rounds"},
    "rounds": 60,
    "seats": 2,
    "bots": ["greedy", "random"],
    "seed": 7,
}
LONG = {**SMALL, "rounds": 20_000}  # runs long enough to be seen running, then cancelled


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(allowed_hosts=HOSTS)


def start(c: TestClient, spec: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = c.post("/api/compare", json=spec)
    assert r.status_code == status, r.text
    return r.json()  # type: ignore[no-any-return]


def wait(c: TestClient, job: str, timeout: float = 60) -> dict[str, Any]:
    """The comparison's status once it is no longer running."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = c.get(f"/api/compare/{job}").json()
        if status["state"] != "running":
            return status  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"the comparison did not end: {status}")


def start_when_free(c: TestClient, spec: dict[str, Any], timeout: float = 20) -> str:
    """A comparison's id, once the cancelled workers have ended the part they were playing."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = c.post("/api/compare", json=spec)
        if r.status_code != 429:
            assert r.status_code == 200, r.text
            return str(r.json()["job"])
        time.sleep(0.05)
    raise AssertionError("the server stayed busy")


def error_of(c: TestClient, spec: Any, status: int = 400) -> str:
    r = c.post("/api/compare", json=spec)
    assert r.status_code == status, r.text
    assert "Traceback" not in r.text
    return str(r.json()["error"])


def test_page_script_and_options(app: Any) -> None:
    c = TestClient(app)
    page = c.get("/compare")
    assert page.status_code == 200 and "/static/compare.js" in page.text
    assert "<progress" in page.text and 'role="alert"' in page.text and "sandbox" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert c.get("/static/compare.js").status_code == 200
    opts = c.get("/api/compare/options").json()
    assert {"koikoi", "hachihachi/kirisame"} <= set(opts["rules"])
    assert opts["bots"] == ["random", "greedy", "rulewise"] and opts["rounds"] == [10, 20_000]
    assert "/compare" in c.get("/").text  # the play page links here


def test_a_small_comparison_runs_to_the_same_result_and_report_as_the_cli(
    app: Any, tmp_path: Path
) -> None:
    c = TestClient(app)
    started = start(c, SMALL)
    assert started["total"] == 60 and "rulekit_browser" in c.cookies
    status = wait(c, started["job"])
    assert status["state"] == "done" and status["done"] == status["total"] == 60, status
    assert status["rules"] == ["koikoi", "koikoi/six-rounds"] and "error" not in status
    summary = status["summary"]
    assert summary["title"].startswith("Comparing Koi-Koi") and "60 rounds" in summary["heading"]
    assert summary["verdict"].startswith("Koi-Koi (Sloper) (six-rounds) changes 1 rule")

    report = tmp_path / "r.html"
    args = ["compare", "koikoi", "koikoi/six-rounds", "--rounds", "60", "--seats", "2"]
    args += ["--bots", "greedy,random", "--seed", "7", "--json", "--no-timings"]
    ran = CliRunner().invoke(cli, [*args, "--report", str(report)])
    assert ran.exit_code == 0, ran.output
    url = f"/api/compare/{started['job']}/report"
    page_json = c.get(url, params={"format": "json"})
    assert page_json.headers["content-type"].startswith("application/json")
    assert page_json.json() == json.loads(ran.output)
    assert "seconds" not in page_json.json()

    html = c.get(url)
    assert html.headers["content-type"].startswith("text/html")
    assert "sandbox" in html.headers["content-security-policy"]
    assert html.text == report.read_text(encoding="utf-8")  # `compare --report r.html`, exactly
    assert summary["verdict"] in html.text.replace("&#x27;", "'").replace("&quot;", '"')
    md = c.get(url, params={"format": "md"})
    assert md.headers["content-type"].startswith("text/markdown")
    assert md.text.startswith(f"# {summary['title']}") and summary["verdict"] in md.text
    assert "format: html, md or json" in c.get(url, params={"format": "pdf"}).json()["error"]


def test_rule_text_from_the_page_is_compared_beside_an_offered_file(app: Any) -> None:
    c = TestClient(app)
    text = 'extends "koikoi/sloper"\nrounds 6\n'
    spec = {**SMALL, "rounds": 10, "b": {"text": text, "beside": "koikoi"}}
    status = wait(c, start(c, spec)["job"])
    assert status["state"] == "done" and status["rules"] == ["koikoi", "b-edited.rk"], status


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            {"a": {"rules": "koikoy"}},
            "no rule file 'koikoy' is offered here\n = did you mean 'koikoi'?",
        ),
        ({"b": {"rules": "/etc/passwd"}}, "no rule file '/etc/passwd' is offered here"),
        ({"rounds": 20_001}, "rounds: a whole number from 10 to 20,000"),
        ({"rounds": 9}, "rounds: a whole number from 10 to 20,000"),
        ({"rounds": "60"}, "rounds: a whole number"),
        ({"rounds": True}, "rounds: a whole number"),
        ({"seats": 9}, "seats: a whole number from 2 to 8"),
        ({"seats": 3}, "koikoi cannot seat 3 players"),
        ({"seed": -1}, "seed: a whole number from 0"),
        ({"bots": ["greddy"]}, "no bot named 'greddy' on this page\n = did you mean 'greedy'?"),
        ({"bots": ["search"]}, "the search bots are too slow for the page"),
        ({"bots": []}, "bots: a list of one to eight bot names"),
        ({"b": "koikoi"}, 'b: {"rules": NAME} or {"text": RULE TEXT'),
        ({"b": {"rules": "koikoi", "text": "x"}}, "one of the two"),
        ({"b": {"text": 5}}, "the text and the name are strings"),
        ({"b": {"rules": "hachihachi"}}, "no table size suits every variant"),
        (
            {"b": {"text": 'extends "koikoi"\nrounds x\n'}},
            "b-edited.rk:2:8: unexpected 'x'; expected a number\n 2 | rounds x\n   |        ^",
        ),
        ({"b": {"text": 'extends "../../etc/passwd"\n'}}, "b-edited.rk:1:1: no rule file"),
        ({"b": {"text": 'extends "koikoi"\n', "beside": "koikoy"}}, "did you mean 'koikoi'?"),
    ],
)
def test_bad_input_is_a_clear_400(app: Any, change: dict[str, Any], said: str) -> None:
    assert said in error_of(TestClient(app), {**SMALL, **change})


def test_a_bad_body_is_refused(app: Any) -> None:
    c = TestClient(app)
    r = c.post("/api/compare", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    assert "not a JSON object" in error_of(c, [1, 2])
    big = {**SMALL, "b": {"text": "#" * (MAX_BODY + 1)}}
    assert error_of(c, big, 413) == "the request is too large"


def test_extends_outside_the_reach_is_refused_and_says_why(app: Any) -> None:
    said = error_of(TestClient(app), {**SMALL, "b": {"text": 'extends "../../etc/passwd"\n'}})
    assert "rule text from the page reads only the bundled rule files" in said
    assert "root:" not in said


def test_another_browsers_comparison_is_not_found(app: Any) -> None:
    mine, theirs = TestClient(app), TestClient(app)
    job = start(mine, SMALL)["job"]
    theirs.get("/api/compare/options")
    start(theirs, {**SMALL, "rounds": 10})  # theirs has a cookie of its own
    assert theirs.cookies["rulekit_browser"] != mine.cookies["rulekit_browser"]
    for method, url in [
        ("GET", f"/api/compare/{job}"),
        ("GET", f"/api/compare/{job}/report"),
        ("GET", f"/api/compare/{job}/report?format=json"),
        ("DELETE", f"/api/compare/{job}"),
    ]:
        r = theirs.request(method, url)
        assert r.status_code == 404 and r.json() == {"error": "no such comparison in this browser"}
        assert TestClient(app).request(method, url).status_code == 404  # no cookie at all
    assert wait(mine, job)["state"] == "done"  # the attempt changed nothing
    assert mine.get("/api/compare/nosuchjob").status_code == 404


def test_cancel_and_a_new_comparison_cancels_the_old() -> None:
    c = TestClient(create_app(allowed_hosts=HOSTS))
    first = start(c, LONG)["job"]
    assert c.get(f"/api/compare/{first}").json()["state"] == "running"
    second = start(c, LONG)["job"]  # one running per browser: the first is cancelled
    assert c.get(f"/api/compare/{first}").json()["state"] == "cancelled"
    r = c.delete(f"/api/compare/{second}")
    assert r.status_code == 200 and r.json()["state"] == "cancelled"
    status = c.get(f"/api/compare/{second}").json()
    assert status["state"] == "cancelled" and status["done"] < status["total"]
    r = c.get(f"/api/compare/{second}/report")
    assert r.status_code == 409 and "cancelled" in r.json()["error"]
    assert c.get(f"/api/compare/{second}/report?format=json").status_code == 409


def test_at_most_two_run_at_once_and_old_ones_are_dropped() -> None:
    c = TestClient(create_app(allowed_hosts=HOSTS))
    one, two, three = (TestClient(c.app) for _ in range(3))
    jobs = [start(one, LONG)["job"], start(two, LONG)["job"]]
    said = error_of(three, SMALL, 429)
    assert "already running 2 comparisons" in said
    assert three.delete(f"/api/compare/{jobs[0]}").status_code == 404  # not theirs to cancel
    one.delete(f"/api/compare/{jobs[0]}")
    two.delete(f"/api/compare/{jobs[1]}")
    kept = []
    for _ in range(comparing.KEPT + 2):
        kept.append(start_when_free(three, {**SMALL, "rounds": 10}))
        assert wait(three, kept[-1])["state"] == "done"
    assert three.get(f"/api/compare/{kept[0]}").status_code == 404  # the oldest dropped
    assert three.get(f"/api/compare/{kept[-1]}").json()["state"] == "done"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "rounds", "seats", "bots", "seed"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(2**40), 2**40),
            st.text(max_size=30),
            st.lists(st.sampled_from(["greedy", "x", "search"]), max_size=10),
            st.fixed_dictionaries(
                {"rules": st.sampled_from(["koikoi", "koikoi/sloper", "nope", ""])}
            ),
            st.fixed_dictionaries({"text": st.text(max_size=40)}),
        ),
    )
)
def test_no_request_body_is_answered_with_a_500(app: Any, spec: dict[str, Any]) -> None:
    c = TestClient(app)
    r = c.post("/api/compare", json={**SMALL, **spec})
    assert r.status_code in (200, 400, 429), r.text
    if r.status_code == 200:
        c.delete(f"/api/compare/{r.json()['job']}")
