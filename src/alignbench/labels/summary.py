"""Figures about the labels themselves (who labelled, how much was overridden), per pair and per tier.

The override rate is the visible symptom of a labeller who agreed with everything the engine proposed,
so it is computed from the rows and published rather than stored by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alignbench.blocks import is_renumber
from alignbench.labels.agree import AGREEMENT_KINDS
from alignbench.labels.io import ROW_SECTIONS
from alignbench.score.ratios import ratio, rounded

STATUSES: tuple[str, ...] = ("proposed", "confirmed", "corrected")
LABELLER_KINDS: tuple[str, ...] = ("engine", "generator", "agent", "human")


def status_counts(data: dict[str, Any]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for section in ROW_SECTIONS:
        for row in data[section]:
            if "status" in row:
                counts[row["status"]] += 1
    return counts


def override_rate(data: dict[str, Any]) -> float | None:
    """corrected / all status-bearing rows (``None`` when no row carries a status)."""
    counts = status_counts(data)
    return rounded(ratio(counts["corrected"], sum(counts.values())))


def pair_figures(data: dict[str, Any], signed_valid: bool) -> dict[str, Any]:
    """Per-pair figures in a fixed key order."""
    counts = status_counts(data)
    kinds = [row["kind"] for row in data["correspondences"]]
    return {
        "rows": sum(len(data[section]) for section in ROW_SECTIONS),
        **{section: len(data[section]) for section in ROW_SECTIONS},
        "moves": kinds.count("move"),
        "renumbers": sum(
            1 for row in data["correspondences"] if is_renumber(row["source_label"], row["test_label"])
        ),
        **counts,
        "override_rate": override_rate(data),
        "labelled_by": data["review"]["labelled_by"]["kind"],
        "signatures": len(data["review"]["signatures"]),
        "signed": bool(data["review"]["signatures"]) and signed_valid,
        "move_verdicts": len(data["move_verdicts"]),
    }


def agreement_figures(path: Path) -> dict[str, Any] | None:
    """The frozen blind-pass agreement of one pair (``label agree --json``), or ``None`` without one."""
    if not path.is_file():
        return None
    report = json.loads(path.read_text(encoding="utf-8"))
    figures: dict[str, Any] = {
        "labellers": [report[side]["labelled_by"]["id"] for side in ("a", "b")],
    }
    for what in AGREEMENT_KINDS:
        if what in report:
            figures[what] = {key: report[what][key] for key in ("a", "b", "agreed")}
    figures["disagreements"] = len(report["disagreements"])
    return figures


def pooled_agreement(pairs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Agreement pooled over the pairs that had a blind second pass: F1 = 2*agreed / (a + b)."""
    measured = [p["agreement"] for p in pairs if p.get("agreement")]
    if not measured:
        return None
    pooled: dict[str, Any] = {"pairs": len(measured)}
    for what in AGREEMENT_KINDS:
        with_kind = [m[what] for m in measured if what in m]
        a = sum(m["a"] for m in with_kind)
        b = sum(m["b"] for m in with_kind)
        agreed = sum(m["agreed"] for m in with_kind)
        pooled[f"{what}_f1"] = rounded(ratio(2 * agreed, a + b)) if with_kind else None
        pooled[f"{what}_pairs"] = len(with_kind)
    pooled["disagreements"] = sum(m["disagreements"] for m in measured)
    return pooled


def tier_figures(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate per-pair figures of one tier; the mean override rate skips pairs without status rows."""
    rates = [p["override_rate"] for p in pairs if p["override_rate"] is not None]
    by_kind = {kind: {"pairs": 0, "rows": 0} for kind in LABELLER_KINDS}
    for p in pairs:
        by_kind[p["labelled_by"]]["pairs"] += 1
        by_kind[p["labelled_by"]]["rows"] += p["rows"]
    return {
        "pairs": len(pairs),
        "rows": sum(p["rows"] for p in pairs),
        **{status: sum(p[status] for p in pairs) for status in STATUSES},
        "signed_pairs": sum(1 for p in pairs if p["signed"]),
        "mean_override_rate": round(sum(rates) / len(rates), 4) if rates else None,
        "labels_by_labeller_kind": by_kind,
        "blind_agreement": pooled_agreement(pairs),
    }
