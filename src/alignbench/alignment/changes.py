"""Flags and the change list, read off the finished pairing rather than searched for.

A pair is moved when it changed its place in reading order (:mod:`alignbench.moverule`: off the
canonical longest in-order chain of the labelled correspondences, marked once at the topmost block of
the subtree that travelled); reparented when its parent changed but its place in reading order did
not; renumbered when it did not move and its labels differ. The change list reports a moved,
inserted or deleted subtree once, at its topmost block, with move > renumber > modify; a section
moves with its heading, and the section container carries the move and its change row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import unmatched
from alignbench.alignment.model import AlignedPair, Change
from alignbench.blocks import LABELLED_KINDS, is_renumber
from alignbench.moverule import Reading, Shape, read_moves

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

_new_pair = tuple.__new__
_LABELLED = frozenset(LABELLED_KINDS)


def move_reading(walk: Walk) -> Reading:
    """The move rule over the walk's labelled pairs (containers are carried by their headings)."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    s_kind, t_kind = src.kind, tst.kind
    links = [(s, t) for s, t in enumerate(s2t) if t > 0 and s_kind[s] in _LABELLED and t_kind[t] in _LABELLED]
    src_shape, tst_shape = Shape(src.parent, s_kind, src.children), Shape(tst.parent, t_kind, tst.children)
    return read_moves(src_shape, tst_shape, links)


def _section_heads(walk: Walk) -> dict[int, int]:
    """Section container -> the heading that opens it, where the container pairs with the section its
    heading's partner opens: such a section moves (and is re-parented) as one, reported at the
    container, whose first labelled block - the heading - is where the scorer credits it."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    heads: dict[int, int] = {}
    for i in src.parents:
        kids = src.children[i]
        if src.kind[i] != "section" or not kids or src.kind[kids[0]] != "heading":
            continue
        t_head, t_section = s2t[kids[0]], s2t[i]
        if (
            t_head > 0
            and t_section > 0
            and tst.parent[t_head] == t_section
            and tst.children[t_section][0] == t_head
        ):
            heads[i] = kids[0]
    return heads


def build_records(walk: Walk) -> tuple[list[AlignedPair], list[Change]]:
    """The pairs in source document order, and the change list: pair changes and deletes in source
    document order, then inserts in test document order.

    One loop over the source blocks makes both: a pair's flags decide its change row as soon as they
    are known. The move rule is read once for the whole pairing (:func:`move_reading`)."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    reading = move_reading(walk)
    moved_set, reparented_set = reading.moved, reading.reparented
    heads = _section_heads(walk)
    pairs: list[AlignedPair] = []
    changes: list[Change] = []
    src_parent, src_label, src_address, src_text = src.parent, src.label, src.address, src.text
    tst_label, tst_address, tst_text = tst.label, tst.address, tst.text
    matched_by, confidence, twins = walk.matched_by, walk.confidence, walk.ambiguous
    add_pair, add_change = pairs.append, changes.append
    root = s2t[0]  # the roots always pair, and a root is never moved, renumbered or changed
    add_pair(
        _new_pair(
            AlignedPair,
            (
                src_address[0],
                tst_address[root],
                matched_by[0],
                confidence[0],
                False,
                False,
                0 in twins,
                False,
            ),
        )
    )
    for s in range(1, len(s2t)):
        t = s2t[s]
        if t == -1:
            if s2t[src_parent[s]] != -1:  # topmost block of a deleted subtree
                add_change(_new_pair(Change, ("delete", src_address[s], None, src_label[s], None, False)))
            continue
        label_s, label_t = src_label[s], tst_label[t]
        head = heads.get(s)
        if head is not None:
            # The section moves with its heading: the container carries the move and its change row.
            moved, reparented = head in moved_set, head in reparented_set
        else:
            moved = s in moved_set and heads.get(src_parent[s]) != s
            reparented = s in reparented_set
        relabelled = label_s != label_t  # the labels as written: a renumber, or one gained or lost
        renumber = relabelled and is_renumber(label_s, label_t)
        renumbered = not moved and renumber
        # Texts are whitespace-normalised (flat.py), so only a real edit differs; a straight-to-curly
        # apostrophe is one. Decided for every pair, whatever its kind: a move or renumber that also
        # edited its text says so, so the ranking of kinds hides no edit (issue #29 class 7).
        modified = src_text[s] != tst_text[t] or (relabelled and not renumber)
        add_pair(
            _new_pair(
                AlignedPair,
                (
                    src_address[s],
                    tst_address[t],
                    matched_by[s],
                    confidence[s],
                    moved,
                    renumbered,
                    s in twins,
                    reparented,
                ),
            )
        )
        if moved:
            kind = "move"
        elif renumbered:
            kind = "renumber"
        elif modified:  # a label gained or lost too
            kind = "modify"
        else:
            continue
        add_change(_new_pair(Change, (kind, src_address[s], tst_address[t], label_s, label_t, modified)))
    for t in unmatched(t2s):
        if t2s[tst.parent[t]] != -1:  # topmost block of an inserted subtree
            add_change(_new_pair(Change, ("insert", None, tst_address[t], None, tst_label[t], False)))
    return pairs, changes
