"""A real browser plays a Koi-Koi round by clicking, on a real server: a two-match choice and
a stop/continue decision included. Skipped, with the reason, without Chromium, its driver or
Selenium (`.ci/run` installs them). RULEKIT_SCREENSHOT=path saves the board mid-round."""

from __future__ import annotations

import os
import time
from typing import Any

from starlette.testclient import TestClient

from rulekit.web.app import create_app
from tests.browser_support import By, browser, server, wait_for

__all__ = ["browser", "server"]  # fixtures

RULES = "koikoi"


def choose(state: dict[str, Any], words: str) -> int:
    return next(m["action"] for m in state["table"]["moves"] if m["words"] == words)


def policy(table: dict[str, Any]) -> tuple[str, Any]:
    """What the test clicks, the same in the browser and through the API: keep, join, stop;
    a hand card that matches two field cards first, then the first field card offered."""
    moves = table["moves"]
    buttons = {m["words"]: m["action"] for m in moves if m["kind"] == "button"}
    for word in ("stop", "keep", "join"):
        if word in buttons:
            return "button", buttons[word]
    if table["phase"] == "take":
        return "take", min(m["target"] for m in moves if m["kind"] == "take")
    plays = [m for m in moves if m["kind"] == "play"]
    cards = [m["card"] for m in plays]
    double = next((c for c in cards if cards.count(c) == 2), None)
    if double is not None:
        return "double", double
    return "play", min(cards)


def find_seed() -> int:
    """A seed whose first round, played by `policy`, has a two-match choice and a stop."""
    c = TestClient(create_app(allowed_hosts=("testserver",)))
    for seed in range(300):
        state = c.post("/api/games", json={"rules": RULES, "bots": ["greedy"], "seed": seed}).json()
        seen: set[str] = set()
        while not state["waiting"] and not state["game_over"]:
            table = state["table"]
            kind, what = policy(table)
            if kind == "double":
                seen.add(kind)
                targets = [m for m in table["moves"] if m.get("card") == what]
                action = min(targets, key=lambda m: m["target"])["action"]
            elif kind == "take":
                seen.add("double")
                action = next(m["action"] for m in table["moves"] if m.get("target") == what)
            elif kind == "play":
                action = next(m["action"] for m in table["moves"] if m.get("card") == what)
            else:
                if table["phase"] == "decide":
                    seen.add("decide")
                action = what
            state = c.post(f"/api/games/{state['id']}/move", json={"action": action}).json()
        if {"double", "decide"} <= seen:
            return seed
    raise AssertionError("no seed in 300 gives both a two-match choice and a stop")


def test_a_koikoi_round_played_by_clicking(server: str, browser: Any) -> None:
    seed = find_seed()
    browser.get(server)
    wait_for(browser, f"#rules option[value='{RULES}']")
    browser.execute_script(
        "document.getElementById('rules').value = arguments[0];"
        "for (const o of document.getElementById('bots').options)"
        "  o.selected = o.value === 'greedy';"
        "document.getElementById('seed').value = arguments[1];",
        RULES,
        seed,
    )
    browser.find_element(By.ID, "start").click()
    wait_for(browser, "#board:not([hidden])")
    seen: set[str] = set()
    shot = os.environ.get("RULEKIT_SCREENSHOT")
    for _ in range(200):
        if browser.find_elements(By.CSS_SELECTOR, "#next-round, #final"):
            break
        state = browser.execute_script("return game;")
        table = state["table"]
        kind, what = policy(table)
        if kind == "button":
            seen.add(table["phase"])
            browser.find_element(By.CSS_SELECTOR, f"#decision button[data-action='{what}']").click()
        elif kind == "double":
            seen.add("double")
            browser.find_element(By.CSS_SELECTOR, f"#hand .card[data-card='{what}']").click()
            choices = wait_for(browser, "#field .card.choice")
            assert len(choices) == 2  # the two field cards it may take, and no other
            if shot:  # mid-round, the two cards to choose from highlighted
                browser.save_screenshot(shot)
                shot = None
            min(choices, key=lambda e: int(e.get_attribute("data-card"))).click()
        elif kind == "take":
            seen.add("double")
            browser.find_element(
                By.CSS_SELECTOR, f"#field .card.choice[data-card='{what}']"
            ).click()
        else:
            browser.find_element(
                By.CSS_SELECTOR, f"#hand .card.playable[data-card='{what}']"
            ).click()
        _wait_changed(browser, state)
    else:
        raise AssertionError("the round did not end")
    assert {"double", "decide"} <= seen, seen
    over = browser.find_element(By.ID, "round-over").text
    assert "round 1 over" in over and "->" in over  # the payments, with what they were for
    assert not browser.find_element(By.ID, "error").is_displayed()


def _wait_changed(browser: Any, old: dict[str, Any]) -> None:
    """Until the page holds the server's answer to the click."""
    for _ in range(200):
        now = browser.execute_script("return game;")
        if now != old:
            return
        time.sleep(0.05)
    raise AssertionError("the page did not change after a click")
