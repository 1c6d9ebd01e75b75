"""Order within one sibling group: pairs that must not cross, and equal candidates placed by nearness.

The exact pass, fuzzy acceptance and positional filling all keep a group's accepted pairs strictly
increasing on both sides; these helpers hold that rule apart from the walk that applies it.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Sequence


class OrderGuard:
    """Accepted (source position, test position) pairs of one scope, kept strictly increasing."""

    def __init__(self) -> None:
        self._s: list[int] = []
        self._t: list[int] = []

    def allows(self, ps: int, pt: int) -> bool:
        k = bisect_left(self._s, ps)
        if k > 0 and self._t[k - 1] >= pt:
            return False
        return not (k < len(self._s) and self._t[k] <= pt)

    def add(self, ps: int, pt: int) -> None:
        k = bisect_left(self._s, ps)
        self._s.insert(k, ps)
        self._t.insert(k, pt)

    def bounds(self, ps: int) -> tuple[int, int]:
        """Exclusive test-position interval a new pair at ``ps`` must fall in to cross nothing."""
        k = bisect_left(self._s, ps)
        lo = self._t[k - 1] if k > 0 else -1
        hi = self._t[k] if k < len(self._s) else 1 << 62
        return lo, hi


def nearest_order_preserving(
    sources: list[int], tests: list[int], pos_s: Sequence[int], pos_t: Sequence[int]
) -> list[tuple[int, int]]:
    """Equal candidates: nearest sibling position first, then source, then test; never crossing.

    A heap holds each source's best still-possible partner; a popped entry that an earlier
    acceptance invalidated is recomputed, which only ever makes it worse, so the pops come out
    in exactly the order of a greedy pass over every (distance, source, test) triple.
    """
    free_pos = sorted(pos_t[t] for t in tests)
    test_at = {pos_t[t]: t for t in tests}
    guard = OrderGuard()
    out: list[tuple[int, int]] = []

    def best(s: int) -> tuple[int, int, int] | None:
        p = pos_s[s]
        lo, hi = guard.bounds(p)
        k = bisect_left(free_pos, p)
        below = free_pos[k - 1] if k > 0 and free_pos[k - 1] > lo else None
        above = free_pos[k] if k < len(free_pos) and free_pos[k] < hi else None
        if below is None and above is None:
            return None
        if above is None or (below is not None and p - below <= above - p):
            return (p - below, s, below)  # type: ignore[operator]
        return (above - p, s, above)

    heap = []
    for s in sources:
        entry = best(s)
        if entry is not None:
            heap.append(entry)
    heapq.heapify(heap)
    while heap and free_pos:
        _dist, s, tp = heapq.heappop(heap)
        k = bisect_left(free_pos, tp)
        if k < len(free_pos) and free_pos[k] == tp and guard.allows(pos_s[s], tp):
            free_pos.pop(k)
            guard.add(pos_s[s], tp)
            out.append((s, test_at[tp]))
            continue
        entry = best(s)
        if entry is not None:
            heapq.heappush(heap, entry)
    out.sort()
    return out
