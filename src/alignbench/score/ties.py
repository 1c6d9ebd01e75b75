"""Move credit over tie sets: an equally small set of moves for the same links describes the same revision.

The move rule (:mod:`alignbench.moverule`) picks one longest in-order chain of correspondences, and the
moves are what it leaves out. Where several chains are equally long (two siblings swapped, sections
re-sorted alphabetically), which blocks "moved" is a tie-break, not a fact of the documents. So a
labelled move is credited when the engine reports a move on another correspondence of the same tie
group (the correspondences that lie on some longest chains but not all, grouped by crossing), one to
one: within each group, hits are the smaller of the labelled moves the engine missed and the moves it
reported on other members. A move no longest chain keeps must be reported exactly. The old swap
credit keyed partners by parent, so no swap of section headings was ever credited.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from alignbench.blocks import BlockTree
from alignbench.moverule import classify_links
from alignbench.score.truth import Truth

Link = tuple[str, str]


@dataclass(frozen=True)
class TruthReading:
    """What the move rule says of a pair's labelled links: tie groups, and the re-parented links."""

    tie_group: Mapping[Link, int]
    reparented: frozenset[Link]


def read_truth(truth: Truth, source: BlockTree, test: BlockTree) -> TruthReading:
    reading = classify_links(source, test, truth.links)
    return TruthReading(reading.tie_group, reading.reparented)


def credited_moves(
    truth_moves: AbstractSet[Link], engine_moves: AbstractSet[Link], ties: Mapping[Link, int]
) -> int:
    """Labelled moves found, crediting a reported move on another member of the same tie group (a
    member credits at most one labelled move, so reporting every member still costs precision)."""
    hits = len(truth_moves & engine_moves)
    missed = Counter(ties[m] for m in truth_moves - engine_moves if m in ties)
    spare = Counter(ties[e] for e in engine_moves - truth_moves if e in ties)
    return hits + sum(min(n, spare[g]) for g, n in sorted(missed.items()))
