"""Layout rules of the text reader met in the conformance set's second round (issue 28).

Each rule is a profile rule (src/alignbench/readers/profiles.yaml) with positive examples and
near-misses that must stay text. The examples are written for these tests; none is copied from a
third-party document. They stand in for the licence texts that left the conformance set because
their own terms forbid modified copies (class 1's hard-wrapped sub-items, class 6's flush paragraph
after a sub-list), and for the classes the real documents showed (a comment margin, clause 0, a
block of one-line sayings).
"""

from __future__ import annotations

from alignbench import read
from alignbench.blocks import BlockTree


def _text(document: str) -> BlockTree:
    return read(document, format="text")


def _units(tree: BlockTree) -> list[tuple[str, str | None, str]]:
    return [
        (b.kind, b.label, b.text) for b in tree.blocks() if b.kind in ("heading", "paragraph", "list_item")
    ]


# Class 3's near-miss: a comment margin is no bullet list ------------------------------------------

COMMENTED = """\
 * This tool is shared as it is.  Anyone may copy it
 * and pass it on, as long as this note stays with it.
 *
 * Nobody promises that it works.  Reports of faults
 * are welcome but may go unanswered.
"""


def test_a_comment_margin_is_markup_and_its_bare_lines_separate_paragraphs() -> None:
    assert _units(_text(COMMENTED)) == [
        (
            "paragraph",
            None,
            "This tool is shared as it is.  Anyone may copy it and pass it on, "
            "as long as this note stays with it.",
        ),
        (
            "paragraph",
            None,
            "Nobody promises that it works.  Reports of faults are welcome but may go unanswered.",
        ),
    ]


def test_one_line_star_bullets_stay_a_list() -> None:
    # Near-miss: every line carries `* `, but no line holds the mark alone.
    tree = _text("Bring these:\n\n* a map of the town\n* a torch\n* a warm coat\n")
    items = [b.text for b in tree.blocks() if b.kind == "list_item"]
    assert items == ["a map of the town", "a torch", "a warm coat"]


def test_a_margin_on_only_some_lines_is_not_stripped() -> None:
    # Near-miss: a bullet list whose items wrap onto unmarked lines is still a list.
    tree = _text("* the first item wraps\n  onto a second line\n*\n* the third item\n")
    assert [b.kind for b in tree.blocks() if b.kind == "list_item"] == ["list_item", "list_item"]


def test_emphasis_stars_are_no_margin() -> None:
    leaves = _units(_text("*Note* that this line\n*is* emphasised twice.\n"))
    assert leaves == [("paragraph", None, "*Note* that this line *is* emphasised twice.")]


# A clause numbered from 0 -------------------------------------------------------------------------


def test_a_clause_numbered_from_zero_is_a_label() -> None:
    tree = _text("TERMS FOR SHARING\n\n  0. Do whatever you like with it.\n")
    assert ("list_item", "0", "Do whatever you like with it.") in _units(tree)


def test_zero_and_one_make_one_list() -> None:
    tree = _text("0. The first rule.\n\n1. The second rule.\n\n2. The third rule.\n")
    assert [(b.label, b.address) for b in tree.blocks() if b.kind == "list_item"] == [
        ("0", "/list_item[1]"),
        ("1", "/list_item[2]"),
        ("2", "/list_item[3]"),
    ]


def test_a_bare_zero_stays_prose() -> None:
    # Near-miss: no full stop after the 0.
    assert _units(_text("0 Results Were Found In The Archive today.\n"))[0][1] is None


# An indented block of one-line sayings ----------------------------------------------------------

SAYINGS = """\
Preamble
========

The club keeps a short list of sayings, one to a line:

    Measure twice, cut once.
    Leave the bench cleaner than you found it.
    Ask before you borrow a tool.
    Sharp tools are safe tools.

Members are asked to learn them.
"""


def test_an_indented_block_of_sentence_lines_is_one_unit_per_line() -> None:
    texts = [t for _, _, t in _units(_text(SAYINGS))]
    assert texts[2:6] == [
        "Measure twice, cut once.",
        "Leave the bench cleaner than you found it.",
        "Ask before you borrow a tool.",
        "Sharp tools are safe tools.",
    ]


def test_semantic_line_breaks_at_the_body_column_stay_one_paragraph() -> None:
    # Near-miss: the same sentences, not indented, are one paragraph written a sentence to a line.
    document = SAYINGS.replace("\n    ", "\n")
    texts = [t for _, _, t in _units(_text(document))]
    assert "Measure twice, cut once. Leave the bench cleaner than you found it." in " ".join(texts)
    assert "Measure twice, cut once." not in texts


