"""Flags and the change list, read off the finished pairing rather than searched for.

A pair is moved when its parents do not correspond or it crosses its siblings (off the LIS of its
group); renumbered when its parents correspond and its labels differ. The change list reports a
moved, inserted or deleted subtree once, at its topmost block, with move > renumber > modify.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import unmatched
from alignbench.alignment.lis import lis_indices
from alignbench.alignment.model import AlignedPair, Change
from alignbench.blocks import is_renumber

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

_new_pair = tuple.__new__


def section_partners(walk: Walk) -> list[int]:
    """Each source block's partner, where a section follows its heading.

    A section is its heading: labellers mark a moved section on its heading and never label the
    container, so when the engine pairs a section container with one test section (say, a wrapper a
    new title added) but its heading with the heading of another, the heading's pairing says which
    test section it became. Other blocks keep their own partner.
    """
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    out = list(s2t)
    for i in src.parents:
        kids = src.children[i]
        if src.kind[i] != "section" or not kids or src.kind[kids[0]] != "heading":
            continue
        t = s2t[kids[0]]
        if t == -1:
            continue
        section = tst.parent[t]
        if section > 0 and tst.kind[section] == "section" and tst.children[section][0] == t:
            out[i] = section
    return out


def _heads(walk: Walk, s: int) -> bool:
    """``s`` is the heading that opens its section (so it moves when, and only when, the section does)."""
    src = walk.src
    parent = src.parent[s]
    if src.kind[s] != "heading" or parent <= 0 or src.kind[parent] != "section":
        return False
    return src.children[parent][0] == s


def crossing_sources(walk: Walk, s2t: list[int] | None = None) -> set[int]:
    """Source indices of pairs that sit in a corresponding group but off its longest increasing run."""
    src, tst = walk.src, walk.tst
    s2t = walk.s2t if s2t is None else s2t
    partner_of = s2t.__getitem__
    crossing: set[int] = set()
    for ps in src.parents:  # a block with fewer than two children crosses nothing
        pt = s2t[ps]
        kids = src.children[ps]
        if pt == -1 or len(kids) < 2:
            continue
        partners = list(map(partner_of, kids))
        if partners == sorted(partners):
            # Partners in document order (the unpaired, -1, all first): those inside the partner
            # group are in sibling order too, so none is off the LIS. The common case, at C speed.
            continue
        inside = [c for c in kids if s2t[c] != -1 and tst.parent[s2t[c]] == pt]
        if len(inside) < 2:
            continue
        keep = lis_indices([tst.position[s2t[c]] for c in inside])
        kept = {inside[i] for i in keep}
        crossing.update(c for c in inside if c not in kept)
    return crossing


def previous_paired(matched: list[int], i: int) -> int:
    """The nearest block before ``i`` in document order that has a partner (-1 if none).

    Asked only for the blocks of relabelled pairs, each the first block after a run of unpaired ones
    at most: the runs walked back over are disjoint, so all questions together read each block once
    (a table of every block's answer cost two passes over both documents per comparison)."""
    j = i - 1
    while j >= 0 and matched[j] == -1:
        j -= 1
    return j


def renested(walk: Walk, s: int, t: int) -> bool:
    """Re-nested one level in place while renumbered: not a move (issue #14, class 3).

    Only for a block whose number changed: a renumber storm is where a reader's alpha/roman ambiguity
    re-hangs an item. A block that keeps its label and lands under another parent (a heading that
    changed level, a wrapper heading added or removed) moved by the written rule (parents do not
    correspond), and the real tier's labels say so.

    After "(i)" is deleted, "(ii)" becomes "(i)" and a reader may hang it one level higher or lower
    (an "(i)" after "(h)" reads as a letter). Its parent then differs from its old parent's partner,
    but by one level only - the test parent is the partner of the old grandparent, or the test
    grandparent is the partner of the old parent - and in document order it still follows the block
    it followed before. That is a renumber inside corresponding parents, not a move.
    """
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    ps, pt = src.parent[s], tst.parent[t]
    one_up = ps > 0 and s2t[src.parent[ps]] == pt
    one_down = pt > 0 and s2t[ps] == tst.parent[pt]
    if not (one_up or one_down):
        return False
    before_s = previous_paired(s2t, s)
    return before_s != -1 and s2t[before_s] == previous_paired(walk.t2s, t)


def build_records(walk: Walk) -> tuple[list[AlignedPair], list[Change]]:
    """The pairs in source document order, and the change list: pair changes and deletes in source
    document order, then inserts in test document order.

    One loop over the source blocks makes both: a pair's flags decide its change row as soon as they
    are known, so no table of flags is kept between a pairs pass and a changes pass (each read every
    block of the source again)."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    eff = section_partners(walk)
    crossing = crossing_sources(walk, eff)
    pairs: list[AlignedPair] = []
    changes: list[Change] = []
    # Runs once per source block of every comparison: the columns are read into locals, and the calls
    # a pair cannot need are skipped (equal labels are no renumber; only a heading can head a section).
    src_parent, src_label, src_kind, src_address, src_text = (
        src.parent,
        src.label,
        src.kind,
        src.address,
        src.text,
    )
    tst_parent, tst_label, tst_address, tst_text = tst.parent, tst.label, tst.address, tst.text
    matched_by, confidence, twins = walk.matched_by, walk.confidence, walk.ambiguous
    add_pair, add_change = pairs.append, changes.append
    root = s2t[0]  # the roots always pair, and a root is never moved, renumbered or changed
    add_pair(
        _new_pair(
            AlignedPair,
            (src_address[0], tst_address[root], matched_by[0], confidence[0], False, False, 0 in twins),
        )
    )
    for s in range(1, len(s2t)):
        t = s2t[s]
        section = src_parent[s]
        if t == -1:
            if s2t[section] != -1:  # topmost block of a deleted subtree
                add_change(_new_pair(Change, ("delete", src_address[s], None, src_label[s], None)))
            continue
        label_s, label_t = src_label[s], tst_label[t]
        if (
            label_s == label_t
            and eff[section] == tst_parent[t]
            and (s2t[section] == eff[section] or src_kind[s] != "heading")
            and s not in crossing
        ):
            # Most pairs: same label, under the partner of their parent, not crossing and not a heading
            # judged at its section - neither moved nor renumbered (the rule below, without its steps).
            moved = renumbered = False
        else:
            relabelled = label_s != label_t and is_renumber(label_s, label_t)
            # A heading whose section container was paired elsewhere (so the container's own flag says
            # nothing about it) moves with its section: judge the section's place instead.
            if (
                src_kind[s] == "heading"
                and s2t[section] != eff[section]
                and eff[section] == tst_parent[t]
                and _heads(walk, s)
            ):
                corresponds = eff[src_parent[section]] == tst_parent[tst_parent[t]]
                at = section
            else:
                corresponds = eff[section] == tst_parent[t]
                at = s
            if not corresponds and relabelled:
                corresponds = renested(walk, s, t)
            moved = (not corresponds) or at in crossing
            renumbered = corresponds and relabelled
        # AlignedPair(...) built at C speed: the named tuple's own constructor is a Python function.
        add_pair(
            _new_pair(
                AlignedPair,
                (src_address[s], tst_address[t], matched_by[s], confidence[s], moved, renumbered, s in twins),
            )
        )
        if moved:
            kind = "move"
        elif renumbered:
            kind = "renumber"
        elif src_text[s] != tst_text[t] or label_s != label_t:  # a label gained or lost too
            kind = "modify"
        else:
            continue
        add_change(_new_pair(Change, (kind, src_address[s], tst_address[t], label_s, label_t)))
    for t in unmatched(t2s):
        if t2s[tst_parent[t]] != -1:  # topmost block of an inserted subtree
            add_change(_new_pair(Change, ("insert", None, tst_address[t], None, tst_label[t])))
    return pairs, changes
