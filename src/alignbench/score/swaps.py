"""Swap partners: when two siblings trade places, either one can be called the block that moved.

The move rule (``alignbench.labels.move_rule``) names one partner of a swap, but an engine that
reports the other one has found the same event, and counting it as a miss plus a false move would
penalise a tie-break, not a mistake. So a labelled move is also credited when the engine reports a
move on one of its *swap partners*: a correctly labelled, unmoved correspondence under the same
source parent and the same test parent whose document order is reversed relative to the moved block.
"""

from __future__ import annotations

from alignbench.blocks import BlockTree
from alignbench.score.truth import Truth

Link = tuple[str, str]


def _parent(address: str) -> str:
    return address.rsplit("/", 1)[0] or "/"


def _positions(tree: BlockTree) -> dict[str, int]:
    return {block.address: index for index, block in enumerate(tree.blocks())}


def swap_partners(truth: Truth, source: BlockTree, test: BlockTree) -> dict[Link, frozenset[Link]]:
    """For each labelled move that has any, the unmoved links it crossed within the same two parents."""
    source_at, test_at = _positions(source), _positions(test)
    by_parents: dict[tuple[str, str], list[Link]] = {}
    for link in sorted(truth.links - truth.moves):
        by_parents.setdefault((_parent(link[0]), _parent(link[1])), []).append(link)
    partners: dict[Link, frozenset[Link]] = {}
    for move in sorted(truth.moves):
        s, t = move
        if s not in source_at or t not in test_at:
            continue
        crossed = [
            (s2, t2)
            for s2, t2 in by_parents.get((_parent(s), _parent(t)), [])
            if s2 in source_at
            and t2 in test_at
            and (source_at[s2] < source_at[s]) != (test_at[t2] < test_at[t])
        ]
        if crossed:
            partners[move] = frozenset(crossed)
    return partners


def credited_moves(
    truth_moves: set[Link], engine_moves: set[Link], partners: dict[Link, frozenset[Link]]
) -> int:
    """Labelled moves found, crediting a reported swap partner (the same number is the count of
    correct reports: a partner credits at most one labelled move, so reporting both partners of a
    swap still costs precision)."""
    found = truth_moves & engine_moves
    used: set[Link] = set()
    hits = len(found)
    for move in sorted(truth_moves - engine_moves):
        for partner in sorted(partners.get(move, frozenset()) & engine_moves):
            if partner not in used:
                used.add(partner)
                hits += 1
                break
    return hits
