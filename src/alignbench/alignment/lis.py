"""Longest increasing subsequence in O(n log n): which pairs of a sibling group keep their order."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from operator import lt


def lis_indices(values: Sequence[int]) -> list[int]:
    """Positions of one longest strictly increasing subsequence of ``values``, ascending.

    Deterministic: among equally long subsequences it returns the one patience sorting finds
    (each element's predecessor is the latest tail smaller than it).

    Already increasing values (the siblings of most groups kept their order) are their own longest
    run, which patience sorting also finds: one C-speed comparison pass answers without the search.
    """
    if all(map(lt, values, values[1:])):
        return list(range(len(values)))
    return _patience(values)


def _patience(values: Sequence[int]) -> list[int]:
    """Patience sorting: the general case of :func:`lis_indices`."""
    tails: list[int] = []  # tails[k] = smallest last value of an increasing run of length k+1
    tail_pos: list[int] = []
    prev = [-1] * len(values)
    for i, v in enumerate(values):
        k = bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tail_pos.append(i)
        else:
            tails[k] = v
            tail_pos[k] = i
        prev[i] = tail_pos[k - 1] if k > 0 else -1
    out: list[int] = []
    i = tail_pos[-1] if tail_pos else -1
    while i != -1:
        out.append(i)
        i = prev[i]
    out.reverse()
    return out
