"""What the reviewer sees is what the bytes say (#33 item 5): hidden characters become marked glyphs.

The policy (alignbench.visible) is tested on its own, then in each output that a person reads:
compare's text summary (also terminal control characters), the redline page and the review page's
data. tests/test_visible_browser.py checks what Chromium then shows.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.visible import _CANDIDATES, hidden_only, is_hidden, json_safe, show, show_html, strip_hidden

RLO, PDF, ZWSP, ESC = "\u202e", "\u202c", "\u200b", "\x1b"
# Every character the issue names, and their neighbours in the policy.
NAMED = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"
)


def test_every_named_character_is_hidden_and_shown_as_its_code_point() -> None:
    for char in NAMED + ESC + "\x9b\x7f\u2028\u2029\u034f\ufe0f\U000e0041":
        assert is_hidden(char), f"U+{ord(char):04X}"
        assert show(f"a{char}b") == f"a⟨U+{ord(char):04X}⟩b"
    for char in "a\t\n é€日本\u05d0\u0627 1.\u00a0":
        assert not is_hidden(char) and show(char) == char


def test_the_fast_precheck_covers_every_format_and_control_character_of_this_python() -> None:
    """``_CANDIDATES`` skips the per-character test on ordinary text, so it must hold every hidden one."""
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cf", "Cc")
        and is_hidden(chr(code))
        and not _CANDIDATES.match(chr(code))
    ]
    assert missed == []


def test_html_marks_each_glyph_and_escapes_everything_else() -> None:
    html = show_html(f"<b>{RLO}001{PDF}</b>")
    assert html.startswith(
        '&lt;b&gt;<span class="invisible" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>001'
    )
    assert RLO not in html and PDF not in html and "<b>" not in html


def test_a_change_of_invisible_characters_only_is_recognised() -> None:
    assert hidden_only("payable", f"pay{ZWSP}able")
    assert hidden_only(f"fee {ZWSP} due", "fee due")
    assert not hidden_only("100", f"{RLO}001{PDF}")  # visible characters changed too
    assert not hidden_only("same", "same")
    assert strip_hidden(f"a{RLO}b{PDF}  c") == "ab c"


def test_json_output_escapes_c1_controls_and_keeps_the_data() -> None:
    import json

    text = json.dumps({"t": "a\x9b31mb"}, ensure_ascii=False)
    assert json.loads(json_safe(text)) == json.loads(text) and "\x9b" not in json_safe(text)


@pytest.fixture
def spoofed(tmp_path: Path) -> tuple[str, str]:
    old = tmp_path / "old.txt"
    new = tmp_path / "new.txt"
    old.write_text("1. The fee is 100 dollars.\n\n2. The fee is payable monthly.\n\n3. red line\n", "utf-8")
    new.write_text(
        f"1. The fee is {RLO}001{PDF} dollars.\n\n2. The fee is pay{ZWSP}able monthly.\n\n"
        f"3. {ESC}[2J{ESC}]0;owned\x07red line\n",
        "utf-8",
    )
    return str(old), str(new)


def test_compare_text_shows_hidden_characters_escapes_terminal_controls_and_flags(spoofed, capsys) -> None:
    assert main(["compare", *spoofed]) == 1
    out = capsys.readouterr().out
    assert not any(is_hidden(c) for c in out), "a hidden or control character reached the terminal"
    assert "{+⟨U+202E⟩001⟨U+202C⟩+}" in out
    assert "⟨U+001B⟩[2J⟨U+001B⟩]0;owned⟨U+0007⟩red" in out
    flagged = [line for line in out.splitlines() if "[invisible characters only]" in line]
    assert len(flagged) == 1 and "pay⟨U+200B⟩able" in flagged[0]


def test_compare_json_keeps_the_bytes_but_nothing_raw_reaches_the_terminal(spoofed, capsys) -> None:
    import json

    assert main(["compare", *spoofed, "--json"]) == 1
    out = capsys.readouterr().out
    assert ESC not in out and "\x07" not in out
    texts = [c["test_text"] for c in json.loads(out)["changes"]]
    assert f"{RLO}001{PDF}" in texts[0]  # the JSON is data: the characters themselves, escaped by JSON


def _page_text(page: str) -> str:
    """The page without its tags and its script/style: what a reader can be shown."""
    body = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return re.sub(r"<[^>]+>", "", body)


def test_redline_shows_glyphs_isolates_text_and_flags_the_invisible_change(spoofed, tmp_path) -> None:
    out = tmp_path / "redline.html"
    assert main(["compare", *spoofed, "--html", str(out)]) == 1
    page = out.read_text(encoding="utf-8")
    assert not any(is_hidden(c) for c in page.replace("\n", "").replace("\t", ""))
    assert "⟨U+202E⟩" in page and "⟨U+200B⟩" in page and "⟨U+001B⟩" in page
    assert '<span class="invisible" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>' in page
    assert page.count('<bdi class="text">') >= 3
    assert _page_text(page).count("⚠ invisible characters only") == 2  # the line and the change index


def test_review_page_data_is_shown_text_with_the_invisible_change_flagged(tmp_path) -> None:
    from alignbench.review.page import page_data
    from review_fixtures_spoofed import PAIR, spoofed_repo

    root = spoofed_repo(tmp_path)
    data = page_data(root, PAIR)
    texts = [b["t"] for side in ("source", "test") for b in data["documents"][side]["blocks"]]
    assert not any(is_hidden(c) for text in texts for c in text)
    assert any("within ⟨U+202E⟩54⟨U+202C⟩ days" in text for text in texts)
    flagged = [key for key, ev in data["evidence"].items() if ev["hidden_only"]]
    assert flagged == ["/section[1]/section[2]/list_item[1]\x1f/section[1]/section[2]/list_item[1]"]


def test_blocks_shows_hidden_and_control_characters_as_glyphs(tmp_path) -> None:
    """`alignbench blocks` is a text output too (issue 33 item 5): no raw bidi override or ESC."""
    import subprocess
    import sys

    doc = tmp_path / "spoof.md"
    doc.write_text("# T\n\nPay \u202e54\u202c days and \x1b[31mred.\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "alignbench.cli", "blocks", str(doc)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "\u202e" not in out and "\x1b" not in out
    assert "⟨U+202E⟩" in out
