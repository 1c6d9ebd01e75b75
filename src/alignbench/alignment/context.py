"""Section context: what a block's surroundings say about it when its own text cannot.

Two readings the content and name similarities miss, each computed from the flattened trees alone:

- a *label-only* heading ("Schedule 1", "SEC. 5." with no text of its own) names nothing, so the
  section it heads is read through the content it heads: the Dice overlap of its children's exact
  texts (:func:`child_overlap`). A schedule whose first paragraph was rewritten still keeps its
  short, unchanged items, and those are the evidence that it is the same schedule;
- a block's *heading path* - the name of the section it sits in - and its neighbours, used by the
  loose move round (:mod:`alignbench.alignment.loose`) to tell a moved-and-edited clause from a
  merely similar one.
"""

from __future__ import annotations

from alignbench.alignment.flat import CLASS_SECTION, FlatDocument


def label_only(doc: FlatDocument, i: int) -> bool:
    """A section (or document) headed by a heading that has a label and no text."""
    if doc.cls[i] != CLASS_SECTION:
        return False
    h = doc.heading_child(i)
    return h is not None and bool(doc.label[h]) and not doc.text[h]


def child_keys(doc: FlatDocument, i: int) -> dict[str, int]:
    """Multiset of the exact keys of a container's children, its heading left out."""
    h = doc.heading_child(i)
    counts: dict[str, int] = {}
    for c in doc.children[i]:
        key = doc.key[c]
        if c == h or not key:
            continue
        counts[key] = counts.get(key, 0) + 1
    return counts


def child_overlap(keys_a: dict[str, int], keys_b: dict[str, int]) -> float:
    """Dice over two child-key multisets: the share of children kept byte for byte."""
    total = sum(keys_a.values()) + sum(keys_b.values())
    if not total:
        return 0.0
    shared = sum(min(n, keys_b.get(k, 0)) for k, n in sorted(keys_a.items()))
    return 2.0 * shared / total
