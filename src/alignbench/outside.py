"""The outside-corpus set (issue 11): real revisions of documents nobody tuned the readers for.

Each pair under ``tests/outside/<pair>/`` is an older and a newer version of one public document
(``old.<md|txt>``, ``new.<md|txt>``), its ``SOURCE.yaml`` (family, licence, commits) and the facts a
reviewer checks by eye (``facts.yaml``, asserted by ``tests/test_outside_set.py``). This module reads
and aligns each pair with the default configuration - not ``params.yaml``, so the figures describe
the engine a user gets from ``alignbench compare`` - and counts what the engine reported. The counts
are published in REPORT.md as a regression signal, not a score: the set has facts, not labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.alignment import Alignment, align
from alignbench.atomic import load_yaml
from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.readers import read

OUTSIDE_DIR = "tests/outside"
BULLETS: frozenset[str] = frozenset({"-", "*", "+", "•"})
SIDES: tuple[str, ...] = ("old", "new")


@dataclass
class OutsidePair:
    """One outside pair, read and aligned once."""

    name: str
    old: BlockTree
    new: BlockTree
    alignment: Alignment

    def tree(self, side: str) -> BlockTree:
        if side not in SIDES:
            raise ValueError(f"{self.name}: side must be 'old' or 'new', got {side!r}")
        return self.old if side == "old" else self.new


def pair_dirs(outside: Path) -> list[Path]:
    """Every pair directory, sorted by name (the order of every table)."""
    if not outside.is_dir():
        raise AlignbenchError(f"{outside.name}: the outside set is missing; restore tests/outside from git")
    return sorted(p for p in outside.iterdir() if p.is_dir())


def document(pair_dir: Path, side: str) -> Path:
    found = sorted(pair_dir.glob(f"{side}.*"))
    if len(found) != 1:
        raise AlignbenchError(
            f"{OUTSIDE_DIR}/{pair_dir.name}: expected exactly one {side}.<md|txt>, found {len(found)}"
        )
    return found[0]


def load_outside_pair(pair_dir: Path) -> OutsidePair:
    old = read(document(pair_dir, "old"))
    new = read(document(pair_dir, "new"))
    return OutsidePair(pair_dir.name, old, new, align(old, new))


def _not_a_number(label: str | None) -> bool:
    return label is None or not label.strip() or label.strip() in BULLETS


def bullet_renumbers(pair: OutsidePair) -> list[tuple[str, str, str | None, str | None]]:
    """Renumbers (changes and pair flags) whose label on either side is a bullet or empty.

    A renumber needs two numbers; one of a bullet or of nothing is a reader misreading a marker as a
    label (issue 11), so the published count must be 0.
    """
    found: list[tuple[str, str, str | None, str | None]] = []
    for p in pair.alignment.pairs:
        if not p.renumbered:
            continue
        src_label = pair.old.find(p.source_path).label
        tst_label = pair.new.find(p.test_path).label
        if any(_not_a_number(label) for label in (src_label, tst_label)):
            found.append((p.source_path, p.test_path, src_label, tst_label))
    for c in pair.alignment.changes:
        if c.kind == "renumber" and any(_not_a_number(x) for x in (c.source_label, c.test_label)):
            found.append((c.source or "", c.test or "", c.source_label, c.test_label))
    return sorted(set(found), key=lambda row: (row[0], row[1], str(row[2]), str(row[3])))


def _source(pair_dir: Path) -> Mapping[str, Any]:
    shown = f"{OUTSIDE_DIR}/{pair_dir.name}/SOURCE.yaml"
    data = load_yaml(pair_dir / "SOURCE.yaml")
    if not isinstance(data, Mapping):
        raise AlignbenchError(f"{shown}: expected a mapping with family and licence")
    for key in ("family", "licence"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise AlignbenchError(f"{shown}: field '{key}' is missing or empty; record it from the source")
    return data


def _fact_counts(pair_dir: Path) -> tuple[int, int]:
    data = load_yaml(pair_dir / "facts.yaml")
    if not isinstance(data, Mapping):
        raise AlignbenchError(f"{OUTSIDE_DIR}/{pair_dir.name}/facts.yaml: expected a mapping of facts")
    return len(data.get("facts") or []), len(data.get("engine_facts") or [])


def summarise_pair(pair: OutsidePair, pair_dir: Path) -> dict[str, Any]:
    """Counts for one pair: blocks per side, links and changes by kind, and the must-be-zero count."""
    source = _source(pair_dir)
    facts, engine_facts = _fact_counts(pair_dir)
    changes = [c.kind for c in pair.alignment.changes]
    return {
        "pair": pair.name,
        "family": source["family"],
        "licence": source["licence"],
        "blocks_old": len(pair.old) - 1,
        "blocks_new": len(pair.new) - 1,
        "links": len(pair.alignment.pairs) - 1,
        "moves": changes.count("move"),
        "renumbers": changes.count("renumber"),
        "modifies": changes.count("modify"),
        # Every edited block, the ones a move or a renumber also reports included (issue #29 class 7).
        "modified": pair.alignment.summary()["modified"],
        "inserts": changes.count("insert"),
        "deletes": changes.count("delete"),
        "inserted_blocks": len(pair.alignment.inserted),
        "deleted_blocks": len(pair.alignment.deleted),
        "bullet_renumbers": len(bullet_renumbers(pair)),
        "dropped_old": sum(pair.old.dropped.values()),
        "dropped_new": sum(pair.new.dropped.values()),
        "budget_exhausted": pair.alignment.budget_exhausted,
        "reader_facts": facts,
        "engine_facts": engine_facts,
    }


def summarise(pair_dir: Path) -> dict[str, Any]:
    pair_dir = Path(pair_dir)
    return summarise_pair(load_outside_pair(pair_dir), pair_dir)


TOTALS: tuple[str, ...] = (
    "blocks_old",
    "blocks_new",
    "links",
    "moves",
    "renumbers",
    "modifies",
    "modified",
    "inserts",
    "deletes",
    "bullet_renumbers",
    "dropped_old",
    "dropped_new",
    "reader_facts",
    "engine_facts",
)


def summarise_set(outside: Path) -> dict[str, Any]:
    """``results/outside.json``: every pair's counts in name order, and their sums."""
    rows = [summarise(pair_dir) for pair_dir in pair_dirs(outside)]
    return {
        "set": OUTSIDE_DIR,
        "config": "default AlignmentConfig (not params.yaml)",
        "pairs": rows,
        "families": sorted({row["family"] for row in rows}),
        "totals": {key: sum(int(row[key]) for row in rows) for key in TOTALS},
    }
