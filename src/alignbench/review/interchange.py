"""Span-anchored JSONL for annotation workbenches (seed 002's interchange), both directions.

``label export PAIR --format spans`` writes one JSON object per line per block of every label row:
the document and its sha256, exact character offsets into the prepared document (see
:mod:`alignbench.review.spans` for how they are found), the exact text, the creator, the review state
and reviewer ids, and a relationship id shared by every span of one row (the row's ``c-``/``i-``/``d-``
id; ``s-``/``m-``/``u-`` for splits, merges and unscored rows). A workbench such as OpenContracts or
Label Studio can keep its own documents and relationships and emit this shape.

``label import PAIR FILE`` trusts nothing in the file: every sha256 is compared with the committed
document, every offset pair must give exactly the recorded text and be the located span of a labelled
block, and the rows rebuilt from the relationships go through the sheet compile's row builder, so
labels and digests are re-derived from the documents. The pair-level parts of ``labels.yaml``
(documents, provenance, labeller, signatures, adjudications, move verdicts) come from the current
file; when the rows change, signatures and move verdicts are dropped as ``label compile`` does. An
unchanged round trip therefore reproduces ``labels.yaml`` byte for byte.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.inputs import read_text_capped
from alignbench.labels.carry import carry_signatures, carry_verdicts
from alignbench.labels.compile import SECTION_OF, decision_row, row_sort_key, totality_problems
from alignbench.labels.documents import SIDES, Side, open_pair
from alignbench.labels.io import ROW_SECTIONS, dump_labels, load_labels, row_id
from alignbench.labels.sheet import Catalogue, Decision, Sheet
from alignbench.review.spans import Span, locate_spans

SPAN_SCHEMA = "alignbench/span-annotation/v1"
RECORD_KEYS: tuple[str, ...] = (
    "schema",
    "annotation_id",
    "pair",
    "side",
    "document",
    "document_sha256",
    "start",
    "end",
    "text",
    "address",
    "label",
    "relationship_id",
    "creator",
    "review",
    "proposed_by",
    "note",
    "reason",
)
CREATOR_KINDS: tuple[str, ...] = ("human", "agent", "engine", "generator")
STATES: tuple[str, ...] = ("proposed", "confirmed", "corrected")
_LABEL_OF = {"inserted": "inserted", "deleted": "deleted", "splits": "split", "merges": "merge"}
_GROUP_PREFIX = {"splits": "s", "merges": "m", "unscored": "u"}
ENGINE_CREATOR = "alignbench.alignment"


def _document_spans(data: dict[str, Any], sides: dict[str, Side], root: Path) -> dict[str, dict[str, Span]]:
    return {
        side: locate_spans(
            (root / sides[side].file).read_text(encoding="utf-8"), sides[side].tree, sides[side].file
        )
        for side in SIDES
    }


def _relationship(section: str, row: dict[str, Any]) -> str:
    if "id" in row:
        return str(row["id"])
    return row_id(_GROUP_PREFIX[section], " ".join(row["source"]), " ".join(row["test"]))


def _reviewer_ids(data: dict[str, Any], state: str | None) -> list[str]:
    review = data["review"]
    ids = [f"{r['kind']}:{r['id']}" for r in review["reviewed_by"]]
    labeller = review["labelled_by"]
    if state in ("confirmed", "corrected") and labeller["kind"] in ("human", "agent"):
        ids.insert(0, f"{labeller['kind']}:{labeller['id']}")
    return sorted(dict.fromkeys(ids))


def export_records(root: Path, labels_path: Path) -> Iterator[dict[str, Any]]:
    """Every span record of one label file, rows in file order, spans source first then test."""
    data = load_labels(labels_path)
    sides = open_pair(data, root)
    for side in SIDES:
        if data[side]["sha256"] != sides[side].sha256:
            raise AlignbenchError(
                f"{labels_path}: {data[side]['file']} changed since labelling; run "
                f"`alignbench label reanchor {data['pair']}` before exporting spans"
            )
    spans = _document_spans(data, sides, root)
    texts = {side: (root / sides[side].file).read_text(encoding="utf-8") for side in SIDES}
    for section in ROW_SECTIONS:
        for row in data[section]:
            label = row["kind"] if section == "correspondences" else _LABEL_OF.get(section, "unscored")
            relationship = _relationship(section, row)
            state = row.get("status")
            proposed_by = row.get("proposed_by")
            creator = (
                {"kind": "engine", "id": f"{ENGINE_CREATOR}:{proposed_by}"}
                if proposed_by
                else dict(data["review"]["labelled_by"])
            )
            number = 0
            for side in SIDES:
                value = row.get(side)
                for address in [value] if isinstance(value, str) else list(value or []):
                    span = spans[side][address]
                    number += 1
                    yield {
                        "schema": SPAN_SCHEMA,
                        "annotation_id": f"{relationship}.{number}",
                        "pair": data["pair"],
                        "side": side,
                        "document": sides[side].file,
                        "document_sha256": sides[side].sha256,
                        "start": span.start,
                        "end": span.end,
                        "text": texts[side][span.start : span.end],
                        "address": address,
                        "label": label,
                        "relationship_id": relationship,
                        "creator": creator,
                        "review": {"state": state, "reviewer_ids": _reviewer_ids(data, state)},
                        "proposed_by": proposed_by,
                        "note": row.get("note"),
                        "reason": row.get("reason"),
                    }


def export_spans(root: Path, labels_path: Path) -> str:
    """The JSONL text (one record per line, keys in :data:`RECORD_KEYS` order)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in export_records(root, labels_path))


