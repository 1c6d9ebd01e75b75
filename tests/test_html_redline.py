"""The redline page as HTML text: every change anchored once, counts equal the JSON's, locations by
heading path, moves linked both ways, full text of inserts and deletes, word diffs, escaping, and a
page that asks for nothing from the network."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench import align, read
from alignbench.alignment import AlignmentConfig
from alignbench.html import render_redline
from alignbench.html.locate import Locator
from alignbench.html.view import build
from alignbench.html.wordiff import word_diff
from property_budget import examples

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "alignment_fixtures"
REAL_PAIRS = sorted(p for p in (ROOT / "corpus" / "real").iterdir() if p.is_dir())


class _Elements(HTMLParser):
    """Every start tag with its attributes, plus the text of the whole page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data):
        self.text.append(data)


def _parse(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    return parser


def _pair(old_text: str, new_text: str, format: str = "markdown"):
    old, new = read(old_text, format=format), read(new_text, format=format)
    return align(old, new, AlignmentConfig(similarity="difflib")), old, new


def _fixture():
    old, new = read(FIXTURES / "old.md"), read(FIXTURES / "new.md")
    return align(old, new, AlignmentConfig(similarity="difflib")), old, new


@pytest.mark.parametrize("pair", REAL_PAIRS, ids=lambda p: p.name)
def test_every_change_of_every_real_pair_is_anchored_once_and_listed_once(pair):
    (source,), (test,) = sorted(pair.glob("source.*")), sorted(pair.glob("test.*"))
    old, new = read(source), read(test)
    result = align(old, new, AlignmentConfig(similarity="difflib"))
    page = _parse(render_redline(result, old, new))
    ids = [attrs["id"] for _, attrs in page.tags if "id" in attrs]
    assert len(ids) == len(set(ids)), "an id is used twice"
    lines = {a["id"]: a for _, a in page.tags if "line" in a.get("class", "").split() and "id" in a}
    listed = [attrs for tag, attrs in page.tags if tag == "li" and "data-change" in attrs]
    assert len(listed) == len(result.changes)
    for number, change in enumerate(result.changes, 1):
        line = lines[f"c-{number}"]
        assert line["data-kind"] == change.kind
        assert (line["data-source"], line["data-test"]) == (change.source or "", change.test or "")
        if change.kind == "move":
            assert f"c-{number}-from" in lines
    counts = {attrs["data-count-kind"]: attrs for _, attrs in page.tags if "data-count-kind" in attrs}
    kinds = {"total", "move", "renumber", "insert", "delete", "modified", "reparented", "paired"}
    assert set(counts) == kinds


def test_summary_counts_equal_the_json_counts():
    result, old, new = _fixture()
    page = render_redline(result, old, new)
    for kind, word in (
        ("move", "moved"),
        ("renumber", "renumbered"),
        ("insert", "inserted"),
    ):
        expected = sum(c.kind == kind for c in result.changes)
        assert re.search(rf'data-count-kind="{kind}"><b>{expected}</b> {word}<', page), kind
    modified = sum(c.modified for c in result.changes)  # every edit, the moved and renumbered ones too
    assert modified == result.to_dict()["summary"]["modified"]
    assert re.search(rf'data-count-kind="modified"[^>]*><b>{modified}</b> modified', page)
    assert f'data-count-kind="total"><b>{len(result.changes)}</b> changes' in page


def test_changes_are_located_by_heading_path_and_label_with_the_address_only_in_data():
    result, old, new = _fixture()
    redline = build(result, old, new, "old.md", "new.md")
    move = next(c for c in redline.changes if c.kind == "move")
    assert (move.old_location, move.new_location) == ("§2 Term › 2.2", "§3 Confidentiality › 3.2")
    renumber = next(c for c in redline.changes if c.kind == "renumber")
    assert renumber.new_location == "§1 Fees › 1.3" and renumber.label_change == "1.2 → 1.3"
    page = render_redline(result, old, new)
    visible = "".join(_parse(page).text)
    assert "/section[" not in visible  # addresses live in attributes (tooltips, data), never in the text
    assert 'title="old /section[1]/section[2]/list_item[2] → new /section[1]/section[3]/list_item[2]"' in page


def test_a_move_links_both_ways():
    result, old, new = _fixture()
    page = render_redline(result, old, new)
    number = next(i for i, c in enumerate(result.changes, 1) if c.kind == "move")
    destination = re.search(rf'<div class="line[^"]*" id="c-{number}".*?</div>\n</div>', page, re.S).group(0)
    source = re.search(rf'<div class="line[^"]*" id="c-{number}-from".*?</div>\n</div>', page, re.S).group(0)
    assert f'href="#c-{number}-from">§2 Term › 2.2</a>' in destination and "moved from" in destination
    assert f'href="#c-{number}">§3 Confidentiality › 3.2</a>' in source and "moved to" in source
    assert "st-move-src" in source and "st-move-dst" in destination


def test_a_lost_label_is_a_modification_named_without_none():
    result, old, new = _pair(
        "# T\n\n## 1. A\n\nFirst clause text here.\n", "# T\n\n## A\n\nFirst clause text here.\n"
    )
    redline = build(result, old, new, "a", "b")
    assert not [c for c in redline.changes if c.kind == "renumber"]  # a renumber needs two numbers
    modified = next(c for c in redline.changes if c.kind == "modify")
    assert modified.label_change == "1 → (no label)"
    page = render_redline(result, old, new)
    assert "None" not in page and "→ -" not in page


def test_inserts_and_deletes_show_their_full_text_with_children():
    long_clause = "The supplier shall keep every record " + "and every ledger " * 60 + "for seven years."
    old_doc = (
        "# Agreement\n\n## 1. Scope\n\n1.1 Services are described in the order.\n\n"
        f"## 2. Records\n\n2.1 {long_clause}\n\n2.2 Audits happen once a year on notice.\n\n"
        "## 3. Law\n\n3.1 English law governs this agreement.\n"
    )
    new_doc = (
        "# Agreement\n\n## 1. Scope\n\n1.1 Services are described in the order.\n\n"
        "## 2. Law\n\n2.1 English law governs this agreement.\n\n"
        "## 3. Insurance\n\n3.1 The supplier keeps public liability cover of ten million.\n\n"
        "3.2 Certificates are sent on request within five days.\n"
    )
    result, old, new = _pair(old_doc, new_doc)
    assert {c.kind for c in result.changes} >= {"insert", "delete"}
    page = render_redline(result, old, new)
    for text in (
        long_clause,
        "Audits happen once a year on notice.",
        "The supplier keeps public liability cover",
    ):
        assert text in page, text[:40]
    deleted = re.findall(r'<div class="line st-delete[^"]*".*?</div>\n</div>', page, re.S)
    assert any("Audits happen" in line for line in deleted) and any("seven years" in line for line in deleted)
    inserted = re.findall(r'<div class="line st-insert[^"]*".*?</div>\n</div>', page, re.S)
    assert any("Certificates are sent" in line for line in inserted)


def test_a_modification_shows_a_word_diff():
    result, old, new = _fixture()
    page = render_redline(result, old, new)
    assert '<del class="w">thirty </del><ins class="w">forty-five </ins>days' in page


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.sampled_from(["the", "fee", "shall", "be", "paid", ",", "within", "30", "days", "."]), max_size=30
    ),
    st.lists(
        st.sampled_from(["the", "fee", "must", "be", "paid", ";", "within", "45", "days", "."]), max_size=30
    ),
)
def test_word_diff_sides_spell_each_text_exactly(old_words, new_words):
    old, new = " ".join(old_words), " ".join(new_words)
    diff = word_diff(old, new)
    assert "".join(text for _, text in diff.old) == old
    assert "".join(text for _, text in diff.new) == new
    assert "".join(t for op, t in diff.merged if op != "insert").split() == old.split()
    assert "".join(t for op, t in diff.merged if op != "delete").split() == new.split()
    assert {op for op, _ in diff.old} <= {"equal", "delete"} and {op for op, _ in diff.new} <= {
        "equal",
        "insert",
    }


