"""What `rulekit serve FILE` and `rulekit serve FOLDER` put in reach (issue 21, item 15): only
the rule files named or found in the folder, never a file a link out of the folder points to,
and nothing that is not a rule file, neither offered nor quoted in a message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit.errors import UsageError
from rulekit.lang import load_rules
from rulekit.web.app import create_app
from rulekit.web.catalog import Catalog

HOSTS = ("testserver",)
SECRET = "TOP SECRET: the key under the mat"


def client(*served: Path) -> TestClient:
    return TestClient(create_app(list(served), allowed_hosts=HOSTS))


def check(c: TestClient, text: str, beside: str | None = None) -> dict[str, Any]:
    r = c.post("/api/rules/check", json={"text": text, "beside": beside})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def said(c: TestClient, text: str, beside: str | None = None) -> str:
    """Everything a check of the text says (each diagnostic as the CLI renders it)."""
    return "\n".join(d["rendered"] for d in check(c, text, beside)["diagnostics"])


def secret_file(path: Path) -> Path:
    """A file that is not a rule file; its first line is what a message would quote."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{SECRET}\n", encoding="utf-8")
    return path


def test_symlink_out_of_a_served_folder_quotes_nothing(tmp_path: Path) -> None:
    outside = secret_file(tmp_path / "outside" / "secret.rk")
    secret_file(tmp_path / "outside" / "deeper" / "inner.rk")
    served = tmp_path / "served"
    served.mkdir()
    (served / "house.rk").write_text('extends "koikoi"\ngame "House" variant "served"\n')
    (served / "leak.rk").symlink_to(outside)
    (served / "linked").symlink_to(tmp_path / "outside" / "deeper", target_is_directory=True)
    c = client(served)
    house, leak = str(served / "house.rk"), str(served / "leak.rk")
    names = c.get("/api/options").json()["rules"]
    assert house in names
    assert not [n for n in names if "leak" in n or "linked" in n or "secret" in n], names
    for r in (
        c.post("/api/games", json={"rules": leak, "bots": ["greedy"]}),
        c.get("/api/rules/source", params={"name": leak}),
        c.post("/api/compare", json={"a": {"rules": leak}, "b": {"rules": "koikoi"}}),
    ):
        assert r.status_code == 400 and "is offered here" in r.json()["error"], r.text
        assert SECRET not in r.text
    for text in ('extends "leak.rk"\n', 'deck "leak.rk"\n', 'extends "linked/inner.rk"\n'):
        answer = said(c, text, beside=house)
        assert "reads only" in answer and SECRET not in answer, answer
    # and after that, a text that extends a served file is checked as before
    answer = check(c, 'extends "house.rk"\ngame "Top" variant "x"\n', beside=house)
    assert answer["ok"] and answer["parent"] == house and answer["parent_offered"]


def test_serving_a_file_serves_that_file_and_what_it_extends_only(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "base.rk").write_text('extends "koikoi"\ngame "Base" variant "mine"\n')
    (folder / "house.rk").write_text('extends "base.rk"\ngame "House" variant "mine"\n')
    secret_file(folder / "sub" / "deep.rk")
    secret_file(folder / "notes.rk")
    (folder / "settings.json").write_text(json.dumps({"password": SECRET}))
    c = client(folder / "house.rk")
    house = str(folder / "house.rk")
    names = c.get("/api/options").json()["rules"]
    assert house in names and not [n for n in names if str(folder) in n and n != house]
    assert check(c, 'extends "base.rk"\n# mine\n', beside=house)["ok"]  # house.rk needs it
    assert check(c, 'extends "house.rk"\n', beside=house)["ok"]
    for text in ('extends "sub/deep.rk"\n', 'extends "notes.rk"\n', 'deck "settings.json"\n'):
        answer = said(c, text, beside=house)
        assert "reads only" in answer and SECRET not in answer, answer
    r = c.post("/api/games", json={"rules": house, "bots": ["greedy"], "seed": 1})
    assert r.status_code == 200 and r.json()["title"] == "House (mine)", r.text


def test_a_served_folder_offers_only_json_that_is_rule_ir(tmp_path: Path) -> None:
    served = tmp_path / "served"
    served.mkdir()
    ir = load_rules("koikoi").model_dump(mode="json")
    (served / "koikoi-ir.json").write_text(json.dumps(ir))
    (served / "package.json").write_text(json.dumps({"name": SECRET, "version": "1.0"}))
    (served / "broken.json").write_text(f"{SECRET} {{")
    c = client(served)
    names = c.get("/api/options").json()["rules"]
    assert str(served / "koikoi-ir.json") in names
    assert str(served / "package.json") not in names and str(served / "broken.json") not in names
    for text in ('deck "package.json"\n', 'extends "broken.json"\n'):
        answer = said(c, text, beside=str(served / "koikoi-ir.json"))
        assert "reads only" in answer and SECRET not in answer, answer
    r = c.post("/api/games", json={"rules": str(served / "koikoi-ir.json"), "bots": ["greedy"]})
    assert r.status_code == 200, r.text


def test_a_file_that_is_not_a_rule_file_is_not_served(tmp_path: Path) -> None:
    notes = secret_file(tmp_path / "notes.txt")
    with pytest.raises(UsageError, match="not a rule file") as err:
        Catalog([notes])
    assert SECRET not in err.value.render()


def test_a_served_file_that_extends_other_json_brings_it_into_no_reach(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"password": SECRET}))
    (tmp_path / "broken.rk").write_text('extends "settings.json"\n')
    c = client(tmp_path / "broken.rk")
    answer = said(c, 'extends "settings.json"\n', beside=str(tmp_path / "broken.rk"))
    assert "reads only" in answer and SECRET not in answer, answer