# ----- import -----


class _Problems(list[str]):
    def raise_if_any(self, where: Path) -> None:
        if self:
            shown = "; ".join(self[:5]) + (f"; and {len(self) - 5} more" if len(self) > 5 else "")
            raise AlignbenchError(f"{where}: {len(self)} problem(s), nothing imported: {shown}")


_STR, _INT, _OPTIONAL = "a string", "an integer", "a string or null"
_RECORD_TYPES: dict[str, str] = {
    **{key: _STR for key in ("schema", "annotation_id", "pair", "side", "document", "document_sha256")},
    **{"start": _INT, "end": _INT, "text": _STR, "address": _OPTIONAL, "label": _STR},
    **{"proposed_by": _OPTIONAL, "note": _OPTIONAL, "reason": _OPTIONAL},
}


def _fits_type(value: Any, kind: str) -> bool:
    if kind == _INT:
        return type(value) is int
    return isinstance(value, str) or (kind == _OPTIONAL and value is None)


def _record_shape_problem(record: dict[str, Any]) -> str | None:
    """Why a record's values have the wrong types: checked before any value is used."""
    for key, kind in _RECORD_TYPES.items():
        if not _fits_type(record[key], kind):
            return f"{key} must be {kind}, not {json.dumps(record[key])[:40]}"
    if not (isinstance(record["relationship_id"], str) or type(record["relationship_id"]) is int):
        return "relationship_id must be a string or an integer"
    creator, review = record["creator"], record["review"]
    if not isinstance(creator, dict) or not all(isinstance(creator.get(k), str) for k in ("kind", "id")):
        return "creator must be {kind, id} with string values"
    if not isinstance(review, dict) or not (review.get("state") is None or isinstance(review["state"], str)):
        return "review must be {state, reviewer_ids} with state a string or null"
    ids = review.get("reviewer_ids", [])
    if not isinstance(ids, list) or not all(isinstance(rid, str) for rid in ids):
        return "review.reviewer_ids must be a list of strings"
    return None


def _read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    # JSON Lines: records end at "\n" (a "\r" before it is JSON whitespace). Never str.splitlines: a
    # document holding U+2028, U+0085 or \x1c has those inside a record's text, where JSON writes
    # them raw, and splitting there broke the round trip of the pair's own export.
    text = read_text_capped(path, "JSONL file exported or made by a workbench")
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise AlignbenchError(f"{path}: line {number} is not JSON; one JSON object per line") from None
        if not isinstance(record, dict) or sorted(record) != sorted(RECORD_KEYS):
            raise AlignbenchError(
                f"{path}: line {number}: expected exactly the keys {', '.join(RECORD_KEYS)} "
                "(the seed 002 span shape)"
            )
        shape = _record_shape_problem(record)
        if shape:
            raise AlignbenchError(f"{path}: line {number}: {shape} (the seed 002 span shape)")
        records.append((number, record))
    if not records:
        raise AlignbenchError(f"{path}: no span records; export some with `label export PAIR --format spans`")
    return records


