"""End to end on a one-pair repository: align, floor, score and report, byte-stable across runs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from alignbench.atomic import write_text
from alignbench.floor import floor_alignment
from alignbench.labels.io import dump_labels, row_id
from alignbench.readers import read
from alignbench.report import render_report
from alignbench.runs import align_all, write_per_pair
from alignbench.score.write import score_repository
from hash_seeds import SEEDS, outputs_under_hash_seeds

FIXTURES = Path(__file__).parent / "score_fixtures"
REPO = Path(__file__).parent.parent
PAIR = "score-e2e"
SAME = [
    ("/section[1]/heading[1]", "/section[1]/heading[1]"),
    ("/section[1]/list_item[1]", "/section[1]/list_item[1]"),
    ("/section[1]/list_item[2]", "/section[1]/list_item[2]"),
    ("/section[2]/heading[1]", "/section[2]/heading[1]"),
    ("/section[2]/list_item[1]", "/section[2]/list_item[1]"),
]


def _document(path: Path, rel: str) -> dict:
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    return {"file": rel, "format": "markdown", "profile": "markdown", "sha256": sha}


def _make_repo(root: Path) -> None:
    pair_dir = root / "corpus" / "synthetic" / PAIR
    pair_dir.mkdir(parents=True)
    for side in ("source", "test"):
        shutil.copy(FIXTURES / f"{side}.md", pair_dir / f"{side}.md")
    shutil.copy(REPO / "params.yaml", root / "params.yaml")
    source = read(pair_dir / "source.md", format="markdown", profile="markdown")
    test = read(pair_dir / "test.md", format="markdown", profile="markdown")
    rows = []
    for s, t in SAME:
        sb, tb = source.find(s), test.find(t)
        rows.append(
            {
                "id": row_id("c", s, t),
                "source": s,
                "test": t,
                "kind": "same",
                "source_label": sb.label,
                "test_label": tb.label,
                "source_digest": sb.digest,
                "test_digest": tb.digest,
                "status": "confirmed",
            }
        )
    inserted = test.find("/section[1]/list_item[3]")
    labels = {
        "schema": "alignbench/labels/v1",
        "pair": PAIR,
        "tier": "synthetic",
        "source": _document(pair_dir / "source.md", f"corpus/synthetic/{PAIR}/source.md"),
        "test": _document(pair_dir / "test.md", f"corpus/synthetic/{PAIR}/test.md"),
        "provenance": {
            "kind": "synthetic",
            "origin": "hand-made test pair",
            "licence": "MIT",
            "attribution": "alignbench tests",
            "prepared_by": "tests/test_score_pipeline.py",
            "normalisations": [],
            "generator": "alignbench.generate",
            "version": "1",
            "seed": 1,
            "plan": "fixture-plan",
            "base_document": "tests/score_fixtures/source.md",
        },
        "correspondences": rows,
        "inserted": [
            {
                "id": row_id("i", None, inserted.address),
                "test": inserted.address,
                "digest": inserted.digest,
                "status": "confirmed",
            }
        ],
        "deleted": [],
        "splits": [],
        "merges": [],
        "unscored": [],
        "review": {
            "labelled_by": {"kind": "generator", "id": "alignbench.generate/1"},
            "reviewed_by": [],
            "signatures": [],
            "adjudications": [],
        },
        "move_verdicts": [],
    }
    write_text(pair_dir / "labels.yaml", dump_labels(labels))


def _run(root: Path) -> dict[str, bytes]:
    for backend in ("difflib", "rapidfuzz"):
        align_all(root, backend)
    write_per_pair(root, root / "results" / "floor", lambda p: floor_alignment(p.source, p.test))
    latest = score_repository(root)
    tables = {
        n: (root / "results" / "tables" / f"{n}.csv").read_text()
        for n in ("per_pass", "per_plan", "backend_delta", "leaderboard")
    }
    write_text(root / "REPORT.md", render_report(latest, tables, None))
    files = sorted(p for p in root.rglob("*") if p.is_file() and "corpus" not in p.parts)
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("repo")
    _make_repo(root)
    return root, _run(root)


def test_outputs_exist_and_are_byte_stable(repo):
    root, first = repo
    assert {
        "results/metrics.json",
        "results/latest.json",
        "results/plots/difflib.json",
        "results/plots/rapidfuzz.json",
        "results/plots/sweep.json",
        "results/tables/per_pass.csv",
        "REPORT.md",
        f"results/floor/synthetic/{PAIR}.json",
        f"results/alignments/difflib/synthetic/{PAIR}.json",
    } <= set(first)
    assert _run(root) == first
    text = b"".join(first.values()).decode("utf-8")
    assert str(root) not in text


def test_metrics_on_the_fixture_pair(repo):
    root, _ = repo
    metrics = json.loads((root / "results" / "metrics.json").read_text())
    synthetic = metrics["synthetic"]
    assert synthetic["pairs"] == 1 and synthetic["assessed"] == 1
    assert synthetic["floor"] == {"f1": 1.0}
    for engine in ("difflib", "rapidfuzz"):
        assert synthetic[engine]["f1"] == 1.0, engine
        assert synthetic[engine]["move_recall"] is None  # no labelled move: n/a, not 0
        assert set(synthetic[engine]) == {
            "f1",
            "move_precision",
            "move_recall",
            "renumber_recall",
            "moves_wrong",
            "moves_unreviewed",
        }
    assert metrics["real"]["pairs"] == 0 and metrics["real"]["assessed"] == 0
    assert metrics["gates"]["synthetic_f1"] == {"met": 1, "assessed": 1}
    plot = json.loads((root / "results" / "plots" / "difflib.json").read_text())
    assert plot == [{"plan": "synthetic:fixture-plan", "f1": 1.0, "precision": 1.0, "recall": 1.0}]
    sweep = json.loads((root / "results" / "plots" / "sweep.json").read_text())
    assert {"series": "synthetic/difflib", "f1": 1.0, "move_recall": None}.items() <= sweep[2].items()
    assert [point["series"] for point in sweep] == [
        "real/difflib",
        "real/rapidfuzz",
        "synthetic/difflib",
        "synthetic/rapidfuzz",
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


def test_outputs_do_not_depend_on_the_hash_seed(tmp_path):

    script = (
        "import sys, json; from pathlib import Path; sys.path.insert(0, sys.argv[2]);"
        "import test_score_pipeline as t; root = Path(sys.argv[1]); t._make_repo(root);"
        "files = t._run(root); print(json.dumps({k: v.decode() for k, v in files.items()}, sort_keys=True))"
    )
    here = str(Path(__file__).parent)
    outputs = outputs_under_hash_seeds({seed: ["-c", script, str(tmp_path / seed), here] for seed in SEEDS})
    assert outputs[0] == outputs[1] and outputs[0]


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
    assert _run(root) == first
    assert not any(stray.exists() for stray in strays)
    assert not (root / "results" / "alignments" / "difflib" / "retired-tier").exists()
