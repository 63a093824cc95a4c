"""A real browser plays a Koi-Koi round by clicking, on a real server: a two-match choice and
a stop/continue decision included. Skipped, with the reason, without Chromium, its driver or
Selenium (`.ci/run` installs them). RULEKIT_SCREENSHOT=path saves the board mid-round."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip(
        "no Chromium or chromedriver: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )
webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
uvicorn = pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from rulekit.web.app import create_app  # noqa: E402

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


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(allowed_hosts=("127.0.0.1",)), host="127.0.0.1", port=port, log_level="error"
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"):
        options.add_argument(flag)
    options.add_argument("--window-size=1280,1100")
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(browser: Any, css: str, timeout: float = 10) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = browser.find_elements(By.CSS_SELECTOR, css)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"nothing matches {css}: {browser.find_element(By.TAG_NAME, 'body').text}")


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
