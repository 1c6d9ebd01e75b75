"""The similarity prefilter's counting helpers equal their per-token definitions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment.similarity import multiset_bound, token_counts

TOKENS = st.lists(st.integers(0, 12), max_size=30)


def _loop_counts(tokens: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tok in tokens:
        counts[tok] = counts.get(tok, 0) + 1
    return counts


def _loop_bound(a: list[int], b: list[int]) -> float:
    """difflib's quick_ratio, as it is written there: matches bounded by the multiset intersection."""
    total = len(a) + len(b)
    if total == 0:
        return 1.0
    avail = _loop_counts(b)
    matches = 0
    for tok in a:
        if avail.get(tok, 0) > 0:
            avail[tok] -= 1
            matches += 1
    return 2.0 * matches / total


@settings(max_examples=300, deadline=None)
@given(TOKENS, TOKENS)
def test_counts_and_the_multiset_bound_equal_their_loops(a, b):
    assert token_counts(a) == _loop_counts(a)
    assert list(token_counts(a)) == list(_loop_counts(a))  # first-seen order too
    assert type(token_counts(a)) is dict
    assert multiset_bound(token_counts(a), token_counts(b), len(a) + len(b)) == _loop_bound(a, b)
