"""Adjudications must point at real disagreements of the recorded agreement, ruled by a third party.

An adjudication (``review.adjudications``) resolves one disagreement of the blind second pass by its
stable id. The agreement that produced those ids is frozen next to the labels as ``agreement.json``
(``alignbench label agree A B --json .../agreement.json``). Without that file an adjudication cannot
be verified, so it is a problem; with it, every adjudicated id must be one of its disagreements, each
at most once, and the adjudicator must be neither of the two labellers (seed 003: a person who
labelled a pair does not adjudicate it).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

AGREEMENT_FILE = "agreement.json"


def load_agreement(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """``(report, None)``, or ``(None, problem)`` when the file is unreadable or not an agreement report."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return (
            None,
            f"{path.name}: unreadable agreement report ({exc.__class__.__name__}); re-run label agree",
        )
    if not isinstance(report, dict) or not isinstance(report.get("disagreements"), list):
        return (
            None,
            f"{path.name}: not an agreement report (no 'disagreements' list); re-run label agree --json",
        )
    return report, None


def adjudication_problems(data: dict[str, Any], labels_path: Path) -> list[str]:
    """Every adjudication that names no disagreement of the recorded agreement, or is not independent."""
    adjudications = data["review"]["adjudications"]
    agreement_path = labels_path.parent / AGREEMENT_FILE
    if not agreement_path.is_file():
        if not adjudications:
            return []
        return [
            f"$.review.adjudications: {len(adjudications)} adjudication(s) but no {AGREEMENT_FILE} next to "
            f"the labels to check them against; write it with `alignbench label agree PRIMARY BLIND "
            f"--json {agreement_path.parent.name}/{AGREEMENT_FILE}`"
        ]
    report, problem = load_agreement(agreement_path)
    if report is None:
        return [f"$.review.adjudications: {problem}"]
    problems: list[str] = []
    if report.get("pair") != data["pair"]:
        problems.append(f"{AGREEMENT_FILE}: is for pair {report.get('pair')!r}, not {data['pair']!r}")
    known = {d.get("id") for d in report["disagreements"] if isinstance(d, dict)}
    labellers = {
        (side.get("labelled_by") or {}).get("id")
        for side in (report.get("a"), report.get("b"))
        if isinstance(side, dict)
    }
    counts = Counter(a["disagreement"] for a in adjudications)
    for i, item in enumerate(adjudications):
        at = f"$.review.adjudications[{i}]"
        if item["disagreement"] not in known:
            problems.append(
                f"{at}.disagreement: {item['disagreement']} is not a disagreement id of {AGREEMENT_FILE}; "
                "copy the id from the agreement report"
            )
        if counts[item["disagreement"]] > 1:
            problems.append(
                f"{at}.disagreement: {item['disagreement']} is adjudicated more than once; keep one"
            )
        if item["by"]["id"] in labellers:
            problems.append(
                f"{at}.by: {item['by']['id']} labelled this pair in the agreement; "
                "someone other than the two labellers adjudicates"
            )
    return problems


RULINGS: tuple[str, ...] = ("a", "b", "neither")


def record_ruling(
    data: dict[str, Any], labels_path: Path, disagreement: str, ruling: str, reason: str, by: dict[str, str]
) -> dict[str, Any]:
    """Add (or replace) the ruling on one disagreement of the frozen ``agreement.json``.

    Applying the ruling to the rows is a separate, visible step (edit the sheet and compile with
    ``--as-reviewer``); this records what was decided and why, by whom.
    """
    from alignbench.errors import AlignbenchError

    if ruling not in RULINGS:
        raise AlignbenchError(f"ruling {ruling!r}: expected one of {', '.join(RULINGS)}")
    if not reason.strip():
        raise AlignbenchError("a ruling needs a reason (--reason '...'), read against the text")
    report, problem = load_agreement(labels_path.parent / AGREEMENT_FILE)
    if report is None:
        raise AlignbenchError(f"{labels_path.parent / AGREEMENT_FILE}: {problem}")
    known = {d.get("id") for d in report["disagreements"] if isinstance(d, dict)}
    if disagreement not in known:
        raise AlignbenchError(
            f"{disagreement}: not a disagreement id of {AGREEMENT_FILE}; copy it from there"
        )
    labellers = {
        (side.get("labelled_by") or {}).get("id")
        for side in (report.get("a"), report.get("b"))
        if isinstance(side, dict)
    }
    if by["id"] in labellers:
        raise AlignbenchError(
            f"{by['id']} labelled this pair; someone other than the two labellers adjudicates"
        )
    kept = [a for a in data["review"]["adjudications"] if a["disagreement"] != disagreement]
    kept.append({"disagreement": disagreement, "ruling": ruling, "reason": reason.strip(), "by": dict(by)})
    updated = dict(data)
    updated["review"] = {**data["review"], "adjudications": sorted(kept, key=lambda a: a["disagreement"])}
    return updated
