"""End to end on a one-pair repository: align, floor, score and report, byte-stable across runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.score.write import score_repository
from hash_seeds import output_under_another_hash_seed
from score_fixtures.pipeline import PAIR, make_repo, run_stages


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("repo")
    make_repo(root)
    return root, run_stages(root)


def test_outputs_exist_and_are_byte_stable(repo):
    root, first = repo
    assert {
        "results/metrics.json",
        "results/latest.json",
        "results/plots/difflib.json",
        "results/plots/rapidfuzz.json",
        "results/plots/sweep.json",
        "results/headline/synthetic/f1.json",
        "results/headline/real/move_recall.json",
        "results/tables/per_pass.csv",
        "REPORT.md",
        f"results/floor/synthetic/{PAIR}.json",
        f"results/alignments/difflib/synthetic/{PAIR}.json",
    } <= set(first)
    assert run_stages(root) == first
    text = b"".join(first.values()).decode("utf-8")
    assert str(root) not in text


def test_metrics_on_the_fixture_pair(repo):
    root, _ = repo
    metrics = json.loads((root / "results" / "metrics.json").read_text())
    synthetic = metrics["synthetic"]
    assert synthetic["pairs"] == 1 and synthetic["assessed"] == 1
    assert synthetic["floor"] == {"f1": 1.0, "f1_plain": 1.0}
    for engine in ("difflib", "rapidfuzz"):
        assert synthetic[engine]["f1"] == 1.0, engine
        assert synthetic[engine]["move_recall"] is None  # no labelled move: n/a, not 0
        assert set(synthetic[engine]) == {
            "f1",
            "f1_plain",
            "reparented",
            "move_precision",
            "move_recall",
            "renumber_recall",
            "moves_wrong",
            "moves_unreviewed",
        }
    assert metrics["real"]["pairs"] == 0 and metrics["real"]["assessed"] == 0
    assert metrics["gates"]["synthetic_f1"] == "met"
    assert metrics["gates"]["real_f1"] == "not assessed"  # no real pair: never "met"
    headline = json.loads((root / "results" / "headline" / "synthetic" / "f1.json").read_text())
    assert headline == {"difflib": 1.0, "difflib±": 0.0, "rapidfuzz": 1.0, "rapidfuzz±": 0.0}
    no_moves = json.loads((root / "results" / "headline" / "synthetic" / "move_recall.json").read_text())
    assert no_moves == {"difflib": None, "difflib±": None, "rapidfuzz": None, "rapidfuzz±": None}
    plot = json.loads((root / "results" / "plots" / "difflib.json").read_text())
    assert plot == [{"plan": "synthetic:fixture-plan", "f1": 1.0, "precision": 1.0, "recall": 1.0}]
    sweep = json.loads((root / "results" / "plots" / "sweep.json").read_text())
    assert {"series": "synthetic F1", "backend": "difflib", "value": 1.0}.items() <= sweep[4].items()
    assert {"series": "synthetic move recall", "value": None}.items() <= sweep[6].items()
    assert [(point["series"], point["backend"]) for point in sweep] == [
        (f"{tier} {figure}", backend)
        for tier in ("real", "synthetic")
        for figure in ("F1", "move recall")
        for backend in ("difflib", "rapidfuzz")
    ]
    assert all(isinstance(point["fuzzy_min_similarity"], float) for point in sweep)


def test_report_sections_and_not_assessed_real_tier(repo):
    _, files = repo
    report = files["REPORT.md"].decode("utf-8")
    for heading in (
        "## Methodology",
        "## Corpus",
        "## Headline",
        "## Gates",
        "## Per pass",
        "## Per plan",
        "## Backend Δ",
        "## Leaderboard",
        "## How much to trust the labels",
        "## What this report does not claim",
    ):
        assert heading in report
    assert "**not assessed** (no labelled pairs)" in report
    assert "No human has reviewed any label." in report


def test_outputs_do_not_depend_on_the_hash_seed(repo, tmp_path):
    """This process's outputs (``repo``; they hold no path of their root) against a fresh
    interpreter's under another hash seed."""
    _, first = repo
    script = (
        "import sys, json; from pathlib import Path; sys.path.insert(0, sys.argv[2]);"
        "from score_fixtures.pipeline import make_repo, run_stages; root = Path(sys.argv[1]);"
        "make_repo(root); files = run_stages(root);"
        "print(json.dumps({k: v.decode() for k, v in files.items()}, sort_keys=True))"
    )
    output = output_under_another_hash_seed(
        ["-c", script, str(tmp_path / "repo"), str(Path(__file__).parent)]
    )
    assert json.loads(output) == {k: v.decode() for k, v in first.items()} and first


def test_missing_engine_output_is_one_clear_error(repo, tmp_path):
    from alignbench.errors import AlignbenchError

    root, _ = repo
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    (copy / "results" / "floor" / "synthetic" / f"{PAIR}.json").unlink()
    with pytest.raises(
        AlignbenchError, match=rf"results/floor/synthetic/{PAIR}.json is missing; run `dvc repro floor`"
    ):
        score_repository(copy)


def test_a_rerun_over_kept_outputs_ends_as_a_run_into_empty_directories(repo):
    """DVC keeps the per-pair directories between runs (persist): whatever a run no longer makes goes."""
    root, first = repo
    strays = [
        root / "results" / "floor" / "synthetic" / "dropped-pair.json",
        root / "results" / "floor" / "synthetic" / "notes.txt",
        root / "results" / "alignments" / "difflib" / "retired-tier" / "p.json",
        root / "results" / "tables" / "retired_table.csv",
    ]
    for stray in strays:
        stray.parent.mkdir(parents=True, exist_ok=True)
        stray.write_text("left by an older run", encoding="utf-8")
    assert run_stages(root) == first
    assert not any(stray.exists() for stray in strays)
    assert not (root / "results" / "alignments" / "difflib" / "retired-tier").exists()