def _resolve(
    record: dict[str, Any],
    line: int,
    pair: str,
    sides: dict[str, Side],
    texts: dict[str, str],
    by_span: dict[str, dict[tuple[int, int], list[str]]],
    spans: dict[str, dict[str, Span]],
    problems: _Problems,
) -> str | None:
    """The labelled block a record anchors to, or ``None`` after recording why it anchors to none."""
    at = f"line {line}"
    side = record["side"]
    if record["schema"] != SPAN_SCHEMA or record["pair"] != pair:
        problems.append(f"{at}: schema must be {SPAN_SCHEMA!r} and pair {pair!r}")
        return None
    if side not in SIDES:
        problems.append(f"{at}: side {side!r} is not source or test")
        return None
    if record["document"] != sides[side].file or record["document_sha256"] != sides[side].sha256:
        problems.append(
            f"{at}: document {record['document']} sha256 {record['document_sha256']} is not the current "
            f"{side} ({sides[side].file} sha256 {sides[side].sha256})"
        )
        return None
    start, end, text = record["start"], record["end"], texts[side]
    if not (type(start) is int and type(end) is int and 0 <= start <= end <= len(text)):
        problems.append(f"{at}: offsets {start!r}..{end!r} are not within the document (0..{len(text)})")
        return None
    if text[start:end] != record["text"]:
        problems.append(
            f"{at}: the text at {start}..{end} is {text[start:end][:40]!r}, not {record['text'][:40]!r}"
        )
        return None
    address = record["address"]
    if address is None:
        candidates = by_span[side].get((start, end), [])
        if len(candidates) != 1:
            problems.append(
                f"{at}: {start}..{end} is the span of {len(candidates)} labelled blocks; give its address"
            )
            return None
        return candidates[0]
    span = spans[side].get(address)
    if span is None or (span.start, span.end) != (start, end):
        located = "no labelled block" if span is None else f"located at {span.start}..{span.end}"
        problems.append(f"{at}: {side} {address} is {located}, not {start}..{end}")
        return None
    return str(address)


_SAME_PER_GROUP: tuple[str, ...] = ("label", "proposed_by", "note", "reason")


def _group_fields(group: list[tuple[int, dict[str, Any]]], problems: _Problems) -> dict[str, Any] | None:
    first_line, first = group[0]
    for line, record in group[1:]:
        for key in (*_SAME_PER_GROUP, "creator"):
            if record[key] != first[key]:
                problems.append(f"line {line}: {key} differs from line {first_line} of the same relationship")
                return None
        if record["review"].get("state") != first["review"].get("state"):
            problems.append(
                f"line {line}: review.state differs from line {first_line} of the same relationship"
            )
            return None
    review, creator = first["review"], first["creator"]
    if not isinstance(review, dict) or review.get("state") not in (*STATES, None):
        problems.append(f"line {first_line}: review.state must be one of {', '.join(STATES)} or null")
        return None
    if not isinstance(creator, dict) or creator.get("kind") not in CREATOR_KINDS or not creator.get("id"):
        problems.append(f"line {first_line}: creator must be {{kind: {'|'.join(CREATOR_KINDS)}, id: ...}}")
        return None
    return first


_WHAT_OF = {
    "same": "correspondence",
    "renumber": "correspondence",
    "move": "correspondence",
    **{v: v for v in ("inserted", "deleted", "split", "merge", "unscored")},
}


