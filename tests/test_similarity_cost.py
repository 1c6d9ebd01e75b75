"""The cost-based budget (issue 13): every ratio adds its token-step cost, a long pair is bounded, and
``budget_exhausted`` fires when the cost runs out even though few comparisons were made."""

from __future__ import annotations

import random

import pytest

from alignbench.alignment import AlignmentConfig, align
from alignbench.alignment.similarity import (
    COST_UNIT,
    PAIR_COST_CAP,
    Similarity,
    chunked_ratio,
    chunks,
    pair_cost,
    ratio_function,
)
from alignbench.blocks import Block, BlockTree

BACKENDS = ("difflib", "rapidfuzz")


def _revised(n: int, seed: int, vocabulary: int = 300) -> tuple[list[int], list[int]]:
    rng = random.Random(seed)
    a = [rng.randrange(vocabulary) for _ in range(n)]
    b = list(a)
    for i in sorted(rng.sample(range(n), n // 200), reverse=True):
        b[i : i + 1] = [rng.randrange(vocabulary), rng.randrange(vocabulary)]
    return a, b


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_ratio_adds_its_token_product(backend: str) -> None:
    sim = Similarity(backend, max_comparisons=10)
    a, b = (1, 2, 3, 4, 5), (1, 2, 9, 4)
    sim.ratio(a, b)
    sim.ratio(b, a)
    assert sim.cost == 2 * pair_cost(5, 4) == 40
    sim.ratio(a, a)  # identical: decided without a matcher, costs nothing
    sim.ratio(a, ())
    assert sim.cost == 40
    assert sim.max_cost == 10 * COST_UNIT


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_budget_runs_out_on_cost_before_comparisons(backend: str) -> None:
    sim = Similarity(backend, max_comparisons=1_000, max_cost=1_000)
    a, b = _revised(400, seed=1)
    assert sim.charge()
    sim.ratio(a, b)  # 400 x ~400 tokens: far more than the whole cost budget
    assert sim.cost >= 1_000 and sim.comparisons == 1
    assert not sim.charge()
    assert sim.budget_exhausted and sim.comparisons == 1


def test_align_flags_a_run_whose_ratios_spent_the_cost_budget() -> None:
    rng = random.Random(7)
    words = [f"w{rng.randrange(500)}" for _ in range(400)]

    def tree(texts: list[str]) -> BlockTree:
        return BlockTree(Block("document", children=tuple(Block("paragraph", text=t) for t in texts)))

    old = [" ".join(words[i : i + 100]) for i in range(0, 400, 100)]
    new = [" ".join(words[i : i + 100]) + f" extra{i}" for i in range(0, 400, 100)]
    # 10 comparisons allowed, so 10 * COST_UNIT = 10,240 token steps: one 100 x 101 ratio nearly spends it.
    tight = align(tree(old), tree(new), AlignmentConfig(similarity="difflib", max_comparisons=10))
    assert tight.budget_exhausted and tight.comparisons < 10
    roomy = align(tree(old), tree(new), AlignmentConfig(similarity="difflib", max_comparisons=1_000))
    assert not roomy.budget_exhausted and len(roomy.pairs) == 5


def test_chunks_cover_the_sequence_in_bounded_pieces() -> None:
    a, _ = _revised(5_000, seed=2)
    for width in (4, 16, 64):
        pieces = chunks(a, width)
        assert [tok for c in pieces for tok in c] == a
        assert all(len(c) <= 4 * width for c in pieces)
        assert len(pieces) <= 2 * len(a) // width + 1
    same_word = [3] * 1_000  # one repeated token: cut by length alone
    assert [len(c) for c in chunks(same_word, 10)] == [40] * 25


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_long_pair_is_scored_within_the_cap_and_never_above_the_exact_ratio(backend: str) -> None:
    a, b = _revised(6_000, seed=3)
    exact = ratio_function(backend)(a, b)
    cap = 200_000  # small, so 6,000 x 6,000 tokens goes the chunked way here
    score, cost = chunked_ratio(a, b, ratio_function(backend), cap)
    assert score <= exact + 1e-9
    assert score > exact - 0.02
    assert cost <= 6 * cap  # the chunk match plus at most four caps of re-scoring
    sim = Similarity(backend, max_comparisons=10**9)
    assert sim.ratio(a, b) == chunked_ratio(a, b, ratio_function(backend), PAIR_COST_CAP)[0]
    assert pair_cost(len(a), len(b)) > PAIR_COST_CAP > sim.cost
    short_a, short_b = a[:3_000], b[:3_000]
    sim = Similarity(backend, max_comparisons=10**9)
    assert sim.ratio(short_a, short_b) == ratio_function(backend)(short_a, short_b)  # the backend itself
    assert sim.cost == pair_cost(3_000, 3_000) < PAIR_COST_CAP


def test_both_backends_charge_the_same_cost_on_a_long_pair() -> None:
    a, b = _revised(5_000, seed=4)
    costs = [chunked_ratio(a, b, ratio_function(backend), 100_000)[1] for backend in BACKENDS]
    assert costs[0] == costs[1]
