"""A Markdown document and its plain-text twin must give the same tree shape."""

from __future__ import annotations

from pathlib import Path

from alignbench import read
from alignbench.blocks import BlockTree

FIXTURES = Path(__file__).parent / "reader_fixtures"


def _shape(tree: BlockTree) -> list[tuple[str, str, str | None, int]]:
    return [(b.address, b.kind, b.label, b.level) for b in tree.blocks()]


def test_contract_twins_have_the_same_shape_and_digests() -> None:
    text = read(FIXTURES / "msa-contract.txt")
    markdown = read(FIXTURES / "msa-contract.md")
    assert _shape(text) == _shape(markdown)
    # Inline markup (**bold**, *em*, links) is removed, so even the digests agree.
    assert [b.digest for b in text.blocks()] == [b.digest for b in markdown.blocks()]
    # The one documented divergence: only the Markdown twin has a comment, a thematic break and a
    # link's target to drop (each kept apart with its digest, readers.drops).
    assert text.dropped == {}
    assert markdown.dropped == {"hr": 1, "html_block": 1, "link_target": 1}


def test_csa_versions_share_the_clause_shape() -> None:
    old = read(FIXTURES / "csa-1.1.md")
    new = read(FIXTURES / "csa-2.0.md")
    old_service = old.find("/section[1]/section[2]")
    new_service = new.find("/section[1]/section[1]")
    for section in (old_service, new_service):
        heading = section.children[0]
        assert (heading.kind, heading.label, heading.text) == ("heading", "1", "Service")
        assert section.children[1].kind == "list_item"
        assert section.children[1].label == "1.1"
        assert section.children[1].text.startswith("Access and Use.")
    old_restrictions = old.find("/section[1]/section[3]/list_item[1]")
    new_restrictions = new.find("/section[1]/section[2]/list_item[1]")
    assert [c.label for c in old_restrictions.children] == ["(a)", "(b)"]
    assert [c.label for c in new_restrictions.children] == ["a", "b"]
