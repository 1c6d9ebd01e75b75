"""The synthetic tier's hold-out table: engine metrics on the *dev* and *check* halves, and the gap.

The engine is tuned on dev only (``params.yaml generate.holdout_seed``; the rule is in
:mod:`alignbench.generate.holdout`). A change that helps dev and not check - a widening gap - fits the
corpus rather than the problem, so both halves and their difference are published side by side. Also
counted here: declared controls (pairs meant to change nothing that counts, kept apart from the no-op
count) and the pairs each backend placed by order alone (``ambiguous``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.generate.holdout import HALVES, RULE
from alignbench.runs import BACKENDS
from alignbench.score.ratios import headline, rounded, total

GAP_METRICS: tuple[str, ...] = (
    "f1",
    "precision",
    "recall",
    "move_precision",
    "move_recall",
    "renumber_recall",
)


def half_of(labels: Mapping[str, Any]) -> str | None:
    half = (labels.get("provenance") or {}).get("holdout")
    return half if half in HALVES else None


def is_control(labels: Mapping[str, Any]) -> bool:
    return (labels.get("provenance") or {}).get("control") is True


def ambiguous_pairs(output: Mapping[str, Any]) -> int:
    """How many reported pairs an engine placed by order alone (absent key: none)."""
    return sum(1 for p in output.get("pairs") or [] if p.get("ambiguous") is True)


def holdout_summary(pairs: Sequence[Any], tier: str = "synthetic") -> dict[str, Any]:
    """Per backend: headline metrics per half and the dev - check gap; plus control and ambiguity counts."""
    members = [p for p in pairs if p.tier == tier]
    out: dict[str, Any] = {"rule": RULE, "pairs": {}, "controls": sum(1 for p in members if p.control)}
    for half in HALVES:
        out["pairs"][half] = sum(1 for p in members if p.half == half)
    engines: dict[str, Any] = {}
    for backend in BACKENDS:
        halves: dict[str, Any] = {}
        for half in HALVES:
            chosen = [p.counts[backend]["all"] for p in members if p.half == half]
            halves[half] = {k: rounded(v) for k, v in headline(total(chosen)).items() if k in GAP_METRICS}
        gap = {}
        for metric in GAP_METRICS:
            dev, check = halves["dev"][metric], halves["check"][metric]
            gap[metric] = None if dev is None or check is None else round(dev - check, 4)
        engines[backend] = {**halves, "gap": gap}
    out["engines"] = engines
    out["ambiguous_pairs"] = {
        t: {b: sum(p.ambiguous.get(b, 0) for p in pairs if p.tier == t) for b in BACKENDS}
        for t in sorted({p.tier for p in pairs})
    }
    return out


def holdout_lines(summary: Mapping[str, Any]) -> list[str]:
    """The REPORT.md section: the rule, the table of both halves and the gap, controls and ambiguity."""
    if not summary or not any(summary["pairs"].values()):
        return []
    lines = [
        "## Hold-out: synthetic dev and check",
        "",
        f"Split by base document, seeded (`params.yaml generate.holdout_seed`): {summary['rule']}. "
        f"The engine is developed on dev only; check is read only to report. Pairs: dev "
        f"{summary['pairs']['dev']}, check {summary['pairs']['check']}; {summary['controls']} of them are "
        "declared controls (plans meant to change nothing that counts; no pair is a byte-identical no-op).",
        "",
        "| backend | half | F1 | precision | recall | move precision | move recall | renumber recall |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for backend, data in summary["engines"].items():
        for half in (*HALVES, "gap"):
            cells = [_cell(data[half][m], signed=half == "gap") for m in GAP_METRICS]
            lines.append(f"| {backend} | {half} | " + " | ".join(cells) + " |")
    amb = summary["ambiguous_pairs"]
    parts = [f"{tier}: " + ", ".join(f"{b} {n}" for b, n in counts.items()) for tier, counts in amb.items()]
    lines += [
        "",
        "Pairs placed by order alone (`ambiguous`: one of several byte-identical siblings): "
        + "; ".join(parts)
        + ". Labelled moves among such twins count against the move ceiling.",
        "",
    ]
    return lines


def _cell(value: float | None, signed: bool) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.4f}" if signed else f"{value:.4f}"
