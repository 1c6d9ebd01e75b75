"""Headless Chromium for the browser tests (same API as tests/browser_support.py; folded together at merge).

``browser`` yields a selenium WebDriver on Debian's ``chromium`` + ``chromium-driver``; without them the
test is skipped with one line, unless ``ALIGNBENCH_REQUIRE_BROWSER=1`` (CI), where it fails instead.
The driver records performance logs so :func:`assert_no_network` can see every request the page made.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

_CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
_LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:", "chrome:", "devtools:")


def _missing(reason: str) -> None:
    if os.environ.get("ALIGNBENCH_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required (ALIGNBENCH_REQUIRE_BROWSER=1) but {reason}")
    pytest.skip(f"no headless browser: {reason}")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[object]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install the dev extras)")
    binary = next((shutil.which(name) for name in _CHROMIUM if shutil.which(name)), None)
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        _missing("chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def requested_urls(driver: object) -> list[str]:
    """Every URL the browser asked for since the last call (the performance log is drained)."""
    urls = []
    for entry in driver.get_log("performance"):  # type: ignore[attr-defined]
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def assert_no_network(driver: object) -> None:
    """Fail when the page requested anything that is not local (file:, data:, blob: ...)."""
    remote = [url for url in requested_urls(driver) if not url.startswith(_LOCAL_SCHEMES)]
    assert not remote, f"the page made network requests: {remote[:5]}"


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and raw scanlines (filter bytes undone) of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format depth={depth} colour={colour}"
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def screenshot_not_blank(driver: object, path: Path) -> Path:
    """Save a screenshot and assert it has a sensible size and more than one colour in use."""
    driver.save_screenshot(str(path))  # type: ignore[attr-defined]
    data = path.read_bytes()
    width, height, rows = _png_pixels(data)
    assert width >= 300 and height >= 200, f"screenshot is {width}x{height}"
    sample = {row[i : i + 3] for row in rows[:: max(1, height // 60)] for i in range(0, len(row), 3 * 37)}
    assert len(sample) > 8, f"screenshot {path} looks blank ({len(sample)} distinct colours sampled)"
    return path
