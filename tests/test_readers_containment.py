"""Markdown containment follows CommonMark: which list item, if any, holds each block.

The cases are written for this project, modelled on the CommonMark spec's sections on paragraphs,
block quotes, list items and lists (https://spec.commonmark.org/, CC BY-SA 4.0); none is copied
from it, so no spec text is vendored. Each expectation is what a CommonMark renderer nests, read
off the rendered HTML by hand: a list item holds what is indented to its content column (or lazily
continues its paragraph); a block at column 0 after a blank line closes the list.
"""

from __future__ import annotations

import pytest

from alignbench import read
from alignbench.blocks import BlockTree


def _outline(tree: BlockTree) -> list[tuple[str, str | None, str]]:
    return [(b.address, b.label, b.text) for b in tree.blocks() if b.kind not in ("document", "section")]


CASES = [
    pytest.param(
        "* one\n* two\n\nAfter the list.\n",
        [
            ("/list_item[1]", None, "one"),
            ("/list_item[2]", None, "two"),
            ("/paragraph[1]", None, "After the list."),
        ],
        id="paragraph-at-column-0-after-a-blank-line-closes-the-list",
    ),
    pytest.param(
        "1. one\n\n   still one\n2. two\n",
        [
            ("/list_item[1]", "1", "one"),
            ("/list_item[1]/paragraph[1]", None, "still one"),
            ("/list_item[2]", "2", "two"),
        ],
        id="paragraph-indented-to-the-content-column-stays-in-the-item",
    ),
    pytest.param(
        "- one\n\n two\n",
        [("/list_item[1]", None, "one"), ("/paragraph[1]", None, "two")],
        id="paragraph-short-of-the-content-column-closes-the-list",
    ),
    pytest.param(
        "- one\ncontinued lazily\n",
        [("/list_item[1]", None, "one continued lazily")],
        id="lazy-continuation-line-is-the-same-paragraph",
    ),
    pytest.param(
        "- a\n  - b\n    - c\n- d\n",
        [
            ("/list_item[1]", None, "a"),
            ("/list_item[1]/list_item[1]", None, "b"),
            ("/list_item[1]/list_item[1]/list_item[1]", None, "c"),
            ("/list_item[2]", None, "d"),
        ],
        id="sublists-nest-by-content-column",
    ),
    pytest.param(
        "Intro:\n- a\n- b\n",
        [("/paragraph[1]", None, "Intro:"), ("/list_item[1]", None, "a"), ("/list_item[2]", None, "b")],
        id="a-list-may-interrupt-a-paragraph",
    ),
    pytest.param(
        "> 1. one\n> 2. two\n\nAfter the quote.\n",
        [
            ("/list_item[1]", "1", "one"),
            ("/list_item[2]", "2", "two"),
            ("/paragraph[1]", None, "After the quote."),
        ],
        id="paragraph-after-a-block-quote-is-outside-its-list",
    ),
    pytest.param(
        "> - a\n>\n> quoted, after the list\n",
        [("/list_item[1]", None, "a"), ("/paragraph[1]", None, "quoted, after the list")],
        id="paragraph-in-a-quote-after-its-list-is-outside-the-list",
    ),
    pytest.param(
        "- a\n\n  > quoted in a\n- b\n",
        [
            ("/list_item[1]", None, "a"),
            ("/list_item[1]/paragraph[1]", None, "quoted in a"),
            ("/list_item[2]", None, "b"),
        ],
        id="block-quote-inside-an-item-stays-in-it",
    ),
    pytest.param(
        "- a\n* b\n",
        [("/list_item[1]", None, "a"), ("/list_item[2]", None, "b")],
        id="changing-the-bullet-starts-a-new-list-of-unlabelled-items",
    ),
    pytest.param(
        "1. one\n2.\n3. three\n",
        [("/list_item[1]", "1", "one"), ("/list_item[2]", "2", ""), ("/list_item[3]", "3", "three")],
        id="an-empty-item-is-kept",
    ),
    pytest.param(
        "1. a\n1. b\n1. c\n",
        [("/list_item[1]", "1", "a"), ("/list_item[2]", "2", "b"), ("/list_item[3]", "3", "c")],
        id="ordered-items-carry-their-rendered-number",
    ),
    pytest.param(
        "7) g\n7) h\n",
        [("/list_item[1]", "7", "g"), ("/list_item[2]", "8", "h")],
        id="start-number-is-honoured",
    ),
]


@pytest.mark.parametrize(("markdown", "expected"), CASES)
def test_markdown_containment_follows_commonmark(
    markdown: str, expected: list[tuple[str, str | None, str]]
) -> None:
    assert _outline(read(markdown, format="markdown")) == expected


def test_clause_after_a_list_inside_a_labelled_clause_keeps_the_clause_open() -> None:
    """The msa twins: a text-labelled clause still owns the list that follows it, not what the list held."""
    tree = read("1.1 The party:\n\n- breaches; or\n- is insolvent.\n\n1.2 Survival.\n", format="markdown")
    assert _outline(tree) == [
        ("/list_item[1]", "1.1", "The party:"),
        ("/list_item[1]/list_item[1]", None, "breaches; or"),
        ("/list_item[1]/list_item[2]", None, "is insolvent."),
        ("/list_item[2]", "1.2", "Survival."),
    ]


@pytest.mark.parametrize("levels", [10, 40])
def test_deep_lists_lose_nothing(levels: int) -> None:
    markdown = "".join("  " * i + f"- level {i}\n" for i in range(levels)) + "\nAfter the list.\n"
    tree = read(markdown, format="markdown")
    items = [b for b in tree.blocks() if b.kind == "list_item"]
    assert [b.text for b in items] == [f"level {i}" for i in range(levels)]
    assert items[-1].address == "".join("/list_item[1]" for _ in range(levels))
    assert tree.find("/paragraph[1]").text == "After the list."
    assert tree.dropped == {}


def test_deep_block_quotes_lose_nothing() -> None:
    tree = read(">" * 20 + " deep\n\nAfter the quotes.\n", format="markdown")
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"] == ["deep", "After the quotes."]
