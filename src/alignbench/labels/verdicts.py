"""Rulings on engine moves that the labels do not contain (seed 000's fail-closed move gate).

A verdict is keyed on the move (issue #27): its credited addresses - a moved section is ruled on at its
first labelled block, the same block the scorer credits it at - and both blocks' digests. It carries
across engine builds, so rows no longer multiply per build, and stops applying when a block changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError

VERDICTS: tuple[str, ...] = ("wrong", "acceptable")


@dataclass(frozen=True)
class EngineMove:
    backend: str
    engine_version: str
    source: str  # credited (labelled) addresses
    test: str
    source_label: str | None
    test_label: str | None
    status: str  # "labelled", "wrong", "acceptable" or "unreviewed"


def alignment_path(root: Path, backend: str, tier: str, pair: str) -> Path:
    from alignbench.engines.registry import output_path

    return output_path(root, backend, tier, pair)


def engine_moves(root: Path, tier: str, pair: str, labels: dict[str, Any]) -> list[EngineMove]:
    """Every move each backend reported on this pair, credited and classified against the labels."""
    from alignbench.engines.registry import info, roster
    from alignbench.labels.documents import open_pair
    from alignbench.score.truth import truth_from_labels
    from alignbench.score.verdicts import classified_moves

    truth = truth_from_labels(labels, f"{tier}/{pair} labels")
    sides = open_pair(labels, root)
    trees = (sides["source"].tree, sides["test"].tree)
    found: list[EngineMove] = []
    for backend in roster().subjects:
        path = alignment_path(root, backend, tier, pair)
        try:
            alignment = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise AlignbenchError(f"{path}: missing; run `dvc repro {info(backend).stage}` first") from None
        version = alignment["engine"]["version"]
        for credited, change, status in classified_moves(truth, labels, alignment, str(path), trees):
            found.append(
                EngineMove(
                    backend,
                    version,
                    credited[0],
                    credited[1],
                    change.get("source_label"),
                    change.get("test_label"),
                    status,
                )
            )
    return found


def record_verdict(
    labels: dict[str, Any],
    moves: list[EngineMove],
    source: str,
    test: str,
    verdict: str,
    reason: str,
    by: dict[str, str],
    trees: tuple[BlockTree, BlockTree],
) -> tuple[dict[str, Any], list[str]]:
    """Add (or replace) the one verdict on the move ``source -> test``.

    Returns the new label document and the engine versions that reported the move. A move the labels
    already contain needs no verdict, and a move no engine reported cannot be ruled on; both are errors.
    """
    if verdict not in VERDICTS:
        raise AlignbenchError(f"verdict {verdict!r}: expected one of {', '.join(VERDICTS)}")
    if not reason.strip():
        raise AlignbenchError("a verdict needs a reason (--reason '...'): it is read in the pull request")
    matching = [m for m in moves if (m.source, m.test) == (source, test)]
    if not matching:
        raise AlignbenchError(
            f"no engine reported the move {source} -> {test}; list them with `alignbench label moves <pair>`"
        )
    if all(m.status == "labelled" for m in matching):
        raise AlignbenchError(f"{source} -> {test} is a labelled move; it needs no verdict")
    versions = sorted({m.engine_version for m in matching if m.status != "labelled"})
    kept = [v for v in labels["move_verdicts"] if (v["source"], v["test"]) != (source, test)]
    kept.append(
        {
            "source": source,
            "test": test,
            "source_digest": trees[0].find(source).digest,
            "test_digest": trees[1].find(test).digest,
            "verdict": verdict,
            "reason": reason.strip(),
            "by": dict(by),
        }
    )
    updated = dict(labels)
    updated["move_verdicts"] = sorted(kept, key=lambda v: (v["source"], v["test"]))
    return updated, versions


def render_moves(moves: list[EngineMove]) -> str:
    """One line per (move, backend): what each engine reported and whether it is settled."""
    if not moves:
        return "no engine moves on this pair\n"
    lines = []
    for m in moves:
        labels = f"{m.source_label or '-'} -> {m.test_label or '-'}"
        lines.append(f"{m.status:<11} {m.backend:<9} {m.engine_version}  {m.source} -> {m.test}  [{labels}]")
    unsettled = sum(m.status == "unreviewed" for m in moves)
    lines.append(f"{len(moves)} engine move(s), {unsettled} unreviewed")
    return "\n".join(lines) + "\n"
