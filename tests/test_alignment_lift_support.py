"""``lift._support`` visits only the children of unmatched source containers; it must count exactly
the child pairs the block-by-block definition counts, whatever the walk has paired so far."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig
from alignbench.alignment.engine import Walk
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.lift import _support, add_heading_support
from alignbench.alignment.similarity import Vocabulary
from alignment_fixtures.strategies import tree_pairs


def _reference_support(walk):
    """Every source block in document order: its pair counts for (its parent, its partner's parent)."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    support = {}
    for c in range(1, len(src)):
        t = s2t[c]
        if t == -1:
            continue
        ps, pt = src.parent[c], tst.parent[t]
        if ps <= 0 or pt <= 0 or s2t[ps] != -1 or t2s[pt] != -1 or src.cls[ps] != tst.cls[pt]:
            continue
        support[(ps, pt)] = support.get((ps, pt), 0) + 1
    return add_heading_support(walk, support)  # the heading bonus is the same step on either count


@settings(max_examples=200, deadline=None)
@given(tree_pairs(), st.sampled_from(("difflib", "rapidfuzz")), st.booleans())
def test_support_equals_the_block_by_block_count(trees, backend, finished):
    vocabulary = Vocabulary()
    source, test = trees
    walk = Walk(
        FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig(similarity=backend)
    )
    if finished:
        walk.run()
    else:  # the state the lift first sees: the descent done, containers left unmatched
        walk.pair(0, 0, "root", 1.0)
        walk.descend()
    assert _support(walk) == _reference_support(walk)
