"""Ground truth from unit identity: the same unit id on both sides is a correspondence.

Nothing here looks at text similarity or runs the aligner. The kind of a row follows the contract:
``move`` where the move rule (:mod:`alignbench.moverule`: a change of place in reading order, marked
at the topmost block of what travelled) says so over the identity links, otherwise ``renumber`` for a
changed number and ``same``. The operators' records only annotate: a unit an operator moved whose
reading order did not change (it was re-parented in place) is not a move, as in the real tier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from alignbench.blocks import LABELLED_KINDS, Block, BlockTree, is_renumber
from alignbench.generate.model import Document, Unit, walk
from alignbench.labels.io import row_id
from alignbench.moverule import classify_links

SECTION_MOVE_NOTE = "section move: the whole section moved; its children correspond inside it"
CROSSING_NOTE = "crossing reorder: moved among its own siblings"


@dataclass(frozen=True)
class Side:
    """One side of a pair: its model and the unit id -> reader block map."""

    doc: Document
    blocks: dict[str, Block]
    tree: BlockTree  # the document as the reader sees it: the move rule reads its order

    def parents(self) -> dict[str, str | None]:
        return {unit.uid: (parent.uid if parent else None) for parent, unit in walk(self.doc.root)}

    def labelled(self) -> list[Unit]:
        return [unit for _, unit in walk(self.doc.root) if unit.kind in LABELLED_KINDS]


def build_rows(source: Side, test: Side) -> dict[str, list[dict[str, Any]]]:
    """Correspondences, inserted, deleted, splits and merges, each in document order."""
    src_parent = source.parents()
    test_parent = test.parents()
    src_units = {u.uid: u for _, u in walk(source.doc.root)}
    split_sources = {uid for srcs, _ in test.doc.splits + test.doc.merges for uid in srcs}
    split_products = {uid for _, outs in test.doc.splits + test.doc.merges for uid in outs}
    moved = set(test.doc.moved) | set(test.doc.section_moves)
    section_moves = set(test.doc.section_moves)
    reparented = set(test.doc.reparented)

    correspondences: list[dict[str, Any]] = []
    deleted: list[dict[str, Any]] = []
    for unit in source.labelled():
        uid = unit.uid
        if uid in split_sources:
            continue
        s_block = source.blocks[uid]
        if uid not in test.blocks:
            deleted.append(
                {
                    "id": row_id("d", s_block.address, None),
                    "source": s_block.address,
                    "label": s_block.label,
                    "digest": s_block.digest,
                    "status": "confirmed",
                }
            )
            continue
        t_block = test.blocks[uid]
        if uid not in moved and uid not in reparented and src_parent[uid] != test_parent[uid]:
            raise AssertionError(f"unit {uid} changed parent without a recorded move")
        row: dict[str, Any] = {
            "id": row_id("c", s_block.address, t_block.address),
            "source": s_block.address,
            "test": t_block.address,
            "kind": "same",  # set below, by the move rule over every correspondence
            "source_label": s_block.label,
            "test_label": t_block.label,
            "source_digest": s_block.digest,
            "test_digest": t_block.digest,
            "status": "confirmed",
        }
        if uid in section_moves:
            row["note"] = SECTION_MOVE_NOTE  # kept only if the rule calls it a move
        correspondences.append(row)

    reading = classify_links(source.tree, test.tree, [(r["source"], r["test"]) for r in correspondences])
    for row in correspondences:
        if (row["source"], row["test"]) in reading.moved:
            row["kind"] = "move"
            row.setdefault("note", CROSSING_NOTE)
        else:
            row["kind"] = "renumber" if is_renumber(row["source_label"], row["test_label"]) else "same"
            row.pop("note", None)

    inserted = [
        {
            "id": row_id("i", None, test.blocks[u.uid].address),
            "test": test.blocks[u.uid].address,
            "label": test.blocks[u.uid].label,
            "digest": test.blocks[u.uid].digest,
            "status": "confirmed",
        }
        for u in test.labelled()
        if u.uid not in src_units and u.uid not in split_products
    ]

    def group_rows(groups: list[tuple[list[str], list[str]]]) -> list[dict[str, Any]]:
        rows = []
        for srcs, outs in groups:
            if any(uid not in test.blocks for uid in outs):
                raise AssertionError(f"split/merge products {outs} are missing from the test side")
            rows.append(
                {
                    "source": [source.blocks[uid].address for uid in srcs],
                    "test": [test.blocks[uid].address for uid in outs],
                    "status": "confirmed",
                }
            )
        order = {u.uid: k for k, (_, u) in enumerate(walk(source.doc.root))}
        return [
            r for _, r in sorted(zip([order[g[0][0]] for g in groups], rows, strict=True), key=lambda x: x[0])
        ]

    return {
        "correspondences": correspondences,
        "inserted": inserted,
        "deleted": deleted,
        "splits": group_rows(test.doc.splits),
        "merges": group_rows(test.doc.merges),
    }
