"""The real tier per family (issue 12): family from the manifest, micro-summed counts, controls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError
from alignbench.score.aggregate import metrics_view, summarise
from alignbench.score.collect import ScoredPair
from alignbench.score.counts import PairCounts
from alignbench.score.families import ALL_FAMILIES, pair_origin
from alignbench.score.tables import all_tables, per_family_table
from test_report import FIXTURES, _scored

PARAMS = {"bootstrap_samples": 10, "bootstrap_seed": 1, "confidence": 0.95}
ENGINES = ("floor", "difflib", "rapidfuzz", "oracle", "null")


def _pair(name: str, family: str, hit: int, labelled: int, moves: int, moved: int, **kw) -> ScoredPair:
    counts = PairCounts(
        labelled_links=labelled,
        reported_links=labelled,
        hit_links=hit,
        twin_hit_links=hit,
        labelled_moves=moves,
        reported_moves=moved,
        hit_moves=moved,
    )
    p = ScoredPair("real", name, "real", {}, family=family, **kw)
    p.counts = {e: {"all": counts, "flat": counts} for e in ENGINES}
    return p


def test_pair_origin_reads_family_restructured_and_control(tmp_path: Path) -> None:
    (tmp_path / "corpus/real/p").mkdir(parents=True)
    manifest = {"family": "acme", "restructured": "sections regrouped", "control": True}
    (tmp_path / "corpus/real/p/manifest.json").write_text(json.dumps(manifest))
    origin = pair_origin(tmp_path, "p")
    assert (origin.family, origin.restructured, origin.control) == ("acme", True, True)
    (tmp_path / "corpus/real/p/manifest.json").write_text(json.dumps({"restructured": None}))
    with pytest.raises(AlignbenchError, match=r"corpus/real/p/manifest\.json: field 'family'"):
        pair_origin(tmp_path, "p")
    with pytest.raises(AlignbenchError, match=r"corpus/real/q/manifest\.json is missing"):
        pair_origin(tmp_path, "q")


def test_family_rows_are_micro_sums_sorted_with_a_tier_row() -> None:
    pairs = [
        _pair("b1", "beta", 1, 10, 4, 1, restructured=True),
        _pair("a1", "alpha", 1, 1, 0, 0),
        _pair("b2", "beta", 90, 90, 0, 0),
    ]
    frame = per_family_table(pairs)
    assert list(frame["family"]) == ["alpha", "beta", ALL_FAMILIES]
    rows = frame.records()
    beta = next(r for r in rows if r["family"] == "beta")
    # micro: 91 of 100 links, not the mean of per-pair F1s (0.1 and 1.0)
    assert beta["difflib_f1"] == "0.9100"
    assert beta["difflib_move_recall"] == "0.2500"
    assert (beta["pairs"], beta["restructured"], beta["labelled_links"]) == ("2", "1", "100")
    assert rows[-1]["pairs"] == "3"
    assert "floor_f1" in frame.columns


def test_family_rows_carry_bootstrap_intervals_with_the_score_settings() -> None:
    """Issue #27: both F1 columns and the move figures per family, each with its interval."""
    pairs = [
        _pair("b1", "beta", 1, 10, 4, 1, restructured=True),
        _pair("a1", "alpha", 1, 1, 0, 0),
        _pair("b2", "beta", 90, 90, 0, 0),
    ]
    settings = {"bootstrap_samples": 200, "bootstrap_seed": 7, "confidence": 0.95}
    rows = per_family_table(pairs, settings=settings).records()
    beta = next(r for r in rows if r["family"] == "beta")
    low, high = (float(x) for x in beta["difflib_f1_ci"].strip("[]").split(", "))
    assert low <= float(beta["difflib_f1"]) <= high and low < high  # two pairs of 0.1 and 1.0
    assert beta["difflib_move_precision_ci"] in ("n/a", "None") or beta[
        "difflib_move_precision_ci"
    ].startswith("[")
    assert "difflib_f1_ci" not in per_family_table(pairs).columns  # no settings: no interval columns


def _fixture_pairs() -> list[ScoredPair]:
    labels = load_yaml(FIXTURES / "labels.yaml")
    alignment = json.loads((FIXTURES / "alignment.json").read_text(encoding="utf-8"))
    real = dict(labels, tier="real", provenance={"kind": "hand"})
    pairs = [_scored("real", real, alignment), _scored("real", real, alignment)]
    pairs[0].family, pairs[0].control = "acme", True
    pairs[1].family = "acme"
    return pairs


def test_controls_are_counted_per_tier_and_holdout_metrics_are_slim() -> None:
    pairs = _fixture_pairs()
    summary = summarise(pairs, PARAMS)
    assert summary["tiers"]["real"]["controls"] == 1
    assert list(all_tables(summary, pairs)["per_family"]["family"]) == ["acme", ALL_FAMILIES]
    summary["holdout"] = {
        "engines": {
            "difflib": {
                half: {"f1": 0.9, "precision": 0.8, "move_recall": 0.7, "renumber_recall": 1.0}
                for half in ("dev", "check", "gap")
            }
        }
    }
    view = metrics_view(summary)
    assert view["holdout"] == {
        "difflib": {half: {"f1": 0.9, "move_recall": 0.7} for half in ("dev", "check", "gap")}
    }
