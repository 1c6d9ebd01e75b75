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

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from math import inf


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


def _chains_ending(values: Iterable[int]) -> list[int]:
    """Each value's longest strictly increasing chain ending at it (patience sorting, one C-speed
    ``bisect`` per value, none where the value extends the longest chain so far: most do)."""
    find = bisect_left
    ends: list[int] = []
    tails: list[float] = [-inf]  # tails[k] ends a chain of length k; the sentinel is below every value
    grow, note = tails.append, ends.append
    for v in values:
        if v > tails[-1]:
            grow(v)
            note(len(tails) - 1)
        else:
            k = find(tails, v)
            tails[k] = v
            note(k)
    return ends


def _lengths(targets: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each element's longest strictly increasing chain ending at it and starting at it: a chain
    starting here, read right to left, is a decreasing run, so the same pass over the negated
    reversed sequence gives the second."""
    starts = _chains_ending(-t for t in reversed(targets))
    starts.reverse()
    return _chains_ending(targets), starts


def _classes(targets: Sequence[int]) -> tuple[list[bool], list[int]]:
    """Which elements every longest chain keeps, and each element's tie group (-1: no choice).

    An element on every longest chain never moves; one on none always moves. An element on some
    chains but not all is a choice: any longest chain keeps some of them and moves the rest, and
    exchanging elements that cross one another gives another chain of the same length. Those are
    grouped by the connected components of their crossing graph, which for a sequence are contiguous
    runs (cut wherever everything before is below everything after)."""
    n = len(targets)
    ends, starts = _lengths(targets)
    on_level = max(ends) + 1  # ends + starts on a longest chain
    on_some = [e + s == on_level for e, s in zip(ends, starts, strict=True)]
    if sum(on_some) == on_level - 1:  # one element per level: a single longest chain, no choice
        return on_some, [-1] * n
    per_level = Counter(compress(ends, on_some))
    always = [o and per_level[e] == 1 for e, o in zip(ends, on_some, strict=True)]
    groups = [-1] * n
    if len(per_level) == sum(always):  # every level has one element: no choice anywhere
        return always, groups
    choice = [i for i in range(n) if on_some[i] and not always[i]]
    suffix_min = [0] * len(choice)
    low = None
    for k in range(len(choice) - 1, -1, -1):
        t = targets[choice[k]]
        low = t if low is None or t < low else low
        suffix_min[k] = low
    group, high = 0, None
    for k, i in enumerate(choice):
        groups[i] = group
        t = targets[i]
        high = t if high is None or t > high else high
        if k + 1 < len(choice) and high < suffix_min[k + 1]:
            group += 1
    return always, groups


def kept_in_order(
    targets: Sequence[int], keep_bonus: Sequence[int] | Callable[[int], int] | None = None
) -> list[bool]:
    """Which elements the canonical longest in-order chain keeps (:func:`kept_and_ties`)."""
    return kept_and_ties(targets, keep_bonus)[0]


def kept_and_ties(
    targets: Sequence[int], keep_bonus: Sequence[int] | Callable[[int], int] | None = None
) -> tuple[list[bool], list[int]]:
    """Which elements the canonical longest in-order chain keeps, and each element's tie group.

    ``targets`` are the test positions of correspondences listed in source reading order. The chain
    is strictly increasing in ``targets``. Among chains of the greatest length, the one keeping most
    elements with ``keep_bonus`` 1 wins (the rule's first tie-break: the block whose section changed
    is the one that moved); among those, the lexicographically smallest in source order (the second:
    the block that comes later in the source is the one that moved). ``keep_bonus`` may be a function
    of the element's index: it is asked only where a choice is made.

    Every longest chain keeps the elements on all longest chains; the choices are made within each
    tie group alone (its elements lie between the kept ones around it), by a weighted search over the
    group's few elements, so a long revision costs two bisect passes.
    """
    n = len(targets)
    if n == 0:
        return [], []
    kept, groups = _classes(targets)
    members: dict[int, list[int]] = {}
    for i, g in enumerate(groups):
        if g != -1:
            members.setdefault(g, []).append(i)
    for _, indices in sorted(members.items()):
        if keep_bonus is None:
            bonus = [0] * len(indices)
        elif callable(keep_bonus):
            bonus = [keep_bonus(i) for i in indices]
        else:
            bonus = [keep_bonus[i] for i in indices]
        for i, keep in zip(indices, _best_chain([targets[i] for i in indices], bonus), strict=True):
            kept[i] = keep
    return kept, groups


def _best_chain(targets: Sequence[int], bonus: Sequence[int]) -> list[bool]:
    """The canonical longest chain of one tie group (see :func:`kept_in_order`)."""
    n = len(targets)
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
    """Each element's tie group: -1 when every longest chain agrees about it, else a group number
    (see :func:`_classes`)."""
    if not targets:
        return []
    return _classes(targets)[1]
