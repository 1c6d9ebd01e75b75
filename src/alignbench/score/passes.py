"""The per-pass table: what each pass matched, how much of it was wrong, and what only it found.

``unique`` re-runs the engine with one droppable pass disabled (label, fuzzy, move - the only passes
the engine lets you drop) and counts that pass's scored pairs missing from the reduced run. A pass
with low unique and high wrong is the signal to cut it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from alignbench.score.counts import in_column
from alignbench.score.truth import Truth

PASS_NAMES: tuple[str, ...] = ("exact", "label", "structural", "fuzzy", "move", "positional")
DROPPABLE_PASSES: tuple[str, ...] = ("label", "fuzzy", "move")


@dataclass(frozen=True)
class PassCounts:
    made: int = 0
    in_scope: int = 0
    wrong: int = 0
    unique: int | None = None

    def __add__(self, other: PassCounts) -> PassCounts:
        unique = None if self.unique is None or other.unique is None else self.unique + other.unique
        return PassCounts(
            self.made + other.made, self.in_scope + other.in_scope, self.wrong + other.wrong, unique
        )


def _scored(truth: Truth, source: str, test: str) -> bool:
    if source in truth.excluded_source or test in truth.excluded_test:
        return False
    return in_column(source, test, "all")


def pass_pairs(alignment: Mapping[str, Any], name: str) -> list[tuple[str, str]]:
    return [(p["source"], p["test"]) for p in alignment["pairs"] if p.get("matched_by") == name]


def needs_rerun(truth: Truth, alignment: Mapping[str, Any], name: str) -> bool:
    """Whether ``unique`` for ``name`` needs the run without it: with no scored pair of its own, a pass
    has nothing the reduced run could lack, so its ``unique`` is 0 and the re-alignment is skipped
    (over half of score's per-pass re-runs on the committed corpus)."""
    return any(_scored(truth, *p) for p in pass_pairs(alignment, name))


NOTHING_TO_LOSE: Mapping[str, Any] = {"pairs": []}  # the stand-in reduced run when needs_rerun is False


def unique_pairs(truth: Truth, full: Mapping[str, Any], reduced: Mapping[str, Any], name: str) -> int:
    """Scored pairs made by ``name`` in the full run that the run without ``name`` does not contain."""
    remaining = {(p["source"], p["test"]) for p in reduced["pairs"]}
    return sum(1 for p in pass_pairs(full, name) if _scored(truth, *p) and p not in remaining)


def pass_counts(
    truth: Truth, alignment: Mapping[str, Any], reduced: Mapping[str, Mapping[str, Any]]
) -> dict[str, PassCounts]:
    """Per pass: pairs made, scored pairs, wrong scored pairs, and unique (``None`` if not droppable)."""
    table: dict[str, PassCounts] = {}
    for name in PASS_NAMES:
        made = pass_pairs(alignment, name)
        scored = [p for p in made if _scored(truth, *p)]
        wrong = [p for p in scored if p not in truth.links]
        unique = unique_pairs(truth, alignment, reduced[name], name) if name in reduced else None
        table[name] = PassCounts(len(made), len(scored), len(wrong), unique)
    return table
