"""The review page's export (``decisions.json``) back into ``labels.yaml``, through the sheet's compile path.

An export is bound to what it was made from: the draft's sha256 (the bytes of the pair's labels.yaml
when the page was written), both documents' sha256, and a digest over the whole payload. A file edited
by hand, or made against another draft, is refused before anything is read further, so a stale or
doctored review never reaches a label file. The decisions then become :class:`Decision` objects, the
same ones a sheet parses into, and :func:`alignbench.labels.workflow.compile_decisions` does the rest
(totality, statuses against the draft, review record), so the page adds no second compile path.

Who signs: a draft seeded by the engine has no labeller yet, so the reviewer who decided every row
becomes its labeller and signs as ``labeller``; a draft made by someone else keeps its labeller, the
reviewer signs as ``reviewer`` and joins ``reviewed_by`` only if they changed a row, so a review that
changes nothing leaves every earlier signature valid (:mod:`alignbench.labels.carry`). ``human:``
signatures follow the existing identity rule (:func:`alignbench.labels.sign.machine_identity_reason`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from alignbench.atomic import write_text
from alignbench.errors import AlignbenchError
from alignbench.inputs import read_text_capped
from alignbench.labels.compile import parse_by
from alignbench.labels.documents import SIDES, Side
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.sheet import Catalogue, Decision, Sheet
from alignbench.labels.sign import sign
from alignbench.labels.summary import status_counts
from alignbench.labels.workflow import Outcome, compile_decisions
from alignbench.review.page import draft_path, file_sha256

DECISIONS_FORMAT = "alignbench/review-decisions/v2"
# v1 (before the logged bulk confirm) is still read: the same keys without ``bulk_actions``.
FORMAT_KEYS: dict[str, tuple[str, ...]] = {
    "alignbench/review-decisions/v1": (
        "format",
        "pair",
        "draft",
        "documents",
        "cold_moves",
        "decisions",
        "digest",
    ),
    DECISIONS_FORMAT: (
        "format",
        "pair",
        "draft",
        "documents",
        "cold_moves",
        "decisions",
        "bulk_actions",
        "digest",
    ),
}
WHATS: tuple[str, ...] = ("correspondence", "inserted", "deleted", "split", "merge", "unscored")
# The page's explicit bulk actions, each logged with the rows it decided.
BULK_ACTIONS: tuple[str, ...] = ("confirm_unchanged_exact_matches",)
_DECISION_KEYS: tuple[str, ...] = ("what", "source", "test", "move", "note", "reason", "decided")


def canonical(payload: dict[str, Any]) -> str:
    """The text the digest is taken over; the page's ``canon()`` produces the same characters."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def payload_digest(payload: dict[str, Any]) -> str:
    unsigned = {k: v for k, v in payload.items() if k != "digest"}
    return hashlib.sha256(canonical(unsigned).encode("utf-8")).hexdigest()


def read_export(path: Path) -> dict[str, Any]:
    """The export as a mapping with the expected keys and an intact digest."""
    text = read_text_capped(path, "decisions export the review page saved")
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise AlignbenchError(
            f"{path}: not a decisions export ({exc.__class__.__name__}); use the file the review page saved"
        ) from None
    fmt = payload.get("format") if isinstance(payload, dict) else None
    if not isinstance(fmt, str) or fmt not in FORMAT_KEYS:  # a list or dict here is not hashable
        raise AlignbenchError(f"{path}: not a decisions export (format is not {DECISIONS_FORMAT!r})")
    keys = FORMAT_KEYS[payload["format"]]
    if sorted(payload) != sorted(keys):
        raise AlignbenchError(
            f"{path}: keys {sorted(payload)} differ from {sorted(keys)}; export again from the review page"
        )
    shape = _payload_problem(payload)
    if shape:
        raise AlignbenchError(f"{path}: {shape}; export again from the review page")
    if payload["digest"] != payload_digest(payload):
        raise AlignbenchError(
            f"{path}: its digest does not match its content, so it was edited after export; refusing it "
            "(make changes in the review page and export again)"
        )
    return payload


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _payload_problem(payload: dict[str, Any]) -> str | None:
    """Why the export's top-level values have the wrong types (the digest proves no authorship: anyone
    can recompute it, so a hand-made file is checked like any input before a value is used)."""
    if not _is_text(payload["pair"]) or not _is_text(payload["digest"]):
        return "pair and digest must be strings"
    draft, documents = payload["draft"], payload["documents"]
    if not isinstance(draft, dict) or not _is_text(draft.get("sha256")):
        return "draft must be {file, sha256} with sha256 a string"
    if not isinstance(documents, dict) or not all(
        isinstance(documents.get(side), dict)
        and _is_text(documents[side].get("file"))
        and _is_text(documents[side].get("sha256"))
        for side in SIDES
    ):
        return "documents must map source and test to {file, sha256} strings"
    if not isinstance(payload["decisions"], list) or not isinstance(payload["cold_moves"], list):
        return "decisions and cold_moves must be lists"
    return None


