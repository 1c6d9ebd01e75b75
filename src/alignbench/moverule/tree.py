"""The move rule over two block trees: which correspondences moved, travelled along, or re-parented.

One implementation serves the engine's ``moved`` flag, the generator's truth, the label migration and
the scorer, so the four cannot drift apart (issue #27). The rule, as a reviewing lawyer reads it:

- Read both versions top to bottom, headings included. Keep the largest set of correspondences that
  keep their relative order (:func:`alignbench.moverule.sequence.kept_in_order`); every other
  correspondence changed its place in reading order.
- Mark a move once, at the topmost block of the subtree that travelled: a block whose nearest
  out-of-order ancestor took it along (its partner lies inside that ancestor's partner) is not a
  move of its own. A section travels with its heading, which stands for it (containers carry no
  label row).
- Ties: prefer as the move the block whose section changed, then the block later in the source.
- A change of parent that leaves reading order intact (a heading inserted, deleted, promoted,
  demoted or turned into a paragraph; a list item re-indented) is not a move: it is ``reparented``.

Seed 001 called a correspondence a move when its parents do not correspond; an address shift alone
is never a change a reviewer needs flagged, so that case is reported apart, as ``reparented``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import lt

from alignbench.blocks import LABELLED_KINDS, BlockTree
from alignbench.moverule.sequence import kept_and_ties


@dataclass(frozen=True)
class Shape:
    """One tree as arrays in document pre-order (index 0 is the root)."""

    parent: Sequence[int]
    kind: Sequence[str]
    children: Sequence[Sequence[int]]


@dataclass(frozen=True)
class Reading:
    """Source indices of the correspondences in each class, and each correspondence's tie group."""

    moved: frozenset[int]
    travelled: frozenset[int]
    reparented: frozenset[int]
    tie_group: dict[int, int]  # source index -> group, for correspondences whose move is a choice


def _opens_section(shape: Shape, i: int) -> bool:
    p = shape.parent[i]
    return shape.kind[i] == "heading" and p > 0 and shape.kind[p] == "section" and shape.children[p][0] == i


def _head_of(shape: Shape, container: int) -> int:
    """The heading standing for a section, or -1."""
    kids = shape.children[container]
    if shape.kind[container] == "section" and kids and shape.kind[kids[0]] == "heading":
        return kids[0]
    return -1


def _placed_in(shape: Shape, i: int) -> int:
    """Where a block sits: its parent, or for a heading that opens its section, the section's parent."""
    return shape.parent[shape.parent[i]] if _opens_section(shape, i) else shape.parent[i]


def _stand_in(shape: Shape, container: int, linked: Sequence[bool], sections_only: bool) -> int:
    """The correspondence that stands for a container: itself if it is linked, a section's heading,
    else the nearest such ancestor (tables and unheaded sections are transparent); 0 for the root."""
    p = container
    while p > 0:
        head = _head_of(shape, p)
        if head != -1:
            return head
        if not sections_only and linked[p]:
            return p
        p = shape.parent[p]
    return 0


def _unit(shape: Shape, i: int) -> int:
    """The subtree a block carries with it: a section's heading carries its section."""
    return shape.parent[i] if _opens_section(shape, i) else i


