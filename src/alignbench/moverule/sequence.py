"""Which correspondences keep their reading order: the longest in-order chain, and its ties.

A move is a change of place in reading order (issue #27): read both versions top to bottom, keep the
largest set of correspondences whose relative order is unchanged, and every other correspondence
moved. Several chains can be equally long (a swap, alphabetised sections), so the rule needs a
deterministic choice among them, and the scorer needs to know which choices were possible at all:
an engine that names a different but equally small set of moves has described the same revision.

Everything here works on integer positions only, in O(n log n), so the engine can apply the rule to
a 20,000-block pair and the scorer to every label file.
"""

from __future__ import annotations

from collections.abc import Sequence


class _MaxTree:
    """A Fenwick tree of prefix maxima over ranks 0..n-1 (values only grow)."""

    def __init__(self, n: int) -> None:
        self._tree = [0] * (n + 1)

    def raise_to(self, rank: int, value: int) -> None:
        tree, i = self._tree, rank + 1
        while i < len(tree):
            if tree[i] < value:
                tree[i] = value
            i += i & -i

    def best_below(self, rank: int) -> int:
        """The largest value stored at a rank strictly below ``rank`` (0 if none)."""
        tree, i, best = self._tree, rank, 0
        while i > 0:
            if tree[i] > best:
                best = tree[i]
            i -= i & -i
        return best


def _ranks(values: Sequence[int]) -> list[int]:
    order = sorted(set(values))
    rank = {v: k for k, v in enumerate(order)}
    return [rank[v] for v in values]


def _chain_from(ranks: Sequence[int], weights: Sequence[int]) -> list[int]:
    """Each element's best chain weight starting at it (itself plus later, strictly higher ranks)."""
    n = len(ranks)
    top = max(ranks) + 1 if ranks else 0
    tree = _MaxTree(top)
    best = [0] * n
    for i in range(n - 1, -1, -1):
        mirrored = top - 1 - ranks[i]  # higher rank -> lower mirrored rank: a prefix query
        best[i] = weights[i] + tree.best_below(mirrored)
        tree.raise_to(mirrored, best[i])
    return best


def _chain_to(ranks: Sequence[int]) -> list[int]:
    """Each element's longest chain ending at it (earlier elements of strictly lower rank, then it)."""
    tree = _MaxTree(max(ranks) + 1 if ranks else 0)
    best = [0] * len(ranks)
    for i, r in enumerate(ranks):
        best[i] = 1 + tree.best_below(r)
        tree.raise_to(r, best[i])
    return best


def kept_in_order(targets: Sequence[int], keep_bonus: Sequence[int] | None = None) -> list[bool]:
    """Which elements the canonical longest in-order chain keeps.

    ``targets`` are the test positions of correspondences listed in source reading order. The chain
    is strictly increasing in ``targets``. Among chains of the greatest length, the one keeping most
    elements with ``keep_bonus`` 1 wins (the rule's first tie-break: the block whose section changed
    is the one that moved); among those, the lexicographically smallest in source order (the second:
    the block that comes later in the source is the one that moved).
    """
    n = len(targets)
    if n == 0:
        return []
    bonus = keep_bonus if keep_bonus is not None else [0] * n
    weights = [(n + 1) + b for b in bonus]
    ranks = _ranks(targets)
    best = _chain_from(ranks, weights)
    remaining = max(best)
    kept = [False] * n
    last = -1
    for j in range(n):
        if remaining == 0:
            break
        if ranks[j] > last and best[j] == remaining:
            kept[j] = True
            remaining -= weights[j]
            last = ranks[j]
    return kept


def tie_groups(targets: Sequence[int]) -> list[int]:
    """Each element's tie group: -1 when every longest chain agrees about it, else a group number.

    An element on every longest chain never moves; one on none always moves. An element on some
    chains but not all is a choice: any longest chain keeps some of them and moves the rest, and
    exchanging elements that cross one another gives another chain of the same length. Those
    elements are grouped by the connected components of their crossing graph, which for a sequence
    are contiguous runs (cut wherever everything before is below everything after).
    """
    n = len(targets)
    if n == 0:
        return []
    ranks = _ranks(targets)
    ends = _chain_to(ranks)
    starts = _chain_from(ranks, [1] * n)
    longest = max(ends)
    on_some = [ends[i] + starts[i] - 1 == longest for i in range(n)]
    per_length: dict[int, int] = {}
    for i in range(n):
        if on_some[i]:
            per_length[ends[i]] = per_length.get(ends[i], 0) + 1
    choice = [i for i in range(n) if on_some[i] and per_length[ends[i]] > 1]
    groups = [-1] * n
    if not choice:
        return groups
    suffix_min = [0] * len(choice)
    low = None
    for k in range(len(choice) - 1, -1, -1):
        r = ranks[choice[k]]
        low = r if low is None or r < low else low
        suffix_min[k] = low
    group, high = 0, -1
    for k, i in enumerate(choice):
        groups[i] = group
        high = max(high, ranks[i])
        if k + 1 < len(choice) and high < suffix_min[k + 1]:
            group += 1
    return groups
