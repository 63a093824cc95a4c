"""A real browser runs a small comparison from the compare page of `rulekit serve`: the
progress bar fills, the report's headline shows in its sandboxed frame, with download links;
rule text handed over by the editor is compared as B. Skipped, with the reason, without
Chromium, its driver or Selenium."""

from __future__ import annotations

import json
import time
from typing import Any

from selenium.webdriver.support.ui import Select

from tests.browser_support import By, browser, server, wait_for

__all__ = ["browser", "server"]  # fixtures


def fill(browser: Any, a: str, rounds: int, seats: int, seed: int) -> None:
    Select(browser.find_element(By.ID, "a")).select_by_value(a)
    for field, value in (("rounds", rounds), ("seats", seats), ("seed", seed)):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))


def finished(browser: Any, timeout: float = 30) -> None:
    """Wait for the progress bar to be full and the report frame to be shown."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        bar = browser.find_element(By.ID, "progress")
        shown = browser.find_element(By.ID, "result").is_displayed()
        if shown and bar.get_attribute("value") == bar.get_attribute("max") != "1":
            return
        alert = browser.find_element(By.ID, "error")
        assert not alert.is_displayed(), alert.text
        time.sleep(0.05)
    raise AssertionError(browser.find_element(By.TAG_NAME, "body").text)


def frame_headline(browser: Any) -> tuple[str, str]:
    """The report's title and verdict, read inside its frame."""
    frame = browser.find_element(By.ID, "report")
    assert frame.get_attribute("sandbox") == ""  # no scripts, no same origin
    browser.switch_to.frame(frame)
    try:
        h1 = wait_for(browser, "h1")[0].text
        return h1, browser.find_element(By.ID, "verdict").text
    finally:
        browser.switch_to.default_content()


def test_the_browser_runs_a_small_comparison(browser: Any, server: str) -> None:
    browser.get(server + "/compare")
    wait_for(browser, "#b option")
    fill(browser, "koikoi", 60, 2, 4)
    Select(browser.find_element(By.ID, "b")).select_by_value("koikoi/house/viewings-rain")
    bots = Select(browser.find_element(By.ID, "bots"))
    bots.deselect_all()
    bots.select_by_value("greedy")
    browser.find_element(By.ID, "run").click()
    finished(browser)
    assert browser.find_element(By.ID, "progress").get_attribute("max") == "60"
    assert "60 of 60 rounds" in browser.find_element(By.ID, "progress-text").text
    title, verdict = frame_headline(browser)
    assert (
        title.startswith("Comparing Koi-Koi")
        and title == browser.find_element(By.ID, "headline").text
    )
    assert verdict and verdict == browser.find_element(By.ID, "verdict").text
    links = {
        a.text: a.get_attribute("href")
        for a in browser.find_elements(By.CSS_SELECTOR, "#downloads a")
    }
    assert links["Markdown"].endswith("/report?format=md") and links["JSON"].endswith("format=json")
    assert not browser.find_element(By.ID, "cancel").is_displayed()


def test_rules_handed_over_by_the_editor_are_compared_and_errors_shown(
    browser: Any, server: str
) -> None:
    browser.get(server + "/compare")
    handed = {
        "a": {"rules": "koikoi"},
        "b": {"text": 'extends "koikoi"\nrounds x\n', "beside": "koikoi"},
    }
    browser.execute_script(
        "sessionStorage.setItem('rulekit-compare', arguments[0])", json.dumps(handed)
    )
    browser.get(server + "/compare")
    said = wait_for(browser, "#b-text:not([hidden])")[0].text
    assert "B: your edited rules (extends koikoi)" in said
    assert not browser.find_element(By.ID, "b").is_displayed()
    fill(browser, "koikoi", 10, 2, 1)
    browser.find_element(By.ID, "run").click()
    alert = wait_for(browser, "#error:not([hidden])")[0]
    assert alert.get_attribute("role") == "alert"
    assert "b-edited.rk:2:8: unexpected 'x'" in alert.text

    handed["b"]["text"] = 'extends "koikoi"\nrounds 6\n'
    browser.execute_script(
        "sessionStorage.setItem('rulekit-compare', arguments[0])", json.dumps(handed)
    )
    browser.get(server + "/compare")
    wait_for(browser, "#b-text:not([hidden])")
    fill(browser, "koikoi", 10, 2, 1)
    browser.find_element(By.ID, "run").click()
    finished(browser)
    assert "Comparing" in frame_headline(browser)[0]
    browser.find_element(By.ID, "b-drop").click()
    assert browser.find_element(By.ID, "b").is_displayed()
    assert browser.execute_script("return sessionStorage.getItem('rulekit-compare')") is None
