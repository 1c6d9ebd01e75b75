"""The ``label_check`` stage's work: check every pair of every tier, then summarise the labels.

A failure stops the pipeline before ``align``: scoring against stale or partial labels would publish
numbers that mean nothing. On success ``results/labels.json`` records, per tier and per pair, how
the labels were made (proposed/confirmed/corrected, who labelled, signed, override rate).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.labels.adjudication import AGREEMENT_FILE
from alignbench.labels.check import PairCheck, check_file
from alignbench.labels.documents import Reader
from alignbench.labels.summary import agreement_figures, tier_figures
from alignbench.tiers import TIERS, TierPair, discover

SUMMARY_SCHEMA = "alignbench/labels-summary/v1"


@dataclass(frozen=True)
class _CheckPair:
    """One discovered pair's check, for :func:`alignbench.fanout.map_pairs`."""

    root: Path
    reader: Reader | None

    def __call__(self, found: TierPair) -> tuple[str, str, str, PairCheck]:
        relative = found.labels_path.relative_to(self.root).as_posix()
        result = check_file(
            found.labels_path, root=self.root, reader=self.reader, expect=(found.tier, found.pair)
        )
        result.where = relative
        if found.tier != "real":
            result.data = None  # only the blind-subset draw reads labels back, and only real ones
        return found.tier, found.pair, relative, result


def check_all(root: Path, reader: Reader | None = None) -> list[tuple[str, str, str, PairCheck]]:
    """``(tier, pair, repo-relative labels path, result)`` per discovered pair, in (tier, pair) order.

    The pairs are checked on the stage's scheduler (:mod:`alignbench.fanout`); each result keeps its
    parsed labels (``data``) for the real tier only: sending the synthetic tier's back from a worker
    would cost more than the one reader of them, the blind-subset draw, saves by not re-reading them."""
    from alignbench.fanout import map_pairs

    found = discover(root)
    names = [f"{pair.tier}/{pair.pair}" for pair in found]
    return map_pairs(_CheckPair(root, reader), found, names, "label_check")


def real_labels(results: list[tuple[str, str, str, PairCheck]]) -> dict[str, dict[str, Any]]:
    """The parsed labels of every real pair that loaded, by pair id (for the blind-subset draw)."""
    return {pair: r.data for tier, pair, _, r in results if tier == "real" and r.data is not None}


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
