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
    """Address -> twin class, for every text block or row in a run of identical twins (others absent).

    Twins (issue #27) are byte-identical siblings standing next to each other: a contiguous run with
    the same parent, kind, label and text (the block digest). No document tells them apart, so which
    copy a generator deleted or moved is a fact of its seed, not of the documents; the headline links
    figures credit any twin of the labelled partner, one to one. Copies separated by other content are
    not twins: their neighbours tell them apart (a "Consent" paragraph under each purpose).
    """
    classes: dict[str, str] = {}
    stack = [tree.root]
    while stack:
        parent = stack.pop()
        run: list = []
        for child in (*parent.children, None):
            twin = (
                child is not None
                and (child.kind == "row" or not child.is_container)
                and child.normalised_text
            )
            if run and (not twin or child.kind != run[0].kind or child.digest != run[0].digest):
                if len(run) > 1:
                    for member in run:
                        classes[member.address] = f"{parent.address}\x1f{run[0].address}"
                run = []
            if twin:
                run.append(child)
            if child is not None and child.children:
                stack.append(child)
    return classes
