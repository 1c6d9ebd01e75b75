"""The review page in headless Chromium: a full review of a small pair, export, compile, byte-exact labels."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.labels.sign import AGENT_ENV_MARKERS
from browser_support import assert_no_network, screenshot_not_blank, skip_module_without_browser
from browser_support import browser as browser  # the fixture, registered under its own name
from review_fixtures_spoofed import fixture_repo

skip_module_without_browser()

FIXTURES = Path(__file__).parent / "review_fixtures"
REPO = Path(__file__).resolve().parent.parent
PAIR = "tiny-terms"
LABELS = Path("corpus/labels/real") / PAIR / "labels.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return fixture_repo(tmp_path)


def _page(root: Path, pair: str, out: Path) -> Path:
    assert main(["review", pair, "--root", str(root), "--out", str(out)]) == 0
    return out


def _click(driver, css: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, css).click()


def _card(driver, blocks: str) -> str:
    """CSS for the decision card whose blocks are exactly ``blocks`` (e.g. 'S3 T3')."""
    return f'.card[data-blocks="{blocks}"]'


def _wait_for(path: Path, seconds: float = 10.0) -> Path:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.is_file() and path.stat().st_size:
            return path
        time.sleep(0.05)
    raise AssertionError(f"{path} was not downloaded")


def test_click_through_review_exports_and_compiles_to_the_expected_labels(
    browser, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for marker in AGENT_ENV_MARKERS:
        monkeypatch.delenv(marker, raising=False)
    page = _page(repo, PAIR, tmp_path / "review.html")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    behaviour = {"behavior": "allow", "downloadPath": str(downloads)}
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", behaviour)
    browser.get(page.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "1"

    # Step 1, cold: no draft link and no engine move is on the page yet.
    assert browser.find_elements("css selector", ".card") == []
    assert "Engine moves" not in browser.find_element("tag name", "body").text
    _click(browser, "#S4")
    _click(browser, "#T7")
    _click(browser, "#mark-move")
    assert "S4 → T7" in browser.find_element("id", "coldlist").text
    _click(browser, "#finish-moves")
    assert "Engine moves" in browser.find_element("tag name", "body").text

    # Step 2: the cold move is already a decided move row.
    assert "decided" in browser.find_element("css selector", _card(browser, "S4 T7")).get_attribute("class")
    for blocks in ("S1 T1", "S2 T2", "S5 T5", "S6 T6", "S8 T8", "S7 "):
        _click(browser, _card(browser, blocks) + " button[data-act=confirm]")
    # 1.1 Fees became 1.1 Fees and 1.2 Taxes: select the row's blocks, add T4, link as a split.
    _click(browser, _card(browser, "S3 T3") + " button[data-act=select]")
    _click(browser, "#T4")
    _click(browser, "#link-selected")
    # 3.1: unlink (inserted/deleted), then pick the partner back, with a note.
    _click(browser, _card(browser, "S9 T9") + " button[data-act=unlink]")
    _click(browser, _card(browser, "S9 ") + " button[data-act=partner]")
    _click(browser, "#T9")
    note = browser.find_element("css selector", _card(browser, "S9 T9") + " input.note")
    note.send_keys("adds post as a channel")
    _click(browser, _card(browser, "S9 T9") + " .head")  # blur: the note is committed on change
    assert browser.find_element("id", "progress").text == "9 / 9 decided"

    # Progress survives a reload (localStorage).
    browser.refresh()
    assert browser.find_element("id", "progress").text == "9 / 9 decided"

    _click(browser, "#export")
    export = _wait_for(downloads / f"decisions-{PAIR}.json")
    assert_no_network(browser)
    screenshot_not_blank(browser, tmp_path / "review.png")

    payload = json.loads(export.read_text(encoding="utf-8"))
    assert payload["cold_moves"] == [
        {"source": "/section[1]/section[1]/list_item[2]", "test": "/section[1]/section[2]/list_item[2]"}
    ]
    compile_args = ["label", "compile", PAIR, "--from", str(export), "--as-reviewer", "human:tester"]
    assert main([*compile_args, "--root", str(repo)]) == 0
    expected = (FIXTURES / "expected-labels.yaml").read_bytes()
    assert (repo / LABELS).read_bytes() == expected


def test_largest_real_pair_page_loads_and_reveals(browser, tmp_path: Path) -> None:
    """hr-8752 (~600 blocks a side) opens and renders every row; load time is reported, not asserted."""
    pair = "hr-8752-rh-to-eh"
    if not (REPO / "corpus/real" / pair / "source.txt").is_file():
        pytest.skip(f"corpus/real/{pair} not prepared (run the prepare stage)")
    page = _page(REPO, pair, tmp_path / "review.html")
    browser.get(page.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    loaded = browser.execute_script("return performance.getEntriesByType('navigation')[0].loadEventEnd")
    print(f"{pair}: review page load event at {loaded:.0f} ms")
    assert len(browser.find_elements("css selector", ".blk")) > 1200
    _click(browser, "#finish-moves")
    exported = browser.execute_script("return window.alignbenchReview.exportPayload()")
    rows = len(json.loads(exported)["decisions"])
    assert len(browser.find_elements("css selector", ".card")) == rows > 600
    assert_no_network(browser)
