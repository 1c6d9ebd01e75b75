"""A container's digest is its own content's (kind and children), never the hash of nothing."""

from __future__ import annotations

import hashlib

from alignbench import read

EMPTY = hashlib.sha256(b"").hexdigest()[:16]
DOC = "1. Fees\n\n1.1 The Customer pays monthly.\n\n2. Term\n\n2.1 The term is one year.\n"


def test_sections_have_distinct_digests_of_their_content() -> None:
    tree = read(DOC)
    first, second = tree.find("/section[1]"), tree.find("/section[2]")
    assert EMPTY not in (first.digest, second.digest, tree.root.digest)
    assert first.digest != second.digest


def test_an_edit_inside_changes_the_section_and_document_digests_only_above_it() -> None:
    old, new = read(DOC), read(DOC.replace("one year", "two years"))
    assert old.find("/section[1]").digest == new.find("/section[1]").digest
    assert old.find("/section[2]").digest != new.find("/section[2]").digest
    assert old.root.digest != new.root.digest
    assert read(DOC).root.digest == old.root.digest  # deterministic


def test_tables_have_content_digests() -> None:
    tree = read("| a | b |\n|---|---|\n| 1 | 2 |\n", format="markdown")
    table = tree.find("/table[1]")
    assert table.digest != EMPTY
    other = read("| a | b |\n|---|---|\n| 1 | 3 |\n", format="markdown").find("/table[1]")
    assert table.digest != other.digest
