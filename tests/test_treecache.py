"""The stages' shared tree cache serves exactly what the reader returns, and nothing stale or broken."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from alignbench import treecache
from alignbench.readers import read

DOC = "# Terms\n\n1. Scope. These terms apply.\n\n2. Fees. You pay the fees.\n"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / ".dvc").mkdir()
    (tmp_path / "doc.md").write_text(DOC, encoding="utf-8")
    return tmp_path


def _entries(root: Path) -> list[Path]:
    return sorted((root / treecache.CACHE_DIR).rglob("*.pickle"))


def test_a_cached_tree_equals_a_fresh_read_and_is_served_from_the_cache(checkout):
    path = checkout / "doc.md"
    first = treecache.read_tree(checkout, path, "markdown", None)
    assert first.to_dict() == read(path, format="markdown").to_dict()
    [entry] = _entries(checkout)
    assert entry.parent.parent.name == treecache.reader_fingerprint()
    served = treecache.read_tree(checkout, path, "markdown", None)
    assert served is not first and served.to_dict() == first.to_dict()


def test_changed_bytes_or_profile_are_a_new_entry(checkout):
    path = checkout / "doc.md"
    treecache.read_tree(checkout, path, "markdown", None)
    treecache.read_tree(checkout, path, "markdown", "markdown")
    path.write_text(DOC + "\n3. Term. One year.\n", encoding="utf-8")
    tree = treecache.read_tree(checkout, path, "markdown", None)
    assert "One year." in [b.text for b in tree.blocks()][-1]
    assert len(_entries(checkout)) == 3


def test_a_corrupt_entry_is_read_again(checkout):
    path = checkout / "doc.md"
    treecache.read_tree(checkout, path, "markdown", None)
    [entry] = _entries(checkout)
    entry.write_bytes(pickle.dumps({"not": "a tree"})[:5])
    assert treecache.read_tree(checkout, path, "markdown", None).to_dict() == read(path).to_dict()


def test_no_cache_outside_a_dvc_checkout_or_when_turned_off(tmp_path, checkout, monkeypatch):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "doc.md").write_text(DOC, encoding="utf-8")
    treecache.read_tree(tmp_path / "plain", tmp_path / "plain" / "doc.md", "markdown", None)
    assert not (tmp_path / "plain" / treecache.CACHE_DIR).exists()
    monkeypatch.setenv(treecache.ENV, "off")
    treecache.read_tree(checkout, checkout / "doc.md", "markdown", None)
    assert _entries(checkout) == []


def test_an_older_fingerprint_is_removed_when_a_new_one_is_written(checkout):
    stale = checkout / treecache.CACHE_DIR / "0123456789abcdef0123" / "ab"
    stale.mkdir(parents=True)
    (stale / "old.pickle").write_bytes(b"x")
    treecache.read_tree(checkout, checkout / "doc.md", "markdown", None)
    assert [p.name for p in (checkout / treecache.CACHE_DIR).iterdir()] == [treecache.reader_fingerprint()]
