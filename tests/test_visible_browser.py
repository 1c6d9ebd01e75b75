"""Trojan-Source text in headless Chromium (#33 item 5): what the browser shows is what the bytes say.

Both pages are opened in a real browser. Every text node the reader can see is free of bidi controls
and invisible characters (each is a marked ``⟨U+…⟩`` glyph instead), each block's text is isolated
(``unicode-bidi: isolate``), and a change made only of invisible characters carries a visible flag.
"""

from __future__ import annotations

import unicodedata

from alignbench.cli import main
from browser_support import assert_no_network, skip_module_without_browser
from browser_support import browser as browser  # the fixture, registered under its own name

skip_module_without_browser()

RLO, PDF, ZWSP, ESC = "\u202e", "\u202c", "\u200b", "\x1b"


def is_hidden(char: str) -> bool:
    """Independent of alignbench.visible: any format or control character the browser could obey."""
    return unicodedata.category(char) in ("Cf", "Cc")


# Every visible text node's text, and the computed unicode-bidi of the element holding each glyph.
_SHOWN = """
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const texts = [];
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (el && el.offsetParent !== null && !['SCRIPT', 'STYLE'].includes(el.tagName)) texts.push(node.data);
}
return texts;
"""


def _visible_texts(driver) -> list[str]:
    return driver.execute_script(_SHOWN)


def _bidi(driver, css: str) -> list[str]:
    script = (
        "return [...document.querySelectorAll(arguments[0])].map((e) => getComputedStyle(e).unicodeBidi);"
    )
    return driver.execute_script(script, css)


def test_redline_in_the_browser_shows_every_hidden_character_and_flags_the_invisible_edit(browser, tmp_path):
    old, new, out = tmp_path / "old.txt", tmp_path / "new.txt", tmp_path / "redline.html"
    old.write_text("1. The fee is 100 dollars.\n\n2. The fee is payable monthly.\n\n3. A notice.\n", "utf-8")
    new.write_text(
        f"1. The fee is {RLO}001{PDF} dollars.\n\n2. The fee is pay{ZWSP}able monthly.\n\n"
        f"3. A {ESC}[8mnotice.\n",
        "utf-8",
    )
    assert main(["compare", str(old), str(new), "--html", str(out)]) == 1
    assert_no_network(browser)
    browser.get(out.as_uri())
    for view in ("inline", "side"):
        browser.find_element("id", f"view-{view}").click()
        shown = "\n".join(_visible_texts(browser))
        assert not [f"U+{ord(c):04X}" for c in shown if is_hidden(c) and c not in "\n\t"], view
        assert "⟨U+202E⟩" in shown and "⟨U+202C⟩" in shown and "⟨U+200B⟩" in shown and "⟨U+001B⟩" in shown
        assert set(_bidi(browser, ".cell .text")) == {"isolate"}
    glyphs = [g for g in browser.find_elements("css selector", "#c-1 .invisible") if g.is_displayed()]
    assert len(glyphs) == 2  # side by side: the new cell's RLO and PDF
    assert glyphs[0].get_attribute("title") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    colour = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", glyphs[0])
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent"), "the glyph must stand out"
    flags = [f for f in browser.find_elements("css selector", "#document .hidden-only") if f.is_displayed()]
    assert [
        f.find_element("xpath", "./ancestor::div[contains(@class,'line')]").get_attribute("id") for f in flags
    ] == ["c-2"]
    assert "invisible characters only" in flags[0].text
    assert_no_network(browser)


def test_review_page_in_the_browser_shows_glyphs_and_flags_the_invisible_edit(browser, tmp_path):
    from review_fixtures_spoofed import PAIR, spoofed_repo

    root = spoofed_repo(tmp_path)
    page = tmp_path / "review.html"
    assert main(["review", PAIR, "--root", str(root), "--out", str(page)]) == 0
    browser.get(page.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    browser.find_element("id", "finish-moves").click()
    shown = "\n".join(_visible_texts(browser))
    assert not [f"U+{ord(c):04X}" for c in shown if is_hidden(c) and c not in "\n\t"]
    document = browser.find_element("id", "doc-test").text
    assert "within ⟨U+202E⟩54⟨U+202C⟩ days" in document and "ye⟨U+200B⟩ar" in document
    assert set(_bidi(browser, ".blk .txt")) == {"isolate"}
    marked = browser.find_elements("css selector", "#doc-test .invisible")
    assert len(marked) == 3 and all(m.is_displayed() for m in marked)
    badges = [
        b for b in browser.find_elements("css selector", ".card .badge.hidden-only") if b.is_displayed()
    ]
    assert len(badges) == 1
    card = badges[0].find_element("xpath", "./ancestor::div[contains(@class,'card')]")
    assert "ye⟨U+200B⟩ar" in card.text
    assert_no_network(browser)
