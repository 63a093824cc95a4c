"""A real browser types a broken line into the rules editor of `rulekit serve` and sees it
underlined with the server's message; fixing it clears it; "Play this" opens the game on the
play page. Skipped, with the reason, without Chromium, its driver or Selenium.
RULEKIT_SCREENSHOT_EDITOR=path saves the editor with the diagnostic shown."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.browser_support import By, browser, server, wait_for

__all__ = ["browser", "server"]  # fixtures

BROKEN = "seats lots"
MESSAGE = "unexpected 'lots'; expected a number"  # what `rulekit check` says of that line


def wait_text(browser: Any, css: str, text: str, timeout: float = 10) -> Any:
    """The first element matching `css` whose text contains `text`, once there is one."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for el in browser.find_elements(By.CSS_SELECTOR, css):
            if text in el.text:
                return el
        time.sleep(0.05)
    raise AssertionError(
        f"no {css} says {text!r}: {browser.find_element(By.TAG_NAME, 'body').text}"
    )


def wait_gone(browser: Any, css: str, timeout: float = 10) -> None:
    """Until nothing matches `css` (Ace redraws its marker layer on the next frame)."""
    end = time.monotonic() + timeout
    while browser.find_elements(By.CSS_SELECTOR, css):
        if time.monotonic() > end:
            raise AssertionError(f"{css} is still shown")
        time.sleep(0.05)


def type_at_end(browser: Any, keys: str) -> None:
    box = browser.find_element(By.CSS_SELECTOR, "#editor textarea")
    box.send_keys(Keys.CONTROL, Keys.END)
    ActionChains(browser).send_keys(keys).perform()


def test_a_broken_line_is_underlined_with_its_message(server: str, browser: Any) -> None:
    browser.get(server + "/editor")
    wait_for(browser, "#diagnostics li")  # loaded and checked: it saves no text after this
    browser.execute_script("localStorage.clear()")
    browser.get(server + "/editor")  # a new file: the template, which checks clean
    wait_text(browser, "#status", "ok:")
    assert not browser.find_elements(By.CSS_SELECTOR, ".ace_marker-layer .rk-error")

    type_at_end(browser, BROKEN)
    mark = wait_for(browser, ".ace_marker-layer .rk-error")[0]
    item = wait_text(browser, "#diagnostics li.error", MESSAGE)
    assert item.get_attribute("data-line") == "4"  # the template's three lines, then ours
    assert mark.size["width"] > 0
    assert wait_for(browser, ".ace_gutter-cell.ace_error")
    assert "1 error" in browser.find_element(By.ID, "status").text
    assert browser.find_element(By.ID, "play-this").get_attribute("disabled") is not None
    shot = os.environ.get("RULEKIT_SCREENSHOT_EDITOR")
    if shot:
        browser.set_window_size(1280, 800)
        time.sleep(0.3)
        browser.save_screenshot(shot)
        browser.set_window_size(1280, 1100)

    # the text survives a reload, error and all
    browser.refresh()
    wait_text(browser, "#diagnostics li.error", MESSAGE)

    type_at_end(browser, Keys.BACKSPACE * 4 + "2")  # seats 2: a clean file again
    wait_text(browser, "#status", "ok:")
    wait_gone(browser, ".ace_marker-layer .rk-error")
    assert not browser.find_elements(By.CSS_SELECTOR, "#diagnostics li.error")
    browser.find_element(By.CSS_SELECTOR, "[data-panel=diff]").click()
    wait_text(browser, "#diff", "hachihachi")  # the panel shown, with the diff of that answer


def test_play_this_opens_the_game_on_the_play_page(server: str, browser: Any) -> None:
    browser.get(server + "/editor")
    wait_text(browser, "#status", "ok:")  # loaded: it keeps no other text after ours
    browser.execute_script(
        "localStorage.setItem('rulekit-editor', JSON.stringify({text: "
        '\'extends "koikoi"\\ngame "Edited" variant "here"\\n\', beside: null}))'
    )
    browser.get(server + "/editor")
    wait_text(browser, "#status", "ok: Edited")
    browser.find_element(By.ID, "play-this").click()
    end = time.monotonic() + 10
    while "#game=" not in browser.current_url and time.monotonic() < end:
        time.sleep(0.05)
    assert "#game=" in browser.current_url
    wait_text(browser, "#title", "Edited (here) · seed")  # the play page, showing the game
    assert wait_for(browser, "#players .player")
    assert browser.execute_script("return $('rules').value") == "koikoi"  # the list in step


def test_the_editor_opens_and_downloads_rk_files(server: str, browser: Any, tmp_path: Path) -> None:
    """A .rk file from disk into the editor, checked; the text back as a .rk download."""
    mine = tmp_path / "my-table.rk"
    mine.write_text('extends "koikoi"\ngame "Mine" variant "opened"\n', encoding="utf-8")
    browser.get(server + "/editor")
    wait_text(browser, "#status", "ok:")
    browser.find_element(By.ID, "open-file").send_keys(str(mine))
    wait_text(browser, "#status", "ok: Mine")
    assert 'variant "opened"' in browser.execute_script("return editor.getValue()")
    saved = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const real = URL.createObjectURL; let blob = null;"
        "URL.createObjectURL = (b) => { blob = b; return real(b); };"
        "HTMLAnchorElement.prototype.click = function () {"
        "  blob.text().then((text) => done([this.download, text])); };"
        "$('download').click();"
    )
    assert saved == ["house-rules.rk", mine.read_text(encoding="utf-8")]


def test_the_eval_panel_draws_the_cards_with_their_faces(server: str, browser: Any) -> None:
    browser.get(server + "/editor")
    wait_text(browser, "#status", "ok:")
    browser.find_element(By.CSS_SELECTOR, "[data-panel=eval]").click()
    browser.execute_script("$('mode').value = 'captured'")  # (a dealt hand has 7 or 8 cards)
    browser.find_element(By.ID, "hand").send_keys("10 30 80")
    browser.find_element(By.CSS_SELECTOR, "#eval-form button").click()
    faces = wait_for(browser, "#eval-cards .card img")
    assert [e.find_element(By.XPATH, "..").get_attribute("data-card") for e in faces] == [
        "10",
        "30",
        "80",
    ]
