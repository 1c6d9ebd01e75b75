"""align and floor read only the labels' header; it must name the same documents as the full file."""

from __future__ import annotations

import shutil
from pathlib import Path

from alignbench.runs import load_pair
from alignbench.tiers import discover

REPO = Path(__file__).resolve().parent.parent


def _copy_pair(tmp_path: Path, tier_pair) -> Path:
    pair_dir = tmp_path / tier_pair.labels_path.parent.relative_to(REPO)
    pair_dir.mkdir(parents=True)
    (tmp_path / "corpus" / "real").symlink_to(REPO / "corpus" / "real")  # the documents it names
    shutil.copy(tier_pair.labels_path, pair_dir / "labels.yaml")
    return pair_dir / "labels.yaml"


def test_header_only_reads_the_same_documents_as_the_full_labels():
    for tier_pair in discover(REPO)[::60]:
        full = load_pair(REPO, tier_pair)
        header = load_pair(REPO, tier_pair, header_only=True)
        assert set(header.labels) == {"schema", "pair", "tier", "source", "test"}
        assert {k: full.labels[k] for k in header.labels} == header.labels
        assert (
            header.source.to_dict() == full.source.to_dict() and header.test.to_dict() == full.test.to_dict()
        )


def test_a_reordered_labels_file_falls_back_to_the_full_parse(tmp_path):
    tier_pair = discover(REPO, tiers=("real",))[0]
    copied = _copy_pair(tmp_path, tier_pair)
    lines = copied.read_text(encoding="utf-8").splitlines(keepends=True)
    moved = [line for line in lines if line.startswith("test:")]
    copied.write_text("".join([line for line in lines if line not in moved] + moved), encoding="utf-8")
    loaded = load_pair(tmp_path, type(tier_pair)(tier_pair.tier, tier_pair.pair, copied), header_only=True)
    assert "correspondences" in loaded.labels  # the header lacked `test:`, so the whole file was read
    assert loaded.labels["test"] == load_pair(REPO, tier_pair).labels["test"]
