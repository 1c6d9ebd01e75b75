"""Pass 1, exact: children of one matched parent pair whose match keys are equal pair outright.

A key is a block's normalised text (a row's cells, a headed section's heading): equal keys of one
kind class pair. Where a key is carried by several siblings on a side, the copies are placed nearest
first without crossing, and flagged ambiguous: content cannot tell byte-identical twins apart.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from alignbench.alignment.lis import lis_indices
from alignbench.alignment.order import nearest_order_preserving

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk


def exact_pass(walk: Walk, left_s: list[int], left_t: list[int]) -> tuple[list[int], list[int]]:
    """Pair the unpaired children ``left_s``/``left_t`` of one group by key; return those left over.

    Nearly every group's keys are unique on each side (the clauses of one section): then a key
    names at most one partner, and one dict built at C speed pairs the group. Any repeated key takes
    the bucket rule (:func:`pair_by_buckets`), whose result on unique keys is the same."""
    key_t, key_s = walk.tst.key, walk.src.key
    # Comprehensions, not dict(zip(map(...))) and list(map(...)): the interpreter specialises their
    # list indexing, and for a group's few blocks they took half and four fifths of the time.
    partner_of = {key_t[t]: t for t in left_t}
    if len(partner_of) == len(left_t):
        partner_of.pop(None, None)  # a keyless container pairs no source block here
        keys_s = [key_s[s] for s in left_s]
        if len(set(keys_s)) == len(keys_s):
            return _pair_unique_keys(walk, left_s, left_t, partner_of)
    return pair_by_buckets(walk, left_s, left_t)


def _pair_unique_keys(
    walk: Walk, left_s: list[int], left_t: list[int], partner_of: dict[str | None, int]
) -> tuple[list[int], list[int]]:
    """Keys unique on both sides: a block pairs with the one of equal key if it is of its class (a
    heading and a paragraph of equal text are two buckets). Pairs are made in source order, as the
    bucket rule makes them. ``partner_of`` holds no None key: a keyless source block finds nothing."""
    cls_s, cls_t, key_s, get = walk.src.cls, walk.tst.cls, walk.src.key, partner_of.get
    kids_s, kids_t, queue = walk.src.children, walk.tst.children, walk.queue
    s2t, t2s, matched_by, confidence = walk.s2t, walk.t2s, walk.matched_by, walk.confidence
    rest_s: list[int] = []
    for s in left_s:
        t = get(key_s[s])
        if t is not None and cls_s[s] == cls_t[t]:
            # Walk.pair written out: this runs for nearly every block of a revised pair.
            s2t[s], t2s[t], matched_by[s], confidence[s] = t, s, "exact", 1.0
            if kids_s[s] or kids_t[t]:
                queue.append((s, t))
        else:
            rest_s.append(s)
    if len(left_s) - len(rest_s) == len(left_t):  # every test block paired
        return rest_s, []
    t2s = walk.t2s
    return rest_s, [t for t in left_t if t2s[t] == -1]


def pair_by_buckets(walk: Walk, left_s: list[int], left_t: list[int]) -> tuple[list[int], list[int]]:
    # A bucket is (kind class, key). Most keys are unique within a group, so each side maps a bucket
    # to its first block, and only a bucket met twice gets a list (``more_*``, every member in
    # document order): one small dict per side instead of a list per block.
    src, tst = walk.src, walk.tst
    key_t, cls_t, key_s, cls_s = tst.key, tst.cls, src.key, src.cls
    first_t: dict[tuple[int, str], int] = {}
    more_t: dict[tuple[int, str], list[int]] = {}
    for t in left_t:
        key = key_t[t]
        if key is not None:
            bucket = (cls_t[t], key)
            if bucket in first_t:
                more_t.setdefault(bucket, [first_t[bucket]]).append(t)
            else:
                first_t[bucket] = t
    first_s: dict[tuple[int, str], int] = {}
    more_s: dict[tuple[int, str], list[int]] = {}
    for s in left_s:
        key = key_s[s]
        if key is not None:
            bucket = (cls_s[s], key)
            if bucket in first_s:
                more_s.setdefault(bucket, [first_s[bucket]]).append(s)
            elif bucket in first_t:
                first_s[bucket] = s
    repeated: list[tuple[tuple[int, str], int]] = []
    for bucket, first in first_s.items():  # insertion order = source document order
        if bucket not in more_s and bucket not in more_t:
            walk.pair(first, first_t[bucket], "exact", 1.0)
        else:
            repeated.append((bucket, first))
    if repeated:
        _pair_copies(walk, left_s, repeated, more_s, more_t, first_t)
    s2t, t2s = walk.s2t, walk.t2s
    return [s for s in left_s if s2t[s] == -1], [t for t in left_t if t2s[t] == -1]


def _pair_copies(
    walk: Walk,
    left_s: list[int],
    repeated: list[tuple[tuple[int, str], int]],
    more_s: dict[tuple[int, str], list[int]],
    more_t: dict[tuple[int, str], list[int]],
    first_t: dict[tuple[int, str], int],
) -> None:
    """Byte-identical copies pair in reading order, anchored by unique neighbours (issue #29 class 1).

    Nearest sibling position is wrong as soon as blocks are inserted above the copies: two new
    paragraphs, and every later "Learn more" pairs with the copy one place up. As a patience diff
    anchors on unique lines, the group's uniquely keyed pairs (just made) that keep their order are
    anchors, and a copy is placed where its nearest preceding anchor says it should be (that anchor's
    test position plus the copy's distance below it in the source); copies then pair nearest to that
    place first, never crossing. Every copy pair is flagged ambiguous: content alone cannot tell twins
    apart."""
    src, tst = walk.src, walk.tst
    s2t, pos_s, pos_t = walk.s2t, src.position, tst.position
    anchors = sorted((pos_s[s], pos_t[s2t[s]]) for s in left_s if s2t[s] != -1)
    kept = [anchors[i] for i in lis_indices([a[1] for a in anchors])]
    cuts = [a[0] for a in kept]

    def expected(s: int) -> int:
        k = bisect_left(cuts, pos_s[s])
        if k == 0:
            return pos_s[s]
        anchor_s, anchor_t = kept[k - 1]
        return anchor_t + pos_s[s] - anchor_s

    for bucket, first in repeated:
        sources = more_s.get(bucket) or [first]
        tests = more_t.get(bucket) or [first_t[bucket]]
        place = {s: expected(s) for s in sources}
        for s, t in nearest_order_preserving(sources, tests, place, pos_t):
            walk.pair(s, t, "exact", 1.0)
            walk.ambiguous.add(s)
        if len(sources) > len(tests):
            walk.ambiguous_keys[0].add(bucket)
        elif len(tests) > len(sources):
            walk.ambiguous_keys[1].add(bucket)
