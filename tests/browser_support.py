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
    """The elements matching `css`, once there are any; an error with the page's text if not."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = browser.find_elements(By.CSS_SELECTOR, css)
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"nothing matches {css}: {browser.find_element(By.TAG_NAME, 'body').text}")
