"""A headless Chromium for the screenshot command and the browser tests: one way to start it.

Debian's ``chromium`` and ``chromium-driver`` packages are used (``ALIGNBENCH_CHROMIUM`` and
``ALIGNBENCH_CHROMEDRIVER`` name other binaries). Selenium is a development dependency, so it is
imported only when a browser is actually started. Every host name resolves to nothing
(``--host-resolver-rules``) so a page can never reach the network, and the DevTools performance log
is kept so a caller can list every URL the page requested.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from alignbench.errors import AlignbenchError

CHROMIUM_NAMES: tuple[str, ...] = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES: tuple[str, ...] = ("chromedriver",)
INSTALL_HINT = "install Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
WINDOW = (1280, 900)


def _which(env: str, names: tuple[str, ...], what: str) -> str:
    override = os.environ.get(env)
    if override:
        if shutil.which(override) is None:
            raise AlignbenchError(f"{env}={override}: no such executable; fix the variable or unset it")
        return override
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise AlignbenchError(f"no {what} found on PATH ({', '.join(names)}); {INSTALL_HINT}")


def find_browser() -> tuple[str, str]:
    """(chromium, chromedriver) paths, or one AlignbenchError line saying what to install."""
    return (
        _which("ALIGNBENCH_CHROMIUM", CHROMIUM_NAMES, "Chromium"),
        _which("ALIGNBENCH_CHROMEDRIVER", DRIVER_NAMES, "chromedriver"),
    )


def headless_chromium(width: int = WINDOW[0], height: int = WINDOW[1]) -> Any:
    """A started selenium Chrome WebDriver; the caller quits it."""
    chromium, chromedriver = find_browser()
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ModuleNotFoundError:
        raise AlignbenchError(
            "selenium is not installed; pip install -e '.[dev]' (or the pins in requirements.lock)"
        ) from None
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    try:
        return webdriver.Chrome(options=options, service=Service(chromedriver))
    except WebDriverException as exc:
        first = (exc.msg or str(exc)).strip().splitlines()[0]
        raise AlignbenchError(f"could not start headless Chromium ({chromium}): {first}") from None


def requested_urls(driver: Any) -> list[str]:
    """Every URL the page asked for since the last call, from the DevTools performance log."""
    urls: list[str] = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls
