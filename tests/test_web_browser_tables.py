"""Friends at one table, each in his own browser (issue 24, item 4): two browsers play a whole
Koi-Koi round against each other by clicking, and neither page's HTML nor its WebSocket traffic
ever holds the other's hand; one closes its tab mid-round, comes back by the same link and
finishes; a Hachi-Hachi table seats two people and a bot. Skipped, with the reason, without
Chromium, its driver or Selenium."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_support import By, browser, new_browser, policy, server, wait_for

__all__ = ["browser", "server"]  # fixtures

# every frame a page's WebSockets receive, kept in the page (installed before its scripts run)
RECORD = """
window.__frames = [];
const Real = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = new Real(url, protocols);
  ws.addEventListener("message", (e) => window.__frames.push(e.data));
  return ws;
};
window.WebSocket.prototype = Real.prototype;
"""


@pytest.fixture(scope="module")
def friend() -> Iterator[Any]:
    """A second browser: another person at the table."""
    driver = new_browser("1280,1000")
    yield driver
    driver.quit()


def _recording(driver: Any) -> None:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})


def open_table(host: Any, server: str, rules: str, people: int, seed: int) -> str:
    """A table opened from the setup dialog; its invitation link."""
    host.get(server)
    wait_for(host, f"#rules option[value='{rules}']")
    host.execute_script(
        "$('rules').value = arguments[0];"
        "for (const o of $('bots').options) o.selected = o.value === 'greedy';"
        "$('seed').value = arguments[1]; $('people').value = arguments[2];"
        "$('your-name').value = 'Ann';",
        rules,
        seed,
        people,
    )
    host.find_element(By.ID, "open-table").click()
    return str(wait_for(host, "#invite")[0].get_attribute("href"))


def join(guest: Any, link: str, name: str) -> None:
    guest.get(link)
    wait_for(guest, "#join-name")
    guest.find_element(By.ID, "join-name").send_keys(name)
    guest.find_element(By.ID, "join-button").click()
    wait_for(guest, "#board:not([hidden]) #hand .card, #board:not([hidden]) #decision button")


def state(driver: Any) -> dict[str, Any]:
    return driver.execute_script("return game;")  # type: ignore[no-any-return]


def hand_ids(driver: Any) -> set[int]:
    s = state(driver)
    return {c["id"] for c in s["table"]["hand"]} if s and s["table"] else set()


def leaked(driver: Any, hidden: set[int]) -> set[int]:
    """Cards of `hidden` that the page shows, or that a frame it received since the last look
    holds (as card objects: every frame is looked at once, while its hand is still hidden)."""
    on_page, frames = driver.execute_script(
        "const seen = window.__seen || 0; window.__seen = window.__frames.length;"
        "return [[...document.querySelectorAll('.card[data-card]')].map((e) => e.dataset.card),"
        " window.__frames.slice(seen).join('\\n')];"
    )
    in_frames = {cid for cid in hidden if f'"id":{cid},' in frames.replace(" ", "")}
    return ({int(c) for c in on_page} | in_frames) & hidden


def click_for(driver: Any) -> None:
    """The move `policy` chooses, clicked on this page."""
    table = state(driver)["table"]
    kind, what = policy(table)
    if kind == "button":
        driver.find_element(By.CSS_SELECTOR, f"#decision button[data-action='{what}']").click()
    elif kind == "double":
        driver.find_element(By.CSS_SELECTOR, f"#hand .card[data-card='{what}']").click()
        choices = wait_for(driver, "#field .card.choice")
        min(choices, key=lambda e: int(e.get_attribute("data-card"))).click()
    elif kind == "take":
        driver.find_element(By.CSS_SELECTOR, f"#field .card.choice[data-card='{what}']").click()
    else:
        driver.find_element(By.CSS_SELECTOR, f"#hand .card.playable[data-card='{what}']").click()


def wait_turn(drivers: list[Any], version: int) -> None:
    """Until every page holds a state newer than `version`."""
    for _ in range(400):
        if all((state(d) or {}).get("version", -1) > version for d in drivers):
            return
        time.sleep(0.05)
    raise AssertionError("the pages were not told of the move")


def over(driver: Any) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, "#next-round, #final"))


def whose_turn(*pages: Any) -> Any | None:
    """The page whose turn it is (None: none yet, the server still telling them)."""
    return next((p for p in pages if state(p)["table"]["your_turn"]), None)


def play_on(mover: Any, pages: list[Any]) -> None:
    """The mover's move clicked, until every page is told of it."""
    version = state(mover)["version"]
    click_for(mover)
    wait_turn(pages, version)


