"""The walk skips the structural pass when one document has no keyless container (the root aside):
with nothing keyless on a side, the pass can pair nothing. A walk that runs it everywhere must find
exactly the same pairs, in the same order, with the same comparisons spent."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig
from alignbench.alignment.engine import Walk
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.similarity import Vocabulary
from alignment_fixtures.strategies import tree_pairs
from property_budget import examples


def _run(source, test, backend, force_structural):
    vocabulary = Vocabulary()
    walk = Walk(
        FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig(similarity=backend)
    )
    if force_structural:
        walk.keyless = True  # the general path: the pass runs in every group with leftovers
    walk.run()
    return walk.s2t, walk.matched_by, walk.confidence, walk.groups, walk.sim.comparisons


@settings(max_examples=examples(100), deadline=None)
@given(tree_pairs(), st.sampled_from(("difflib", "rapidfuzz")))
def test_skipping_structural_without_keyless_containers_changes_nothing(trees, backend):
    assert _run(*trees, backend, force_structural=False) == _run(*trees, backend, force_structural=True)
