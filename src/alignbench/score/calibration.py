"""Calibration rows and intent-to-treat: what the leaderboard's scale means, and no pair ever dropped.

- ``oracle``: the truth labels turned into an alignment and scored by the same scorer. Every accuracy
  metric must be exactly 1.0 and the spurious rate 0.0; anything else is a scorer bug, so the report
  prints this self-test rather than hiding it (:func:`oracle_violations`).
- ``null``: a position-only baseline - the i-th block of each kind in the source paired with the i-th
  block of that kind in the test, in document order, no changes reported. Any engine worth the name
  is above it; the floor should be too.
- Intent-to-treat: an engine output that records a failure (``{"failed": {"reason": ...}}``, e.g. an
  exception or a timeout in a peer engine) is scored as an alignment that found nothing - every gold
  link of the pair stays in the denominator as missed - and the leaderboard counts such pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.blocks import ROOT_ADDRESS, BlockTree
from alignbench.score.counts import COLUMNS, PairCounts, count_pair
from alignbench.score.truth import Truth

# The oracle's headline values by construction; move_ceiling describes the labels, not an engine.
ORACLE_EXPECTED: dict[str, float] = {
    "precision": 1.0,
    "recall": 1.0,
    "f1": 1.0,
    "spurious_rate": 0.0,
    "move_precision": 1.0,
    "move_recall": 1.0,
    "move_pair_recall": 1.0,
    "renumber_precision": 1.0,
    "renumber_recall": 1.0,
}
# What a failed pair is scored as: nothing paired, nothing reported.
NOTHING_FOUND: dict[str, Any] = {"pairs": [], "inserted": [], "deleted": [], "changes": []}


def failure_reason(output: Mapping[str, Any]) -> str | None:
    """The recorded failure of an engine on one pair (error or timeout), or ``None`` if it ran."""
    failed = output.get("failed")
    if not failed:
        return None
    if isinstance(failed, Mapping):
        return str(failed.get("reason") or failed.get("kind") or "failed")
    return str(failed)


def scored_output(output: Mapping[str, Any]) -> Mapping[str, Any]:
    """The alignment to count: the engine's own, or :data:`NOTHING_FOUND` when it failed."""
    return NOTHING_FOUND if failure_reason(output) is not None else output


def oracle_alignment(truth: Truth) -> dict[str, Any]:
    """The labels as an engine output: every labelled link, every labelled move and renumber."""
    pairs = [{"source": ROOT_ADDRESS, "test": ROOT_ADDRESS}]
    pairs += [{"source": s, "test": t} for s, t in sorted(truth.links)]
    labels = {(s, t): (a, b) for s, t, a, b in truth.renumbers}
    changes = []
    for source, test in sorted(truth.links):
        source_label, test_label = labels.get((source, test), (None, None))
        if (source, test) in truth.moves:
            kind = "move"
        elif (source, test) in labels:
            kind = "renumber"
        else:
            continue
        changes.append(
            {
                "kind": kind,
                "source": source,
                "test": test,
                "source_label": source_label,
                "test_label": test_label,
            }
        )
    return {
        "pairs": pairs,
        "inserted": sorted(truth.inserted),
        "deleted": sorted(truth.deleted),
        "changes": changes,
    }


def null_alignment(source: BlockTree, test: BlockTree) -> dict[str, Any]:
    """Position only: the i-th block of a kind pairs with the i-th block of that kind; no changes."""
    by_kind: dict[str, list[str]] = {}
    for block in test.blocks():
        if block.address != ROOT_ADDRESS:
            by_kind.setdefault(block.kind, []).append(block.address)
    taken: dict[str, int] = {}
    pairs = [{"source": ROOT_ADDRESS, "test": ROOT_ADDRESS}]
    for block in source.blocks():
        if block.address == ROOT_ADDRESS:
            continue
        index = taken.get(block.kind, 0)
        partners = by_kind.get(block.kind, [])
        if index < len(partners):
            pairs.append({"source": block.address, "test": partners[index]})
            taken[block.kind] = index + 1
    return {"pairs": pairs, "inserted": [], "deleted": [], "changes": []}


def calibration_counts(
    truth: Truth,
    source: BlockTree,
    test: BlockTree,
    lost: frozenset[tuple[str, str]],
    where: str,
    engines: Sequence[str] | None = None,
    labels: Mapping[str, Any] | None = None,
) -> dict[str, dict[str, PairCounts]]:
    """Counts of the calibration rows (default: every registered one) on one pair, per column, by the
    engines' own scorer; each row's plug-in is given the pair's labels and truth as params."""
    from alignbench.engines import registry

    names = registry.roster().calibration if engines is None else engines
    params = {"labels": labels or {}, "truth": truth}
    outputs = {name: registry.info(name).engine.align(source, test, params) for name in names}
    return {
        name: {
            column: count_pair(truth, output, column, move_ceiling_lost=lost, where=f"{name} row of {where}")
            for column in COLUMNS
        }
        for name, output in outputs.items()
    }


def failed_pairs(pairs: Sequence[Any], engines: Sequence[str]) -> dict[str, int]:
    """Per engine, how many of ``pairs`` it failed on (each scored as all-missed)."""
    return {engine: sum(1 for p in pairs if engine in p.failed) for engine in engines}


def self_test_engines(names: Sequence[str] | None = None) -> tuple[str, ...]:
    """The calibration rows that must score exactly 1.0 (their plug-in sets ``self_test = True``)."""
    from alignbench.engines import registry

    roster = registry.roster(names)
    return tuple(n for n in roster.calibration if getattr(registry.info(n).engine, "self_test", False))


def oracle_violations(summary: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """Every self-test headline that is not what it must be, as ``tier column metric = value``."""
    problems = []
    expected_rows = self_test_engines(names)
    for tier, data in summary["tiers"].items():
        rows = [data["engines"][n] for n in expected_rows if n in data["engines"]]
        if not rows:
            problems.append(f"{tier}: no self-test row")
            continue
        for column in COLUMNS:
            for row in rows:
                for metric, expected in ORACLE_EXPECTED.items():
                    value = row[column]["headline"][metric]
                    if value is not None and value != expected:
                        problems.append(f"{tier} {column} {metric} = {value} (expected {expected})")
    return problems