def test_two_browsers_play_a_koikoi_round_and_never_see_each_others_hand(
    server: str, browser: Any, friend: Any
) -> None:
    _recording(browser)
    _recording(friend)
    link = open_table(browser, server, "koikoi", 2, 7)
    join(friend, link, "Ben")
    wait_for(browser, "#places li")
    assert "Ben" in browser.find_element(By.ID, "places").text
    came_back = False
    for step in range(200):
        if over(browser) and over(friend):
            break
        mine, theirs = hand_ids(browser), hand_ids(friend)
        assert not leaked(browser, theirs) and not leaked(friend, mine), step
        shown = {
            int(e.get_attribute("data-card"))
            for e in browser.find_elements(By.CSS_SELECTOR, "#hand .card")
        }
        assert shown == mine  # (the check sees a hand where it is shown)
        mover = whose_turn(browser, friend)
        if mover is None:
            time.sleep(0.05)
            continue
        if step == 6 and os.environ.get("RULEKIT_SCREENSHOTS"):  # docs/serve-table.png
            time.sleep(0.8)  # (the last move's cards have arrived)
            browser.save_screenshot(
                os.path.join(os.environ["RULEKIT_SCREENSHOTS"], "serve-table.png")
            )
        if step == 4 and not came_back:  # Ben closes his tab mid-round and comes back
            friend.get("about:blank")
            friend.get(link)
            wait_for(friend, "#board:not([hidden]) #hand .card")
            assert state(friend)["you"] == 1  # the same seat, found by the token kept
            came_back = True
            continue
        play_on(mover, [browser, friend])
    assert came_back and over(browser) and over(friend)
    assert "round 1 over" in browser.find_element(By.ID, "round-over").text
    assert not leaked(browser, hand_ids(friend)) and not leaked(friend, hand_ids(browser))


def test_a_hachihachi_table_with_a_bot_in_the_third_seat(
    server: str, browser: Any, friend: Any
) -> None:
    _recording(browser)
    _recording(friend)
    link = open_table(browser, server, "hachihachi", 2, 7)
    join(friend, link, "Ben")
    places = wait_for(browser, "#places li")
    assert len(places) == 3 and "a bot" in places[2].text
    for _ in range(200):
        if over(browser) and over(friend):
            break
        assert not leaked(browser, hand_ids(friend)) and not leaked(friend, hand_ids(browser))
        mover = whose_turn(browser, friend)
        if mover is None:
            time.sleep(0.05)
            continue
        play_on(mover, [browser, friend])
    assert over(browser) and over(friend)
    assert "round 1 over" in friend.find_element(By.ID, "round-over").text


def test_a_seat_token_of_no_seat_is_dropped_and_the_join_dialog_shown(
    server: str, browser: Any
) -> None:
    """A browser's kept token that finds no seat (a server started again) is closed with the
    code the page reads: it forgets the token and offers to join, not retry for ever."""
    link = open_table(browser, server, "koikoi", 2, 7)
    table_id = link.rsplit("/", 1)[1]
    browser.execute_script(
        "localStorage.setItem(arguments[0], 'not-a-seat');", f"rulekit-table-{table_id}"
    )
    browser.get(link)
    wait_for(browser, "#join[open]")
    assert (
        browser.execute_script(
            "return localStorage.getItem(arguments[0]);", f"rulekit-table-{table_id}"
        )
        is None
    )
