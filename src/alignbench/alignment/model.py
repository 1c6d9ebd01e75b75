"""The result of one alignment run and its byte-stable JSON form (docs/CONTRACTS.md, "Alignment JSON")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from alignbench.alignment.config import PASS_NAMES, AlignmentConfig
from alignbench.atomic import dump_json
from alignbench.blocks import LABELLED_KINDS

# The Alignment JSON's format (docs/CONTRACTS.md): v2 added ``schema``, each change's ``modified`` and
# ``summary``. An output without ``schema`` is v1 (every third-party engine's, the floor's, the peers'),
# still read: there a change is modified exactly when its kind is ``modify``.
ALIGNMENT_SCHEMA = "alignbench/alignment/v2"
# Change kinds in the order every view lists them.
CHANGE_KINDS: tuple[str, ...] = ("move", "renumber", "insert", "delete", "modify")


class AlignedPair(NamedTuple):
    """One pair. A named tuple: immutable and built at C speed, where a frozen dataclass set each of
    its seven fields through a call, and a 20,000-block run makes ~24,000 of them."""

    source_path: str
    test_path: str
    matched_by: str
    confidence: float
    moved: bool
    renumbered: bool
    # Placed by order alone: one of several byte-identical siblings, which content cannot tell apart.
    ambiguous: bool = False
    # The parent changed but the place in reading order did not (a heading inserted, deleted,
    # promoted or demoted above it; a list item re-indented): not a move (issue #27).
    reparented: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source_path,
            "test": self.test_path,
            "matched_by": self.matched_by,
            "confidence": round(self.confidence, 4),
            "moved": self.moved,
            "renumbered": self.renumbered,
            "ambiguous": self.ambiguous,
            "reparented": self.reparented,
        }


class Change(NamedTuple):
    """One entry of the change list; ``source``/``test`` are None on the side that has no block.

    A named tuple for the reason :class:`AlignedPair` is one: a frozen dataclass set each field
    through ``object.__setattr__``, and a revised 2,000-clause pair has ~650 changes."""

    kind: str  # insert | delete | modify | move | renumber
    source: str | None
    test: str | None
    source_label: str | None
    test_label: str | None
    # The block's content changed beyond a renumber (its text, whitespace aside, or a label gained or
    # lost), whatever the kind says: a moved or renumbered clause that was also edited is both, and a
    # kind that ranks higher (move > renumber > modify) must not hide the edit (issue #29 class 7).
    modified: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "source": self.source,
            "test": self.test,
            "source_label": self.source_label,
            "test_label": self.test_label,
            "modified": self.modified,
        }


@dataclass(frozen=True)
class Alignment:
    engine_name: str
    engine_version: str
    backend_requested: str
    backend_resolved: str
    config: AlignmentConfig
    budget_exhausted: bool
    comparisons: int
    pass_counts: dict[str, int]
    pairs: tuple[AlignedPair, ...]
    inserted: tuple[str, ...]
    deleted: tuple[str, ...]
    changes: tuple[Change, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": ALIGNMENT_SCHEMA,
            "engine": {"name": self.engine_name, "version": self.engine_version},
            "backend": {"requested": self.backend_requested, "resolved": self.backend_resolved},
            "config": self.config.to_dict(),
            "budget_exhausted": self.budget_exhausted,
            "comparisons": self.comparisons,
            "pass_counts": {name: self.pass_counts.get(name, 0) for name in ("root", *PASS_NAMES)},
            "pairs": [p.to_dict() for p in self.pairs],
            "inserted": list(self.inserted),
            "deleted": list(self.deleted),
            "changes": [c.to_dict() for c in self.changes],
            "summary": self.summary(),
        }

    def to_json(self) -> str:
        """Indent 2, trailing newline: the form that goes to disk and to ``compare --json``."""
        return dump_json(self.to_dict())

    def summary(self) -> dict[str, Any]:
        """The counts every view prints (``compare``'s first line, the JSON, the redline page), made
        once here so they cannot disagree. ``kinds`` counts change rows by kind; ``modified`` counts
        every change whose content changed, and ``modified_moved``/``modified_renumbered`` how many of
        those the kinds ``move`` and ``renumber`` would otherwise hide."""
        kinds = dict.fromkeys(CHANGE_KINDS, 0)
        modified = dict.fromkeys(CHANGE_KINDS, 0)
        for change in self.changes:
            kinds[change.kind] += 1
            modified[change.kind] += change.modified
        return {
            "paired": len(self.pairs) - 1,  # the roots always pair and are not counted
            "kinds": kinds,
            "modified": sum(modified.values()),
            "modified_moved": modified["move"],
            "modified_renumbered": modified["renumber"],
            "reparented": self.reparented_count(),
        }

    def moves(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "move"]

    def reparented_count(self) -> int:
        """Labelled blocks whose parent changed while their place in reading order did not (a section
        container carries its heading's flag, so containers are left out: each block counts once)."""
        return sum(
            1
            for p in self.pairs
            if p.reparented and p.source_path.rsplit("/", 1)[-1].split("[")[0] in LABELLED_KINDS
        )
