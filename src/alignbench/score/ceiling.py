"""The move ceiling: labelled moves no content-based engine can recover.

A moved block whose normalised text has a byte-identical twin among the leftovers on its side -
the blocks a move pass can still choose from, i.e. other moved blocks plus deleted (source side) or
inserted (test side) blocks - has several equally good candidates, and any engine that declines to
guess loses it. So does a moved block with a byte-identical *sibling* on its side (issue #14): one of a
run of identical paragraphs moved away, and which one left is decided by order alone - the engine
flags such pairs ``ambiguous`` and does not guess. Counting them says how much of a move-recall
shortfall is irreducible.
"""

from __future__ import annotations

from collections import Counter

from alignbench.blocks import BlockTree
from alignbench.score.truth import Truth


def _texts(tree: BlockTree, addresses: set[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for address in sorted(addresses):
        block = tree.get(address)
        if block is not None:
            found[address] = block.normalised_text
    return found


def _has_identical_sibling(tree: BlockTree, address: str) -> bool:
    block = tree.get(address)
    if block is None or not block.normalised_text:
        return False
    parent = tree.get(address.rsplit("/", 1)[0] or "/")
    if parent is None:
        return False
    text = block.normalised_text
    return sum(1 for c in parent.children if c.kind == block.kind and c.normalised_text == text) > 1


def unrecoverable_moves(truth: Truth, source: BlockTree, test: BlockTree) -> frozenset[tuple[str, str]]:
    """The labelled moves whose text has a byte-identical twin among the leftovers or its siblings."""
    source_texts = _texts(source, {s for s, _ in truth.moves} | set(truth.deleted))
    test_texts = _texts(test, {t for _, t in truth.moves} | set(truth.inserted))
    source_counts = Counter(source_texts.values())
    test_counts = Counter(test_texts.values())
    lost: set[tuple[str, str]] = set()
    for source_address, test_address in truth.moves:
        source_text = source_texts.get(source_address, "")
        test_text = test_texts.get(test_address, "")
        if (
            (source_text and source_counts[source_text] > 1)
            or (test_text and test_counts[test_text] > 1)
            or _has_identical_sibling(source, source_address)
            or _has_identical_sibling(test, test_address)
        ):
            lost.add((source_address, test_address))
    return frozenset(lost)


def twin_classes(tree: BlockTree) -> dict[str, str]:
    """Address -> twin class, for every text block or row with an identical sibling (others absent).

    Within one class the blocks are indistinguishable by anything a document says: same parent, same
    kind, same label and text (the block digest). Which of them a generator deleted or moved is a fact
    of its seed, not of the documents, so the hold-out table also reads links with twins
    interchangeable (``twin_hit_links``) to show how much of an F1 shortfall is that alone. The
    headline never uses it.
    """
    classes: dict[str, str] = {}
    stack = [tree.root]
    while stack:
        parent = stack.pop()
        by_text: dict[tuple[str, str], list] = {}
        for child in parent.children:
            if child.kind == "row" or not child.is_container:
                text = child.normalised_text
                if text:
                    by_text.setdefault((child.kind, text), []).append(child)
            if child.children:
                stack.append(child)
        for (kind, _text), same in by_text.items():
            if len(same) < 2:
                continue  # the digest (label and text) is only worth computing for equal texts
            for child in same:
                classes[child.address] = f"{parent.address}\x1f{kind}\x1f{child.digest}"
    return classes
