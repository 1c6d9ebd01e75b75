"""The hold-out table: both halves, the gap, controls and ambiguity counts, from scored pairs."""

from __future__ import annotations

from alignbench.score.collect import ScoredPair
from alignbench.score.counts import PairCounts
from alignbench.score.holdout import ambiguous_pairs, half_of, holdout_lines, holdout_summary, is_control


def _pair(name: str, half: str, hit: int, labelled: int, *, control: bool = False) -> ScoredPair:
    counts = PairCounts(labelled_links=labelled, reported_links=labelled, hit_links=hit)
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