def check_binding(payload: dict[str, Any], path: Path, pair: str, draft: Path) -> None:
    """Refuse an export for another pair or made against another version of the draft."""
    if payload["pair"] != pair:
        raise AlignbenchError(f"{path}: decisions for pair {payload['pair']!r}, not {pair!r}")
    current = file_sha256(draft)
    if payload["draft"].get("sha256") != current:
        raise AlignbenchError(
            f"{path}: made against another draft (sha256 {payload['draft'].get('sha256')}, {draft} is now "
            f"{current}); write the page again (`alignbench review {pair}`, or `alignbench review OLD NEW` "
            "for your own documents) and redo the review on the current draft"
        )


def _check_documents(payload: dict[str, Any], path: Path, sides: dict[str, Side]) -> None:
    for side in SIDES:
        entry = payload["documents"].get(side) or {}
        if entry.get("sha256") != sides[side].sha256 or entry.get("file") != sides[side].file:
            raise AlignbenchError(
                f"{path}: made for {entry.get('file')} sha256 {entry.get('sha256')}, but the {side} is now "
                f"{sides[side].file} sha256 {sides[side].sha256}; review the current documents again"
            )


_SHAPES: dict[str, tuple[str, str]] = {
    # what: (source count, test count) as "1", "0", "1+" or "2+"
    "correspondence": ("1", "1"),
    "inserted": ("0", "1+"),
    "deleted": ("1+", "0"),
    "split": ("1", "2+"),
    "merge": ("2+", "1"),
}


def _fits(count: int, rule: str) -> bool:
    return count == int(rule) if rule.isdigit() else count >= int(rule[0])


def _shape_problem(item: dict[str, Any]) -> str | None:
    """Why a decision's blocks do not fit its ``what`` (the sheet parser enforces the same shapes)."""
    if not all(isinstance(item[s], list) and all(isinstance(a, str) for a in item[s]) for s in SIDES):
        return "source and test must be lists of addresses"
    counts = (len(item["source"]), len(item["test"]))
    if item["what"] == "unscored":
        if not sum(counts) or not isinstance(item["reason"], str) or not item["reason"].strip():
            return "unscored needs at least one block and a reason"
    elif not all(_fits(n, rule) for n, rule in zip(counts, _SHAPES[item["what"]], strict=True)):
        return f"{item['what']} with {counts[0]} source and {counts[1]} test block(s) is not a valid shape"
    if not all(item[key] is None or isinstance(item[key], str) for key in ("note", "reason")):
        return "note and reason must be strings or null"
    if item["move"] is not False and item["what"] != "correspondence":
        return "only a correspondence can be a move"
    if not isinstance(item["move"], bool) or not (item["note"] is None or isinstance(item["note"], str)):
        return "move must be true/false and note a string or null"
    return None


