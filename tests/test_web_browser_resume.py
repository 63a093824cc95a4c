"""A real browser resumes a saved game from the Play page: the page's own request (its Origin,
its content type application/toml) is answered now that the server refuses other sites' and
other types' (issue 21, item 17). Skipped, with the reason, without Chromium, its driver or
Selenium."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser_support import By, browser, server, start_game

__all__ = ["browser", "server"]  # fixtures

SAVED = """const done = arguments[arguments.length - 1];
fetch(`/api/games/${game.id}/scenario`).then((r) => r.text()).then(done);"""


def test_the_page_resumes_a_saved_game(server: str, browser: Any, tmp_path: Path) -> None:
    start_game(browser, server, "koikoi", 5)
    before = browser.execute_script("return game;")
    path = tmp_path / "saved.scenario.toml"
    path.write_text(browser.execute_async_script(SAVED), encoding="utf-8")
    browser.find_element(By.ID, "new").click()  # the setup dialog, closed once a game started
    browser.find_element(By.ID, "saved").send_keys(str(path))
    browser.find_element(By.ID, "resume").click()
    for _ in range(200):
        after = browser.execute_script("return game;")
        if after["id"] != before["id"] or browser.find_element(By.ID, "error").is_displayed():
            break
        time.sleep(0.05)
    assert not browser.find_element(By.ID, "error").is_displayed(), browser.find_element(
        By.ID, "error"
    ).text
    assert after["id"] != before["id"]
    assert after["table"]["hand"] == before["table"]["hand"]
    assert after["table"]["field"] == before["table"]["field"]