def test_an_indented_wrapped_paragraph_stays_one_paragraph() -> None:
    # Near-miss: an indented block whose lines end mid-sentence is a wrapped paragraph.
    document = (
        "Notes\n=====\n\n"
        "    The bench is shared by every member, and each of them\n"
        "    is asked to leave it clean at the end of the day.\n"
        "    Tools go back on the wall.\n\nThat is all.\n"
    )
    texts = [t for _, _, t in _units(_text(document))]
    assert texts[1].startswith("The bench is shared") and texts[1].endswith("Tools go back on the wall.")


# Class 1: sub-items on consecutive lines, the first ending mid-sentence ---------------------------


def test_the_next_sub_item_on_the_next_line_opens_its_own_unit() -> None:
    document = (
        "(4) You may pass on a changed copy, provided that you either\n\n"
        "     (a) publish your changes under\n\n"
        "          (i) these same terms or\n"
        "          (ii) terms that let anyone copy and change the copy freely.\n"
    )
    items = [(b.label, b.text) for b in _text(document).blocks() if b.kind == "list_item"]
    assert items[-2:] == [
        ("(i)", "these same terms or"),
        ("(ii)", "terms that let anyone copy and change the copy freely."),
    ]


def test_a_wrapped_line_that_starts_with_another_number_stays_a_continuation() -> None:
    # Near-miss: `(3)` is not the next of the open clause `(a)`'s numbering.
    document = "(a) the rights listed in paragraph\n(3) above stay with the owner.\n"
    assert _units(_text(document)) == [
        ("list_item", "(a)", "the rights listed in paragraph (3) above stay with the owner.")
    ]


# Class 6: a flush paragraph after `a.` sub-items ------------------------------------------------

FLUSH = """\
3. Grant. The Owner grants you these rights:

a. to copy the Work;

b. to share the Work
with others.

These rights apply in every medium.

4. Limits. The grant has limits.
"""


def test_a_flush_paragraph_after_dotted_sub_items_continues_the_clause() -> None:
    tree = _text(FLUSH)
    clause = tree.find("/list_item[1]")
    assert clause.label == "3"
    assert [(c.kind, c.label) for c in clause.children] == [
        ("list_item", "a"),
        ("list_item", "b"),
        ("paragraph", None),
    ]
    assert clause.children[2].text == "These rights apply in every medium."


def test_an_indented_paragraph_after_a_dotted_sub_item_stays_inside_it() -> None:
    # Near-miss: indented past the item's label, the paragraph is the item's own second paragraph.
    document = FLUSH.replace("\nThese rights apply", "\n   These rights apply")
    item = _text(document).find("/list_item[1]/list_item[2]")
    assert item.label == "b"
    assert [c.text for c in item.children] == ["These rights apply in every medium."]


# Class 4, the other way round: a markup line introduces nothing ---------------------------------


def test_an_indented_heading_after_a_markup_line_is_a_heading() -> None:
    # reStructuredText's `::` ends in a colon but is markup: the indented title after it is a heading.
    document = "::\n\n  Overview\n\n      This note explains the plan in a few words.\n"
    assert ("heading", None, "Overview") in _units(_text(document))


def test_an_indented_notice_after_an_introducing_sentence_stays_text() -> None:
    # Near-miss: after a sentence that ends in a colon, the indented line is the text it introduces.
    document = "Put this line at the top of each file:\n\n    Shared Under The Club Terms\n"
    assert not any(b.kind == "heading" for b in _text(document).blocks())


# Class 4: an addressee's name over a postal address is no heading -------------------------------

ADDRESSED = """\
Questions about these terms go to the office below.

Example Institute of Research
77 Example Avenue
Springfield, Example State  12345

The office answers within a month.
"""


def test_a_name_over_an_address_line_is_one_address_paragraph() -> None:
    units = _units(_text(ADDRESSED))
    assert not any(kind == "heading" for kind, _, _ in units)
    assert units[1] == (
        "paragraph",
        None,
        "Example Institute of Research 77 Example Avenue Springfield, Example State  12345",
    )
    # The paragraph after the address stays where it is: no spurious section holds it.
    assert _text(ADDRESSED).find("/paragraph[3]").text == "The office answers within a month."


def test_a_title_over_prose_is_still_a_heading() -> None:
    # Near-miss: a Title Case line over a sentence (no address line under it) keeps the heading rule.
    document = (
        "Example Institute of Research\nThe institute was founded to study the example in all its forms.\n"
    )
    assert _units(_text(document))[0] == ("heading", None, "Example Institute of Research")


def test_a_labelled_line_over_an_address_keeps_its_label() -> None:
    # Near-miss: a numbered clause whose next line is an address is still the clause.
    document = "1. Notices\n77 Example Avenue, Springfield\n\n2. Fees\n\nThe fees are due.\n"
    labels = [b.label for b in _text(document).blocks() if b.label]
    assert labels[:2] == ["1", "2"]
