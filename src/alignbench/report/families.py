"""The real tier per family (issue 12), rendered from ``results/tables/per_family.csv``."""

from __future__ import annotations

from alignbench.report.markdown import TextTable, table


def family_lines(frame: TextTable | None) -> list[str]:
    """The section, or nothing when the score stage wrote no per-family table (no real tier)."""
    if frame is None or frame.empty:
        return []
    return [
        "## Per family (real tier)",
        "",
        "Where each real pair's documents come from (`family` in `corpus/real/<pair>/manifest.json`). "
        "Counts are summed over the family's pairs and every ratio is computed once from the sums "
        "(micro), all labelled blocks. *restructured* counts pairs marked heavy restructuring in "
        "`corpus/pairs.yaml`. A peer's F1 appears only when its outputs cover every pair. The real tier "
        "is not assessed (see the trust section); read these as where the engine is weak, not as scores.",
        "",
        table(frame),
        "",
    ]
