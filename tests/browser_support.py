"""Shared by every test that drives a real browser (the redline and the review page).

- ``browser``: a pytest fixture yielding a headless Chromium selenium WebDriver: one per test process
  (conftest's ``shared_chromium``), brought back to a just-started state for each test module.
  Without Chromium, chromedriver or selenium the test is skipped with a one-line reason, unless
  ``ALIGNBENCH_REQUIRE_BROWSER=1`` (CI sets it), where it fails instead: CI must not pass by skipping.
- ``assert_no_network(driver)``: every URL the page requested since the last check was file: or data:.
- ``screenshot_not_blank(driver, path)``: saves a PNG, checks its size and that it is not one flat colour.
- ``skip_module_without_browser()``: call at the top of a browser test module so that a machine
  without a browser reports one skip line for the whole module rather than one per test.

Use::

    from browser_support import assert_no_network, screenshot_not_blank, skip_module_without_browser
    from browser_support import browser as browser  # the fixture

    skip_module_without_browser()
"""

from __future__ import annotations

import base64
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from alignbench.errors import AlignbenchError

REQUIRE_ENV = "ALIGNBENCH_REQUIRE_BROWSER"
LOCAL_SCHEMES: tuple[str, ...] = ("file:", "data:")
MIN_SIZE = (800, 600)
MIN_STDDEV = 8.0  # grey levels: a blank or one-colour page is 0, a page of text is far above


def _missing(exc: Exception, *, module_level: bool = False) -> None:
    reason = f"browser tests need headless Chromium: {exc}"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1 forbids skipping)", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def skip_module_without_browser() -> None:
    """Skip (or, under ALIGNBENCH_REQUIRE_BROWSER=1, fail) the calling module when no browser is usable."""
    from alignbench.html.browser import find_browser

    try:
        find_browser()
        import selenium  # noqa: F401
    except AlignbenchError as exc:
        _missing(exc, module_level=True)
    except ModuleNotFoundError as exc:
        _missing(
            AlignbenchError(f"{exc.name} is not installed (pip install -r requirements.lock)"),
            module_level=True,
        )


def start_chromium() -> Any:
    """A started headless Chromium WebDriver, or the test skipped (failed in CI) with the reason."""
    try:
        from alignbench.html.browser import headless_chromium

        return headless_chromium()
    except AlignbenchError as exc:
        _missing(exc)


def fresh_page_state(driver: Any) -> None:
    """Leave ``driver`` as a newly started one looks to a page: one blank tab, no stored data for
    file: pages (the review page keeps its progress in localStorage), downloads as by default, and
    an empty request log."""
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.get("about:blank")
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "file://", "storageTypes": "all"})
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})
    driver.get_log("performance")


@pytest.fixture(scope="module")
def browser(shared_chromium: Any) -> Iterator[Any]:
    """The process's one Chromium (conftest's ``shared_chromium``), reset for each module: starting
    a browser per module cost ~2 s of wall time each, and xdist can split a module over workers."""
    fresh_page_state(shared_chromium)
    yield shared_chromium


def assert_no_network(driver: Any) -> list[str]:
    """Fail if the page requested anything but file: or data: URLs; returns the URLs it did request."""
    from alignbench.html.browser import requested_urls

    urls = requested_urls(driver)
    remote = [url for url in urls if not url.startswith(LOCAL_SCHEMES)]
    assert not remote, f"the page made network requests: {remote}"
    return urls


def screenshot_not_blank(driver: Any, path: str | os.PathLike[str]) -> tuple[int, int, float]:
    """Save a screenshot to ``path``; assert its size and pixel spread. Returns (width, height, stddev)."""
    png = driver.get_screenshot_as_png()
    Path(path).write_bytes(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG"
    width, height = struct.unpack(">II", png[16:24])
    assert width >= MIN_SIZE[0] and height >= MIN_SIZE[1], f"screenshot is only {width}x{height}"
    stddev = grey_stddev(driver, png)
    assert stddev >= MIN_STDDEV, f"screenshot looks blank: grey stddev {stddev:.2f} < {MIN_STDDEV}"
    return width, height, stddev


_STDDEV_JS = """
const done = arguments[arguments.length - 1];
const image = new Image();
image.onerror = () => done(-1);
image.onload = () => {
  const canvas = document.createElement('canvas');
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  let sum = 0, squares = 0;
  const n = pixels.length / 4;
  for (let i = 0; i < pixels.length; i += 4) {
    const grey = (pixels[i] + pixels[i + 1] + pixels[i + 2]) / 3;
    sum += grey; squares += grey * grey;
  }
  const mean = sum / n;
  done(Math.sqrt(Math.max(0, squares / n - mean * mean)));
};
image.src = 'data:image/png;base64,' + arguments[0];
"""


def grey_stddev(driver: Any, png: bytes) -> float:
    """Standard deviation of the grey levels of ``png``, decoded by the browser itself in a blank tab.

    The browser already decodes PNGs, so the project needs no imaging library for this one check;
    a fresh about:blank tab keeps the page under test (and its Content-Security-Policy) untouched.
    """
    original = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        driver.set_script_timeout(30)
        value = driver.execute_async_script(_STDDEV_JS, base64.b64encode(png).decode("ascii"))
    finally:
        driver.close()
        driver.switch_to.window(original)
    assert value >= 0, "the browser could not decode the screenshot"
    return float(value)
