"""Calibration rows and intent-to-treat: the oracle scores exactly 1.0, the null row is below the
floor, and a pair an engine failed on stays in the denominator as all-missed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.atomic import load_yaml, write_json
from alignbench.floor import floor_alignment
from alignbench.readers import read
from alignbench.report.calibration import calibration_notes
from alignbench.score.calibration import (
    NOTHING_FOUND,
    ORACLE_EXPECTED,
    null_alignment,
    oracle_alignment,
    oracle_violations,
)
from alignbench.score.counts import COLUMNS, count_pair
from alignbench.score.ratios import headline
from alignbench.score.truth import truth_from_labels
from alignbench.score.write import score_repository
from score_fixtures.pipeline import PAIR, make_repo

REPO = Path(__file__).resolve().parents[1]
# Real pairs with labelled moves, renumbers, splits and unscored rows: the oracle must still be exact.
REAL_PAIRS = ("csa-1.1-to-2.0", "cc-by-3.0-to-4.0", "hr-8752-rh-to-eh")


def _real(pair: str):
    labels = load_yaml(REPO / "corpus/labels/real" / pair / "labels.yaml")
    trees = [
        read(REPO / labels[side]["file"], labels[side]["format"], labels[side]["profile"])
        for side in ("source", "test")
    ]
    return labels, truth_from_labels(labels), trees


@pytest.mark.parametrize("pair", REAL_PAIRS)
def test_the_oracle_scores_exactly_one_on_every_metric(pair):
    _, truth, _ = _real(pair)
    for column in COLUMNS:
        values = headline(count_pair(truth, oracle_alignment(truth), column))
        for metric, expected in ORACLE_EXPECTED.items():
            assert values[metric] in (expected, None), (pair, column, metric, values[metric])
        assert values["f1"] == 1.0


def test_the_real_pairs_exercise_moves_and_renumbers():
    truths = [_real(pair)[1] for pair in REAL_PAIRS]
    assert sum(len(t.moves) for t in truths) > 0 and sum(len(t.renumbers) for t in truths) > 0


@pytest.mark.parametrize("pair", REAL_PAIRS)
def test_the_null_row_pairs_by_kind_and_position_and_is_below_the_floor(pair):
    _, truth, (source, test) = _real(pair)
    null = null_alignment(source, test)
    for kind in {b.kind for b in source.blocks()}:
        src = [b.address for b in source.blocks() if b.kind == kind and b.address != "/"]
        tst = [b.address for b in test.blocks() if b.kind == kind and b.address != "/"]
        paired = [(p["source"], p["test"]) for p in null["pairs"] if p["source"] in set(src)]
        assert paired == list(zip(src, tst, strict=False))
    assert null["changes"] == []
    null_f1 = headline(count_pair(truth, null, "all"))["f1"]
    floor_f1 = headline(count_pair(truth, floor_alignment(source, test), "all"))["f1"]
    assert null_f1 < floor_f1


def test_a_failed_pair_is_all_missed_counted_and_never_dropped(tmp_path):
    make_repo(tmp_path)
    from alignbench.engines.run import run_engine
    from alignbench.runs import write_per_pair

    for backend in ("difflib", "rapidfuzz"):
        run_engine(tmp_path, backend)
    write_per_pair(tmp_path, tmp_path / "results/floor", lambda p: floor_alignment(p.source, p.test))
    ran = score_repository(tmp_path)
    failed_output = tmp_path / f"results/alignments/difflib/synthetic/{PAIR}.json"
    recorded = json.loads(failed_output.read_text(encoding="utf-8"))
    write_json(
        failed_output, {"engine": recorded["engine"], "failed": {"kind": "timeout", "reason": "timed out"}}
    )
    latest = score_repository(tmp_path)

    tier = latest["tiers"]["synthetic"]
    assert tier["pairs"] == [PAIR]  # the pair stays
    assert tier["failed_pairs"] == {"floor": 0, "difflib": 1, "rapidfuzz": 0, "oracle": 0, "null": 0}
    counts = tier["engines"]["difflib"]["all"]["counts"]
    before = ran["tiers"]["synthetic"]["engines"]["difflib"]["all"]["counts"]
    assert counts["labelled_links"] == before["labelled_links"] > 0  # gold links stay in the denominator
    assert counts["hit_links"] == counts["reported_links"] == 0
    assert tier["engines"]["difflib"]["all"]["headline"]["recall"] == 0.0
    leaderboard = (tmp_path / "results/tables/leaderboard.csv").read_text(encoding="utf-8")
    assert leaderboard.splitlines()[0].startswith("tier,engine,failed_pairs,")
    assert "synthetic,difflib,1," in leaderboard
    assert "Failed pairs: synthetic: difflib 1." in "\n".join(calibration_notes(latest))
    assert oracle_violations(latest) == []
    assert tier["engines"]["oracle"]["all"]["headline"]["f1"] == 1.0


def test_a_broken_scorer_is_printed_not_hidden():
    summary = {
        "tiers": {
            "real": {
                "engines": {"oracle": {c: {"headline": dict(ORACLE_EXPECTED, recall=0.9)} for c in COLUMNS}},
                "failed_pairs": {},
            }
        }
    }
    assert oracle_violations(summary) == [
        "real all recall = 0.9 (expected 1.0)",
        "real flat recall = 0.9 (expected 1.0)",
    ]
    assert calibration_notes(summary)[0].startswith("**Scorer self-test: FAILED** (real all recall = 0.9")


def test_nothing_found_finds_nothing():
    _, truth, _ = _real(REAL_PAIRS[0])
    counts = count_pair(truth, NOTHING_FOUND, "all")
    assert counts.reported_links == counts.hit_links == 0 and counts.labelled_links == len(truth.links)
