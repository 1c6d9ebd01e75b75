"""How much to trust the labels, and whether a tier's gates can be assessed at all.

A tier is assessed only when no row is still ``proposed`` and, for hand-labelled pairs, every pair
carries a human signature. Generator-made labels are truth by construction and need no signature;
that exemption is stated in the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

STATUS_SECTIONS: tuple[str, ...] = ("correspondences", "inserted", "deleted", "splits", "merges")


def pair_trust(labels: Mapping[str, Any]) -> dict[str, Any]:
    """Row statuses, labeller kind and signatures of one label file."""
    statuses: Counter[str] = Counter()
    for section in STATUS_SECTIONS:
        for row in labels.get(section) or []:
            statuses[str(row.get("status", "confirmed"))] += 1
    review = labels.get("review") or {}
    signatures = review.get("signatures") or []
    return {
        "labelled_by": str((review.get("labelled_by") or {}).get("kind", "unknown")),
        "generated": (labels.get("provenance") or {}).get("kind") == "synthetic",
        "proposed": statuses["proposed"],
        "confirmed": statuses["confirmed"],
        "corrected": statuses["corrected"],
        "rows": sum(statuses.values()),
        "signed": bool(signatures),
        "human_signed": any(s.get("kind") == "human" for s in signatures),
    }


def tier_trust(pairs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Summed figures of a tier plus its assessed verdict and the reasons when it is not."""
    kinds = Counter(p["labelled_by"] for p in pairs)
    rows = sum(p["rows"] for p in pairs)
    corrected = sum(p["corrected"] for p in pairs)
    proposed = sum(p["proposed"] for p in pairs)
    unsigned = sum(1 for p in pairs if not p["generated"] and not p["human_signed"])
    reasons = []
    if not pairs:
        reasons.append("no labelled pairs")
    if proposed:
        reasons.append(f"{proposed} label rows are still engine-proposed")
    if unsigned:
        reasons.append(f"{unsigned} hand-labelled pairs carry no human signature")
    return {
        "pairs": len(pairs),
        "rows": rows,
        "proposed": proposed,
        "confirmed": sum(p["confirmed"] for p in pairs),
        "corrected": corrected,
        "override_rate": None if rows == 0 else corrected / rows,
        "signed_pairs": sum(1 for p in pairs if p["signed"]),
        "human_signed_pairs": sum(1 for p in pairs if p["human_signed"]),
        "labelled_by": {k: kinds[k] for k in sorted(kinds)},
        "assessed": not reasons,
        "not_assessed_because": reasons,
    }
