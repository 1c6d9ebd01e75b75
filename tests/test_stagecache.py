"""The stages' shared cache serves exactly what the reader and the YAML parser return, nothing stale."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from alignbench import stagecache
from alignbench.blocks import Block
from alignbench.errors import AlignbenchError
from alignbench.readers import read
from alignbench.yamlload import parse_yaml

DOC = "# Terms\n\n1. Scope. These terms apply.\n\n2. Fees. You pay the fees.\n"


@pytest.fixture(autouse=True)
def no_recent_trees() -> None:
    """Each test starts without the process's recently read trees (another test's same bytes)."""
    stagecache._recent_trees.clear()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / ".dvc").mkdir()
    (tmp_path / "doc.md").write_text(DOC, encoding="utf-8")
    return tmp_path


def _entries(root: Path) -> list[Path]:
    return sorted((root / stagecache.CACHE_DIR).rglob("*.pickle"))


def test_a_cached_tree_equals_a_fresh_read_and_is_served_from_the_cache(checkout):
    path = checkout / "doc.md"
    first = stagecache.read_tree(checkout, path, "markdown", None)
    assert first.to_dict() == read(path, format="markdown").to_dict()
    [entry] = _entries(checkout)
    assert entry.parent.parent.name == stagecache.fingerprint("trees")
    assert stagecache.read_tree(checkout, path, "markdown", None) is first  # the same tree, recently read
    stagecache._recent_trees.clear()
    served = stagecache.read_tree(checkout, path, "markdown", None)
    assert served is not first and served.to_dict() == first.to_dict()  # unpickled from the entry


def test_changed_bytes_or_profile_are_a_new_entry(checkout):
    path = checkout / "doc.md"
    stagecache.read_tree(checkout, path, "markdown", None)
    stagecache.read_tree(checkout, path, "markdown", "markdown")
    path.write_text(DOC + "\n3. Term. One year.\n", encoding="utf-8")
    tree = stagecache.read_tree(checkout, path, "markdown", None)
    assert "One year." in [b.text for b in tree.blocks()][-1]
    assert len(_entries(checkout)) == 3


def test_a_corrupt_entry_is_read_again(checkout):
    path = checkout / "doc.md"
    stagecache.read_tree(checkout, path, "markdown", None)
    [entry] = _entries(checkout)
    entry.write_bytes(pickle.dumps({"not": "a tree"})[:5])
    assert stagecache.read_tree(checkout, path, "markdown", None).to_dict() == read(path).to_dict()


def test_no_cache_outside_a_dvc_checkout_or_when_turned_off(tmp_path, checkout, monkeypatch):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "doc.md").write_text(DOC, encoding="utf-8")
    stagecache.read_tree(tmp_path / "plain", tmp_path / "plain" / "doc.md", "markdown", None)
    assert not (tmp_path / "plain" / stagecache.CACHE_DIR).exists()
    monkeypatch.setenv(stagecache.ENV, "off")
    stagecache.read_tree(checkout, checkout / "doc.md", "markdown", None)
    assert _entries(checkout) == []


def test_an_older_fingerprint_is_removed_when_a_new_one_is_written(checkout):
    stale = checkout / stagecache.CACHE_DIR / "trees" / "0123456789abcdef0123" / "ab"
    stale.mkdir(parents=True)
    (stale / "old.pickle").write_bytes(b"x")
    stagecache.read_tree(checkout, checkout / "doc.md", "markdown", None)
    assert [p.name for p in (checkout / stagecache.CACHE_DIR / "trees").iterdir()] == [
        stagecache.fingerprint("trees")
    ]


LABELS = "schema: alignbench/labels/v1\npair: p\ncorrespondences:\n- {id: c-1, source: /a, test: /b}\n"


def test_parsed_labels_equal_the_strict_parse_and_follow_the_bytes(checkout):
    path = checkout / "labels.yaml"
    path.write_text(LABELS, encoding="utf-8")
    first = stagecache.parse_labels(checkout, path)
    assert first == parse_yaml(LABELS, str(path))
    assert stagecache.parse_labels(checkout, path) == first
    path.write_text(LABELS.replace("/b", "/c"), encoding="utf-8")
    assert stagecache.parse_labels(checkout, path)["correspondences"][0]["test"] == "/c"
    assert len(sorted((checkout / stagecache.CACHE_DIR / "labels").rglob("*.pickle"))) == 2


def test_a_label_file_that_fails_to_parse_fails_every_time_with_its_own_message(checkout):
    path = checkout / "labels.yaml"
    path.write_text(LABELS + "pair: again\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(AlignbenchError, match="duplicate key 'pair'"):
            stagecache.parse_labels(checkout, path)
    assert not (checkout / stagecache.CACHE_DIR / "labels").exists()


def test_a_value_that_cannot_be_pickled_is_returned_and_left_uncached(checkout):
    value = {"made_by": lambda: None}  # a lambda cannot be pickled
    assert stagecache.cached(checkout, "labels", b"key", lambda: value, dict) is value
    assert not list((checkout / stagecache.CACHE_DIR).rglob("*.pickle"))


def test_a_remembered_tree_is_what_read_tree_serves_for_those_bytes(checkout, monkeypatch):
    path = checkout / "doc.md"
    tree = read(path, format="markdown", profile="markdown")
    stagecache.remember_tree(checkout, path.read_bytes(), "markdown", "markdown", tree)
    [entry] = _entries(checkout)

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("read_tree read the file although a tree was remembered for its bytes")

    monkeypatch.setattr("alignbench.readers.read", no_reading)
    served = stagecache.read_tree(checkout, path, "markdown", "markdown")
    assert served is not tree and served.to_dict() == tree.to_dict()
    stagecache.remember_tree(checkout, path.read_bytes(), "markdown", "markdown", tree)
    assert _entries(checkout) == [entry]  # remembered once
    with pytest.raises(AssertionError, match="read the file"):
        stagecache.read_tree(checkout, path, "markdown", None)  # another profile is another entry


def test_a_cached_block_keeps_every_field_including_a_computed_digest(checkout):
    path = checkout / "doc.md"
    tree = read(path, format="markdown")
    digests = [b.digest for b in tree.blocks()]  # fills each block's cached digest
    stagecache.remember_tree(checkout, path.read_bytes(), "markdown", None, tree)
    served = stagecache.read_tree(checkout, path, "markdown", None)
    fields = [f.name for f in dataclasses.fields(Block)]
    assert [[getattr(b, f) for f in fields] for b in served.blocks()] == [
        [getattr(b, f) for f in fields] for b in tree.blocks()
    ]
    assert [b._digest for b in served.blocks()] == digests
    assert served.dropped == tree.dropped and (served.format, served.profile) == (tree.format, tree.profile)
