"""Flags and the change list, read off the finished pairing rather than searched for.

A pair is moved when its parents do not correspond or it crosses its siblings (off the LIS of its
group); renumbered when its parents correspond and its labels differ. The change list reports a
moved, inserted or deleted subtree once, at its topmost block, with move > renumber > modify.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import chain, compress, count, repeat
from operator import and_, eq, ne, not_, or_
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
    crossing: set[int] = set()
    for ps in src.parents:  # a block with fewer than two children crosses nothing
        pt = s2t[ps]
        kids = src.children[ps]
        if pt == -1 or len(kids) < 2:
            continue
        inside = [c for c in kids if s2t[c] != -1 and tst.parent[s2t[c]] == pt]
        if len(inside) < 2:
            continue
        keep = lis_indices([tst.position[s2t[c]] for c in inside])
        kept = {inside[i] for i in keep}
        crossing.update(c for c in inside if c not in kept)
    return crossing


def previous_paired(matched: list[int]) -> list[int]:
    """For each block, the nearest earlier block in document order that has a partner (-1 if none)."""
    out = [-1] * len(matched)
    last = -1
    for i, partner in enumerate(matched):
        out[i] = last
        if partner != -1:
            last = i
    return out


def renested(walk: Walk, s: int, t: int, prev_s: list[int], prev_t: list[int]) -> bool:
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
    before_s, before_t = prev_s[s], prev_t[t]
    return before_s != -1 and s2t[before_s] == before_t


def build_pairs(walk: Walk) -> tuple[list[AlignedPair], dict[int, tuple[bool, bool]]]:
    """Every pair in source document order with its flags, and the flags by source index.

    Most pairs keep their label, sit under corresponding parents and are not headings: such a pair is
    renumbered never and moved exactly when its parents do not correspond or it crosses its siblings.
    Those flags are read off whole columns at C speed (``map`` over the pairs); only the other pairs
    (the root, headings, changed labels) go through :func:`_pair_flags` one by one."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    eff = section_partners(walk)
    crossing = crossing_sources(walk, eff)
    src_parent, src_label, src_kind = src.parent, src.label, src.kind
    ss = list(compress(count(), map(_PAIRED, s2t)))  # paired source blocks, the root first
    ts = list(map(s2t.__getitem__, ss))
    same_label = map(eq, map(src_label.__getitem__, ss), map(tst.label.__getitem__, ts))
    usual = list(map(and_, same_label, map(_NOT_HEADING, map(src_kind.__getitem__, ss))))
    parents_s = map(eff.__getitem__, map(src_parent.__getitem__, ss))
    moved = list(map(ne, parents_s, map(tst.parent.__getitem__, ts)))
    renumbered = [False] * len(ss)
    for s in crossing:  # a section unpaired itself can cross, through its heading's partner
        k = bisect_left(ss, s)
        if k < len(ss) and ss[k] == s:
            moved[k] = True
    if ss:
        usual[0] = False  # the root (always paired, the first): it has no parent
    prev: list[list[int]] = []  # previous_paired of both sides, made on first use (renested)
    for k in compress(range(len(ss)), map(not_, usual)):
        moved[k], renumbered[k] = _pair_flags(walk, ss[k], ts[k], eff, crossing, prev)
    flags = dict(zip(ss, zip(moved, renumbered, strict=True), strict=True))
    # AlignedPair(...) built at C speed: the named tuple's own constructor is a Python function.
    columns = zip(
        map(src.address.__getitem__, ss),
        map(tst.address.__getitem__, ts),
        map(walk.matched_by.__getitem__, ss),
        map(walk.confidence.__getitem__, ss),
        moved,
        renumbered,
        map(walk.ambiguous.__contains__, ss),
        strict=True,
    )
    return list(map(_new_pair, repeat(AlignedPair), columns)), flags


_PAIRED = (-1).__ne__
_NOT_HEADING = "heading".__ne__


def _pair_flags(
    walk: Walk, s: int, t: int, eff: list[int], crossing: set[int], prev: list[list[int]]
) -> tuple[bool, bool]:
    """(moved, renumbered) of one pair, by the written rule (the module docstring)."""
    if s == 0:
        return False, False
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    label_s, label_t = src.label[s], tst.label[t]
    relabelled = label_s != label_t and is_renumber(label_s, label_t)
    # A heading whose section container was paired elsewhere (so the container's own flag says
    # nothing about it) moves with its section: judge the section's place instead.
    ps, pt, at = s, t, s
    section = src.parent[s]
    if (
        src.kind[s] == "heading"
        and _heads(walk, s)
        and s2t[section] != eff[section]
        and eff[section] == tst.parent[t]
    ):
        ps, pt, at = section, tst.parent[t], section
    corresponds = eff[src.parent[ps]] == tst.parent[pt]
    if not corresponds and relabelled:
        if not prev:
            prev.extend((previous_paired(s2t), previous_paired(walk.t2s)))
        corresponds = renested(walk, s, t, prev[0], prev[1])
    return (not corresponds) or at in crossing, corresponds and relabelled


def build_changes(walk: Walk, flags: dict[int, tuple[bool, bool]]) -> list[Change]:
    """Pair changes and deletes in source document order, then inserts in test document order.

    Only the blocks that can report a change are visited: the pairs flagged or whose text or label
    differs (picked out of whole columns at C speed) and the unpaired blocks under a paired parent."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    src_parent, src_label, src_text = src.parent, src.label, src.text
    tst_label, tst_text = tst.label, tst.text
    ss = list(flags)  # the paired source blocks, in document order
    ts = list(map(s2t.__getitem__, ss))
    differs = map(
        or_,
        map(ne, map(src_text.__getitem__, ss), map(tst_text.__getitem__, ts)),
        map(ne, map(src_label.__getitem__, ss), map(tst_label.__getitem__, ts)),
    )
    changed = compress(ss, map(or_, map(any, flags.values()), differs))
    deleted = [s for s in unmatched(s2t) if s2t[src_parent[s]] != -1]  # topmost blocks of deleted subtrees
    out: list[Change] = []
    for s in sorted(chain(changed, deleted)):
        if s == 0:
            continue
        t = s2t[s]
        if t == -1:
            out.append(Change("delete", src.address[s], None, src_label[s], None))
            continue
        moved, renumbered = flags[s]
        kind = "move" if moved else "renumber" if renumbered else "modify"
        out.append(Change(kind, src.address[s], tst.address[t], src_label[s], tst_label[t]))
    tst_parent = tst.parent
    for t in unmatched(t2s):
        if t2s[tst_parent[t]] != -1:
            out.append(Change("insert", None, tst.address[t], None, tst_label[t]))
    return out