def bulk_confirmed(payload: dict[str, Any], catalogue: Catalogue, path: Path) -> int:
    """How many rows the export's logged bulk actions decided (checked for shape; v1 has none)."""
    actions = payload.get("bulk_actions", [])
    problems: list[str] = []
    if not isinstance(actions, list):
        raise AlignbenchError(f"{path}: bulk_actions must be a list; export again from the review page")
    count = 0
    for i, action in enumerate(actions):
        at = f"bulk_actions[{i}]"
        if (
            not isinstance(action, dict)
            or sorted(action) != ["action", "rows"]
            or action["action"] not in BULK_ACTIONS
        ):
            problems.append(f"{at}: expected {{action: one of {', '.join(BULK_ACTIONS)}, rows: [...]}}")
            continue
        for j, row in enumerate(action["rows"] if isinstance(action["rows"], list) else [None]):
            if not isinstance(row, dict) or sorted(row) != ["source", "test"]:
                problems.append(f"{at}.rows[{j}]: expected {{source, test}}")
            elif any(row[side] not in catalogue.position(side) for side in SIDES):
                problems.append(
                    f"{at}.rows[{j}]: {row['source']} -> {row['test']} is not a pair of labelled blocks"
                )
            else:
                count += 1
    if problems:
        raise AlignbenchError(f"{path}: {len(problems)} problem(s): {'; '.join(problems[:5])}")
    return count


def to_sheet(payload: dict[str, Any], catalogue: Catalogue, path: Path) -> Sheet:
    """The export's decisions as sheet decisions (line = position in the export, from 1)."""
    problems: list[str] = []
    decisions: list[Decision] = []
    for number, item in enumerate(payload["decisions"], start=1):
        at = f"decisions[{number - 1}]"
        if not isinstance(item, dict) or sorted(item) != sorted(_DECISION_KEYS):
            problems.append(f"{at}: expected keys {', '.join(_DECISION_KEYS)}")
            continue
        if item["what"] not in WHATS:
            problems.append(f"{at}.what: {item['what']!r} is not one of {', '.join(WHATS)}")
            continue
        shape = _shape_problem(item)
        if shape:
            problems.append(f"{at}: {shape}")
            continue
        if item["decided"] is not True:
            problems.append(f"{at}: not decided yet; confirm or change it in the review page")
        for side in SIDES:
            for address in item[side]:
                if address not in catalogue.position(side):
                    problems.append(f"{at}.{side}: {address} is not a labelled block of the {side}")
        decisions.append(
            Decision(
                number,
                item["what"],
                list(item["source"]),
                list(item["test"]),
                move=bool(item["move"]),
                reason=item["reason"],
                note=item["note"],
            )
        )
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise AlignbenchError(f"{path}: {len(problems)} problem(s): {shown}")
    return Sheet(meta={}, decisions=decisions)


def resolve_draft(root: Path, pair: str) -> tuple[str, Path]:
    """``(pair id, draft)`` for a corpus pair id, or for a labels file of one's own (``review OLD NEW``)."""
    candidate = Path(pair)
    if candidate.suffix in (".yaml", ".yml") and candidate.is_file():
        return load_labels(candidate)["pair"], candidate
    return pair, draft_path(root, pair)


def compile_export(root: Path, pair: str, export: Path, reviewer: str) -> Outcome:
    """Turn a review page export into the draft it was made from, signed by ``reviewer`` (``KIND:ID``).

    ``pair`` is a corpus pair id, or the path of a labels file written by ``alignbench review OLD NEW``.
    """
    by = parse_by(reviewer)
    pair, draft = resolve_draft(root, pair)
    payload = read_export(export)
    check_binding(payload, export, pair, draft)
    engine_draft = load_labels(draft)["review"]["labelled_by"]["kind"] == "engine"

    bulk: list[int] = []

    def decisions(sides: dict[str, Side]) -> Sheet:
        _check_documents(payload, export, sides)
        catalogue = Catalogue.from_sides(sides)
        bulk.append(bulk_confirmed(payload, catalogue, export))
        return to_sheet(payload, catalogue, export)

    data, target, warnings = compile_decisions(
        root, pair, decisions, by, str(export), draft_path=draft, out=draft, as_reviewer=not engine_draft
    )
    role = "labeller" if engine_draft else "reviewer"
    signed = sign(data, f"{by['kind']}:{by['id']}", by["kind"], role, str(target))
    write_text(target, dump_labels(signed))
    counts = status_counts(signed)
    summary = (
        f"wrote {target}: {sum(counts.values())} rows ({counts['confirmed']} confirmed, "
        f"{counts['corrected']} corrected), signed by {by['kind']}:{by['id']} as {role}"
    )
    if bulk and bulk[0]:
        summary += (
            f"; {bulk[0]} row(s) were confirmed by the logged bulk action 'confirm unchanged exact matches'"
        )
    return Outcome(target, summary, warnings)