def test_document_text_is_escaped():
    hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)> "quoted"'
    # Plain text: the Markdown reader drops inline HTML before the page ever sees it.
    result, old, new = _pair(f"1. Plain clause.\n\n2. {hostile}\n", "1. Plain clause.\n", format="text")
    page = render_redline(result, old, new, old_name="<b>old</b>", new_name="new")
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>old</b>" not in page
    assert "&lt;script&gt;alert(" in page and "&lt;b&gt;old&lt;/b&gt;" in page
    assert page.count("<script>") == 1  # the page's own script, inlined


def test_the_page_is_self_contained_and_asks_for_nothing():
    result, old, new = _fixture()
    page = render_redline(result, old, new)
    tags = _parse(page).tags
    assert not [attrs for _, attrs in tags if "src" in attrs]
    hrefs = [attrs["href"] for _, attrs in tags if "href" in attrs]
    assert hrefs and all(h.startswith("#") or h.startswith("data:") for h in hrefs)
    assert "default-src 'none'" in page  # the Content-Security-Policy forbids every fetch
    assert "@import" not in page and "url(" not in page


def test_rendering_is_deterministic():
    result, old, new = _fixture()
    assert render_redline(result, old, new) == render_redline(result, old, new)


def test_locator_names_nested_items_and_unlabelled_blocks():
    tree = read(
        # `9.` is a label only next to its neighbour `8.` (the readers' sequence rule)
        "# Title\n\n## 8. Fees\n\n8.1 Pay.\n\n## 9. Term\n\n9.2 Renewal.\n\n(a) Notice first.\n\n"
        "A loose paragraph.\n",
        format="markdown",
    )
    at = Locator(tree)
    item = "/section[1]/section[2]/list_item[1]"
    assert at.locate(item) == "§9 Term › 9.2"  # the document-wide title section is not a step
    assert at.locate(item + "/list_item[1]") == "§9 Term › 9.2 › (a)"
    assert at.locate(item + "/list_item[1]/paragraph[1]") == "§9 Term › 9.2 › (a) › ¶ 1"
    assert at.locate("/section[1]/section[2]/heading[1]") == "§9 Term"
    assert at.locate("/") == "the whole document"


def test_a_heading_labelled_in_words_gets_no_section_sign():
    tree = read("SEC. 107. FUNDING\n\nThe Secretary shall pay.\n", format="text")
    at = Locator(tree)
    names = [at.locate(b.address) for b in tree.blocks() if b.kind == "heading"]
    assert names and all(not name.startswith("§") for name in names), names


def test_merged_diff_spacing_follows_the_side_shown_next():
    deleted = word_diff("Cover Page and Order Form.", "Cover Page.").merged
    assert deleted == [("equal", "Cover Page "), ("delete", "and Order Form"), ("equal", ".")]
    inserted = word_diff("Cloud Service and only if", "Cloud Service, in each case, and only if").merged
    assert inserted == [("equal", "Cloud Service"), ("insert", ", in each case, "), ("equal", "and only if")]