def read_moves(src: Shape, tst: Shape, links: Sequence[tuple[int, int]]) -> Reading:
    """Classify one-to-one correspondences ``(source index, test index)`` by the move rule.

    The engine asks this for every alignment, so the work per link is a few list lookups: each
    container's stand-in is found once per side (memoised), the chain search runs only inside tie
    groups, and an already increasing sequence (no correspondence left its place, the common
    revision) skips it. The tie groups come with the chain (the scorer's tie-set credit reads them)."""
    ordered = sorted(links)
    n_src = len(src.parent)
    s2t = [-1] * n_src
    linked_s = [False] * n_src
    linked_t = [False] * len(tst.parent)
    for s, t in ordered:
        s2t[s] = t
        linked_s[s] = True
        linked_t[t] = True

    def same_section(i: int) -> int:
        """The tie-break bonus of link ``i``: its block's section corresponds (asked only in ties)."""
        s, t = ordered[i]
        a = _stand_in(src, _placed_in(src, s), linked_s, True)
        b = _stand_in(tst, _placed_in(tst, t), linked_t, True)
        return int((a == 0 and b == 0) or (a != 0 and s2t[a] == b))

    targets = [t for _, t in ordered]
    if all(map(lt, targets, targets[1:])):
        kept, groups = [True] * len(targets), [-1] * len(targets)  # nothing left its place: no choice
    else:
        kept, groups = kept_and_ties(targets, same_section)
    out_of_order = [False] * n_src
    moved: list[int] = []
    travelled: list[int] = []
    reparented: list[int] = []
    # Does the kept link's parent correspond (``same_section`` with any stand-in, not only sections)?
    # Inlined, with the stand-ins memoised: this loop runs once per link of every alignment.
    par_s, kind_s, kids_s = src.parent, src.kind, src.children
    par_t, kind_t, kids_t = tst.parent, tst.kind, tst.children
    memo_s: dict[int, int] = {}
    memo_t: dict[int, int] = {}
    for (s, t), keep in zip(ordered, kept, strict=True):
        if not keep:
            out_of_order[s] = True
            continue
        ps, pt = par_s[s], par_t[t]
        if kind_s[s] == "heading" and ps > 0 and kind_s[ps] == "section" and kids_s[ps][0] == s:
            ps = par_s[ps]
        if kind_t[t] == "heading" and pt > 0 and kind_t[pt] == "section" and kids_t[pt][0] == t:
            pt = par_t[pt]
        a = memo_s.get(ps)
        if a is None:
            a = memo_s[ps] = _stand_in(src, ps, linked_s, False)
        b = memo_t.get(pt)
        if b is None:
            b = memo_t[pt] = _stand_in(tst, pt, linked_t, False)
        if not ((a == 0 and b == 0) or (a != 0 and s2t[a] == b)):
            reparented.append(s)
    for s, t in ordered:
        if not out_of_order[s]:
            continue
        if _carried(src, tst, s, t, s2t, out_of_order):
            travelled.append(s)
        else:
            moved.append(s)
    tie_group = {s: g for (s, _), g in zip(ordered, groups, strict=True) if g != -1}
    return Reading(frozenset(moved), frozenset(travelled), frozenset(reparented), tie_group)


def _within(shape: Shape, i: int, ancestor: int) -> bool:
    """``i`` is ``ancestor`` or lies under it (a walk up a few levels, asked only of moved blocks)."""
    while i > ancestor:
        i = shape.parent[i]
    return i == ancestor


def _carried(
    src: Shape,
    tst: Shape,
    s: int,
    t: int,
    s2t: Sequence[int],
    out_of_order: Sequence[bool],
) -> bool:
    """Did an out-of-order ancestor take ``s`` along (its partner lies inside the ancestor's partner)?"""
    p = src.parent[_unit(src, s)]
    while p > 0:
        head = _head_of(src, p)
        stand = head if head != -1 else p
        if s2t[stand] != -1 and out_of_order[stand]:
            unit_t = _unit(tst, s2t[stand])
            if _within(tst, t, unit_t):
                return True
        p = src.parent[p]
    return False


def shape_of(tree: BlockTree) -> tuple[Shape, dict[str, int], list[str]]:
    """A tree's arrays, its address -> index map and its addresses in pre-order."""
    blocks = list(tree.blocks())
    index = {b.address: i for i, b in enumerate(blocks)}
    parent = [-1] * len(blocks)
    children: list[list[int]] = []
    for i, b in enumerate(blocks):
        kids = [index[c.address] for c in b.children]
        for c in kids:
            parent[c] = i
        children.append(kids)
    return Shape(parent, [b.kind for b in blocks], children), index, [b.address for b in blocks]


Link = tuple[str, str]


@dataclass(frozen=True)
class LinkReading:
    """:class:`Reading` keyed by (source address, test address)."""

    moved: frozenset[Link]
    travelled: frozenset[Link]
    reparented: frozenset[Link]
    tie_group: dict[Link, int]


def classify_links(source: BlockTree, test: BlockTree, links: Iterable[Link]) -> LinkReading:
    """The move rule over labelled correspondences given by address (rows whose blocks are missing
    from a tree, or are containers, are left out: they have no place in reading order)."""
    src, s_index, _ = shape_of(source)
    tst, t_index, _ = shape_of(test)
    by_source: dict[int, Link] = {}
    pairs: list[tuple[int, int]] = []
    for link in sorted(set(links)):
        s, t = s_index.get(link[0]), t_index.get(link[1])
        if s is None or t is None or src.kind[s] not in LABELLED_KINDS or tst.kind[t] not in LABELLED_KINDS:
            continue
        if s in by_source:
            continue  # one-to-one: a second link from one block is a split, not a correspondence
        by_source[s] = link
        pairs.append((s, t))
    reading = read_moves(src, tst, pairs)
    return LinkReading(
        frozenset(by_source[s] for s in reading.moved),
        frozenset(by_source[s] for s in reading.travelled),
        frozenset(by_source[s] for s in reading.reparented),
        {by_source[s]: g for s, g in reading.tie_group.items()},
    )
