"""Labels are what a reader sees: bullets have none, ordered lists their rendered number, and a
label-like start that continues no sequence is text."""

from __future__ import annotations

import pytest

from alignbench import align, read
from alignbench.blocks import BlockTree


def _items(tree: BlockTree) -> list[tuple[str | None, str]]:
    return [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"]


def _paragraphs(tree: BlockTree) -> list[str]:
    return [b.text for b in tree.blocks() if b.kind == "paragraph"]


def test_bullet_style_change_is_not_a_renumber() -> None:
    old = read("# Rules\n\n- Be kind.\n- Be patient.\n- Be respectful.\n", format="markdown")
    new = read("# Rules\n\n* Be kind.\n* Be patient.\n* Be respectful.\n", format="markdown")
    assert [label for label, _ in _items(old)] == [None, None, None]
    changes = align(old, new).to_dict()["changes"]
    assert [c for c in changes if c["kind"] == "renumber"] == []


def test_ordered_list_labels_are_rendered_numbers_and_start_is_honoured() -> None:
    assert [label for label, _ in _items(read("1. a\n1. b\n1. c\n", format="markdown"))] == ["1", "2", "3"]
    assert [label for label, _ in _items(read("4. d\n9. e\n", format="markdown"))] == ["4", "5"]


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("a) First item.\nb) Second item.\nc) Third item.\n", ["a)", "b)", "c)"]),
        ("(a) First item;\n(b) second item.\n", ["(a)", "(b)"]),
        ("a. First item.\nb. Second item.\n", ["a", "b"]),
        ("i) First item;\nii) second item; and\niii) third item.\n", ["i)", "ii)", "iii)"]),
        ("(iii) Third item.\n(iv) Fourth item.\n", ["(iii)", "(iv)"]),
        ("A. First item.\nB. Second item.\n", ["A", "B"]),
        ("1.1.1 First.\n1.1.2 Second.\n", ["1.1.1", "1.1.2"]),
        ("999. Nine nine nine.\n1000. One thousand.\n1001. And one.\n", ["999", "1000", "1001"]),
    ],
)
def test_text_label_grammar(text: str, labels: list[str]) -> None:
    assert [label for label, _ in _items(read(text))] == labels


def test_four_digit_sections_keep_their_labels() -> None:
    text = "\n".join(f"{n}. Clause number {n} applies." for n in range(1, 1201)) + "\n"
    tree = read(text)
    labels = [b.label for b in tree.blocks() if b.kind == "list_item"]
    assert labels == [str(n) for n in range(1, 1201)]


def test_label_that_continues_no_sequence_is_text() -> None:
    tree = read(
        "Contact us\n\n"
        "Example Corp.\n88 Colin P. Kelly Jr. St.\nSan Francisco, CA\n\n"
        "V. 1.1\n\n"
        "1. Scope. This policy applies.\n\n2. Changes. We may change it.\n"
    )
    assert _items(tree) == [("1", "Scope. This policy applies."), ("2", "Changes. We may change it.")]
    # The street line is no clause 88; under its addressee's name it is one address paragraph
    # (profile address_lines).
    assert "Example Corp. 88 Colin P. Kelly Jr. St. San Francisco, CA" in _paragraphs(tree)
    assert "V. 1.1" in _paragraphs(tree)


def test_roman_v_after_iv_is_still_a_label() -> None:
    tree = read("IV. Fourth part.\n\nV. Fifth part.\n")
    assert [label for label, _ in _items(tree)] == ["IV", "V"]


def test_text_bullet_lines_are_separate_unlabelled_items() -> None:
    tree = read("Fruit:\n- alpha\n- beta\n- gamma\n")
    assert _items(tree) == [(None, "alpha"), (None, "beta"), (None, "gamma")]


def test_text_heading_rule_decides_numbered_headings_the_same_way() -> None:
    tree = read(
        "1. Definitions\n\nThe words below have these meanings.\n\n"
        "2. Scope of the rights\n\nThe licence covers copying.\n\n"
        "3. REQUIREMENTS\nThe licensee must keep this notice in every copy of the work.\n\n"
        "4. Warranty\nThe licensor gives no warranty of any kind, express or implied.\n"
    )
    headings = [(b.address, b.label, b.text) for b in tree.blocks() if b.kind == "heading"]
    assert headings == [
        ("/section[1]/heading[1]", "1", "Definitions"),
        ("/section[2]/heading[1]", "2", "Scope of the rights"),
        ("/section[3]/heading[1]", "3", "REQUIREMENTS"),
        ("/section[4]/heading[1]", "4", "Warranty"),
    ]
    assert tree.find("/section[3]/paragraph[1]").text.startswith("The licensee must")


def test_first_line_of_a_wrapped_clause_is_not_a_heading() -> None:
    tree = read(
        "1. The Licensee shall not use the Software for any\npurpose other than its own business.\n\n"
        "2. Each Party shall keep the Confidential Information\nof the other Party secret.\n"
    )
    assert [b.kind for b in tree.blocks()][1:] == ["list_item", "list_item"]
