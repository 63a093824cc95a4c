"""A real browser plays a Koi-Koi round by clicking, on a real server: a two-match choice and
a stop/continue decision included. Skipped, with the reason, without Chromium, its driver or
Selenium (`.ci/run` installs them). The Hachi-Hachi round: test_web_browser_hachihachi.py."""

from __future__ import annotations

import os
import time
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
    start_game(browser, server, "hachihachi", 7)  # (Alice deals: both bots move first)
    assert browser.find_elements(By.CSS_SELECTOR, "#field .fresh, #players .fresh")  # bots' last


def test_a_bonus_card_dealt_to_you_shows_in_your_pile_with_a_drawn_face(
    server: str, browser: Any
) -> None:
    """Go-Stop with the jokers, seed 1: the three-chaff joker dealt to you is captured at once;
    your pile shows it, a card beyond the 48 drawn in the deck's frame and said to be a bonus
    card (no art of its own)."""
    start_game(browser, server, "gostop/house/jokers", 1)
    joker = browser.find_element(By.CSS_SELECTOR, "#players .player.you .card[data-card='132']")
    assert "drawn-face" in joker.get_attribute("class")
    assert not joker.find_elements(By.TAG_NAME, "img")
    assert "bonus card" in joker.get_attribute("aria-label")
    assert "Bonus card (three chaff)" in joker.text


def test_the_games_end_shows_every_round_and_plays_again(server: str, browser: Any) -> None:
    """A one-round game from the editor's text: at its end the final piles stay, the rounds'
    table gives each round and the totals, and "Play again" starts the same rules anew."""
    browser.get(server)
    state = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "api('POST', '/api/games', {text: 'extends \"koikoi\"\\nrounds 1', bots: ['greedy'],"
        " seed: 7}).then((s) => { render(s); $('setup').close(); done(s); });"
    )
    assert state["rounds"] == 1
    play_round_by_clicking(browser)
    over = browser.find_element(By.ID, "round-over")
    assert "game over" in over.text
    assert over.find_elements(By.CSS_SELECTOR, ".final-piles .card img")  # the piles stay
    rows = over.find_elements(By.CSS_SELECTOR, "table.rounds tr")
    assert len(rows) == 3 and rows[-1].text.startswith("total")  # head, round 1, total
    if os.environ.get("RULEKIT_SCREENSHOTS"):  # docs/serve-round-end.png
        browser.execute_script("document.getElementById('round-over').scrollIntoView()")
        browser.save_screenshot(
            os.path.join(os.environ["RULEKIT_SCREENSHOTS"], "serve-round-end.png")
        )
    before = browser.execute_script("return game.id;")
    browser.find_element(By.ID, "play-again").click()
    for _ in range(100):
        if browser.execute_script("return game.id;") != before:
            break
        time.sleep(0.05)
    assert browser.execute_script("return game.id;") != before
    assert browser.execute_script("return game.round;") == 1
    assert browser.execute_script("return game.rounds;") == 1  # the editor's rules, again
