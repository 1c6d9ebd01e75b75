"""A PreparedPair shares flattening and scores between alignments of one pair; every result must be
the one a fresh run gives, budgets included, whatever ran on the pair before."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import PASS_NAMES, AlignmentConfig, PreparedPair, align
from alignbench.alignment.config import MANDATORY_PASSES
from alignbench.alignment.similarity import PAIR_COST_CAP, PairMemo, Similarity, Vocabulary, chunks
from alignbench.blocks import Block, BlockTree
from alignment_fixtures.build import sample_pair
from alignment_fixtures.strategies import tree_pairs
from property_budget import examples

BACKENDS = ("difflib", "rapidfuzz")


def _configs(max_comparisons: int = 2_000_000) -> list[AlignmentConfig]:
    """What the score stage runs on one pair: each pass left out in turn, under both backends."""
    out = []
    for backend in BACKENDS:
        out.append(AlignmentConfig(similarity=backend, max_comparisons=max_comparisons))
        for name in sorted(set(PASS_NAMES) - set(MANDATORY_PASSES)):
            passes = tuple(p for p in PASS_NAMES if p != name)
            out.append(AlignmentConfig(similarity=backend, passes=passes, max_comparisons=max_comparisons))
    return out


def _assert_shared_runs_equal_fresh_runs(source: BlockTree, test: BlockTree, configs) -> None:
    fresh = [align(source, test, config).to_json() for config in configs]
    for order in (configs, configs[::-1]):  # what ran before must not matter
        prepared = PreparedPair(source, test)
        shared = {id(c): align(source, test, c, prepared=prepared).to_json() for c in order}
        assert [shared[id(c)] for c in configs] == fresh


def test_the_score_stage_runs_on_one_prepared_pair_equal_fresh_runs():
    source, test = sample_pair()
    _assert_shared_runs_equal_fresh_runs(source, test, _configs())


@settings(max_examples=examples(60), deadline=None)
@given(tree_pairs(), st.sampled_from((0, 1, 3, 7, 2_000_000)))
def test_prepared_runs_equal_fresh_runs_on_generated_pairs_and_budgets(trees, budget):
    source, test = trees
    _assert_shared_runs_equal_fresh_runs(source, test, _configs(budget))


def _long_text_tree(texts: list[str]) -> BlockTree:
    return BlockTree(Block("document", children=tuple(Block("paragraph", text=t) for t in texts)))


def test_a_memoised_ratio_still_spends_the_cost_budget():
    """The cost a ratio added is added again when the memo answers, so the budget runs out where a
    fresh run's does, even after a roomy run filled the memo."""
    rng = random.Random(7)
    words = [f"w{rng.randrange(500)}" for _ in range(400)]
    source = _long_text_tree([" ".join(words[i : i + 100]) for i in range(0, 400, 100)])
    test = _long_text_tree([" ".join(words[i : i + 100]) + f" extra{i}" for i in range(0, 400, 100)])
    roomy, tight = (AlignmentConfig(similarity="difflib", max_comparisons=n) for n in (1_000, 10))
    prepared = PreparedPair(source, test)
    align(source, test, roomy, prepared=prepared)
    shared = align(source, test, tight, prepared=prepared)
    fresh = align(source, test, tight)
    assert shared.budget_exhausted and fresh.budget_exhausted
    assert shared.to_json() == fresh.to_json()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_memo_hit_adds_the_cost_of_the_ratio_it_stands_for(backend):
    memo = PairMemo()
    a, b = (1, 2, 3, 4, 5), (1, 2, 9, 4)
    first = Similarity(backend, max_comparisons=10, memo=memo)
    score = first.keyed_ratio(a, b, 0, ~0)
    again = Similarity(backend, max_comparisons=10, memo=memo)
    assert again.keyed_ratio(a, b, 0, ~0) == score and again.cost == first.cost == 20
    assert memo.ratios[backend] == {(0, ~0): (score, 20)}  # kept per backend


def test_a_long_pair_chunks_on_its_tokens_text_not_on_the_order_ids_were_given():
    """Chunk marks come from each token's text, so a long pair scores the same whichever blocks a run
    tokenised first (a shared vocabulary hands out ids in another order than a fresh one)."""
    rng = random.Random(5)
    words = [f"w{rng.randrange(3_000)}" for _ in range(5_000)]
    revised = list(words)
    for i in sorted(rng.sample(range(len(words)), 40), reverse=True):
        revised[i : i + 1] = [f"new{i}", words[i]]
    scores = []
    for warm_up in ([], sorted(set(words), reverse=True)):
        vocabulary = Vocabulary()
        vocabulary.encode(warm_up)  # other blocks seen first: other ids for the same words
        a, b = vocabulary.encode(words), vocabulary.encode(revised)
        assert len(a) * len(b) > PAIR_COST_CAP
        sim = Similarity("rapidfuzz", max_comparisons=10**9, memo=PairMemo(vocabulary))
        marks = vocabulary.marks()
        pieces = [[tuple(words[a.index(tok)] for tok in chunk[:3]) for chunk in chunks(a, 64, marks)]]
        scores.append((sim.ratio(a, b), sim.cost, pieces))
    assert scores[0] == scores[1]


def test_a_prepared_pair_of_other_trees_is_refused():
    source, test = sample_pair()
    other_source, _ = sample_pair()
    with pytest.raises(ValueError, match="other trees"):
        align(source, test, AlignmentConfig(), prepared=PreparedPair(other_source, test))
