"""The hold-out table: both halves, the gap, controls and ambiguity counts, from scored pairs."""

from __future__ import annotations

from alignbench.generate.holdout import holdout_halves
from alignbench.score.collect import ScoredPair
from alignbench.score.counts import PairCounts
from alignbench.score.holdout import (
    ambiguous_pairs,
    assign_family_halves,
    half_of,
    holdout_lines,
    holdout_summary,
    is_control,
)


def _pair(name: str, half: str, hit: int, labelled: int, *, control: bool = False) -> ScoredPair:
    counts = PairCounts(labelled_links=labelled, reported_links=labelled, hit_links=hit, twin_hit_links=hit)
    p = ScoredPair("synthetic", name, "plan", {}, half=half, control=control)
    p.counts = {b: {"all": counts} for b in ("difflib", "rapidfuzz")}
    p.ambiguous = {"difflib": 2, "rapidfuzz": 1}
    return p


def test_halves_and_gap_are_computed_from_summed_counts():
    pairs = [_pair("a", "dev", 9, 10), _pair("b", "dev", 10, 10, control=True), _pair("c", "check", 10, 10)]
    summary = holdout_summary(pairs)
    assert summary["pairs"] == {"dev": 2, "check": 1} and summary["controls"] == 1
    assert summary["engines"]["difflib"]["dev"]["f1"] == 0.95
    assert summary["engines"]["difflib"]["check"]["f1"] == 1.0
    assert summary["engines"]["difflib"]["gap"]["f1"] == -0.05
    assert summary["ambiguous_pairs"] == {"synthetic": {"difflib": 6, "rapidfuzz": 3}}
    text = "\n".join(holdout_lines(summary))
    assert "| difflib | gap | -0.0500 |" in text and "blake2b" in text


def test_provenance_and_output_readers():
    labels = {"provenance": {"holdout": "check", "control": True}}
    assert half_of(labels) == "check" and is_control(labels)
    assert half_of({"provenance": {"holdout": "other"}}) is None and not is_control({})
    assert ambiguous_pairs({"pairs": [{"ambiguous": True}, {"ambiguous": False}, {}]}) == 1


def _real(name: str, family: str, hit: int) -> ScoredPair:
    p = _pair(name, "", hit, 10)
    p.tier, p.half, p.family = "real", None, family
    return p


def test_the_real_tier_splits_by_family_with_the_seeded_rule():
    families = ["alpha", "beta", "gamma", "delta", "epsilon"]
    pairs = [_real(f"{f}-{k}", f, 10 if k else 8) for f in families for k in range(2)]
    groups = assign_family_halves(pairs, 7)
    expected = holdout_halves(families, 7)
    assert all(p.half == expected[p.family] for p in pairs)  # a family never straddles the halves
    assert groups["dev"] == sorted(f for f in families if expected[f] == "dev") and len(groups["dev"]) == 3
    summary = holdout_summary(pairs, "real", groups)
    assert summary["pairs"] == {"dev": 6, "check": 4}
    assert summary["engines"]["difflib"]["dev"]["recall"] == 0.9
    text = "\n".join(holdout_lines(summary))
    assert "## Hold-out: real dev and check" in text and "families by blake2b" in text
    assert ", ".join(groups["check"]) in text


def test_twin_hits_credit_an_identical_sibling_and_nothing_else():
    from alignbench.blocks import Block, BlockTree
    from alignbench.score.ceiling import twin_classes
    from alignbench.score.counts import count_pair
    from alignbench.score.truth import Truth

    def tree(n: int) -> BlockTree:
        run = [Block("paragraph", text="The same clause.") for _ in range(n)]
        return BlockTree(Block("document", children=(*run, Block("paragraph", text="A unique clause."))))

    source, test = tree(3), tree(2)
    # truth: the second copy was deleted; the engine says the third was
    links = frozenset({("/paragraph[1]", "/paragraph[1]"), ("/paragraph[3]", "/paragraph[2]"),
                       ("/paragraph[4]", "/paragraph[3]")})  # fmt: skip
    none: frozenset = frozenset()
    truth = Truth(links, none, none, none, frozenset({"/paragraph[2]"}), none, none, 0, 0, 0)
    engine = {"pairs": [{"source": "/paragraph[1]", "test": "/paragraph[1]"},
                        {"source": "/paragraph[2]", "test": "/paragraph[2]"},
                        {"source": "/paragraph[4]", "test": "/paragraph[3]"}]}  # fmt: skip
    twins = (twin_classes(source), twin_classes(test))
    assert "/paragraph[4]" not in twins[0] and twins[0]["/paragraph[1]"] == twins[0]["/paragraph[3]"]
    counts = count_pair(truth, engine, "all", twins=twins)
    assert counts.hit_links == 2  # the first copy and the unique clause
    assert counts.twin_hit_links == 3  # the second copy stands in for its deleted-in-truth twin
