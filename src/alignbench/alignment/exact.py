"""Pass 1, exact: siblings whose (kind class, match key) bucket holds one block on each side pair at once.

A bucket met more than once on a side (byte-identical siblings) pairs by nearest position, never
crossing (:meth:`~alignbench.alignment.engine.Walk.nearest_order_preserving`), and is recorded as
ambiguous. The common group has every bucket once on both sides: each side's buckets are read from the
precomputed column (:attr:`~alignbench.alignment.flat.FlatDocument.bucket`) and put in one dict at C
speed, and a side is walked block by block only when its dict came out shorter than the side (a
bucket met twice).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

Bucket = tuple[int, str]


def exact_pass(walk: Walk, left_s: list[int], left_t: list[int]) -> tuple[list[int], list[int]]:
    """Pair the exact matches among the unpaired children; returns what is left on each side."""
    # Each side maps a bucket to its first block, and only a bucket met twice gets a list (``more_*``,
    # every member in document order).
    first_t, more_t = _first_and_more(list(map(walk.tst.bucket.__getitem__, left_t)), left_t)
    buckets_s = list(map(walk.src.bucket.__getitem__, left_s))
    first_s: dict[Bucket, int] = {}
    more_s: dict[Bucket, list[int]] = {}
    if len(dict.fromkeys(buckets_s)) == len(buckets_s):  # every source bucket once
        first_s = {bucket: s for bucket, s in zip(buckets_s, left_s, strict=True) if bucket in first_t}
    else:
        for bucket, s in zip(buckets_s, left_s, strict=True):
            if bucket is not None:
                if bucket in first_s:
                    more_s.setdefault(bucket, [first_s[bucket]]).append(s)
                elif bucket in first_t:
                    first_s[bucket] = s
    if not more_s and not more_t:  # every bucket once on both sides
        walk.pair_many(list(first_s.values()), list(map(first_t.__getitem__, first_s)), "exact", 1.0)
    else:
        _pair_buckets(walk, first_s, first_t, more_s, more_t)
    s2t, t2s = walk.s2t, walk.t2s
    return [s for s in left_s if s2t[s] == -1], [t for t in left_t if t2s[t] == -1]


def _pair_buckets(
    walk: Walk,
    first_s: dict[Bucket, int],
    first_t: dict[Bucket, int],
    more_s: dict[Bucket, list[int]],
    more_t: dict[Bucket, list[int]],
) -> None:
    """Pair bucket by bucket in source order; a bucket met twice on a side pairs by nearest position."""
    pair = walk.pair
    for bucket, first in first_s.items():  # insertion order = source document order
        if bucket not in more_s and bucket not in more_t:
            pair(first, first_t[bucket], "exact", 1.0)
        else:
            sources = more_s.get(bucket) or [first]
            tests = more_t.get(bucket) or [first_t[bucket]]
            for s, t in walk.nearest_order_preserving(sources, tests):
                pair(s, t, "exact", 1.0)
                walk.ambiguous.add(s)
            if len(sources) > len(tests):
                walk.ambiguous_keys[0].add(bucket)
            elif len(tests) > len(sources):
                walk.ambiguous_keys[1].add(bucket)


def _first_and_more(
    buckets: list[Bucket | None], blocks: list[int]
) -> tuple[dict[Bucket, int], dict[Bucket, list[int]]]:
    """Each bucket's first block, and every block of a bucket met more than once (keyless blocks,
    bucket ``None``, left out)."""
    first = dict(zip(buckets, blocks, strict=True))
    if len(first) == len(blocks):  # every bucket once (``None`` at most once): the common case
        first.pop(None, None)  # type: ignore[call-overload]
        return first, {}  # type: ignore[return-value]
    first = {}
    more: dict[Bucket, list[int]] = {}
    for bucket, block in zip(buckets, blocks, strict=True):
        if bucket is not None:
            if bucket in first:
                more.setdefault(bucket, [first[bucket]]).append(block)
            else:
                first[bucket] = block
    return first, more  # type: ignore[return-value]
