"""Every headline metric against a hand-computed value on a small hand-made pair."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.atomic import load_yaml
from alignbench.blocks import Block, BlockTree
from alignbench.errors import AlignbenchError
from alignbench.score import PairCounts, count_pair, headline, truth_from_labels
from alignbench.score.ceiling import unrecoverable_moves
from alignbench.score.counts import reported_moves
from alignbench.score.passes import NOTHING_TO_LOSE, needs_rerun, pass_counts
from alignbench.score.ratios import bootstrap_indices, bootstrap_intervals, fmt, total
from alignbench.score.trust import pair_trust, tier_trust
from alignbench.score.verdicts import move_verdicts
from property_budget import examples

FIXTURES = Path(__file__).parent / "score_fixtures"


@pytest.fixture
def labels() -> dict:
    return load_yaml(FIXTURES / "labels.yaml")


@pytest.fixture
def alignment() -> dict:
    return json.loads((FIXTURES / "alignment.json").read_text(encoding="utf-8"))


def exact(value: float | None) -> Fraction | None:
    return None if value is None else Fraction(value).limit_denominator(1000)


def test_links_only_all_column(labels, alignment):
    c = count_pair(truth_from_labels(labels), alignment, "all")
    # 8 scored engine pairs (root, section, table, split heading, unscored cell excluded), 6 labelled, 5 hit
    assert (c.reported_links, c.labelled_links, c.hit_links) == (8, 6, 5)
    h = headline(c)
    assert exact(h["precision"]) == Fraction(5, 8)
    assert exact(h["recall"]) == Fraction(5, 6)
    assert exact(h["f1"]) == Fraction(5, 7)
    assert exact(h["spurious_rate"]) == Fraction(2, 8)
    assert (c.splits, c.merges, c.unscored) == (1, 0, 1)


def test_flat_column_drops_rows_and_cells(labels, alignment):
    c = count_pair(truth_from_labels(labels), alignment, "flat")
    assert (c.reported_links, c.labelled_links, c.hit_links) == (6, 4, 3)
    assert exact(headline(c)["f1"]) == Fraction(6, 10)


def test_moves_precision_recall_and_move_pair_recall(labels, alignment):
    h = headline(count_pair(truth_from_labels(labels), alignment, "all"))
    assert exact(h["move_precision"]) == Fraction(1, 2)
    assert h["move_recall"] == 1.0
    assert h["move_pair_recall"] == 1.0


def test_renumber_recall_keys_on_the_four_tuple(labels, alignment):
    truth = truth_from_labels(labels)
    # truth: the 2.1->2.2 renumber only; the move None->2.1 gains a label, which is not a renumber
    assert truth.renumbers == {("/section[2]/list_item[1]", "/section[2]/list_item[2]", "2.1", "2.2")}
    h = headline(count_pair(truth, alignment, "all"))
    assert exact(h["renumber_recall"]) == Fraction(0, 1)  # the engine reports only the label gain
    # right addresses, wrong new label: not a hit
    wrong_label = dict(alignment)
    wrong_label["changes"] = [
        {
            "kind": "renumber",
            "source": "/section[2]/list_item[1]",
            "test": "/section[2]/list_item[2]",
            "source_label": "2.1",
            "test_label": "2.9",
        }
    ]
    assert count_pair(truth, wrong_label, "all").hit_renumbers == 0
    right_label = dict(alignment)
    right_label["changes"] = [dict(wrong_label["changes"][0], test_label="2.2")]
    assert count_pair(truth, right_label, "all").hit_renumbers == 1


def test_subtree_once_reads_moves_off_changes_not_pair_flags():
    alignment = {
        "pairs": [
            {"source": "/", "test": "/", "matched_by": "root"},
            {"source": "/section[2]", "test": "/section[5]", "matched_by": "move", "moved": True},
            {
                "source": "/section[2]/heading[1]",
                "test": "/section[5]/heading[1]",
                "matched_by": "exact",
                "moved": True,
            },
            {
                "source": "/section[2]/paragraph[1]",
                "test": "/section[5]/paragraph[1]",
                "matched_by": "exact",
                "moved": True,
            },
        ],
        "changes": [{"kind": "move", "source": "/section[2]", "test": "/section[5]"}],
    }
    # one moved section = one move, credited at its first labelled block (the heading)
    assert reported_moves(alignment, "fixture") == [("/section[2]/heading[1]", "/section[5]/heading[1]")]


def test_zero_denominators_are_na_not_zero():
    h = headline(PairCounts())
    assert all(value is None for value in h.values())
    assert fmt(h["precision"]) == "n/a"
    assert fmt(0.0) == "0.0000"


def test_micro_average_sums_counts_before_dividing():
    a = PairCounts(labelled_links=1, reported_links=1, hit_links=1)
    b = PairCounts(labelled_links=3, reported_links=3, hit_links=0)
    assert headline(total([a, b]))["precision_plain"] == 0.25  # macro would say 0.5


def test_bootstrap_is_deterministic_and_degenerate_for_constant_ratios():
    counts = [PairCounts(labelled_links=4, reported_links=4, hit_links=2)] * 3
    idx = bootstrap_indices(3, 200, 7)
    first = bootstrap_intervals(counts, idx, 0.95)
    again = bootstrap_intervals(counts, bootstrap_indices(3, 200, 7), 0.95)
    assert first == again
    assert first["precision_plain"] == (0.5, 0.5)
    assert first["move_recall"] is None  # no resample has a labelled move


def test_bootstrap_interval_brackets_the_point_value_and_depends_on_seed():
    counts = [PairCounts(labelled_links=10, reported_links=10, hit_links=h) for h in (2, 5, 9, 10)]
    a = bootstrap_intervals(counts, bootstrap_indices(4, 300, 1), 0.95)["precision_plain"]
    b = bootstrap_intervals(counts, bootstrap_indices(4, 300, 2), 0.95)["precision_plain"]
    point = headline(total(counts))["precision_plain"]
    assert a[0] <= point <= a[1]
    assert a != b


def _doc(*texts: str) -> BlockTree:
    return BlockTree(Block("document", children=tuple(Block("paragraph", text=t) for t in texts)))


def test_move_ceiling_counts_moves_with_identical_leftover_twins():
    source = _doc("Same words here.", "Same words here.", "A unique clause.", "Stays put.")
    test = _doc("Stays put.", "A unique clause.", "Same words here.", "Same words here.")
    labels = {
        "correspondences": [
            {"source": "/paragraph[1]", "test": "/paragraph[3]", "kind": "move"},
            {"source": "/paragraph[2]", "test": "/paragraph[4]", "kind": "move"},
            {"source": "/paragraph[3]", "test": "/paragraph[2]", "kind": "move"},
            {"source": "/paragraph[4]", "test": "/paragraph[1]", "kind": "same"},
        ]
    }
    truth = truth_from_labels(labels)
    lost = unrecoverable_moves(truth, source, test)
    assert lost == {("/paragraph[1]", "/paragraph[3]"), ("/paragraph[2]", "/paragraph[4]")}
    c = count_pair(truth, {"pairs": [], "changes": []}, "all", move_ceiling_lost=lost)
    assert exact(headline(c)["move_ceiling"]) == Fraction(1, 3)


def test_per_pass_table_and_unique(labels, alignment):
    truth = truth_from_labels(labels)
    reduced = dict(alignment, pairs=[p for p in alignment["pairs"] if p["matched_by"] != "fuzzy"])
    table = pass_counts(truth, alignment, {"fuzzy": reduced})
    row = {name: (c.made, c.in_scope, c.wrong, c.unique) for name, c in table.items()}
    assert row == {
        "exact": (2, 2, 0, None),
        "label": (1, 0, 0, None),  # its only pair sits in a split: excluded
        "structural": (3, 1, 0, None),  # section and table are containers; the row is scored
        "fuzzy": (1, 1, 1, 1),
        "move": (2, 2, 1, None),
        "positional": (3, 2, 1, None),  # the unscored cell is excluded
        "sequence": (0, 0, 0, None),  # the fixture has no pair made by the sequence pass
    }


def test_unique_skips_the_rerun_only_for_a_pass_without_scored_pairs(labels, alignment):
    """score skips a pass's re-alignment when it made no scored pair; unique must still be exact."""
    truth = truth_from_labels(labels)
    assert needs_rerun(truth, alignment, "fuzzy") and needs_rerun(truth, alignment, "move")
    assert not needs_rerun(truth, alignment, "label")  # its only pair sits in an excluded split
    assert not needs_rerun(truth, {"pairs": []}, "fuzzy")
    everything_kept = pass_counts(truth, alignment, {"label": alignment})
    skipped = pass_counts(truth, alignment, {"label": NOTHING_TO_LOSE})
    assert skipped == everything_kept and skipped["label"].unique == 0