def import_rows(root: Path, labels_path: Path, path: Path) -> tuple[dict[str, Any], list[str]]:
    """The label document rebuilt from the span file, and the warnings owed to stderr."""
    current = load_labels(labels_path)
    pair = current["pair"]
    sides = open_pair(current, root)
    spans = _document_spans(current, sides, root)
    texts = {side: (root / sides[side].file).read_text(encoding="utf-8") for side in SIDES}
    by_span: dict[str, dict[tuple[int, int], list[str]]] = {side: {} for side in SIDES}
    for side in SIDES:
        for address, span in spans[side].items():
            by_span[side].setdefault((span.start, span.end), []).append(address)
    problems = _Problems()
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    anchored: dict[int, str] = {}
    for line, record in _read_records(path):
        address = _resolve(record, line, pair, sides, texts, by_span, spans, problems)
        if address is not None:
            anchored[line] = address
            groups.setdefault(str(record["relationship_id"]), []).append((line, record))
    problems.raise_if_any(path)
    catalogue = Catalogue.from_sides(sides)
    rows: dict[str, list[dict[str, Any]]] = {section: [] for section in ROW_SECTIONS}
    decisions: list[Decision] = []
    for group in groups.values():
        fields = _group_fields(group, problems)
        if fields is None:
            continue
        what = _WHAT_OF.get(fields["label"])
        if what is None:
            problems.append(
                f"line {group[0][0]}: label {fields['label']!r} is not one of {', '.join(_WHAT_OF)}"
            )
            continue
        found = {side: [anchored[line] for line, r in group if r["side"] == side] for side in SIDES}
        decision = Decision(
            group[0][0],
            what,
            found["source"],
            found["test"],
            fields["label"] == "move",
            fields["reason"],
            fields["note"],
        )
        shape = _shape(decision)
        if shape:
            problems.append(f"line {group[0][0]}: {shape}")
            continue
        decisions.append(decision)
        row = decision_row(decision, sides, catalogue)
        if what == "correspondence" and row["kind"] != fields["label"]:
            problems.append(
                f"line {group[0][0]}: label {fields['label']!r} but the block labels make it {row['kind']!r}"
            )
            continue
        state = fields["review"]["state"]
        if state is not None:
            row["status"] = state
        if fields["proposed_by"] is not None and what != "unscored":
            row["proposed_by"] = fields["proposed_by"]
        rows[SECTION_OF[what]].append(row)
    problems.raise_if_any(path)
    totality = totality_problems(Sheet(decisions=decisions), catalogue)
    if totality:
        raise AlignbenchError(f"{path}: not total, nothing imported: {'; '.join(totality)[:600]}")
    for section, section_rows in rows.items():
        section_rows.sort(key=lambda r, s=section: row_sort_key(s, r, catalogue))
    return _merge_review(current, rows, groups, labels_path)


def _shape(decision: Decision) -> str | None:
    counts = (len(decision.source), len(decision.test))
    expected = {
        "correspondence": counts == (1, 1),
        "inserted": counts[0] == 0 and counts[1] == 1,
        "deleted": counts[0] == 1 and counts[1] == 0,
        "split": counts[0] == 1 and counts[1] >= 2,
        "merge": counts[0] >= 2 and counts[1] == 1,
        "unscored": sum(counts) >= 1 and bool(decision.reason),
    }[decision.what]
    return None if expected else f"{decision.what} with {counts[0]} source and {counts[1]} test span(s)"


def _merge_review(
    current: dict[str, Any],
    rows: dict[str, list[dict[str, Any]]],
    groups: dict[str, list[tuple[int, dict[str, Any]]]],
    where: Path,
) -> tuple[dict[str, Any], list[str]]:
    data = copy.deepcopy(current)
    data.update(rows)
    warnings: list[str] = []
    known = {f"{r['kind']}:{r['id']}" for r in data["review"]["reviewed_by"]}
    labeller = data["review"]["labelled_by"]
    known.add(f"{labeller['kind']}:{labeller['id']}")
    added = sorted(
        {rid for group in groups.values() for _, r in group for rid in r["review"].get("reviewer_ids", [])}
        - known
    )
    for rid in added:
        kind, _, ident = rid.partition(":")
        if kind not in ("human", "agent") or not ident:
            raise AlignbenchError(f"{where}: reviewer id {rid!r} is not human:ID or agent:ID")
        data["review"]["reviewed_by"].append({"kind": kind, "id": ident, "role": "reviewer"})
    if any(data[s] != current[s] for s in ROW_SECTIONS) or added:
        data["review"]["signatures"], dropped_signatures = carry_signatures(current, data)
        data["move_verdicts"], dropped_verdicts = carry_verdicts(current, data)
        warnings += dropped_signatures + dropped_verdicts
    return data, warnings


def import_spans(root: Path, labels_path: Path, path: Path) -> tuple[str, list[str]]:
    """The new labels.yaml text and warnings (the caller writes it; nothing is written on error)."""
    data, warnings = import_rows(root, labels_path, path)
    return dump_labels(data), warnings
