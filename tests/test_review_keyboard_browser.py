"""The review page by keyboard in headless Chromium: next, previous, confirm, partner, move, undo, bulk."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.labels.io import load_labels
from alignbench.labels.sign import AGENT_ENV_MARKERS
from alignbench.review.page import page_data
from browser_support import (
    assert_no_network,
    fresh_page_state,
    screenshot_not_blank,
    skip_module_without_browser,
)
from browser_support import browser as browser  # the fixture, registered under its own name
from review_fixtures_spoofed import fixture_repo

skip_module_without_browser()

FIXTURES = Path(__file__).parent / "review_fixtures"
PAIR = "tiny-terms"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for marker in AGENT_ENV_MARKERS:
        monkeypatch.delenv(marker, raising=False)
    return fixture_repo(tmp_path)


def _press(driver, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    named = {"Escape": Keys.ESCAPE, "Enter": Keys.ENTER, "Down": Keys.ARROW_DOWN, "Up": Keys.ARROW_UP}
    for key in keys:
        ActionChains(driver).send_keys(named.get(key, key)).perform()


def _current(driver) -> str:
    cards = driver.find_elements("css selector", ".card.current")
    assert len(cards) <= 1
    return cards[0].get_attribute("data-blocks") if cards else ""


def _card(driver, blocks: str):
    return driver.find_element("css selector", f'.card[data-blocks="{blocks}"]')


def _decided(driver, blocks: str) -> bool:
    return "decided" in _card(driver, blocks).get_attribute("class").split()


def _exact_matches(root: Path) -> list[dict[str, str]]:
    """The draft links whose blocks have the same label and text, computed here from the page data."""
    data = page_data(root, PAIR)
    block = {side: {b["a"]: b for b in data["documents"][side]["blocks"]} for side in ("source", "test")}
    rows = []
    for d in data["decisions"]:
        if d["what"] != "correspondence" or d["move"]:
            continue
        s, t = block["source"][d["source"][0]], block["test"][d["test"][0]]
        if (s["t"], s["l"]) == (t["t"], t["l"]):
            rows.append({"source": d["source"][0], "test": d["test"][0]})
    return rows


def test_keyboard_review_with_undo_and_a_logged_bulk_confirm(browser, repo: Path, tmp_path: Path) -> None:
    page = tmp_path / "review.html"
    assert main(["review", PAIR, "--root", str(repo), "--out", str(page)]) == 0
    fresh_page_state(browser)  # the page keeps its progress per draft: start from none
    browser.get(page.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    _press(browser, "j")  # the move step ignores row keys: there are no rows yet
    assert browser.find_elements("css selector", ".card") == []
    browser.find_element("id", "finish-moves").click()
    cards = [c.get_attribute("data-blocks") for c in browser.find_elements("css selector", ".card")]
    assert len(cards) == 10

    # Next / previous.
    _press(browser, "j")
    assert _current(browser) == cards[0]
    _press(browser, "j", "j", "k")
    assert _current(browser) == cards[1]
    _press(browser, "Down", "Up")  # the arrows do the same
    assert _current(browser) == cards[1]

    # Confirm moves on to the next row; undo takes the confirm back.
    _press(browser, "c")
    assert _decided(browser, cards[1]) and _current(browser) == cards[2]
    _press(browser, "u")
    assert not _decided(browser, cards[1])
    assert browser.find_element("id", "progress").text == "0 / 10 decided"

    # Flag move, then undo it.
    _press(browser, "k")
    assert _current(browser) == cards[1]
    _press(browser, "m")
    assert _card(browser, cards[1]).find_element("css selector", ".kind").text == "move"
    _press(browser, "u")
    assert _card(browser, cards[1]).find_element("css selector", ".kind").text != "move"

    # The bulk confirm decides exactly the unchanged exact matches, and says how many.
    expected = _exact_matches(repo)
    assert 0 < len(expected) < len(cards)
    browser.find_element("id", "confirm-exact").click()
    assert f"Confirmed {len(expected)} unchanged exact match(es)" in browser.find_element("id", "notice").text
    decided = [c for c in cards if _decided(browser, c)]
    assert len(decided) == len(expected)
    progress = browser.find_element("id", "progress").text
    assert progress == f"{len(expected)} / 10 decided ({len(expected)} by bulk confirm)"

    # Pick partner by key: 3.1 (S9 = T9) is unlinked and then re-linked, all from the keyboard and a click.
    while _current(browser) != "S9 T9":
        _press(browser, "j")
    _press(browser, "x")
    assert _current(browser) in ("S9 ", " T9")
    while _current(browser) != "S9 ":
        _press(browser, "j" if _current(browser) == " T9" else "k")
    _press(browser, "p")
    assert "Click the new test partner of S9" in browser.find_element("id", "notice").text
    browser.find_element("id", "T9").click()
    assert _current(browser) == "S9 T9"

    # Confirm the rest by keyboard: n jumps to the next undecided row.
    _press(browser, "?")
    assert "next undecided row" in browser.find_element("id", "keys").text
    screenshot_not_blank(browser, tmp_path / "keyboard.png")
    _press(browser, "Escape")
    assert browser.find_elements("id", "keys") == []
    for _ in range(len(cards)):
        browser.execute_script("window.scrollTo(0, 0)")
        _press(browser, "n")
        if _current(browser) and not _decided(browser, _current(browser)):
            _press(browser, "c")
    _press(browser, "k", "k")
    payload = json.loads(browser.execute_script("return window.alignbenchReview.exportPayload()"))
    assert all(d["decided"] for d in payload["decisions"]), payload["decisions"]
    assert payload["bulk_actions"] == [{"action": "confirm_unchanged_exact_matches", "rows": expected}]
    assert_no_network(browser)

    # The log survives into the compile, which names it.
    export = tmp_path / "decisions.json"
    export.write_text(json.dumps(payload), encoding="utf-8")
    args = [
        "label",
        "compile",
        PAIR,
        "--from",
        str(export),
        "--as-reviewer",
        "human:keys",
        "--root",
        str(repo),
    ]
    assert main(args) == 0
    labels = load_labels(repo / "corpus/labels/real" / PAIR / "labels.yaml")
    assert {r["status"] for r in labels["correspondences"]} <= {"confirmed", "corrected"}


def test_a_bad_bulk_log_is_refused(browser, repo: Path, tmp_path: Path, capsys) -> None:
    from alignbench.review.decisions import payload_digest

    page = tmp_path / "review.html"
    assert main(["review", PAIR, "--root", str(repo), "--out", str(page)]) == 0
    fresh_page_state(browser)  # the page keeps its progress per draft: start from none
    browser.get(page.as_uri())
    browser.find_element("id", "finish-moves").click()
    browser.find_element("id", "confirm-exact").click()
    payload = json.loads(browser.execute_script("return window.alignbenchReview.exportPayload()"))
    payload["bulk_actions"][0]["rows"][0]["source"] = "/section[9]"
    payload["digest"] = payload_digest(payload)
    export = tmp_path / "bad.json"
    export.write_text(json.dumps(payload), encoding="utf-8")
    capsys.readouterr()
    args = [
        "label",
        "compile",
        PAIR,
        "--from",
        str(export),
        "--as-reviewer",
        "human:keys",
        "--root",
        str(repo),
    ]
    assert main(args) == 2
    assert "bulk_actions[0].rows[0]: /section[9]" in capsys.readouterr().err


REAL_PAIR = "csa-1.1-to-2.0"
REPO = Path(__file__).resolve().parent.parent


def test_a_keyboard_confirm_only_review_of_a_real_pair_keeps_every_signature_and_verdict(
    browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32's report, in the browser: confirming every row erased the signature and 24 verdicts."""
    from alignbench.labels.sign import content_digest, signature_problems

    for marker in AGENT_ENV_MARKERS:
        monkeypatch.delenv(marker, raising=False)
    root = tmp_path / "scratch"  # a scratch copy: the committed labels are never written
    for sub in (f"corpus/labels/real/{REAL_PAIR}", f"corpus/real/{REAL_PAIR}"):
        shutil.copytree(REPO / sub, root / sub)
    labels = root / "corpus/labels/real" / REAL_PAIR / "labels.yaml"
    before = load_labels(labels)
    assert before["review"]["signatures"] and before["move_verdicts"], "the scenario needs both"

    page = tmp_path / "review.html"
    assert main(["review", REAL_PAIR, "--root", str(root), "--out", str(page)]) == 0
    fresh_page_state(browser)
    browser.get(page.as_uri())
    browser.find_element("id", "finish-moves").click()
    browser.find_element("id", "confirm-exact").click()
    undecided = "return window.alignbenchReview.state().decisions.filter((d) => !d.decided).length"
    total = len(browser.find_elements("css selector", ".card"))
    for _ in range(total):
        if not browser.execute_script(undecided):
            break
        _press(browser, "n", "c")
    assert browser.execute_script(undecided) == 0
    export = tmp_path / "decisions.json"
    export.write_text(
        browser.execute_script("return window.alignbenchReview.exportPayload()"), encoding="utf-8"
    )
    capsys.readouterr()
    args = ["label", "compile", REAL_PAIR, "--from", str(export), "--as-reviewer", "human:reviewer"]
    assert main([*args, "--root", str(root)]) == 0
    captured = capsys.readouterr()
    assert "dropped" not in captured.err
    assert "confirmed by the logged bulk action" in captured.out
    after = load_labels(labels)
    assert content_digest(after) == content_digest(before)
    assert after["move_verdicts"] == before["move_verdicts"]
    assert after["review"]["signatures"] == sorted(
        [
            *before["review"]["signatures"],
            *[s for s in after["review"]["signatures"] if s["id"] == "human:reviewer"],
        ],
        key=lambda s: (s["role"], s["id"]),
    )
    assert [s["id"] for s in after["review"]["signatures"]].count("human:reviewer") == 1
    assert signature_problems(after) == []
