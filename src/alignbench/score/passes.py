"""The per-pass table: what each pass matched, how much of it was wrong, and what only it found.

``unique`` re-runs the engine with one droppable pass disabled (label, fuzzy, move, sequence - the only
passes the engine lets you drop) and counts that pass's scored pairs missing from the reduced run. A pass
with low unique and high wrong is the signal to cut it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from alignbench.alignment.config import PASS_NAMES
from alignbench.score.counts import in_column
from alignbench.score.truth import Truth

DROPPABLE_PASSES: tuple[str, ...] = ("label", "fuzzy", "move", "sequence")


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
    return list(pairs_by_pass(alignment).get(name, ()))


PassPairs = Mapping[Any, list[tuple[str, str]]]


def pairs_by_pass(alignment: Mapping[str, Any]) -> PassPairs:
    """Every pass's (source, test) pairs, read in one walk over the output's pairs (score asks for
    each pass's pairs about a dozen times per output)."""
    grouped: dict[Any, list[tuple[str, str]]] = {}
    for p in alignment["pairs"]:
        grouped.setdefault(p.get("matched_by"), []).append((p["source"], p["test"]))
    return grouped


def needs_rerun(
    truth: Truth, alignment: Mapping[str, Any], name: str, grouped: PassPairs | None = None
) -> bool:
    """Whether ``unique`` for ``name`` needs the run without it: with no scored pair of its own, a pass
    has nothing the reduced run could lack, so its ``unique`` is 0 and the re-alignment is skipped
    (over half of score's per-pass re-runs on the committed corpus). ``grouped`` is
    :func:`pairs_by_pass` of ``alignment`` when the caller has it."""
    made = (pairs_by_pass(alignment) if grouped is None else grouped).get(name, ())
    return any(_scored(truth, *p) for p in made)


NOTHING_TO_LOSE: Mapping[str, Any] = {"pairs": []}  # the stand-in reduced run when needs_rerun is False


def unique_pairs(truth: Truth, full: Mapping[str, Any], reduced: Mapping[str, Any], name: str) -> int:
    """Scored pairs made by ``name`` in the full run that the run without ``name`` does not contain."""
    return _unique(truth, pairs_by_pass(full).get(name, []), reduced)


def _unique(truth: Truth, made: list[tuple[str, str]], reduced: Mapping[str, Any]) -> int:
    remaining = {(p["source"], p["test"]) for p in reduced["pairs"]}
    return sum(1 for p in made if _scored(truth, *p) and p not in remaining)


def pass_counts(
    truth: Truth,
    alignment: Mapping[str, Any],
    reduced: Mapping[str, Mapping[str, Any]],
    grouped: PassPairs | None = None,
) -> dict[str, PassCounts]:
    """Per pass: pairs made, scored pairs, wrong scored pairs, and unique (``None`` if not droppable)."""
    by_pass = pairs_by_pass(alignment) if grouped is None else grouped
    table: dict[str, PassCounts] = {}
    for name in PASS_NAMES:
        made = by_pass.get(name, [])
        scored = [p for p in made if _scored(truth, *p)]
        wrong = [p for p in scored if p not in truth.links]
        unique = _unique(truth, made, reduced[name]) if name in reduced else None
        table[name] = PassCounts(len(made), len(scored), len(wrong), unique)
    return table
