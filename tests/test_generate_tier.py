"""The committed synthetic tier: label checks on every pair, the negative control, size, reproducibility."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.blocks import LABELLED_KINDS
from alignbench.generate.model import Document
from alignbench.generate.plans import PairSpec, Plan, SourceDocument, Step
from alignbench.generate.roundtrip import settle
from alignbench.generate.stage import OUT_DIR, _side, apply_plan, build_pair, count_rows
from alignbench.generate.truth import build_rows
from alignbench.labels.check import check_data
from alignbench.labels.documents import open_pair
from alignbench.labels.io import load_labels
from alignbench.readers import read
from alignbench.stagecache import read_tree
from property_budget import examples

ROOT = Path(__file__).resolve().parent.parent
SMALL = Path(__file__).parent / "generate_fixtures" / "small.md"
LABEL_FILES = sorted((ROOT / OUT_DIR).glob("*/labels.yaml"))


def _labels(path: Path) -> dict:
    # The project's own label reader (the canonical layout is read fast; it equals the strict YAML load,
    # tests/test_labels_fastload.py), validated against the schema as every stage reads them.
    return load_labels(path)


def test_the_tier_exists() -> None:
    assert len(LABEL_FILES) >= 100


@pytest.mark.parametrize("path", LABEL_FILES, ids=lambda p: p.parent.name)
def test_every_pair_passes_digest_and_totality_checks(path: Path) -> None:
    data = _labels(path)
    assert check_data(data, open_pair(data, ROOT)) == []
    assert data["provenance"]["kind"] == "synthetic"
    assert {r["status"] for section in ("correspondences", "inserted", "deleted") for r in data[section]} <= {
        "confirmed"
    }


def test_whitespace_pairs_are_all_same_with_unchanged_digests() -> None:
    whitespace = [p for p in LABEL_FILES if "--whitespace" in p.parent.name]
    assert whitespace
    for path in whitespace:
        data = _labels(path)
        assert not data["inserted"] and not data["deleted"] and not data["splits"] and not data["merges"]
        for row in data["correspondences"]:
            assert row["kind"] == "same"
            assert row["source_digest"] == row["test_digest"]
            assert row["source"] == row["test"]
        source = (ROOT / data["source"]["file"]).read_bytes()
        test = (ROOT / data["test"]["file"]).read_bytes()
        assert source != test, f"{path}: the rewrap changed no byte"


def test_size_targets_are_met_by_the_committed_labels() -> None:
    totals: dict[str, int] = {}
    per_plan: dict[str, dict[str, int]] = {}
    for path in LABEL_FILES:
        counts = count_rows(_labels(path))
        plan = path.parent.name.split("--", 1)[1].rsplit("-", 1)[0]
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
            per_plan.setdefault(plan, {}).setdefault(key, 0)
            per_plan[plan][key] += value
    assert totals["pairs"] >= 100
    assert totals["links"] >= 5000
    assert totals["moves"] >= 150
    assert totals["section_moves"] >= 20
    assert totals["crossing"] >= 20
    assert totals["renumbers"] >= 500
    for key in ("moves", "renumbers", "links"):
        assert sum(1 for figures in per_plan.values() if figures[key] > 0) >= 2, key


MIXED = Plan(
    "property",
    "",
    tuple(
        Step(op, style, 1)
        for op, style in (
            ("edit_text", "word_substitute"),
            ("insert_clause", "clause"),
            ("delete_block", "clause"),
            ("move_block", "clause"),
            ("reorder", "crossing"),
            ("section_move", "section"),
            ("split_block", "sentence"),
            ("merge_blocks", "adjacent"),
            ("relabel_run", "shift"),
            ("table_edit", "row_insert"),
            ("whitespace_only", "rewrap"),
        )
    ),
    (),
)
_BASE: list[Document] = []


def _base() -> Document:
    if not _BASE:
        _BASE.append(settle(read(SMALL), str(SMALL)))
    return _BASE[0]


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_any_seed_gives_total_labels_with_true_digests(seed: int) -> None:
    base = _base()
    spec = PairSpec("p", SourceDocument("d", "x", "o", "l", "a", ()), MIXED, None)
    doc, _, _ = apply_plan(base.clone(), spec, Random(seed))
    _, source_side = _side(base, "source")
    _, test_side = _side(doc, "test")
    rows = build_rows(source_side, test_side)
    for side, keys in ((source_side, ("source",)), (test_side, ("test",))):
        labelled = sorted(b.address for b in side.blocks.values() if b.kind in LABELLED_KINDS)
        seen: list[str] = []
        for key in keys:
            seen += [r[key] for r in rows["correspondences"]]
            seen += [r[key] for r in rows["inserted" if key == "test" else "deleted"]]
            seen += [a for r in rows["splits"] + rows["merges"] for a in r[key]]
        assert sorted(seen) == labelled  # every labelled block exactly once
    by_address = {b.address: b for b in source_side.blocks.values()}
    test_by_address = {b.address: b for b in test_side.blocks.values()}
    for row in rows["correspondences"]:
        assert by_address[row["source"]].digest == row["source_digest"]
        assert test_by_address[row["test"]].digest == row["test_digest"]
    assert sum(1 for r in rows["correspondences"] if r["kind"] == "move") <= 3


def test_each_rendering_read_back_is_shared_with_the_stages_that_read_the_written_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".dvc").mkdir()
    spec = PairSpec("p", SourceDocument("d", "x", "o", "l", "a", ()), MIXED, None)
    result = build_pair(spec, tmp_path, {"d": _base()})
    written = tmp_path / "source.md"
    written.write_bytes(result.files["source.md"])
    fresh = read(written, format="markdown", profile="markdown")
    monkeypatch.setattr("alignbench.readers.read", lambda *a, **k: pytest.fail("the file was read again"))
    shared = read_tree(tmp_path, written, "markdown", "markdown")
    assert shared.to_dict() == fresh.to_dict()
    assert (shared.dropped, shared.format, shared.profile) == (fresh.dropped, fresh.format, fresh.profile)
    assert any(b._digest is not None for b in shared.blocks())  # the digests made for the rows travel along


@pytest.mark.slow  # regenerates the whole tier twice (~30 s on 2 cores): CI runs it via `make test-slow`
def test_regenerating_the_tier_is_byte_identical_under_two_hash_seeds() -> None:
    procs = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        procs.append(
            subprocess.Popen(
                [sys.executable, str(ROOT / "stages" / "generate.py"), "--check"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "reproduces byte for byte" in out


def test_writing_the_tier_over_an_old_one_rewrites_only_changed_files_and_drops_the_rest(
    tmp_path: Path,
) -> None:
    from alignbench.generate.stage import PairResult, write_tier

    out = tmp_path / "synthetic"
    results = [PairResult("p1", "edits", {"source.md": b"S\n", "test.md": b"T\n"}, [], 0)]
    write_tier(results, out, {"holdout_seed": 1})
    unchanged = (out / "p1" / "source.md").stat()
    (out / "p1" / "test.md").write_bytes(b"hand-edited\n")
    (out / "p1" / "labels.yaml.orig").write_bytes(b"stray\n")
    (out / "old-pair").mkdir()
    (out / "old-pair" / "source.md").write_bytes(b"gone\n")
    (out / "README").write_bytes(b"stray at the top\n")
    write_tier(results, out, {"holdout_seed": 1})
    again = (out / "p1" / "source.md").stat()
    assert (again.st_ino, again.st_mtime_ns) == (unchanged.st_ino, unchanged.st_mtime_ns)
    assert (out / "p1" / "test.md").read_bytes() == b"T\n"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "MANIFEST.json",
        "p1",
        "p1/source.md",
        "p1/test.md",
    ]
