"""File-level steps of ``label sheet`` and ``label compile``: where things are read from and written to.

Kept apart from :mod:`alignbench.labels.sheet` and :mod:`alignbench.labels.compile` (pure text and
data) so the rules about files are in one place: a blank sheet reads only the manifest and the two
documents; a compile never silently turns reviewed statuses into a blind pass's, and says on stderr
what it drops from the file it replaces.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alignbench.atomic import write_text
from alignbench.errors import AlignbenchError
from alignbench.labels.carry import carry_signatures, carry_verdicts
from alignbench.labels.check import digest_problems, totality_problems
from alignbench.labels.compile import PairBase, compile_labels
from alignbench.labels.documents import SIDES, Reader, Side, open_pair
from alignbench.labels.init import REAL_LABELS, real_pair_documents
from alignbench.labels.io import ROW_SECTIONS, dump_labels, load_labels
from alignbench.labels.sheet import (
    Catalogue,
    Sheet,
    catalogue_lines,
    check_binding,
    parse_sheet,
    render_sheet,
)
from alignbench.labels.sign import content_digest
from alignbench.labels.summary import status_counts

SHEET_NAME = "sheet.txt"
BLIND_SHEET_NAME = "blind-sheet.txt"
BLIND_LABELS_NAME = "blind-labels.yaml"


@dataclass
class Outcome:
    """What a step wrote, what it says on stdout, and the warnings it owes stderr."""

    path: Path
    summary: str
    warnings: list[str] = field(default_factory=list)


def _current_sides(
    documents: dict[str, dict[str, Any]], root: Path, reader: Reader | None
) -> dict[str, Side]:
    sides = open_pair(documents, root, reader)
    for side in SIDES:
        documents[side]["sha256"] = sides[side].sha256
    return sides


def write_blank_sheet(
    root: Path, pair: str, out: Path | None = None, reader: Reader | None = None
) -> Outcome:
    """The blind pass's scaffold: from ``corpus/real/<pair>/manifest.json`` and the documents only."""
    documents, _ = real_pair_documents(root, pair)
    sides = _current_sides(documents, root, reader)
    path = out or root / REAL_LABELS / pair / BLIND_SHEET_NAME
    write_text(path, render_sheet(pair, sides, blank=True))
    counts = {side: len(sides[side].labelled()) for side in SIDES}
    return Outcome(path, f"wrote {path}: blank, {counts['source']} source and {counts['test']} test blocks")


