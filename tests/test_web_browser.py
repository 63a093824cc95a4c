"""A real browser plays a Koi-Koi round by clicking, on a real server: a two-match choice and
a stop/continue decision included. Skipped, with the reason, without Chromium, its driver or
Selenium (`.ci/run` installs them). The Hachi-Hachi round: test_web_browser_hachihachi.py."""

from __future__ import annotations

from typing import Any

from tests.browser_support import (
    By,
    browser,
    find_seed,
    play_round_by_clicking,
    server,
    start_game,
)

__all__ = ["browser", "server"]  # fixtures

RULES = "koikoi"
SEED = 7  # found by find_seed (policy of tests/browser_support.py); searched again if it stops


def test_a_koikoi_round_played_by_clicking(server: str, browser: Any) -> None:
    seed = find_seed(RULES, {"double", "decide"}, first=SEED)
    start_game(browser, server, RULES, seed)
    seen = play_round_by_clicking(browser)
    assert {"double", "decide"} <= seen, seen
    over = browser.find_element(By.ID, "round-over").text
    assert "round 1 over" in over and "->" in over  # the payments, with what they were for
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_cards_show_their_faces_and_hidden_hands_their_backs(server: str, browser: Any) -> None:
    """The deck's art is loaded for every card shown; the opponent's hand is only backs, as
    many as he holds; the art is credited on the page."""
    start_game(browser, server, "hachihachi", 3)
    faces = browser.find_elements(By.CSS_SELECTOR, "#field .card img, #hand .card img")
    assert len(faces) >= 6 + 7
    assert all(
        browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img)
        for img in faces
    )
    other = browser.find_elements(By.CSS_SELECTOR, "#players .player:not(.you)")[0]
    assert other.find_elements(By.CSS_SELECTOR, ".backs .card.back")
    assert not other.find_elements(By.CSS_SELECTOR, ".backs img")
    index = browser.find_element(By.CSS_SELECTOR, "#hand .card .idx").text
    assert index[:-1].isdigit() and index[-1] in "LARP"  # month and class at a glance
    assert "Louie Mantia" in browser.find_element(By.ID, "credits").text
