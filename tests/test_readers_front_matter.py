"""Front matter is one paragraph block marked ``attrs.front_matter``, in both formats."""

from __future__ import annotations

import pytest

from alignbench import read


@pytest.mark.parametrize(
    ("document", "flavour", "text"),
    [
        (
            "---\ntitle: Privacy Policy\nupdated: 2024-01-01\n---\nPRIVACY\n\nWe keep little.\n",
            "yaml",
            "title: Privacy Policy\nupdated: 2024-01-01",
        ),
        (
            '+++\ntitle = "Privacy Policy"\n+++\nPRIVACY\n\nWe keep little.\n',
            "toml",
            'title = "Privacy Policy"',
        ),
    ],
)
def test_front_matter_is_one_block_and_not_body_text(document: str, flavour: str, text: str) -> None:
    for fmt in ("markdown", "text"):
        tree = read(document, format=fmt)
        first = tree.find("/paragraph[1]")
        assert (first.label, first.text, dict(first.attrs)) == (None, text, {"front_matter": flavour})
        body = [b for b in tree.blocks() if b.kind in ("heading", "paragraph", "list_item")][1:]
        assert [b.text for b in body] == ["PRIVACY", "We keep little."]
        assert tree.dropped == {}


def test_opening_thematic_break_that_is_not_a_mapping_is_body_text() -> None:
    tree = read("---\nJust a note between rules.\n---\n\nBody.\n", format="markdown")
    assert all(not b.attrs.get("front_matter") for b in tree.blocks())
    assert tree.dropped == {"hr": 1}


def test_line_numbers_after_front_matter_are_the_source_lines() -> None:
    deep = "".join("  " * i + "- x\n" for i in range(101))
    with pytest.raises(Exception, match="line 104:"):
        read("---\na: 1\n---\n" + deep, format="markdown")
