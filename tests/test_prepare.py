"""prepare: idempotent output, manifests with block counts, controls verified, stale pairs removed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from alignbench.corpus.pairs import load_pairs
from alignbench.corpus.prepare import prepare
from alignbench.errors import AlignbenchError

REPO = Path(__file__).resolve().parents[1]
try:
    from alignbench.readers import read
except ImportError:  # the readers land separately; these tests need them
    read = None
needs_readers = pytest.mark.skipif(read is None, reason="alignbench.readers.read is not available yet")

# A small but varied subset: markdown with span ids, CRLF markdown control, USLM, bill DTD, plain text.
SUBSET = ("csa-export-controls", "design-partner-1.0.1-to-1.1", "hjres-37-rh-to-rfs", "cc-by-3.0-to-4.0")


def _repo_copy(tmp_path: Path, pair_ids: tuple[str, ...], extra: list[dict] | None = None) -> Path:
    """A temp repo with corpus/sources.yaml, the raw files and a pairs.yaml of just these pairs."""
    root = tmp_path / "repo"
    (root / "corpus").mkdir(parents=True)
    shutil.copy(REPO / "corpus" / "sources.yaml", root / "corpus" / "sources.yaml")
    shutil.copytree(REPO / "corpus" / "raw", root / "corpus" / "raw")
    data = yaml.safe_load((REPO / "corpus" / "pairs.yaml").read_text(encoding="utf-8"))
    pairs = [p for p in data["pairs"] if p["pair"] in pair_ids] + (extra or [])
    (root / "corpus" / "pairs.yaml").write_text(yaml.safe_dump({"pairs": pairs}), encoding="utf-8")
    return root


def _snapshot(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


@needs_readers
def test_prepare_is_idempotent_and_records_block_counts(tmp_path: Path) -> None:
    root = _repo_copy(tmp_path, SUBSET)
    (root / "corpus" / "real" / "old-pair").mkdir(parents=True)
    (root / "corpus" / "real" / "old-pair" / "source.md").write_text("stale\n", encoding="utf-8")
    prepare(root)
    first = _snapshot(root / "corpus" / "real")
    prepare(root)
    assert _snapshot(root / "corpus" / "real") == first
    assert sorted({name.split("/")[0] for name in first}) == sorted([*SUBSET, "MANIFEST.json"])
    for pair in SUBSET:
        manifest = json.loads((root / "corpus" / "real" / pair / "manifest.json").read_text(encoding="utf-8"))
        ext = manifest["extension"]
        for role in ("source", "test"):
            path = root / "corpus" / "real" / pair / f"{role}.{ext}"
            assert manifest[role]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            tree = read(path, format=manifest["format"], profile=manifest["profile"])
            kinds = [b.kind for b in tree.blocks()]
            assert manifest[role]["block_counts"] == {k: kinds.count(k) for k in sorted(set(kinds))}
            assert (
                manifest[role]["block_counts"].get("paragraph", 0)
                + manifest[role]["block_counts"].get("list_item", 0)
                > 5
            )
        notice = (root / "corpus" / "real" / pair / "NOTICE.md").read_text(encoding="utf-8")
        assert manifest["source"]["attribution"] in notice
        assert str(tmp_path) not in json.dumps(manifest)


@needs_readers
def test_normalisations_are_recorded_in_order(tmp_path: Path) -> None:
    root = _repo_copy(tmp_path, ("design-partner-1.0.1-to-1.1", "hjres-37-rh-to-rfs"))
    manifests = {m["pair"]: m for m in prepare(root)}
    assert manifests["design-partner-1.0.1-to-1.1"]["normalisations"] == [
        "normalise_line_endings",
        "promote_span_ids_to_labels",
        "strip_inline_html",
    ]
    assert manifests["hjres-37-rh-to-rfs"]["normalisations"] == ["bill_xml_to_text"]
    assert manifests["hjres-37-rh-to-rfs"]["source"]["skipped_xml_elements"]["meta"] == 1
    prepared = (root / "corpus" / "real" / "design-partner-1.0.1-to-1.1" / "source.md").read_bytes()
    assert b"\r" not in prepared and b"<span" not in prepared


@needs_readers
def test_a_control_with_textual_change_is_refused(tmp_path: Path) -> None:
    fake_control = {
        "pair": "not-a-control",
        "source": "commonpaper/CSA/commit-68736f3f40e2",
        "test": "commonpaper/CSA/commit-50fa4fd0ea33",
        "format": "markdown",
        "profile": "markdown",
        "control": True,
    }
    root = _repo_copy(tmp_path, (), extra=[fake_control])
    with pytest.raises(AlignbenchError, match="not-a-control: marked control: true but"):
        prepare(root)


def test_unknown_source_id_is_refused(tmp_path: Path) -> None:
    bad = {"pair": "x", "source": "nope/1", "test": "nope/2", "format": "text", "profile": "contract"}
    root = _repo_copy(tmp_path, (), extra=[bad])
    with pytest.raises(AlignbenchError, match=r"pair x: source id 'nope/1' is not in corpus/sources.yaml"):
        prepare(root)


def test_committed_pair_list_meets_the_brief() -> None:
    pairs = load_pairs(REPO)
    families = {spec.source.split("/")[0] for spec in pairs}
    assert len(pairs) >= 60  # issue 12: at least 60 pairs from at least 6 families, 15 restructured
    assert len(families) >= 6
    assert {"commonpaper", "usbills", "licence-texts", "github-site-policy", "basecamp", "legalmattic"} <= (
        families
    )
    assert sum(spec.restructured is not None for spec in pairs) >= 15
    assert sum(spec.control for spec in pairs) >= 3
    assert sum(spec.source.startswith("usbills/") for spec in pairs) >= 4


@needs_readers
def test_committed_real_tier_matches_pairs_and_parses() -> None:
    real = REPO / "corpus" / "real"
    pairs = load_pairs(REPO)
    assert sorted(p.name for p in real.iterdir() if p.is_dir()) == sorted(spec.pair for spec in pairs)
    assert sorted(p.name for p in real.iterdir() if not p.is_dir()) == ["MANIFEST.json"]
    for spec in pairs:
        manifest = json.loads((real / spec.pair / "manifest.json").read_text(encoding="utf-8"))
        for role in ("source", "test"):
            path = real / spec.pair / f"{role}.{spec.extension}"
            assert manifest[role]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            assert sum(manifest[role]["block_counts"].values()) > 1
