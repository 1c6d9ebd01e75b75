"""REPORT.md rendering: a real tier with engine-proposed rows is plainly marked not assessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.atomic import load_yaml
from alignbench.engines.registry import roster
from alignbench.readers import read
from alignbench.report import render_report
from alignbench.score.aggregate import summarise
from alignbench.score.calibration import calibration_counts
from alignbench.score.collect import ScoredPair
from alignbench.score.counts import COLUMNS, count_pair
from alignbench.score.passes import pass_counts
from alignbench.score.tables import all_tables, to_csv
from alignbench.score.trust import pair_trust
from alignbench.score.truth import truth_from_labels
from alignbench.score.verdicts import move_verdicts

FIXTURES = Path(__file__).parent / "score_fixtures"
PARAMS = {"bootstrap_samples": 50, "bootstrap_seed": 3, "confidence": 0.95}


def _scored(tier: str, labels: dict, alignment: dict) -> ScoredPair:
    truth = truth_from_labels(labels)
    pair = ScoredPair(tier, "fixture", tier, pair_trust(labels))
    trees = (read(FIXTURES / "source.md"), read(FIXTURES / "test.md"))
    pair.counts.update(calibration_counts(truth, *trees, frozenset(), "fixture"))
    engines = roster()
    for engine in engines.headline:
        pair.counts[engine] = {c: count_pair(truth, alignment, c) for c in COLUMNS}
        if engine != engines.reference:
            pair.passes[engine] = pass_counts(truth, alignment, {})
            pair.verdicts[engine] = move_verdicts(truth, labels, alignment, "fixture", trees)
            pair.engine_versions[engine] = alignment["engine"]["version"]
    return pair


def _render(labels_json: dict | None = None) -> tuple[str, dict]:
    labels = load_yaml(FIXTURES / "labels.yaml")
    alignment = json.loads((FIXTURES / "alignment.json").read_text(encoding="utf-8"))
    real = dict(labels, tier="real", provenance={"kind": "hand"})
    real["correspondences"] = [dict(r, status="proposed") for r in labels["correspondences"]]
    real["review"] = dict(labels["review"], labelled_by={"kind": "engine", "id": "alignbench"})
    pairs = [_scored("real", real, alignment), _scored("synthetic", labels, alignment)]
    summary = summarise(pairs, PARAMS)
    tables = {name: to_csv(frame) for name, frame in all_tables(summary, pairs).items()}
    return render_report(summary, tables, labels_json), summary


def test_real_tier_with_proposed_rows_is_not_assessed_and_says_why():
    report, summary = _render()
    assert summary["tiers"]["real"]["trust"]["assessed"] is False
    assert (
        "**not assessed** (6 label rows are still engine-proposed; 1 hand-labelled pairs carry no human "
        "signature)" in report
    )
    real_f1 = next(g for g in summary["gates"] if g["name"] == "real_f1")
    assert real_f1["status"] == "not assessed"
    assert "No human has reviewed any label." in report


def test_headline_prints_values_with_intervals_and_na():
    report, summary = _render()
    synthetic = summary["tiers"]["synthetic"]["engines"]["difflib"]["all"]
    assert synthetic["headline"]["f1"] == round(5 / 7, 4)
    # one pair: every resample is that pair, so the interval collapses onto the value
    assert synthetic["ci"]["f1"] == [round(5 / 7, 4), round(5 / 7, 4)]
    assert "0.7143 [0.7143, 0.7143]" in report


def test_label_check_figures_are_rendered_when_present():
    report, _ = _render(
        {"tiers": {"real": {"pairs": 1, "proposed": 6, "labels_by_labeller_kind": {"engine": 1}}}}
    )
    assert "| real | proposed | 6 |" in report
    assert "| real | labels_by_labeller_kind | engine: 1 |" in report


def test_rendering_is_byte_stable():
    assert _render()[0] == _render()[0]


def test_new_sections_render_from_their_inputs(tmp_path: Path) -> None:
    from alignbench.errors import AlignbenchError
    from alignbench.report.limits import MOVE_CREDITING, NOT_CLAIMED
    from alignbench.report.reader_changes import READER_CHANGES, load_reader_changes

    root = Path(__file__).resolve().parent.parent
    changes = load_reader_changes(root)
    labels = load_yaml(FIXTURES / "labels.yaml")
    alignment = json.loads((FIXTURES / "alignment.json").read_text(encoding="utf-8"))
    pair = _scored("real", dict(labels, tier="real", provenance={"kind": "hand"}), alignment)
    pair.family = "acme"
    summary = summarise([pair, _scored("synthetic", labels, alignment)], PARAMS)
    tables = {name: to_csv(frame) for name, frame in all_tables(summary, [pair]).items()}
    report = render_report(summary, tables, None, reader_changes=changes)
    # the pair count after regeneration is read from the scored tier, not typed
    assert f"regenerated, {changes['pairs_before']} → 1 pairs" in report
    assert "## Per family (real tier)" in report and "| acme | 1 |" in report
    assert "| tier | pairs | of which controls |" in report
    for line in (*MOVE_CREDITING, *NOT_CLAIMED):
        assert line in report
    (tmp_path / READER_CHANGES).parent.mkdir(parents=True)
    (tmp_path / READER_CHANGES).write_text("round: r\nchanges: []\n", encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"synthetic_regenerated\.pairs_before"):
        load_reader_changes(tmp_path)
