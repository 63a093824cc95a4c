"""The play page as a card table (issue 24, item 2): the setup is a dialog before the game, and
the board (opponents, field, hand) fits a laptop's and a phone's window without scrolling to the
hand; a hand card under the pointer marks the field cards of its month; keys play. Skipped, with
the reason, without Chromium, its driver or Selenium."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_support import By, browser, server, start_game, wait_for

__all__ = ["browser", "server"]  # fixtures


@pytest.fixture
def window(browser: Any) -> Iterator[Any]:
    """The browser, its window set by each test (a phone's is a mobile one), reset after."""
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _size(browser: Any, width: int, height: int) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700},
    )


def _bottom(browser: Any, css: str) -> float:
    return float(
        browser.execute_script(
            "return document.querySelector(arguments[0]).getBoundingClientRect().bottom", css
        )
    )


@pytest.mark.parametrize(
    ("width", "height", "rules"),
    [(1366, 768, "koikoi"), (1366, 768, "hachihachi"), (390, 844, "koikoi"),
     (390, 844, "hachihachi")],
)  # fmt: skip
def test_the_board_fits_the_window_without_scrolling_to_the_hand(
    window: Any, server: str, width: int, height: int, rules: str
) -> None:
    _size(window, width, height)
    start_game(window, server, rules, 7)
    assert not window.find_element(By.ID, "setup").is_displayed()  # the setup was a dialog
    wait_for(window, "#hand .card")
    inner = window.execute_script("return window.innerHeight")
    assert window.execute_script("return window.scrollY") == 0
    for part in ("#players", "#field", "#hand"):
        assert _bottom(window, part) <= inner, (part, _bottom(window, part), inner)
    wide = window.execute_script("return document.documentElement.scrollWidth")
    assert wide <= width  # nothing overflows sideways
    shots = os.environ.get("RULEKIT_SCREENSHOTS")  # docs/serve-phone.png
    if shots and width < 700 and rules == "hachihachi":
        time.sleep(0.8)  # (the last move's cards have arrived)
        window.save_screenshot(os.path.join(shots, "serve-phone.png"))


def test_the_setup_comes_first_and_opens_again(window: Any, server: str) -> None:
    window.get(server)
    wait_for(window, "#rules option")
    assert window.find_element(By.ID, "setup").is_displayed()
    assert not window.find_element(By.ID, "board").is_displayed()
    start_game(window, server, "koikoi", 7)
    assert not window.find_element(By.ID, "setup").is_displayed()
    window.find_element(By.ID, "new").click()
    assert window.find_element(By.ID, "setup").is_displayed()


def test_a_hand_card_under_the_pointer_marks_its_months_field_cards(
    window: Any, server: str
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    start_game(window, server, "hachihachi", 7)
    game = window.execute_script("return game;")
    field_months = {c["month"] for c in game["table"]["field"]}
    hand = window.find_elements(By.CSS_SELECTOR, "#hand .card")
    matching = next(i for i, c in enumerate(game["table"]["hand"]) if c["month"] in field_months)
    ActionChains(window).move_to_element(hand[matching]).perform()
    month = game["table"]["hand"][matching]["month"]
    marked = {
        int(e.get_attribute("data-card"))
        for e in window.find_elements(By.CSS_SELECTOR, "#field .matches")
    }
    assert marked == {c["id"] for c in game["table"]["field"] if c["month"] == month}


def test_a_key_plays_the_hand_card_at_its_position(window: Any, server: str) -> None:
    start_game(window, server, "hachihachi", 7)
    before = window.execute_script("return game;")
    playable = window.execute_script(
        "return [...document.querySelectorAll('#hand .card')]"
        ".findIndex((c) => c.classList.contains('playable'))"
    )
    window.find_element(By.TAG_NAME, "body").send_keys(str(playable + 1))
    for _ in range(100):
        after = window.execute_script("return game;")
        if after["log"] != before["log"] or window.find_elements(By.CSS_SELECTOR, "#field .choice"):
            break
        time.sleep(0.05)
    played = before["table"]["hand"][playable]["id"]
    after_ids = {c["id"] for c in after["table"]["hand"]} if after["table"] else set()
    chosen = window.find_elements(By.CSS_SELECTOR, "#field .choice")
    assert played not in after_ids or chosen  # played, or its two-match choice is offered


def test_the_editor_fits_a_phone(window: Any, server: str) -> None:
    """The editor overflowed a phone's width (519 px at 390): now it and its panels fit."""
    _size(window, 390, 844)
    window.get(server + "/editor")
    wait_for(window, "#editor .ace_content")
    assert window.execute_script("return document.documentElement.scrollWidth") <= 390
    right = window.execute_script(
        "return Math.max(...['#editor', '#panels', '#toolbar'].map("
        "(s) => document.querySelector(s).getBoundingClientRect().right))"
    )
    assert right <= 390
