"""Reader rules for documents as people have them (issue 28, "Seen on real documents", classes 1-7).

Each rule has positive examples and near-misses that must stay text. The examples are written for
these tests; none is copied from a third-party document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from alignbench import read
from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError


def _leaves(tree: BlockTree) -> list[tuple[str, str | None, str]]:
    return [
        (b.kind, b.label, b.text) for b in tree.blocks() if b.kind in ("heading", "paragraph", "list_item")
    ]


def _text(document: str) -> BlockTree:
    return read(document, format="text")


def _md(document: str) -> BlockTree:
    return read(document, format="markdown")


# Class 1: hard-wrapped text without blank lines ------------------------------------------------

WRAPPED = """\
1. Licence Grant
The Owner grants the Holder a licence to copy and share the Work in any
medium, for any lawful purpose, for as long as the Holder keeps to the
terms set out below.
The Holder may not charge others for the Work itself.
2. Conditions
The Holder must keep every notice that names the Owner intact, and must
mark any copy that the Holder has changed, so that readers can tell the
changed copy from the original one.
Any breach ends the licence at once.
- the Holder stops all copying;
- the Holder deletes all copies.
"""


def test_a_short_line_that_ends_a_sentence_ends_its_paragraph() -> None:
    leaves = _leaves(_text(WRAPPED))
    texts = [text for _, _, text in leaves]
    assert "The Holder may not charge others for the Work itself." in texts
    assert "Any breach ends the licence at once." in texts
    assert texts[1].startswith("The Owner grants") and texts[1].endswith("terms set out below.")
    # Each bullet is a unit of its own, and the headings keep their labels.
    assert [t for _, _, t in leaves[-2:]] == [
        "the Holder stops all copying;",
        "the Holder deletes all copies.",
    ]
    assert ("heading", "1", "Licence Grant") in leaves
    assert ("heading", "2", "Conditions") in leaves


def test_a_full_line_that_ends_a_sentence_does_not_end_the_paragraph() -> None:
    # Near-miss: "compensation." fills its line (the next word would not have fitted), so the
    # paragraph goes on. Mean block length is long (no blank lines), so the rule is on.
    document = (
        "The Holder may share the Work with others without any compensation.\n"
        "However the Holder shall keep all notices and all marks of changes.\n"
        "Nothing in this licence limits the rights that the law gives anyway.\n"
        "Every part of this text stays one paragraph because each line is full.\n"
    ) * 3
    leaves = _leaves(_text(document))
    assert len(leaves) == 1


def test_semantic_line_breaks_in_a_blank_line_document_stay_one_paragraph() -> None:
    # Near-miss: a document that separates paragraphs by blank lines breaks lines at sentences on
    # purpose; a short line there is no paragraph break.
    document = (
        "Short first sentence.\nThe second sentence follows on a new line and runs much longer than that.\n"
        "A third line ends it.\n\nAnother paragraph.\n\nAnd one more.\n"
    )
    leaves = _leaves(_text(document))
    assert leaves[0][2].startswith("Short first sentence. The second sentence")


# Class 2: labels glued to their heading -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "label", "title"),
    [
        ("1.Definitions", "1", "Definitions"),
        ("4.Warranty", "4", "Warranty"),
        ("Article 5.Term", "Article 5", "Term"),
    ],
)
def test_a_label_glued_to_its_heading_is_a_label(line: str, label: str, title: str) -> None:
    # `4.` needs `3.` or `5.` in the document, as any label does (the sequence rule).
    tree = _text(f"3.Payment\n\nThe fees are due.\n\n{line}\n\nThe parties agree as follows.\n")
    heading = [b for b in tree.blocks() if b.kind == "heading"][-1]
    assert (heading.label, heading.text) == (label, title)


@pytest.mark.parametrize(
    "line", ["1.5GB of storage is included.", "3.A grade is given.", "Version 2.beta ships."]
)
def test_glued_near_misses_stay_text(line: str) -> None:
    leaves = _leaves(_text(f"{line}\n"))
    assert leaves == [("paragraph", None, line)]


def test_glued_labels_in_markdown_too() -> None:
    tree = _md("## 1.Definitions\n\nText.\n\n## 2.Fees\n\nMore text.\n")
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "heading"] == [
        ("1", "Definitions"),
        ("2", "Fees"),
    ]


# Class 3: bullets beyond - * + • ------------------------------------------------------------------


@pytest.mark.parametrize("bullet", ["—", "–", "◦", "▪", "·", "o", ">"])
def test_typed_bullets_make_one_item_per_line(bullet: str) -> None:
    document = (
        "The following terms are defined:\n"
        f"{bullet} Owner means the person who made the Work;\n"
        f"{bullet} Holder means any person who receives a copy;\n"
        f"{bullet} Work means the text this licence covers.\n"
    )
    items = [b for b in _text(document).blocks() if b.kind == "list_item"]
    assert [b.text for b in items] == [
        "Owner means the person who made the Work;",
        "Holder means any person who receives a copy;",
        "Work means the text this licence covers.",
    ]
    assert all(b.label is None for b in items)


@pytest.mark.parametrize(
    "line",
    ["—the dash is glued to the word here.", "o'clock is not a bullet.", "-- a double dash is not one."],
)
def test_bullet_near_misses_stay_text(line: str) -> None:
    document = f"First sentence of the paragraph runs here\n{line}\n"
    assert [b.kind for b in _text(document).blocks()] == ["document", "paragraph"]


def test_markdown_paragraph_lines_with_typed_bullets_split() -> None:
    tree = _md("Defined terms:\n— Owner means the maker;\n— Holder means the recipient.\n")
    assert [b.text for b in tree.blocks() if b.kind == "list_item"] == [
        "Owner means the maker;",
        "Holder means the recipient.",
    ]


# Class 4: the Title Case heading rule misfires --------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "51 Example Street, Fifth Floor, Boston, MA 02110-1301, USA",
        "12 Sample Road, Springfield",
        "Example Holdings Ltd, Unit 4, Leeds LS1 4AB",
    ],
)
def test_a_postal_address_line_is_no_heading(line: str) -> None:
    tree = _text(f"Write to us at:\n\n{line}\n\nWe answer within a week.\n")
    assert not any(b.kind == "heading" for b in tree.blocks())
    assert not any(b.kind == "section" for b in tree.blocks())


def test_an_indented_notice_a_paragraph_introduces_is_no_heading() -> None:
    document = (
        "The owner places the following notice next to the copyright notice of the work:\n\n"
        "     Licensed under the Example License\n\n"
        "You may use this file only in line with the licence and its own conditions.\n"
    )
    tree = _text(document)
    assert not any(b.kind == "heading" for b in tree.blocks())
    assert "Licensed under the Example License" in [b.text for b in tree.blocks() if b.kind == "paragraph"]


@pytest.mark.parametrize(
    "before",
    [
        "EXAMPLE LICENCE AGREEMENT",  # a title, not an introduction
        "The owner keeps every right not granted here.",  # a sentence, not an introduction
    ],
)
def test_an_indented_title_after_other_text_is_still_a_heading(before: str) -> None:
    tree = _text(f"{before}\n\n    Preamble\n\nThe purpose of this licence is to grant rights.\n")
    assert "Preamble" in [b.text for b in tree.blocks() if b.kind == "heading"]


def test_an_all_caps_heading_after_a_colon_is_still_a_heading() -> None:
    tree = _text("The terms are set out below:\n\n    TERMS AND CONDITIONS\n\nFirst term.\n")
    assert [b.text for b in tree.blocks() if b.kind == "heading"] == ["TERMS AND CONDITIONS"]


def test_title_case_headings_still_read() -> None:
    # Near-miss the other way: an ordinary flush-left Title Case heading with one comma.
    tree = _text("Fees, Taxes and Payment\n\nThe customer pays every invoice on time.\n")
    assert [b.text for b in tree.blocks() if b.kind == "heading"] == ["Fees, Taxes and Payment"]


# Class 5: plain text is text -----------------------------------------------------------------------


def test_angle_bracket_placeholders_are_content_in_text() -> None:
    document = (
        "<one line to give the program's name and a brief idea of what it does.>\n\n"
        "This agreement is between <Company A> and <Company B>.\n\n"
        "<Company A>\n"
    )
    tree = _text(document)
    texts = [b.text for b in tree.blocks() if b.kind == "paragraph"]
    assert texts == [
        "<one line to give the program's name and a brief idea of what it does.>",
        "This agreement is between <Company A> and <Company B>.",
        "<Company A>",
    ]
    assert tree.dropped == {}
    assert not any(b.kind == "heading" for b in tree.blocks())


def test_a_document_of_dropped_content_only_is_an_error() -> None:
    with pytest.raises(AlignbenchError, match="only content the reader drops"):
        _md("<div>\n$100\n</div>\n")
    with pytest.raises(AlignbenchError, match="only content the reader drops"):
        _text("----------\n")


# Class 6: flush-left paragraphs after a lettered sub-list --------------------------------------


def test_a_flush_paragraph_after_closed_sub_items_belongs_to_the_enclosing_clause() -> None:
    document = (
        "1. Definitions. In this agreement:\n\n"
        "i) Owner means the maker of the Work;\n\n"
        "ii) Holder means anyone with a copy.\n\n"
        "Other words have their plain meaning.\n\n"
        "2. Grant. The Owner grants the licence.\n"
    )
    tree = _text(document)
    clause = tree.find("/list_item[1]")
    assert clause.label == "1"
    assert [(c.kind, c.label) for c in clause.children] == [
        ("list_item", "i)"),
        ("list_item", "ii)"),
        ("paragraph", None),
    ]
    assert clause.children[2].text == "Other words have their plain meaning."


def test_a_flush_paragraph_after_a_numbered_clause_still_continues_it() -> None:
    # Near-miss: the rule is for lettered and roman sub-lists; a numbered clause keeps its paragraph.
    tree = _text("1. The Customer pays the fees.\n\nThis clause survives the end of the agreement.\n")
    clause = tree.find("/list_item[1]")
    assert [c.text for c in clause.children] == ["This clause survives the end of the agreement."]


# Class 7: Markdown exported from web pages ------------------------------------------------------


def test_web_headings_carry_their_own_labels() -> None:
    document = (
        "# Terms\n\n## D. Content\n\nText.\n\n## E. Private Repositories\n\nText.\n\n### Chapter 2 Accounts\n"
    )
    headings = [(b.label, b.text) for b in _md(document + "\nMore.\n").blocks() if b.kind == "heading"]
    assert headings == [
        (None, "Terms"),
        ("D", "Content"),
        ("E", "Private Repositories"),
        ("Chapter 2", "Accounts"),
    ]


def test_a_renamed_heading_letter_is_a_renumber() -> None:
    from alignbench.alignment import align

    old = _md(
        "## D. Content\n\nYou own your content.\n\n## E. Private Repositories\n\nWe keep them private.\n"
    )
    new = _md(
        "## D. Content\n\nYou own your content.\n\n## E. Security\n\nWe guard the service.\n\n"
        "## F. Private Repositories\n\nWe keep them private.\n"
    )
    changes = align(old, new).changes
    assert [(c.source_label, c.test_label) for c in changes if c.kind == "renumber"] == [("E", "F")]
    assert not [c for c in changes if c.kind == "modify"]


def test_escaped_clause_numbers_are_labels() -> None:
    tree = _md("1\\. The first clause.\n\n1.1\\. A sub-clause.\n\n2\\. The second clause.\n")
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"] == [
        ("1", "The first clause."),
        ("1.1", "A sub-clause."),
        ("2", "The second clause."),
    ]


def test_a_short_bold_paragraph_before_body_text_is_a_heading() -> None:
    tree = _md(
        "# Policy\n\n**Payment Terms**\n\nInvoices are due in 30 days.\n\n"
        "**Refunds**\n\n- none after 30 days\n"
    )
    headings = [b.text for b in tree.blocks() if b.kind == "heading"]
    assert headings == ["Policy", "Payment Terms", "Refunds"]
    section = tree.find("/section[1]/section[1]")
    assert [c.kind for c in section.children] == ["heading", "paragraph"]


@pytest.mark.parametrize(
    "document",
    [
        "**You must be at least 18 years old to use the service.**\n\nMore text.\n",  # a bold sentence
        "Some text.\n\n**Closing Words**\n",  # nothing follows it
        "**Bold** and then plain words in one paragraph.\n\nMore.\n",  # not bold from end to end
    ],
)
def test_bold_near_misses_stay_text(document: str) -> None:
    assert not any(b.kind == "heading" for b in _md(document).blocks())


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", " \u00a0 "])
def test_lines_of_non_breaking_or_em_spaces_are_blank(space: str) -> None:
    tree = _md(f"First paragraph.\n{space}\nSecond paragraph.\n")
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"] == [
        "First paragraph.",
        "Second paragraph.",
    ]


def test_a_wrapped_licence_without_blank_lines_reads_into_its_units() -> None:
    """A PDF-style export (written for this test): title lines, glued article labels, em-dash
    definitions and an unlabelled Title Case sub-heading, with no blank line anywhere."""
    tree = read(Path(__file__).parent / "reader_fixtures" / "wrapped-licence.txt")
    leaves = _leaves(tree)
    assert ("paragraph", None, "Version 2.1") in leaves
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "heading"] == [
        (None, "EXAMPLE SOFTWARE LICENCE AGREEMENT"),
        ("Article 1", "Definitions"),
        ("Article 2", "Grant of Rights"),
        (None, "Support and Updates"),
        ("Article 3", "Term"),
    ]
    definitions = [b.text for b in tree.blocks() if b.kind == "list_item"]
    assert len(definitions) == 3 and definitions[0].startswith('"Licensor" means')
    # A full line that ends a sentence is no paragraph end: the next word would not have fitted.
    grant = tree.find("/section[3]/paragraph[1]").text
    assert grant.endswith("The Licensee may make one backup copy.")


def test_escaped_numbers_in_web_exports_take_every_form() -> None:
    document = (
        "1\\.1\\. Both dots escaped.\n\n**1\\.2\\.** A bold number.\n\n"
        "Intro:\n1\\.3\\. A soft-wrapped clause.\n"
    )
    tree = _md(document)
    assert [b.label for b in tree.blocks() if b.kind == "list_item"] == ["1.1", "1.2", "1.3"]


@pytest.mark.parametrize(
    ("heading", "label", "text"),
    [
        ("## A Guide to the Terms", None, "A Guide to the Terms"),
        ("## A. Overview", "A", "Overview"),
        ("## O. Overview", None, "O. Overview"),  # no N. or P. in the document: the sequence rule
    ],
)
def test_web_heading_letters_need_their_full_stop(heading: str, label: str | None, text: str) -> None:
    tree = _md(f"{heading}\n\nBody text.\n")
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "heading"] == [(label, text)]


def test_a_non_breaking_space_inside_a_line_is_no_blank_line() -> None:
    # Near-miss: only a line of nothing but such spaces is blank.
    tree = _md("First line of the paragraph\nsecond\u00a0line of the same paragraph.\n")
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"] == [
        "First line of the paragraph second\u00a0line of the same paragraph."
    ]
