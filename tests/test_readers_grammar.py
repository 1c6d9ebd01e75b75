"""Label grammar, nesting rules and Markdown specifics, each on a small document."""

from __future__ import annotations

import pytest

from alignbench import read
from alignbench.readers.label_grammar import match_label
from alignbench.readers.profiles import get_profile


def _labels(tree, kind="list_item"):
    return [(b.address, b.label) for b in tree.blocks() if b.kind == kind]


@pytest.mark.parametrize(
    ("text", "label", "kind", "rest"),
    [
        ("1.2.3 Fees apply.", "1.2.3", "decimal", "Fees apply."),
        ("7. Payment terms.", "7", "decimal", "Payment terms."),
        ("§ 4.2 Scope", "§ 4.2", "section_sign", "Scope"),
        ("SEC. 2. SHORT TITLE.", "SEC. 2", "word", "SHORT TITLE."),
        ("Section 5. The Customer shall pay.", "Section 5", "word", "The Customer shall pay."),
        ("(a) the first", "(a)", "enclosed", "the first"),
        ("(iv) the fourth", "(iv)", "enclosed", "the fourth"),
        ("(A) upper", "(A)", "enclosed", "upper"),
        ("IV. Remedies", "IV", "dotted", "Remedies"),
        ("A. Scope", "A", "dotted", "Scope"),
    ],
)
def test_contract_grammar(text: str, label: str, kind: str, rest: str) -> None:
    match = match_label(text, get_profile("contract"))
    assert match is not None
    assert (match.label, match.kind, match.rest) == (label, kind, rest)


@pytest.mark.parametrize(
    "text",
    ["Section 5 (Fees) survives termination.", "H. R. 4668", "1996 was a year", "30 days after", "U.S. law"],
)
def test_prose_is_not_a_label(text: str) -> None:
    assert match_label(text, get_profile("contract")) is None


def test_word_label_heading_without_terminator() -> None:
    match = match_label("Section 5 Termination", get_profile("contract"), heading=True)
    assert match is not None and (match.label, match.rest) == ("Section 5", "Termination")


def test_alpha_roman_resolved_by_open_numbering() -> None:
    doc = "7.2 The Supplier shall:\n(i) first;\n(ii) second.\n\n7.3 Also:\n(g) g;\n(h) h; and\n(i) i.\n"
    tree = read(doc, format="text")
    assert _labels(tree) == [
        ("/list_item[1]", "7.2"),
        ("/list_item[1]/list_item[1]", "(i)"),
        ("/list_item[1]/list_item[2]", "(ii)"),
        ("/list_item[2]", "7.3"),
        ("/list_item[2]/list_item[1]", "(g)"),
        ("/list_item[2]/list_item[2]", "(h)"),
        ("/list_item[2]/list_item[3]", "(i)"),
    ]


def test_schedule_heading_restarts_numbering() -> None:
    doc = "1. Terms\n\n1.1 First clause.\n\nSCHEDULE 1\n\n1.1 Restarted clause.\n"
    tree = read(doc, format="text")
    assert _labels(tree, "heading") == [
        ("/section[1]/heading[1]", "1"),
        ("/section[2]/heading[1]", "SCHEDULE 1"),
    ]
    restarted = tree.find("/section[2]/list_item[1]")
    assert restarted.label == "1.1" and restarted.text == "Restarted clause."


def test_continuation_and_cross_reference_lines() -> None:
    doc = (
        "2.1 The Supplier may act under clause\n3.2 of this Agreement.\n\n"
        "Further detail for clause 2.1.\n\n2.2 Next clause.\n"
    )
    tree = read(doc, format="text")
    first = tree.find("/list_item[1]")
    assert first.text == "The Supplier may act under clause 3.2 of this Agreement."
    assert first.children[0].kind == "paragraph"
    assert first.children[0].text == "Further detail for clause 2.1."
    assert tree.find("/list_item[2]").label == "2.2"


