"""The deck's art on the page (issue 24, item 1): every card of the standard deck has its face
shipped with the page and named in the API, a card beyond the 48 has none (the page draws
one), the art is credited, and card points are sent as counting only where the rule file's
count reads them."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the API tests need httpx (pip install -e '.[test]')")

from starlette.testclient import TestClient

from rulekit.lang import load_rules
from rulekit.web.app import STATIC, create_app
from rulekit.web.faces import face


def client() -> TestClient:
    return TestClient(create_app(allowed_hosts=("testserver",)))


def test_every_standard_card_has_its_own_face_shipped() -> None:
    ids = [c.id for c in load_rules("koikoi").deck.cards]
    faces = [face(i) for i in ids]
    assert len(ids) == 48 and len(set(faces)) == 48 and None not in faces
    for name in faces:
        assert (STATIC / "cards" / f"{name}.svg").is_file(), name
    credits = json.loads((STATIC / "cards" / "CREDITS.json").read_text())
    assert {f for f in faces} == set(credits["cards"])  # each face is credited


def test_faces_follow_what_each_file_shows_not_its_number() -> None:
    """Commons numbers December's plains otherwise: the yellow-banded one is m12-2."""
    assert face(121) == "m12-2" and face(122) == "m12-1" and face(123) == "m12-3"
    assert face(113) == "m11-3" and face(112) == "m11-2"  # lightning, willow ribbon
    assert face(10) == "m1-0" and face(81) == "m8-1"
    assert face(124) is None and face(5) is None and face(130) is None  # a bonus card's id


def test_the_api_names_each_face_and_whether_points_count() -> None:
    c = client()
    for rules, counts in (("koikoi", False), ("hachihachi", True)):
        r = c.post("/api/games", json={"rules": rules, "bots": ["greedy"], "seed": 5})
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()
        assert state["points_count"] is counts
        shown = [*state["table"]["field"], *state["table"]["hand"]]
        assert all(card["face"] == face(card["id"]) for card in shown)
        assert shown or state["table"]["phase"] == "swap"  # (Koi-Koi asks it before the deal)


def test_the_faces_are_served_and_credited() -> None:
    c = client()
    r = c.get("/static/cards/m12-2.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert c.get("/static/cards/back.svg").status_code == 200
    page = c.get("/").text
    assert "Louie Mantia, Jr." in page and "CC BY-SA 4.0" in page


def test_the_editors_eval_names_each_card_with_its_face() -> None:
    r = client().post(
        "/api/rules/eval",
        json={"text": 'extends "hachihachi"\n', "hand": "10 11 121", "mode": "captured"},
    )
    assert r.status_code == 200, r.text
    cards = r.json()["cards"]
    assert [(c["id"], c["face"]) for c in cards] == [(10, "m1-0"), (11, "m1-1"), (121, "m12-2")]
