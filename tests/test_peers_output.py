"""Peers without the extra: the .docx writer and the shared alignment-JSON builder on a tiny tree."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from alignbench.atomic import dump_json
from alignbench.blocks import Block, BlockTree
from alignbench.engines.registry import roster
from alignbench.errors import AlignbenchError
from alignbench.peers.docx_writer import docx_bytes
from alignbench.peers.lines import block_line, text_blocks
from alignbench.peers.output import PeerPair, alignment_json
from alignbench.score.collect import ScoredPair, scored_peers

PEERS = roster().peers


def tree(*sections: tuple[str, list[tuple[str, str]]]) -> BlockTree:
    """A document of headed sections, each holding labelled list items."""
    return BlockTree(
        Block(
            "document",
            children=tuple(
                Block(
                    "section",
                    children=(
                        Block("heading", label=head, text=f"Heading {head}"),
                        *(Block("list_item", label=label, text=text) for label, text in items),
                    ),
                )
                for head, items in sections
            ),
        )
    )


SOURCE = tree(
    ("1", [("1.1", "Alpha clause text."), ("1.2", "Beta clause text.")]), ("2", [("2.1", "Gamma.")])
)
TEST = tree(("1", [("1.1", "Alpha clause text."), ("1.2", "Gamma.")]), ("2", []))


def test_lines_put_the_label_before_the_text_and_skip_containers():
    lines = [block_line(b) for b in text_blocks(SOURCE)]
    assert lines == [
        "1 Heading 1",
        "1.1 Alpha clause text.",
        "1.2 Beta clause text.",
        "2 Heading 2",
        "2.1 Gamma.",
    ]


def test_docx_has_one_paragraph_per_line_escaped_and_fixed_bytes():
    lines = ["a < b & c", "", "second"]
    data = docx_bytes(lines)
    assert data == docx_bytes(lines)  # no clock in the zip entries
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        assert package.namelist() == ["[Content_Types].xml", "_rels/.rels", "word/document.xml"]
        document = package.read("word/document.xml").decode("utf-8")
    assert document.count("<w:p>") + document.count("<w:p/>") == 3
    assert "a &lt; b &amp; c" in document
    assert all(
        info.date_time == (1980, 1, 1, 0, 0, 0) for info in zipfile.ZipFile(io.BytesIO(data)).infolist()
    )


def _output() -> dict:
    pairs = [
        PeerPair("/section[1]/heading[1]", "/section[1]/heading[1]", 1.0),
        PeerPair("/section[1]/list_item[1]", "/section[1]/list_item[1]", 1.0),
        PeerPair("/section[2]/list_item[1]", "/section[1]/list_item[2]", 0.91234, moved=True),
        PeerPair("/section[2]/heading[1]", "/section[2]/heading[1]", 1.0),
    ]
    units_s = [b.address for b in text_blocks(SOURCE)]
    units_t = [b.address for b in text_blocks(TEST)]
    return alignment_json(
        {"name": "peer", "version": "1"}, {}, ["rule"], SOURCE, TEST, pairs, units_s, units_t
    )


def test_output_shape_matches_the_alignment_contract():
    out = _output()
    assert list(out) == ["engine", "settings", "rules", "pairs", "inserted", "deleted", "changes"]
    assert out["pairs"][0] == {
        "source": "/",
        "test": "/",
        "matched_by": "root",
        "confidence": 1.0,
        "moved": False,
        "renumbered": False,
    }
    # source document order after the root, confidence rounded at the edge
    assert [p["source"] for p in out["pairs"][1:]] == [
        "/section[1]/heading[1]",
        "/section[1]/list_item[1]",
        "/section[2]/heading[1]",
        "/section[2]/list_item[1]",
    ]
    moved = out["pairs"][4]
    assert moved["moved"] is True and moved["confidence"] == 0.9123 and moved["renumbered"] is False
    assert out["deleted"] == ["/section[1]/list_item[2]"]
    assert out["inserted"] == []
    assert {
        "kind": "move",
        "source": "/section[2]/list_item[1]",
        "test": "/section[1]/list_item[2]",
        "source_label": "2.1",
        "test_label": "1.2",
    } in out["changes"]
    assert [c["kind"] for c in out["changes"]] == ["move", "delete"]
    json.loads(dump_json(out))  # plain JSON, nothing that needs a custom encoder


def test_unmoved_pair_with_other_label_is_a_renumber_and_unpaired_subtrees_report_once():
    source = tree(("1", [("1.1", "Kept text.")]), ("2", [("2.1", "Gone one."), ("2.2", "Gone two.")]))
    test = tree(("1", [("1.2", "Kept text.")]))
    units_s = [b.address for b in source.blocks()]
    units_t = [b.address for b in test.blocks()]
    pairs = [
        PeerPair("/section[1]", "/section[1]", 1.0),
        PeerPair("/section[1]/heading[1]", "/section[1]/heading[1]", 1.0),
        PeerPair("/section[1]/list_item[1]", "/section[1]/list_item[1]", 1.0),
    ]
    out = alignment_json({"name": "peer", "version": "1"}, {}, [], source, test, pairs, units_s, units_t)
    kinds = [(c["kind"], c["source"]) for c in out["changes"]]
    assert kinds == [("renumber", "/section[1]/list_item[1]"), ("delete", "/section[2]")]
    assert out["deleted"] == [
        "/section[2]",
        "/section[2]/heading[1]",
        "/section[2]/list_item[1]",
        "/section[2]/list_item[2]",
    ]
    assert out["pairs"][3]["renumbered"] is True


def test_a_block_paired_twice_or_a_missing_address_is_refused():
    units = [b.address for b in text_blocks(SOURCE)]
    twice = [PeerPair("/section[1]/heading[1]", "/section[1]/heading[1]", 1.0)] * 2
    with pytest.raises(AlignbenchError, match="pairs a block twice"):
        alignment_json({"name": "p", "version": "1"}, {}, [], SOURCE, TEST, twice, units, units)
    missing = [PeerPair("/section[9]/heading[1]", "/section[1]/heading[1]", 1.0)]
    with pytest.raises(AlignbenchError, match="names no block"):
        alignment_json({"name": "p", "version": "1"}, {}, [], SOURCE, TEST, missing, units, units)


def test_a_peer_is_scored_only_when_every_pair_has_its_counts():
    complete = ScoredPair("synthetic", "a", "plan", {}, counts={"floor": {}, PEERS[0]: {}, PEERS[1]: {}})
    partial = ScoredPair("synthetic", "b", "plan", {}, counts={"floor": {}, PEERS[1]: {}})
    assert scored_peers([complete, partial]) == (PEERS[1],)
    assert scored_peers([]) == ()
