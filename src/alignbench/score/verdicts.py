"""The move gate's evidence: every engine move not in the labels needs a reviewer's verdict.

Fail-closed (seed 000): a verdict counts only for the move it was given for - both addresses and both
blocks' digests (issue #27: not the engine build, so a ruling carries across builds) - so a new move,
or a move whose blocks changed, has no verdict and counts as unreviewed until someone rules on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from alignbench.blocks import BlockTree
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
    truth: Truth,
    labels: Mapping[str, Any],
    alignment: Mapping[str, Any],
    where: str,
    trees: tuple[BlockTree, BlockTree],
) -> list[tuple[tuple[str, str], dict[str, Any], str]]:
    """Every engine move as ``(credited pair, change, status)``; status is labelled, wrong,
    acceptable or unreviewed. Verdicts name the credited (labelled) block, as labels do: a section
    move at its heading."""
    source_tree, test_tree = trees
    pairs = reported_pairs(alignment, where)
    found = []
    for change in alignment.get("changes") or []:
        if change.get("kind") != "move":
            continue
        credited = credit_move(pairs, change["source"], change["test"]) or (change["source"], change["test"])
        if credited in truth.moves:
            status = "labelled"
        else:
            s_block, t_block = source_tree.get(credited[0]), test_tree.get(credited[1])
            digests = (s_block.digest if s_block else "", t_block.digest if t_block else "")
            status = verdict_for(labels, credited[0], credited[1], *digests) or "unreviewed"
        found.append((credited, change, status))
    return found


def move_verdicts(
    truth: Truth,
    labels: Mapping[str, Any],
    alignment: Mapping[str, Any],
    where: str,
    trees: tuple[BlockTree, BlockTree],
) -> MoveVerdicts:
    """Classify the engine's moves that the labels do not contain as wrong, acceptable or unreviewed."""
    statuses = [status for _, _, status in classified_moves(truth, labels, alignment, where, trees)]
    unlabelled = [s for s in statuses if s != "labelled"]
    return MoveVerdicts(
        unlabelled=len(unlabelled),
        wrong=unlabelled.count("wrong"),
        acceptable=unlabelled.count("acceptable"),
        unreviewed=unlabelled.count("unreviewed"),
    )
