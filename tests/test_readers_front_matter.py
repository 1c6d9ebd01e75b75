"""Front matter is dropped from the tree and counted in ``dropped``, in both formats."""

from __future__ import annotations

import pytest

from alignbench import read
from alignbench.errors import AlignbenchError


@pytest.mark.parametrize(
    "document",
    [
        "---\ntitle: Privacy Policy\nupdated: 2024-01-01\n---\nPRIVACY\n\nWe keep little.\n",
        '+++\ntitle = "Privacy Policy"\n+++\nPRIVACY\n\nWe keep little.\n',
    ],
)
@pytest.mark.parametrize("fmt", ["markdown", "text"])
def test_front_matter_is_dropped_and_counted(document: str, fmt: str) -> None:
    tree = read(document, format=fmt)
    texts = [b.text for b in tree.blocks() if b.kind in ("heading", "paragraph", "list_item")]
    assert texts == ["PRIVACY", "We keep little."]
    assert all("front_matter" not in b.attrs for b in tree.blocks())
    assert tree.dropped == {"front_matter": 1}
    # The same document without its front matter gives the same tree, addresses and digests included.
    body = read("PRIVACY\n\nWe keep little.\n", format=fmt)
    assert [(b.address, b.digest) for b in tree.blocks()] == [(b.address, b.digest) for b in body.blocks()]


def test_only_the_opening_block_counts_once() -> None:
    tree = read("---\na: 1\n---\nBody.\n\n---\nb: 2\n---\n", format="markdown")
    assert tree.dropped["front_matter"] == 1


def test_opening_thematic_break_that_is_not_a_mapping_is_body_text() -> None:
    tree = read("---\nJust a note between rules.\n---\n\nBody.\n", format="markdown")
    first = next(b for b in tree.blocks() if b.kind in ("heading", "paragraph"))
    assert first.text == "Just a note between rules."
    assert tree.dropped == {"hr": 1}


def test_a_document_of_front_matter_only_is_an_error() -> None:
    with pytest.raises(AlignbenchError, match="only front matter"):
        read("---\ntitle: Empty\n---\n\n", format="markdown")


def test_line_numbers_after_front_matter_are_the_source_lines() -> None:
    deep = "".join("  " * i + "- x\n" for i in range(101))
    with pytest.raises(Exception, match="line 104:"):
        read("---\na: 1\n---\n" + deep, format="markdown")
