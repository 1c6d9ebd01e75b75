"""What the score stage expects: exactly the pairs label_check passed, each with every engine's output.

``results/labels.json`` is label_check's record of the pairs it checked and passed (label_check in
turn checked them against corpus/pairs.yaml and the plans). Scoring a different set - a pair added
or removed since, or a record from a half-finished run - would publish numbers for pairs nobody
checked, so any difference fails, naming the pairs.
"""

from __future__ import annotations

import json
from pathlib import Path

from alignbench.errors import AlignbenchError, CheckFailed
from alignbench.tiers import discover

LABELS_RECORD = "results/labels.json"
RECORD_SCHEMA = "alignbench/labels-summary/v1"
_SHOWN = 12
_RERUN = "run `dvc repro -f label_check`"


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def checked_pairs(root: Path) -> list[tuple[str, str]]:
    """``(tier, pair)`` of every pair label_check recorded as passed, in its order."""
    record = label_record(root)
    try:
        return [(str(p["tier"]), str(p["pair"])) for p in record["pairs"]]
    except (KeyError, TypeError):
        raise AlignbenchError(
            f"{LABELS_RECORD}: 'pairs' must list {{tier, pair, ...}}; run `dvc repro -f label_check`"
        ) from None


def label_record(root: Path) -> dict:
    """label_check's record, or one error naming the stage that remakes it."""
    path = root / LABELS_RECORD
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AlignbenchError(
            f"{LABELS_RECORD} is missing: label_check has not passed; run `dvc repro label_check`"
        ) from None
    except (OSError, ValueError) as exc:
        raise AlignbenchError(
            f"{LABELS_RECORD}: unreadable ({exc}); run `dvc repro -f label_check`"
        ) from None
    if not isinstance(record, dict) or record.get("schema") != RECORD_SCHEMA:
        raise AlignbenchError(
            f"{LABELS_RECORD}: not a {RECORD_SCHEMA} record; run `dvc repro -f label_check`"
        )
    return record


def expectation(root: Path) -> str:
    """The line the stage prints before scoring."""
    pairs = checked_pairs(root)
    tiers = sorted({t for t, _ in pairs})
    counts = ", ".join(f"{sum(1 for t, _ in pairs if t == tier)} {tier}" for tier in tiers)
    return f"expecting the {len(pairs)} pair(s) label_check passed ({counts}) in {LABELS_RECORD}"


def require_complete(root: Path) -> None:
    """The label files on disk are exactly the pairs label_check passed; else one error naming them."""
    recorded = set(checked_pairs(root))
    on_disk = {(p.tier, p.pair) for p in discover(root)}
    missing = sorted(f"{t}/{p}" for t, p in recorded - on_disk)
    unchecked = sorted(f"{t}/{p}" for t, p in on_disk - recorded)
    problems = []
    if missing:
        problems.append(
            f"{len(missing)} pair(s) that label_check passed have no labels.yaml now: {_listed(missing)}"
        )
    if unchecked:
        problems.append(
            f"{len(unchecked)} pair(s) have labels that label_check did not pass: {_listed(unchecked)}"
        )
    if problems:
        raise CheckFailed(
            f"{LABELS_RECORD} does not match the label files: {'; '.join(problems)}; "
            "run `dvc repro label_check` (then align, floor) before scoring"
        )