def write_sheet(
    root: Path, labels_path: Path, out: Path | None = None, reader: Reader | None = None
) -> Outcome:
    """The decision sheet of an existing ``labels.yaml``: one decision line per row."""
    data = load_labels(labels_path)
    sides = open_pair(data, root, reader)
    stale = digest_problems(data, sides) + [
        p for p in totality_problems(data, sides) if "name no labelled" in p
    ]
    if stale:
        shown = "\n".join(f"  {labels_path}: {p[:300]}" for p in stale)
        raise AlignbenchError(
            f"{labels_path}: its rows no longer match the documents as the readers see them, so their "
            f"short ids would point at other text; run `alignbench label reanchor {data['pair']}` "
            f"(or re-seed with `alignbench label init {data['pair']} --force`) first:\n{shown}"
        )
    path = out or labels_path.parent / SHEET_NAME
    if sheet_matches_labels(path, data, sides):
        return Outcome(path, f"{path}: already says exactly what {labels_path} says; left unchanged")
    text = render_sheet(data["pair"], sides, data)
    write_text(path, text)
    decisions = sum(1 for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    return Outcome(path, f"wrote {path}: {decisions} decision line(s)")


def _row_content(row: dict[str, Any]) -> str:
    """A row without its review state: what a sheet line can say about it."""
    return json.dumps({k: v for k, v in row.items() if k not in ("status", "proposed_by")}, sort_keys=True)


def sheet_matches_labels(path: Path, data: dict[str, Any], sides: dict[str, Side]) -> bool:
    """True when the existing sheet at ``path`` compiles to exactly the rows of ``data``.

    A committed sheet is the labeller's own text: their line order, grouping (``- = T3 T4``) and
    section comments. Re-rendering it from labels.yaml can only reorder and regroup its lines (rows
    are stored sorted by document position), so a sheet that already says the same is left as is;
    any unreadable, stale or different sheet is rendered afresh.
    """
    if not path.is_file():
        return False
    try:
        text = path.read_text(encoding="utf-8")
        catalogue = Catalogue.from_sides(sides)
        # The block list is what a reviewer reads the decisions against: a sheet whose list the readers
        # no longer give (S7 now names another block) is stale even when its decisions compile alike.
        if "\n".join(catalogue_lines(catalogue, sides)) not in text:
            return False
        sheet = parse_sheet(text, catalogue, str(path))
        check_binding(sheet, data["pair"], sides, str(path))
        base = PairBase(data["pair"], data["tier"], {s: data[s] for s in SIDES}, data["provenance"])
        compiled = compile_labels(sheet, base, sides, data["review"]["labelled_by"], where=str(path))
    except (AlignbenchError, OSError, UnicodeDecodeError):
        return False
    return all(
        sorted(map(_row_content, compiled[section])) == sorted(map(_row_content, data[section]))
        for section in ROW_SECTIONS
    )


def _base(
    root: Path, pair: str, draft: dict[str, Any] | None, reader: Reader | None
) -> tuple[PairBase, dict[str, Side]]:
    if draft is not None:
        documents = {side: dict(draft[side]) for side in SIDES}
        provenance, tier = copy.deepcopy(draft["provenance"]), draft["tier"]
    else:
        documents, provenance = real_pair_documents(root, pair)
        tier = "real"
    sides = _current_sides(documents, root, reader)
    return PairBase(pair, tier, documents, provenance), sides


def compile_sheet(
    root: Path,
    pair: str,
    sheet_path: Path,
    by: dict[str, str],
    draft_path: Path | None = None,
    out: Path | None = None,
    force: bool = False,
    reader: Reader | None = None,
    as_reviewer: bool = False,
) -> Outcome:
    """Compile ``sheet_path`` into ``out`` (default: labels.yaml with a draft, blind-labels.yaml without)."""
    from alignbench.inputs import read_text_capped

    text = read_text_capped(sheet_path, "edited sheet")  # capped: a sheet named /dev/zero stops at 64 MB

    def parsed(sides: dict[str, Side]) -> Sheet:
        sheet = parse_sheet(text, Catalogue.from_sides(sides), str(sheet_path))
        check_binding(sheet, pair, sides, str(sheet_path))
        return sheet

    data, target, warnings = compile_decisions(
        root, pair, parsed, by, str(sheet_path), draft_path, out, force, reader, as_reviewer
    )
    write_text(target, dump_labels(data))
    return Outcome(target, compiled_summary(target, data, by), warnings)


def compiled_summary(target: Path, data: dict[str, Any], by: dict[str, str]) -> str:
    counts = status_counts(data)
    rows = sum(counts.values())
    return (
        f"wrote {target}: {rows} rows ({counts['confirmed']} confirmed, {counts['corrected']} corrected), "
        f"labelled by {by['kind']}:{by['id']}"
    )


def compile_decisions(
    root: Path,
    pair: str,
    decisions: Callable[[dict[str, Side]], Sheet],
    by: dict[str, str],
    where: str,
    draft_path: Path | None = None,
    out: Path | None = None,
    force: bool = False,
    reader: Reader | None = None,
    as_reviewer: bool = False,
) -> tuple[dict[str, Any], Path, list[str]]:
    """The label document for the decisions ``decisions(sides)`` returns, its target path and warnings.

    Shared by the sheet (``label compile PAIR SHEET``) and the review page (``--from decisions.json``),
    so both get the same totality check, statuses and review record; nothing is written here.
    """
    draft = load_labels(draft_path) if draft_path is not None else None
    if draft is not None and draft["pair"] != pair:
        raise AlignbenchError(
            f"--draft {draft_path}: labels pair {draft['pair']!r}, not {pair!r}; pass the draft of this pair"
        )
    target = out or root / REAL_LABELS / pair / ("labels.yaml" if draft is not None else BLIND_LABELS_NAME)
    if draft is None and target.exists() and not force:
        raise AlignbenchError(
            f"{target} exists and no --draft was given: every row would become 'confirmed', erasing its "
            "review record; pass --draft (usually that same file) or --force to replace it"
        )
    base, sides = _base(root, pair, draft, reader)
    sheet = decisions(sides)
    data = compile_labels(sheet, base, sides, by, draft=draft, where=where)
    old = load_labels(target) if target.exists() else None
    warnings = _carry_review(data, old, target)
    if as_reviewer:
        # A reviewer or adjudicator corrects someone else's labels: the labeller stays who it was.
        if draft is None:
            raise AlignbenchError("--as-reviewer corrects an existing file: pass --draft with the labels")
        data["review"]["labelled_by"] = draft["review"]["labelled_by"]
        reviewer = {"kind": by["kind"], "id": by["id"], "role": "reviewer"}
        # A review that changed nothing adds nothing to the signed content: its record is the
        # reviewer's signature, so every earlier signature still matches (docs/LABELLING.md).
        changed = old is None or content_digest(data) != content_digest(old)
        if changed and reviewer not in data["review"]["reviewed_by"]:
            data["review"]["reviewed_by"] = [*data["review"]["reviewed_by"], reviewer]
    if old is not None:
        data["review"]["signatures"], dropped_signatures = carry_signatures(old, data)
        data["move_verdicts"], dropped_verdicts = carry_verdicts(old, data)
        warnings += [f"{target}: {w}" for w in dropped_signatures + dropped_verdicts]
    return data, target, warnings


def _carry_review(data: dict[str, Any], old: dict[str, Any] | None, target: Path) -> list[str]:
    """Keep the replaced file's reviewers and adjudications (signatures and verdicts: labels.carry)."""
    if old is None:
        return []
    data["review"]["reviewed_by"] = old["review"]["reviewed_by"]
    data["review"]["adjudications"] = old["review"]["adjudications"]
    if old["review"]["adjudications"]:
        return [f"{target}: kept {len(old['review']['adjudications'])} adjudication(s)"]
    return []
