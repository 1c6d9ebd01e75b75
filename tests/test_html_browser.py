"""The redline in a real headless Chromium: every change is on the page, nothing is fetched, the keys
work, both views render, moves link both ways, and a screenshot is a real picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.html import screenshot as screenshot_command
from browser_support import assert_no_network, screenshot_not_blank, skip_module_without_browser
from browser_support import browser as browser  # the fixture, registered under its own name


class By:
    """selenium's locator strings, spelled here so that this module imports without selenium and the
    ``browser`` fixture can skip (or fail in CI) with its one-line reason."""

    ID = "id"
    CSS_SELECTOR = "css selector"
    TAG_NAME = "tag name"


skip_module_without_browser()

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "corpus" / "real"
FIXTURES = Path(__file__).parent / "alignment_fixtures"


def _redline(tmp_path: Path, old: Path, new: Path, capsys) -> tuple[Path, dict]:
    out = tmp_path / "redline.html"
    assert main(["compare", str(old), str(new), "--html", str(out), "--json"]) == 1
    return out, json.loads(capsys.readouterr().out)


def _open(driver, page: Path) -> None:
    assert_no_network(driver)  # drain what earlier tests requested
    driver.get(page.as_uri())


_COLLECT = """
const norm = (node) => node ? node.textContent.replace(/\\s+/g, ' ').trim() : null;
return Array.from(document.querySelectorAll('[id^="c-"]')).map((line) => ({
  id: line.id, kind: line.dataset.kind || null, source: line.dataset.source ?? null,
  test: line.dataset.test ?? null, classes: line.className,
  old: norm(line.querySelector('.cell.old')), new: norm(line.querySelector('.cell.new')),
  listed: document.querySelectorAll(`.change-index li[data-change="${line.dataset.change || ''}"]`).length,
}));
"""


def _first_line(text: str | None) -> str:
    return " ".join(text.splitlines()[0].split()) if text else ""


@pytest.mark.parametrize("pair", ["csa-1.1-to-2.0", "hr-2157-ih-to-enr"])
def test_every_change_of_a_real_pair_is_on_the_page_and_nothing_is_fetched(browser, tmp_path, capsys, pair):
    pair = REAL / pair
    (source,), (test,) = sorted(pair.glob("source.*")), sorted(pair.glob("test.*"))
    page, data = _redline(tmp_path, source, test, capsys)
    _open(browser, page)
    lines = {line["id"]: line for line in browser.execute_script(_COLLECT)}
    changes = data["changes"]
    assert changes, "the pair has changes"
    for number, change in enumerate(changes, 1):
        line = lines[f"c-{number}"]
        assert (line["kind"], line["source"], line["test"]) == (
            change["kind"],
            change["source"] or "",
            change["test"] or "",
        )
        assert line["listed"] == 1, f"change {number} is listed {line['listed']} times in the index"
        if {"k-section", "k-row", "k-table"} & set(line["classes"].split()):
            continue  # a container line names the container; its blocks follow on their own lines
        old_end = lines[f"c-{number}-from"] if change["kind"] == "move" else line
        if change["test"]:
            assert line["new"] == _first_line(change["test_text"]), f"change {number}"
        if change["source"]:
            assert old_end["old"] == _first_line(change["source_text"]), f"change {number}"
    assert sum(1 for key in lines if not key.endswith("-from")) == len(changes)
    for kind in ("move", "renumber", "insert", "delete"):
        shown = browser.find_element(By.CSS_SELECTOR, f'[data-count-kind="{kind}"] b').text
        assert int(shown) == sum(c["kind"] == kind for c in changes)
    shown = browser.find_element(By.CSS_SELECTOR, '[data-count-kind="modified"] b').text
    assert int(shown) == sum(c["modified"] for c in changes) == data["summary"]["modified"]
    urls = assert_no_network(browser)
    assert urls and all(url.startswith("file:") for url in urls)  # the page itself was logged


def test_keys_move_focus_between_changes_and_switch_the_view(browser, tmp_path, capsys):
    page, data = _redline(tmp_path, FIXTURES / "old.md", FIXTURES / "new.md", capsys)
    _open(browser, page)
    body = browser.find_element(By.TAG_NAME, "body")
    order = [
        e.get_attribute("id") for e in browser.find_elements(By.CSS_SELECTOR, "#document .line[data-change]")
    ]
    assert len(order) == len(data["changes"]) >= 3

    def focused() -> str:
        return browser.execute_script("return document.activeElement.id")

    body.send_keys("j")
    assert focused() == order[0]
    body.send_keys("j")
    assert focused() == order[1]
    body.send_keys("n")
    assert focused() == order[2]
    body.send_keys("k")
    assert focused() == order[1]
    body.send_keys("p")
    assert focused() == order[0]
    assert "Change 1 of" in browser.find_element(By.ID, "position").text

    old_cell = browser.find_element(By.CSS_SELECTOR, "#document .line.st-modify .cell.old")
    assert not old_cell.is_displayed()  # inline view: one merged column
    body.send_keys("v")
    assert "view-side" in body.get_attribute("class")
    assert old_cell.is_displayed() and "thirty" in old_cell.text
    unchanged = browser.find_elements(By.CSS_SELECTOR, "#document .line.st-same")
    assert unchanged
    for line in unchanged:  # an unchanged line's old column is filled in from its new column
        old_text = line.find_element(By.CSS_SELECTOR, ".cell.old").text
        assert old_text and old_text == line.find_element(By.CSS_SELECTOR, ".cell.new").text
    browser.find_element(By.ID, "view-inline").click()
    assert not old_cell.is_displayed()
    assert_no_network(browser)


def test_move_ends_link_to_each_other(browser, tmp_path, capsys):
    page, data = _redline(tmp_path, FIXTURES / "old.md", FIXTURES / "new.md", capsys)
    _open(browser, page)
    number = next(i for i, c in enumerate(data["changes"], 1) if c["kind"] == "move")
    destination = browser.find_element(By.ID, f"c-{number}")
    source = browser.find_element(By.ID, f"c-{number}-from")
    assert "moved from" in destination.text and "§2 Term › 2.2" in destination.text
    assert "moved to" in source.text and "§3 Confidentiality › 3.2" in source.text
    source.find_element(By.CSS_SELECTOR, "a.jump").click()
    assert browser.execute_script("return location.hash") == f"#c-{number}"
    destination.find_element(By.CSS_SELECTOR, "a.jump").click()
    assert browser.execute_script("return location.hash") == f"#c-{number}-from"
    assert_no_network(browser)


def test_an_edit_inside_a_renumbered_clause_shows_in_the_index_and_the_counts(browser, tmp_path, capsys):
    """Issue #29 class 7, as a reader sees it: the index entry reads "renumbered ... 8.2 → 8.3, edited"
    and the summary's modified count includes it; the unedited renumber says nothing more."""
    from test_modified_flag import RENUMBERED_AND_EDITED

    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_text(RENUMBERED_AND_EDITED[0], encoding="utf-8")
    new.write_text(RENUMBERED_AND_EDITED[1], encoding="utf-8")
    page, data = _redline(tmp_path, old, new, capsys)
    _open(browser, page)
    entries = {
        e.get_attribute("data-modified"): e.text
        for e in browser.find_elements(By.CSS_SELECTOR, '.change-index li[data-kind="renumber"]')
    }
    assert entries == {
        "true": "# renumbered 8. Terms › 8.3: 8.2 → 8.3, edited",
        "false": "# renumbered 8. Terms › 8.4: 8.3 → 8.4",
    }
    count = browser.find_element(By.CSS_SELECTOR, '[data-count-kind="modified"]').text
    assert count == "1 modified (1 also renumbered)" and data["summary"]["modified"] == 1
    edited_line = browser.find_element(By.CSS_SELECTOR, '#document .line[data-modified="true"]')
    assert "8.2 → 8.3" in edited_line.text and "text edited" in edited_line.text
    assert_no_network(browser)


