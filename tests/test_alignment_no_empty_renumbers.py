"""No renumber has an empty label on either side: a label that appears or disappears is a modification."""

from __future__ import annotations

from alignbench import align, read
from alignbench.blocks import is_renumber


def _changes(old: str, new: str) -> list[dict]:
    return align(read(old, format="markdown"), read(new, format="markdown")).to_dict()["changes"]


def test_is_renumber_needs_two_different_labels() -> None:
    assert is_renumber("1.2", "1.3")
    assert not is_renumber("1.2", "1.2")
    assert not is_renumber(None, "1")
    assert not is_renumber("1", None)
    assert not is_renumber("", "1")


def test_a_bullet_that_became_a_numbered_item_is_not_a_renumber() -> None:
    old = "# Terms\n\n- Alpha clause text.\n- Beta clause text.\n"
    new = "# Terms\n\n1. Alpha clause text.\n2. Beta clause text.\n"
    changes = _changes(old, new)
    assert [c["kind"] for c in changes] == ["modify", "modify"]
    assert all(c["source_label"] is None and c["test_label"] in ("1", "2") for c in changes)


def test_a_real_renumber_is_still_reported() -> None:
    old = "# Terms\n\n1. Alpha clause text.\n2. Beta clause text.\n3. Gamma clause text.\n"
    new = "# Terms\n\n1. Beta clause text.\n2. Gamma clause text.\n"
    kinds = {(c["kind"], c["source_label"], c["test_label"]) for c in _changes(old, new)}
    assert ("renumber", "2", "1") in kinds and ("renumber", "3", "2") in kinds
