"""The one-pair repository of the score pipeline tests, and the stages run over it.

Kept apart from ``test_score_pipeline.py`` so that the hash-seed check's two interpreters import only
alignbench, not pytest and the test module.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from alignbench.atomic import write_text
from alignbench.engines.run import run_engine
from alignbench.floor import floor_alignment
from alignbench.labels.io import dump_labels, row_id
from alignbench.readers import read
from alignbench.report import render_report
from alignbench.runs import write_per_pair
from alignbench.score.write import score_repository

FIXTURES = Path(__file__).parent
REPO = Path(__file__).parent.parent.parent
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


def make_repo(root: Path) -> None:
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


def run_stages(root: Path) -> dict[str, bytes]:
    for backend in ("difflib", "rapidfuzz"):
        run_engine(root, backend)
    write_per_pair(root, root / "results" / "floor", lambda p: floor_alignment(p.source, p.test))
    latest = score_repository(root)
    tables = {
        n: (root / "results" / "tables" / f"{n}.csv").read_text()
        for n in ("per_pass", "per_plan", "backend_delta", "leaderboard")
    }
    write_text(root / "REPORT.md", render_report(latest, tables, None))
    files = sorted(p for p in root.rglob("*") if p.is_file() and "corpus" not in p.parts)
    return {str(p.relative_to(root)): p.read_bytes() for p in files}