def test_screenshot_of_a_redline_is_not_blank(browser, tmp_path, capsys):
    pair = REAL / "csa-terms-v1"
    page, _ = _redline(tmp_path, pair / "source.md", pair / "test.md", capsys)
    _open(browser, page)
    width, height, spread = screenshot_not_blank(browser, tmp_path / "redline.png")
    assert (tmp_path / "redline.png").stat().st_size > 10_000
    assert width >= 1000 and height >= 600 and spread > 8


def test_a_blank_page_is_caught_by_the_blank_check(browser, tmp_path):
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body style='background:#fff'></body></html>", encoding="utf-8")
    _open(browser, blank)
    with pytest.raises(AssertionError, match="looks blank"):
        screenshot_not_blank(browser, tmp_path / "blank.png")


def test_a_remote_request_is_caught_by_the_network_check(browser, tmp_path):
    leaky = tmp_path / "leaky.html"
    leaky.write_text('<!DOCTYPE html><img src="https://example.invalid/x.png">', encoding="utf-8")
    _open(browser, leaky)
    with pytest.raises(AssertionError, match="network requests"):
        assert_no_network(browser)


def test_screenshot_command_writes_a_picture(browser, tmp_path, capsys):
    out = tmp_path / "shot.png"
    pair = tmp_path / "pair"
    pair.mkdir()
    (pair / "source.md").write_bytes((FIXTURES / "old.md").read_bytes())
    (pair / "test.md").write_bytes((FIXTURES / "new.md").read_bytes())
    assert screenshot_command.main([str(pair), str(out), "--at", "move", "--view", "side"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote" in capsys.readouterr().out
    assert screenshot_command.main([str(tmp_path / "nope"), str(tmp_path / "x.png")]) == 2
    assert not (tmp_path / "x.png").exists()
