"""The peer engines themselves (xmldiff, Docxodus); skipped when the optional peers extra is absent."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("xmldiff", reason="peers extra not installed: pip install -r requirements-peers.lock")

from alignbench.atomic import dump_json
from alignbench.blocks import Block, BlockTree
from alignbench.engines.builtin.docxodus import DocxodusEngine
from alignbench.errors import AlignbenchError
from alignbench.peers.blocks_xml import ADDRESS_ATTR, tree_to_xml
from alignbench.peers.docx_writer import docx_bytes
from alignbench.peers.xmldiff_engine import new_differ, xmldiff_alignment
from alignbench.runs import LoadedPair
from alignbench.score.collect import current_peer_output

# Asked without importing it: docx_scalpel takes ~0.6 s to import, every test worker collects this
# module, and only the worker that runs a Docxodus test needs it (``_docxodus`` below imports it).
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("docx_scalpel") is None,
    reason="peers extra not installed: pip install -r requirements-peers.lock",
)

CLAUSES = [
    ("1", "The supplier shall deliver the goods to the premises named in the order form."),
    ("2", "The customer shall pay every invoice within thirty days of the date it is received."),
    ("3", "Either party may terminate this agreement by giving ninety days written notice to the other."),
    ("4", "This agreement is governed by the laws of England and Wales and nothing else at all."),
    ("5", "Each party shall keep the other party's confidential information secret for five years."),
]


def document(clauses: list[tuple[str, str]]) -> BlockTree:
    items = tuple(Block("list_item", label=label, text=text) for label, text in clauses)
    return BlockTree(Block("document", children=(Block("section", children=items),)))


SOURCE = document(CLAUSES)
# clause 5 moves to the front and takes label 1; clause 3 is reworded
TEST = document(
    [
        ("1", CLAUSES[4][1]),
        ("2", CLAUSES[0][1]),
        ("3", CLAUSES[1][1]),
        ("4", CLAUSES[2][1].replace("ninety", "sixty")),
        ("5", CLAUSES[3][1]),
    ]
)


@pytest.fixture(scope="module", autouse=True)
def _docxodus_host():
    yield
    DocxodusEngine().close()


def test_xml_has_one_element_per_block_with_its_address():
    root = tree_to_xml(SOURCE)
    assert root.tag == "document" and root.get(ADDRESS_ATTR) == "/"
    item = root[0][1]
    assert item.tag == "list_item"
    assert item.get(ADDRESS_ATTR) == "/section[1]/list_item[2]"
    assert item.text == f"2 {CLAUSES[1][1]}"


def test_the_address_attribute_does_not_affect_matching():
    left, right = tree_to_xml(SOURCE), tree_to_xml(SOURCE)
    for element in right.iter():
        element.set(ADDRESS_ATTR, "/elsewhere")
    differ = new_differ()
    differ.match(left, right)
    assert differ.node_ratio(differ.left[0][0], right[0][0]) == 1.0


def _docxodus():
    """The Docxodus engine module, imported by the tests that run it (it imports docx_scalpel)."""
    from alignbench.peers import docxodus_engine

    return docxodus_engine


@pytest.mark.parametrize("name", ["xmldiff", "docxodus"])
def test_engine_pairs_the_moved_clause_and_reports_it_as_a_move(name):
    engine = xmldiff_alignment if name == "xmldiff" else _docxodus().docxodus_alignment
    out = engine(SOURCE, TEST)
    pairs = {(p["source"], p["test"]) for p in out["pairs"]}
    for i in range(4):
        assert (f"/section[1]/list_item[{i + 1}]", f"/section[1]/list_item[{i + 2}]") in pairs
    moves = [(c["source"], c["test"]) for c in out["changes"] if c["kind"] == "move"]
    assert ("/section[1]/list_item[5]", "/section[1]/list_item[1]") in pairs
    assert moves, "a reordering must show up as at least one move"
    assert out["pairs"][0]["source"] == "/" and out["inserted"] == [] and out["deleted"] == []
    assert dump_json(out) == dump_json(engine(SOURCE, TEST))  # deterministic


def test_anchors_map_to_paragraphs_in_document_order():
    lines = ["First paragraph here.", "Same text.", "Same text.", "{#p:body:not-an-anchor} text"]
    anchors_of = _docxodus().anchors_of
    anchors = anchors_of(docx_bytes(lines), len(lines), "source")
    assert len(anchors) == 4 and len(set(anchors)) == 4
    with pytest.raises(AlignbenchError, match="anchors for 5 paragraphs"):
        anchors_of(docx_bytes(lines), 5, "source")


def test_edit_script_operations_map_to_pairs_and_moves():
    left = {f"L{i}": f"/s{i}" for i in range(6)}
    right = {f"R{i}": f"/t{i}" for i in range(6)}
    ops = [
        {"kind": "EqualBlock", "leftAnchor": "L0", "rightAnchor": "R0"},
        {
            "kind": "ModifyBlock",
            "leftAnchor": "L1",
            "rightAnchor": "R1",
            "tokenDiff": {"ops": [[0, 0, 3, 0, 3], [2, 3, 4, 3, 3]]},
        },
        {"kind": "MoveBlock", "leftAnchor": "L2", "moveGroupId": 1, "isMoveSource": True},
        {"kind": "MoveBlock", "rightAnchor": "R4", "moveGroupId": 1, "isMoveSource": False},
        {
            "kind": "SplitBlock",
            "leftAnchor": "L3",
            "splitMergeAnchors": ["R2", "R3"],
            "segmentDiffs": [{"ops": [[0, 0, 2, 0, 2]]}, {"ops": [[0, 2, 7, 0, 5]]}],
        },
        {"kind": "DeleteBlock", "leftAnchor": "L4"},
        {"kind": "InsertBlock", "rightAnchor": "R5"},
    ]
    pairs_from_operations = _docxodus().pairs_from_operations
    pairs = {(p.source, p.test): p for p in pairs_from_operations(ops, left, right)}
    assert set(pairs) == {("/s0", "/t0"), ("/s1", "/t1"), ("/s2", "/t4"), ("/s3", "/t3")}
    assert pairs[("/s2", "/t4")].moved and not pairs[("/s0", "/t0")].moved
    assert pairs[("/s1", "/t1")].confidence == pytest.approx(6 / 7)
    with pytest.raises(AlignbenchError, match="unknown edit-script operation 'Teleport'"):
        pairs_from_operations([{"kind": "Teleport"}], left, right)


def test_a_peer_output_made_from_other_documents_is_not_scored(tmp_path: Path):
    labels = {"source": {"sha256": "a" * 64}, "test": {"sha256": "b" * 64}}
    loaded = LoadedPair("synthetic", "p", labels, SOURCE, TEST)
    target = tmp_path / "results" / "peers" / "xmldiff" / "synthetic" / "p.json"
    assert current_peer_output(tmp_path, "xmldiff", loaded) is None
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"documents": {"source": "a" * 64, "test": "c" * 64}, "pairs": []}))
    assert current_peer_output(tmp_path, "xmldiff", loaded) is None
    target.write_text(json.dumps({"documents": {"source": "a" * 64, "test": "b" * 64}, "pairs": []}))
    assert current_peer_output(tmp_path, "xmldiff", loaded) == {
        "documents": {"source": "a" * 64, "test": "b" * 64},
        "pairs": [],
    }