def test_move_verdicts_match_on_the_move_not_the_engine_build(labels, alignment):
    """A verdict carries across engine builds and stops applying when a block changes (issue #27)."""
    from alignbench import read

    # The fixture's verdict names /section[3]/paragraph[1] -> /section[1]/paragraph[3]: two documents
    # holding those blocks (the digests in score_fixtures/labels.yaml are theirs).
    source_md = "# A\n\n# B\n\n# C\n\nMoved paragraph text.\n"
    test_md = "# A\n\nFirst.\n\nSecond.\n\nMoved paragraph text.\n"
    trees = (read(source_md, format="markdown"), read(test_md, format="markdown"))
    truth = truth_from_labels(labels)
    ruled = move_verdicts(truth, labels, alignment, "fixture", trees)
    assert (ruled.unlabelled, ruled.acceptable, ruled.wrong, ruled.unreviewed) == (1, 1, 0, 0)
    other = dict(alignment, engine={"name": "alignbench", "version": "0.1.0+bbbbbbbbbbbb"})
    assert move_verdicts(truth, labels, other, "fixture", trees) == ruled
    edited = read(test_md.replace("Moved paragraph", "Moved clause"), format="markdown")
    unruled = move_verdicts(truth, labels, alignment, "fixture", (trees[0], edited))
    assert (unruled.unlabelled, unruled.acceptable, unruled.unreviewed) == (1, 0, 1)