def test_bill_nesting_uses_labels_and_indentation() -> None:
    doc = (
        "SEC. 2. AMENDMENTS.\n\n    (a) In General.--Section 30 is amended--\n"
        "            (1) in subsection (e)--\n                    (A) by striking ``and''; and\n"
        "                    (B) by adding at the end; and\n            (2) by adding a new\n"
        "subsection.\n    (b) Applicability.--This applies.\n"
    )
    tree = read(doc, format="text")
    assert _labels(tree) == [
        ("/section[1]/list_item[1]", "(a)"),
        ("/section[1]/list_item[1]/list_item[1]", "(1)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[1]", "(A)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]", "(B)"),
        ("/section[1]/list_item[1]/list_item[2]", "(2)"),
        ("/section[1]/list_item[2]", "(b)"),
    ]
    assert tree.find("/section[1]/heading[1]").label == "SEC. 2"
    assert tree.find("/section[1]/list_item[1]/list_item[2]").text == "by adding a new subsection."


def test_reused_letters_at_two_depths_follow_indentation() -> None:
    doc = "  a. Grant.\n\n       1. Subject to this:\n\n            a. reproduce; and\n\n  b. Other.\n"
    tree = read(doc, format="text")
    assert _labels(tree) == [
        ("/list_item[1]", "a"),
        ("/list_item[1]/list_item[1]", "1"),
        ("/list_item[1]/list_item[1]/list_item[1]", "a"),
        ("/list_item[2]", "b"),
    ]


def test_markdown_list_marker_is_label_unless_text_has_one() -> None:
    doc = "# Terms\n\n1. ## Service\n\n    1.1 Access.\n\n2. Payment is due.\n\n3. 3.1 Text label wins.\n"
    tree = read(doc, format="markdown")
    assert _labels(tree, "heading") == [
        ("/section[1]/heading[1]", None),
        ("/section[1]/section[1]/heading[1]", "1"),
    ]
    service = tree.find("/section[1]/section[1]")
    assert [(c.kind, c.label) for c in service.children] == [
        ("heading", "1"),
        ("list_item", "1.1"),
        ("list_item", "2"),
        ("list_item", "3.1"),
    ]
    assert service.children[3].attrs == {"list_marker": "3."}


def test_markdown_nested_list_markers_nest() -> None:
    tree = read("1. Outer\n    1. Inner one\n    2. Inner two\n2. Second outer\n", format="markdown")
    assert _labels(tree) == [
        ("/list_item[1]", "1"),
        ("/list_item[1]/list_item[1]", "1"),
        ("/list_item[1]/list_item[2]", "2"),
        ("/list_item[2]", "2"),
    ]
    assert [b.level for b in tree.blocks() if b.kind == "list_item"] == [1, 2, 2, 1]


def test_markdown_tables_pad_ragged_rows_and_mark_the_header() -> None:
    doc = "| A | B | C |\n|---|---|---|\n| 1 | 2 |\n| x | y | z | extra |\n"
    tree = read(doc, format="markdown")
    table = tree.find("/table[1]")
    assert [len(r.children) for r in table.children] == [4, 4, 4]
    assert table.children[0].attrs == {"header": True}
    assert table.children[1].attrs == {}
    assert [c.text for c in table.children[1].children] == ["1", "2", "", ""]
    assert tree.find("/table[1]/row[3]/cell[4]").text == "extra"


def test_markdown_drops_are_counted() -> None:
    doc = "<div>\nhtml\n</div>\n\n---\n\nText with ![img](x.png) and <b>bold</b>.\n\n***\n"
    tree = read(doc, format="markdown")
    assert tree.dropped == {"hr": 2, "html_block": 1, "html_inline": 2, "image": 1}
    assert tree.find("/paragraph[1]").text == "Text with  and bold."


def test_setext_and_atx_headings_rank_sections() -> None:
    tree = read("Title\n=====\n\n## A\n\ntext\n\n### A.1\n\nmore\n\n## B\n", format="markdown")
    assert [(b.address, b.level) for b in tree.blocks() if b.kind == "section"] == [
        ("/section[1]", 1),
        ("/section[1]/section[1]", 2),
        ("/section[1]/section[1]/section[1]", 3),
        ("/section[1]/section[2]", 2),
    ]
