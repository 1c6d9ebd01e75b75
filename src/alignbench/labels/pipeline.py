"""The ``label_check`` stage's work: check every pair of every tier, then summarise the labels.

A failure stops the pipeline before ``align``: scoring against stale or partial labels would publish
numbers that mean nothing. On success ``results/labels.json`` records, per tier and per pair, how
the labels were made (proposed/confirmed/corrected, who labelled, signed, override rate).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alignbench.labels.adjudication import AGREEMENT_FILE
from alignbench.labels.check import PairCheck, check_file
from alignbench.labels.documents import Reader
from alignbench.labels.summary import agreement_figures, tier_figures
from alignbench.tiers import TIERS, discover

SUMMARY_SCHEMA = "alignbench/labels-summary/v1"


def check_all(root: Path, reader: Reader | None = None) -> list[tuple[str, str, str, PairCheck]]:
    """``(tier, pair, repo-relative labels path, result)`` per discovered pair, in (tier, pair) order."""
    results = []
    for found in discover(root):
        relative = found.labels_path.relative_to(root).as_posix()
        result = check_file(found.labels_path, root=root, reader=reader, expect=(found.tier, found.pair))
        result.where = relative
        results.append((found.tier, found.pair, relative, result))
    return results


def build_summary(results: list[tuple[str, str, str, PairCheck]], root: Path | None = None) -> dict[str, Any]:
    """The byte-stable content of ``results/labels.json`` (all results must have passed).

    With ``root``, each pair's frozen blind-pass ``agreement.json`` (if any) is summarised too, so the
    report publishes the pre-adjudication agreement beside the labels it qualifies.
    """
    pairs = []
    for tier, pair, path, r in results:
        row = {"tier": tier, "pair": pair, "labels": path, **r.figures}
        if root is not None:
            row["agreement"] = agreement_figures((root / path).parent / AGREEMENT_FILE)
        pairs.append(row)
    return {
        "schema": SUMMARY_SCHEMA,
        "tiers": {tier: tier_figures([p for p in pairs if p["tier"] == tier]) for tier in TIERS},
        "pairs": pairs,
    }
