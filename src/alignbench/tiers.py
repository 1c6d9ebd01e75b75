"""Where each tier's label files live, so every stage walks the same pairs in the same order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# tier name -> directory whose immediate sub-directories each hold one pair's labels.yaml
TIER_DIRS: dict[str, str] = {
    "real": "corpus/labels/real",
    "synthetic": "corpus/synthetic",
}
TIERS: tuple[str, ...] = tuple(sorted(TIER_DIRS))


@dataclass(frozen=True)
class TierPair:
    tier: str
    pair: str
    labels_path: Path


def discover(root: str | Path = ".", tiers: tuple[str, ...] = TIERS) -> list[TierPair]:
    """Every ``labels.yaml`` of the given tiers, sorted by (tier, pair)."""
    base = Path(root)
    found: list[TierPair] = []
    for tier in sorted(tiers):
        tier_dir = base / TIER_DIRS[tier]
        if not tier_dir.is_dir():
            continue
        for pair_dir in sorted(p for p in tier_dir.iterdir() if p.is_dir()):
            labels = pair_dir / "labels.yaml"
            if labels.is_file():
                found.append(TierPair(tier, pair_dir.name, labels))
    return found