def test_tier_not_assessed_with_proposed_rows_or_no_human_signature(labels):
    generated = pair_trust(labels)
    assert tier_trust([generated])["assessed"] is True
    hand = dict(labels, provenance={"kind": "hand"})
    hand["correspondences"] = [dict(labels["correspondences"][0], status="proposed")]
    figures = tier_trust([pair_trust(hand)])
    assert figures["assessed"] is False
    assert figures["proposed"] == 1
    assert figures["not_assessed_because"] == [
        "1 label rows are still engine-proposed",
        "1 hand-labelled pairs carry no human signature",
    ]


def test_malformed_rows_name_the_file():
    with pytest.raises(AlignbenchError, match=r"x.yaml: correspondences\[0\] needs source, test and kind"):
        truth_from_labels({"correspondences": [{"source": "/paragraph[1]"}]}, "x.yaml")


_counts = st.builds(
    PairCounts,
    **{
        name: st.integers(0, 40)
        for name in ("labelled_links", "reported_links", "hit_links", "spurious_links", "labelled_moves")
    },
    hit_moves=st.integers(0, 5),
    reported_moves=st.integers(0, 5),
    move_pairs_hit=st.integers(0, 5),
    move_ceiling_lost=st.integers(0, 5),
    labelled_renumbers=st.integers(0, 3),
    reported_renumbers=st.integers(0, 3),
    hit_renumbers=st.integers(0, 3),
)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(_counts, max_size=7), st.integers(0, 2**32 - 1), st.sampled_from([0.9, 0.95]))
def test_bootstraps_vectorised_headlines_are_exactly_the_per_sample_ones(counts, seed, confidence) -> None:
    indices = bootstrap_indices(len(counts), 150, seed)
    fast = bootstrap_intervals(counts, indices, confidence)
    per_sample = bootstrap_intervals(counts, indices, confidence, metric=lambda c: headline(c))
    assert fast == per_sample
    assert list(fast) == list(headline(PairCounts()))
