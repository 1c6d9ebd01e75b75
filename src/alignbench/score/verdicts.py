"""The move gate's evidence: every engine move not in the labels needs a reviewer's verdict.

Fail-closed (seed 000): a verdict counts only for the engine version it was given for, so a changed
engine that makes a new move has no verdict and counts as unreviewed until someone rules on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from alignbench.labels.check import verdict_for
from alignbench.score.counts import credit_move, reported_pairs
from alignbench.score.truth import Truth


@dataclass(frozen=True)
class MoveVerdicts:
    unlabelled: int = 0
    wrong: int = 0
    acceptable: int = 0
    unreviewed: int = 0

    def __add__(self, other: MoveVerdicts) -> MoveVerdicts:
        return MoveVerdicts(
            self.unlabelled + other.unlabelled,
            self.wrong + other.wrong,
            self.acceptable + other.acceptable,
            self.unreviewed + other.unreviewed,
        )


def classified_moves(
    truth: Truth, labels: Mapping[str, Any], alignment: Mapping[str, Any], where: str
) -> list[tuple[tuple[str, str], dict[str, Any], str]]:
    """Every engine move as ``(credited pair, change, status)``; status is labelled, wrong,
    acceptable or unreviewed. Verdicts name the credited (labelled) block, as labels do: a section
    move at its heading."""
    version = (alignment.get("engine") or {}).get("version", "")
    pairs = reported_pairs(alignment, where)
    found = []
    for change in alignment.get("changes") or []:
        if change.get("kind") != "move":
            continue
        credited = credit_move(pairs, change["source"], change["test"]) or (change["source"], change["test"])
        if credited in truth.moves:
            status = "labelled"
        else:
            status = verdict_for(labels, credited[0], credited[1], version) or "unreviewed"
        found.append((credited, change, status))
    return found


def move_verdicts(
    truth: Truth, labels: Mapping[str, Any], alignment: Mapping[str, Any], where: str
) -> MoveVerdicts:
    """Classify the engine's moves that the labels do not contain as wrong, acceptable or unreviewed."""
    statuses = [status for _, _, status in classified_moves(truth, labels, alignment, where)]
    unlabelled = [s for s in statuses if s != "labelled"]
    return MoveVerdicts(
        unlabelled=len(unlabelled),
        wrong=unlabelled.count("wrong"),
        acceptable=unlabelled.count("acceptable"),
        unreviewed=unlabelled.count("unreviewed"),
    )
