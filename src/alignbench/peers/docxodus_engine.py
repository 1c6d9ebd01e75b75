"""Docxodus (through the docx-scalpel wheel, which bundles its binary) over our blocks.

Each text-bearing block becomes one paragraph (``<label> <text>``) of a minimal .docx. Docxodus's
edit script names paragraphs by anchors; the anchors appear as ``{#...}`` tags, one per paragraph
and in document order, in the session's markdown projection, which maps each anchor back to its
block. Equal and Modify operations pair blocks; the Move/MoveModify operations of one move group
pair its source with its destination and are moves; a split or merge pairs the whole block with its
best-sharing segment. Rows are not paragraphs: a row is lifted to the test row that holds the
plurality of its cells' partners (the floor's rule 2).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib.metadata import version
from typing import Any

import docx_scalpel

from alignbench.blocks import TEXT_KINDS, BlockTree
from alignbench.errors import AlignbenchError
from alignbench.peers.docx_writer import docx_bytes
from alignbench.peers.lines import block_line, text_blocks
from alignbench.peers.output import PeerPair, alignment_json
from alignbench.peers.rules import DOCXODUS_RULES, DOCXODUS_SETTINGS

SETTINGS: dict[str, Any] = dict(DOCXODUS_SETTINGS)
RULES: tuple[str, ...] = DOCXODUS_RULES
PAIRING_KINDS: tuple[str, ...] = ("EqualBlock", "ModifyBlock")
MOVE_KINDS: tuple[str, ...] = ("MoveBlock", "MoveModifyBlock")
SPLIT_MERGE_KINDS: tuple[str, ...] = ("SplitBlock", "MergeBlock")
UNPAIRED_KINDS: tuple[str, ...] = ("InsertBlock", "DeleteBlock")
UNIT_KINDS: tuple[str, ...] = (*TEXT_KINDS, "row")  # what Docxodus pairs: paragraphs, plus lifted rows
_ANCHOR = re.compile(r"^\{#([^}\s]+)\}", re.MULTILINE)


def engine_info() -> dict[str, str]:
    return {"name": "docxodus", "version": f"docx-scalpel {version('docx-scalpel')}"}


def anchors_of(document: bytes, expected: int, side: str) -> list[str]:
    """The paragraph anchors of ``document`` in document order; one per paragraph or an error."""
    with docx_scalpel.open_session(document) as session:
        markdown = session.project().markdown
    anchors = _ANCHOR.findall(markdown)
    if len(anchors) != expected or len(set(anchors)) != expected:
        raise AlignbenchError(
            f"docxodus: the {side} projection shows {len(anchors)} anchors for {expected} paragraphs; "
            "the anchor mapping no longer holds for this docx-scalpel version"
        )
    return anchors


def token_similarity(operation: Mapping[str, Any]) -> float:
    """2 x equal tokens / (left + right tokens) over ``tokenDiff`` ops ``[op, l1, l2, r1, r2]``."""
    ops = (operation.get("tokenDiff") or {}).get("ops") or []
    if not ops:
        return 1.0
    left = sum(op[2] - op[1] for op in ops)
    right = sum(op[4] - op[3] for op in ops)
    equal = _equal_tokens(ops)
    return 2 * equal / (left + right) if left + right else 1.0


def _equal_tokens(ops: Sequence[Sequence[int]]) -> int:
    return sum(op[2] - op[1] for op in ops if op[0] == 0)


def split_merge_pair(
    operation: Mapping[str, Any], left: Mapping[str, str], right: Mapping[str, str]
) -> PeerPair:
    """The one block pair of a split (merge): the whole block with its best-sharing segment."""
    segments = list(operation["splitMergeAnchors"])
    diffs = [d.get("ops") or [] for d in operation.get("segmentDiffs") or []]
    if len(diffs) != len(segments) or not segments:
        raise AlignbenchError(
            f"docxodus: {operation['kind']} has {len(segments)} segments and {len(diffs)} segment diffs; "
            "update the mapping"
        )
    shared = [_equal_tokens(ops) for ops in diffs]
    best = shared.index(max(shared))
    score = token_similarity({"tokenDiff": {"ops": diffs[best]}})
    if operation["kind"] == "SplitBlock":
        return PeerPair(left[operation["leftAnchor"]], right[segments[best]], score)
    return PeerPair(left[segments[best]], right[operation["rightAnchor"]], score)


def pairs_from_operations(
    operations: Sequence[Mapping[str, Any]], left: Mapping[str, str], right: Mapping[str, str]
) -> list[PeerPair]:
    """Block pairs of an edit script; ``left``/``right`` map anchors to block addresses."""
    pairs: list[PeerPair] = []
    groups: dict[int, dict[str, list[Mapping[str, Any]]]] = {}
    for operation in operations:
        kind = operation.get("kind")
        if kind in UNPAIRED_KINDS:
            continue
        if kind in SPLIT_MERGE_KINDS:
            pairs.append(split_merge_pair(operation, left, right))
            continue
        if kind not in PAIRING_KINDS + MOVE_KINDS:
            raise AlignbenchError(f"docxodus: unknown edit-script operation {kind!r}; update the mapping")
        if kind in MOVE_KINDS:
            side = "sources" if operation.get("isMoveSource") else "destinations"
            group = groups.setdefault(int(operation["moveGroupId"]), {"sources": [], "destinations": []})
            group[side].append(operation)
            continue
        pairs.append(
            PeerPair(
                left[operation["leftAnchor"]],
                right[operation["rightAnchor"]],
                1.0 if kind == "EqualBlock" else token_similarity(operation),
            )
        )
    for group_id in sorted(groups):
        sources, destinations = groups[group_id]["sources"], groups[group_id]["destinations"]
        if len(sources) != len(destinations):
            raise AlignbenchError(
                f"docxodus: move group {group_id} has {len(sources)} sources and {len(destinations)} "
                "destinations; update the mapping"
            )
        for src, dst in zip(sources, destinations, strict=True):
            score = token_similarity(dst) if dst.get("tokenDiff") else token_similarity(src)
            pairs.append(PeerPair(left[src["leftAnchor"]], right[dst["rightAnchor"]], score, moved=True))
    return pairs


def lift_rows(source: BlockTree, test: BlockTree, pairs: Sequence[PeerPair]) -> list[PeerPair]:
    """Row pairs by the plurality of their cells' partners' rows (see RULES)."""
    partner = {p.source: p.test for p in pairs}
    test_rows = [b.address for b in test.blocks() if b.kind == "row"]
    order = {address: i for i, address in enumerate(test_rows)}
    taken: set[str] = set()
    lifted: list[PeerPair] = []
    for row in source.blocks():
        if row.kind != "row":
            continue
        votes: Counter[str] = Counter()
        for cell in row.children:
            target = partner.get(cell.address)
            parent = target.rsplit("/", 1)[0] if target else None
            if parent in order:
                votes[parent] += 1
        candidates = {t: n for t, n in votes.items() if t not in taken}
        if not candidates:
            continue
        best = max(candidates.values())
        target = min((t for t, n in candidates.items() if n == best), key=order.__getitem__)
        taken.add(target)
        lifted.append(PeerPair(row.address, target, best / max(len(row.children), 1)))
    return lifted


def docxodus_alignment(source: BlockTree, test: BlockTree) -> dict[str, Any]:
    """Docxodus's pairing of two block trees in the alignment JSON shape."""
    source_blocks, test_blocks = text_blocks(source), text_blocks(test)
    left_doc = docx_bytes([block_line(b) for b in source_blocks])
    right_doc = docx_bytes([block_line(b) for b in test_blocks])
    left_anchors = anchors_of(left_doc, len(source_blocks), "source")
    right_anchors = anchors_of(right_doc, len(test_blocks), "test")
    left = dict(zip(left_anchors, (b.address for b in source_blocks), strict=True))
    right = dict(zip(right_anchors, (b.address for b in test_blocks), strict=True))
    script = json.loads(docx_scalpel.docx_diff_get_edit_script(left_doc, right_doc))
    pairs = pairs_from_operations(script["operations"], left, right)
    pairs += lift_rows(source, test, pairs)
    units_source = [b.address for b in source.blocks() if b.kind in UNIT_KINDS]
    units_test = [b.address for b in test.blocks() if b.kind in UNIT_KINDS]
    return alignment_json(engine_info(), SETTINGS, RULES, source, test, pairs, units_source, units_test)
