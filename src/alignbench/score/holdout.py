"""The hold-out tables: engine metrics on the *dev* and *check* halves of each tier, and the gap.

The engine is tuned on dev only (``params.yaml generate.holdout_seed``; the rule is in
:mod:`alignbench.generate.holdout`). The synthetic tier splits by base document; the real tier by
family (where the documents come from), with the same seeded ranking, so a family's house style
cannot leak from the half the engine was tuned on into the half that checks it.

A change that helps dev and not check - a widening gap - fits the
corpus rather than the problem, so both halves and their difference are published side by side. Also
counted here: declared controls (pairs meant to change nothing that counts, kept apart from the no-op
count) and the pairs each backend placed by order alone (``ambiguous``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.generate.holdout import HALVES, RULE, holdout_halves
from alignbench.score.counts import PairCounts
from alignbench.score.ratios import headline, ratio, rounded, total

GAP_METRICS: tuple[str, ...] = (
    "f1",
    "f1_twins",
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


def twin_f1(counts: PairCounts) -> float | None:
    """F1 with byte-identical siblings interchangeable (:func:`alignbench.score.ceiling.twin_classes`)."""
    return ratio(2 * counts.twin_hit_links, counts.reported_links + counts.labelled_links)


FAMILY_RULE = RULE.replace("base documents", "families").replace("document id", "family")


def assign_family_halves(pairs: Sequence[Any], seed: int, tier: str = "real") -> dict[str, list[str]]:
    """Put every pair of ``tier`` in its family's half; returns half -> sorted families."""
    members = [p for p in pairs if p.tier == tier]
    halves = holdout_halves([p.family for p in members if p.family], seed)
    for p in members:
        p.half = halves.get(p.family) if p.family else None
    return {half: sorted(f for f, h in halves.items() if h == half) for half in HALVES}


def holdout_summary(
    pairs: Sequence[Any],
    tier: str = "synthetic",
    groups: Mapping[str, list[str]] | None = None,
    subjects: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Per backend: headline metrics per half and the dev - check gap; plus control and ambiguity counts.

    ``groups`` names the families in each half when a tier is split by family (the real tier);
    ``subjects`` are the engines under test (default: the registry's default selection's)."""
    if subjects is None:
        from alignbench.engines.registry import roster

        subjects = roster().subjects
    members = [p for p in pairs if p.tier == tier]
    rule = FAMILY_RULE if groups is not None else RULE
    out: dict[str, Any] = {
        "tier": tier,
        "rule": rule,
        "pairs": {},
        "controls": sum(1 for p in members if p.control),
    }
    if groups is not None:
        out["families"] = {half: list(groups.get(half, [])) for half in HALVES}
    for half in HALVES:
        out["pairs"][half] = sum(1 for p in members if p.half == half)
    engines: dict[str, Any] = {}
    for backend in subjects:
        halves: dict[str, Any] = {}
        for half in HALVES:
            chosen = [p.counts[backend]["all"] for p in members if p.half == half]
            summed = total(chosen)
            values = {**headline(summed), "f1_twins": twin_f1(summed)}
            halves[half] = {k: rounded(values[k]) for k in GAP_METRICS}
        gap = {}
        for metric in GAP_METRICS:
            dev, check = halves["dev"][metric], halves["check"][metric]
            gap[metric] = None if dev is None or check is None else round(dev - check, 4)
        engines[backend] = {**halves, "gap": gap}
    out["engines"] = engines
    out["ambiguous_pairs"] = {
        t: {b: sum(p.ambiguous.get(b, 0) for p in pairs if p.tier == t) for b in subjects}
        for t in sorted({p.tier for p in pairs})
    }
    return out


def holdout_lines(summary: Mapping[str, Any]) -> list[str]:
    """The REPORT.md section: the rule, the table of both halves and the gap, controls and ambiguity."""
    if not summary or not any(summary["pairs"].values()):
        return []
    tier = summary.get("tier", "synthetic")
    families = summary.get("families")
    if families is None:
        intro = (
            f"Split by base document, seeded (`params.yaml generate.holdout_seed`): {summary['rule']}. "
            f"The engine is developed on dev only; check is read only to report. Pairs: dev "
            f"{summary['pairs']['dev']}, check {summary['pairs']['check']}; {summary['controls']} of them "
            "are declared controls (plans meant to change nothing that counts; no pair is a byte-identical "
            "no-op)."
        )
    else:
        intro = (
            f"Split by family, with the same seed (`params.yaml generate.holdout_seed`): {summary['rule']}. "
            f"Dev: {', '.join(families['dev'])} ({summary['pairs']['dev']} pairs); check: "
            f"{', '.join(families['check'])} ({summary['pairs']['check']} pairs). The split was "
            "introduced after two engine changes of the previous round had been chosen while reading the "
            "whole real tier (see Not claimed); engine changes since were developed on real dev and "
            "synthetic dev only."
        )
    lines = [
        f"## Hold-out: {tier} dev and check",
        "",
        intro,
        "",
        "| backend | half | F1 | F1, twins interchangeable | precision | recall | move precision "
        "| move recall | renumber recall |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for backend, data in summary["engines"].items():
        for half in (*HALVES, "gap"):
            cells = [_cell(data[half][m], signed=half == "gap") for m in GAP_METRICS]
            lines.append(f"| {backend} | {half} | " + " | ".join(cells) + " |")
    if families is not None:
        return [*lines, ""]
    amb = summary["ambiguous_pairs"]
    parts = [f"{tier}: " + ", ".join(f"{b} {n}" for b, n in counts.items()) for tier, counts in amb.items()]
    lines += [
        "",
        "Pairs placed by order alone (`ambiguous`: one of several byte-identical siblings): "
        + "; ".join(parts)
        + ". Labelled moves among such twins count against the move ceiling. *F1, twins interchangeable* "
        "credits a link whose block has byte-identical siblings (same parent, kind, label and text) when "
        "the engine paired one of those siblings instead: which copy a generator deleted is a fact of its "
        "seed, not of the documents. It shows how much of an F1 shortfall is that alone; every headline, "
        "gate and target uses plain F1.",
        "",
    ]
    return lines


def _cell(value: float | None, signed: bool) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.4f}" if signed else f"{value:.4f}"
