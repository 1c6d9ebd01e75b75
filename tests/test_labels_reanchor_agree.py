"""reanchor re-maps by digest and never guesses; agree measures two labellings of one pair."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.labels.agree import agree, render_table
from alignbench.labels.check import check_file
from alignbench.labels.documents import open_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.reanchor import reanchor
from labels_fixtures.support import FIXTURES, blocks_json_reader, copy_pair


def _insert_paragraph_first(tmp_path: Path, text: str) -> None:
    """Insert a list item before 1.1, shifting every later list item's address by one."""
    doc_path = tmp_path / "source.blocks.json"
    doc = json.loads(doc_path.read_text())
    items = doc["root"]["children"][0]["children"]
    items.insert(1, {"kind": "list_item", "label": "1.0", "text": text})
    doc_path.write_text(json.dumps(doc))


def test_reanchor_follows_digests_and_the_result_checks(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    _insert_paragraph_first(tmp_path, "Definitions apply throughout.")
    data = load_labels(path)
    before = check_file(path, root=tmp_path, reader=blocks_json_reader).problems
    assert any("labels stale" in p for p in before)

    fixed, changes = reanchor(data, open_pair(data, tmp_path, blocks_json_reader), str(path))
    assert "$.correspondences[1].source: /section[1]/list_item[1] -> /section[1]/list_item[2]" in changes
    assert any(c.startswith("$.source.sha256: ") for c in changes)
    # the new list item is labelled by nobody yet: the only remaining problem is totality
    path.write_text(dump_labels(fixed), encoding="utf-8")
    problems = check_file(path, root=tmp_path, reader=blocks_json_reader).problems
    assert problems == [
        "source: 1 labelled block(s) missing from every row section: /section[1]/list_item[1]; "
        "add each to correspondences, inserted, deleted, splits, merges or unscored"
    ]


def test_reanchor_refuses_ambiguous_and_missing_digests(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    doc_path = tmp_path / "test.blocks.json"
    doc = json.loads(doc_path.read_text())
    items = doc["root"]["children"][0]["children"]
    clause = dict(items[1])
    items.insert(1, {"kind": "list_item", "label": "0.9", "text": "A new first clause."})  # shifts the items
    items.insert(6, clause)  # and the 1.1 clause now appears twice
    items[-1]["children"][0]["children"][1]["text"] = "999"  # the Fee cell's digest is gone
    doc_path.write_text(json.dumps(doc))
    data = load_labels(path)
    with pytest.raises(AlignbenchError) as err:
        reanchor(data, open_pair(data, tmp_path, blocks_json_reader), str(path))
    message = str(err.value)
    assert "reanchor never guesses" in message
    assert "$.correspondences[1].test /section[1]/list_item[1]: 2 blocks" in message
    assert "$.correspondences[6].test /section[1]/table[1]/row[1]/cell[2]: no block" in message


def _swap_two_links(data: dict) -> dict:
    b = copy.deepcopy(data)
    first, second = b["correspondences"][2], b["correspondences"][3]
    first["test"], second["test"] = second["test"], first["test"]
    return b


def test_identical_labellings_agree_fully() -> None:
    data = load_labels(FIXTURES / "labels.yaml")
    report = agree(data, copy.deepcopy(data))
    assert report["correspondences"]["f1"] == 1.0
    assert report["moves"]["f1"] == 1.0
    assert report["renumbers"]["f1"] == 1.0
    assert report["disagreements"] == []


def test_one_swapped_pair_gives_exactly_two_stable_disagreements() -> None:
    data = load_labels(FIXTURES / "labels.yaml")
    report = agree(data, _swap_two_links(data))
    assert report["correspondences"] == {
        "a": 7,
        "b": 7,
        "agreed": 5,
        "precision": 0.7143,
        "recall": 0.7143,
        "f1": 0.7143,
    }
    ids = [d["id"] for d in report["disagreements"]]
    assert len(ids) == 2 and len(set(ids)) == 2
    assert all(i.startswith("x-") and len(i) == 14 for i in ids)
    assert [d["address"] for d in report["disagreements"]] == [
        "/section[1]/list_item[2]",
        "/section[1]/list_item[3]",
    ]
    assert ids == [d["id"] for d in agree(data, _swap_two_links(data))["disagreements"]]
    table = render_table(report)
    assert "2 disagreement(s)" in table and ids[0] in table


def test_agree_refuses_different_pairs() -> None:
    data = load_labels(FIXTURES / "labels.yaml")
    other = copy.deepcopy(data)
    other["pair"] = "another-pair"
    with pytest.raises(AlignbenchError, match="same two documents"):
        agree(data, other)
