"""What the browser tests share: a real server on a free port and headless Chromium driven by
Selenium. Importing this module skips the importing test module, with the reason, when there is
no Chromium, chromedriver or Selenium (`.ci/run` installs them)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

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

from rulekit.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free port of 127.0.0.1, in a thread of this process."""
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


def new_browser(size: str = "1280,1100") -> Any:
    """Headless Chromium, its window `size` (width,height)."""
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={size}")
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = new_browser()
    yield driver
    driver.quit()


def wait_for(browser: Any, css: str, timeout: float = 10) -> Any:
    """The elements matching `css`, once there are any; an error with the page's text if not."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = browser.find_elements(By.CSS_SELECTOR, css)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"nothing matches {css}: {browser.find_element(By.TAG_NAME, 'body').text}")


# ---------------------------------------------------------------- what the round tests click
def policy(table: dict[str, Any], go_on: bool = False) -> tuple[str, Any]:
    """What a test clicks, the same in the browser and through the API: at a stop/continue
    decision continue when `go_on`, else stop; keep, join; a hand card that matches two field
    cards first (the field card to take chosen next), else the play taking the most points
    (the card of fewest points laid on the field when none takes)."""
    moves = table["moves"]
    buttons = {m["words"]: m["action"] for m in moves if m["kind"] == "button"}
    if table["phase"] == "decide":
        go = next(a for w, a in buttons.items() if w != "stop")
        return "button", go if go_on else buttons["stop"]
    for word in ("keep", "join"):
        if word in buttons:
            return "button", buttons[word]
    if table["phase"] == "take":
        return "take", min(m["target"] for m in moves if m["kind"] == "take")
    cards = [m["card"] for m in moves if m["kind"] == "play"]
    double = next((c for c in cards if cards.count(c) == 2), None)
    if double is not None:
        return "double", double
    hand = {c["id"]: c for c in table["hand"]}

    def worth(cid: int) -> tuple[int, int]:
        card = hand[cid]
        same = [f["points"] for f in table["field"] if f["month"] == card["month"]]
        return (card["points"] + max(same) if same else -1000 - card["points"], cid)

    return "play", max(cards, key=worth)


def action_of(table: dict[str, Any], kind: str, what: Any) -> int:
    """The move the browser makes for the policy's choice (a double takes the lower card)."""
    moves = table["moves"]
    if kind == "double":
        return int(
            min((m for m in moves if m.get("card") == what), key=lambda m: m["target"])["action"]
        )
    if kind == "take":
        return int(next(m["action"] for m in moves if m.get("target") == what))
    if kind == "play":
        return int(next(m["action"] for m in moves if m.get("card") == what))
    return int(what)


def play_round_api(
    client: Any, rules: str, seed: int, go_on: bool, bot: str = "greedy"
) -> set[str]:
    """What the first round of `seed`, played by `policy` through the API, shows the person:
    "double" (a hand card matching two field cards), "take" (a drawn card matching two), the
    decision phases met, "continue" (a continue clicked)."""
    state = client.post("/api/games", json={"rules": rules, "bots": [bot], "seed": seed})
    state = state.json()
    seen: set[str] = set()
    while not state["waiting"] and not state["game_over"]:
        table = state["table"]
        kind, what = policy(table, go_on and "decide" not in seen)
        if kind in ("double", "take"):
            seen.add(kind)
        elif kind == "button":
            seen.add(table["phase"])
            if table["phase"] == "decide" and what != _stop(table):
                seen.add("continue")
        action = action_of(table, kind, what)
        state = client.post(f"/api/games/{state['id']}/move", json={"action": action}).json()
    return seen


def find_seed(
    rules: str, want: set[str], go_on: bool = False, first: int = 0, bot: str = "greedy"
) -> int:
    """A seed whose first round, played by `policy` against `bot`s, shows the person all of
    `want`: `first` (a seed found before, checked again) if it still does, else the first of
    0..299."""
    from starlette.testclient import TestClient

    client = TestClient(create_app(allowed_hosts=("testserver",)))
    for seed in (first, *range(300)):
        if want <= play_round_api(client, rules, seed, go_on, bot):
            return seed
    raise AssertionError(f"no seed in 300 shows {sorted(want)} in a round of {rules}")


def _stop(table: dict[str, Any]) -> int | None:
    return next((m["action"] for m in table["moves"] if m["words"] == "stop"), None)


def start_game(
    browser: Any, server: str, rules: str, seed: int, seats: int | None = None, bot: str = "greedy"
) -> None:
    """A new game from the page's form: the rules, the bots, the seed (and seats)."""
    browser.get(server)
    wait_for(browser, f"#rules option[value='{rules}']")
    browser.execute_script(
        "document.getElementById('rules').value = arguments[0];"
        "for (const o of document.getElementById('bots').options)"
        "  o.selected = o.value === arguments[3];"
        "document.getElementById('seed').value = arguments[1];"
        "document.getElementById('seats').value = arguments[2] ?? '';",
        rules,
        seed,
        seats,
        bot,
    )
    browser.find_element(By.ID, "start").click()
    wait_for(browser, "#board:not([hidden])")


def play_round_by_clicking(browser: Any, go_on: bool = False, shot: str | None = None) -> set[str]:
    """The round on the page played to its end by clicking what `policy` chooses; what it
    showed, as `play_round_api` says. `shot`: a screenshot at a two-match choice of a hand card."""
    seen: set[str] = set()
    for _ in range(200):
        if browser.find_elements(By.CSS_SELECTOR, "#next-round, #final"):
            return seen
        state = browser.execute_script("return game;")
        table = state["table"]
        kind, what = policy(table, go_on and "decide" not in seen)
        if kind == "button":
            seen.add(table["phase"])
            if table["phase"] == "decide" and what != _stop(table):
                seen.add("continue")
            browser.find_element(By.CSS_SELECTOR, f"#decision button[data-action='{what}']").click()
        elif kind == "double":
            seen.add("double")
            browser.find_element(By.CSS_SELECTOR, f"#hand .card[data-card='{what}']").click()
            choices = wait_for(browser, "#field .card.choice")
            assert len(choices) == 2  # the two field cards it may take, and no other
            if shot:  # the two cards to choose from highlighted (the round's last such)
                browser.save_screenshot(shot)
            min(choices, key=lambda e: int(e.get_attribute("data-card"))).click()
        elif kind == "take":
            seen.add("take")
            browser.find_element(
                By.CSS_SELECTOR, f"#field .card.choice[data-card='{what}']"
            ).click()
        else:
            browser.find_element(
                By.CSS_SELECTOR, f"#hand .card.playable[data-card='{what}']"
            ).click()
        wait_changed(browser, state)
    raise AssertionError("the round did not end")


def wait_changed(browser: Any, old: dict[str, Any]) -> None:
    """Until the page holds the server's answer to the click."""
    for _ in range(200):
        now = browser.execute_script("return game;")
        if now != old:
            return
        time.sleep(0.05)
    raise AssertionError("the page did not change after a click")
