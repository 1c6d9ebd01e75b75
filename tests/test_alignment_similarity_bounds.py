"""The similarity prefilter's counting helpers equal their per-token definitions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment.similarity import (
    SORTED_LCS_CAP,
    Similarity,
    multiset_bound,
    shared_token_counter,
    shared_tokens_by_counts,
    token_counts,
)
from property_budget import examples

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


@settings(max_examples=examples(300), deadline=None)
@given(TOKENS, TOKENS)
def test_counting_helpers_equal_their_loops_on_generated_token_lists(a, b):
    """One test per drawn pair of lists: drawing them costs hypothesis more than both checks (they were
    two tests of 300 examples each drawing the same pairs)."""
    assert_counts_and_the_multiset_bound_equal_their_loops(a, b)
    assert_the_shared_token_count_of_sorted_sequences_is_the_multiset_intersection(a, b)


def assert_counts_and_the_multiset_bound_equal_their_loops(a, b):
    assert token_counts(a) == _loop_counts(a)
    assert list(token_counts(a)) == list(_loop_counts(a))  # first-seen order too
    assert type(token_counts(a)) is dict
    assert multiset_bound(token_counts(a), token_counts(b), len(a) + len(b)) == _loop_bound(a, b)


def assert_the_shared_token_count_of_sorted_sequences_is_the_multiset_intersection(a, b):
    """rapidfuzz's LCS of the sorted sequences and the pure-Python count give difflib's quick_ratio."""
    sa, sb = sorted(a), sorted(b)
    expected = _loop_bound(a, b) * (len(a) + len(b)) / 2.0 if a or b else 0
    assert shared_token_counter()(sa, sb) == shared_tokens_by_counts(sa, sb) == round(expected)
    assert shared_token_counter() is not shared_tokens_by_counts  # the lock installs rapidfuzz


@pytest.mark.parametrize("backend", ["difflib", "rapidfuzz"])
def test_bounded_prunes_exactly_where_the_multiset_bound_falls_below_the_floor(backend):
    sim = Similarity(backend, max_comparisons=100)
    a, b = (1, 2, 3, 4, 5, 6), (6, 5, 4, 9, 9, 9)  # 3 shared of 12 tokens: bound 0.5, LCS ratio 1/6
    assert sim.bounded(a, b, 0, ~0, 0.51) is None and sim.cost == 0  # pruned before any ratio
    assert sim.bounded(a, b, 0, ~0, 0.5) is None and sim.cost == 36  # ratio run, below the floor
    assert sim.bounded(a, b, 0, ~0, 0.1) == pytest.approx(1 / 6)


@pytest.mark.parametrize("backend", ["difflib", "rapidfuzz"])
def test_a_long_pair_is_bounded_by_its_counts_not_a_quadratic_lcs(backend):
    """Above SORTED_LCS_CAP the shared tokens are counted: the same bound, in linear time."""
    a = [i % 700 for i in range(2_100)]
    b = [i % 700 + 350 for i in range(2_100)]  # half the vocabulary shared: bound 0.5
    assert len(a) * len(b) > SORTED_LCS_CAP
    assert shared_tokens_by_counts(a, b) == shared_token_counter()(sorted(a), sorted(b)) == 1_050
    sim = Similarity(backend, max_comparisons=100)
    assert sim.bounded(a, b, 0, ~0, 0.51) is None and sim.cost == 0
    assert sim.bounded(a, b, 0, ~0, 0.0) is not None and sim.cost > 0
