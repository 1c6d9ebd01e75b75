"""Integer counts of one engine output against one pair's truth, per column.

Counts only - no ratios here. Ratios are computed once, from counts summed over pairs (micro-average),
in :mod:`alignbench.score.ratios`, so rounding never compounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass, fields
from typing import Any

from alignbench.blocks import LABELLED_KINDS, is_renumber
from alignbench.errors import AlignbenchError
from alignbench.score.addresses import COLUMN_KINDS, FLAT_UNADDRESSABLE, is_under, kind_of
from alignbench.score.ties import TruthReading, credited_moves
from alignbench.score.truth import RenumberKey, Truth, label_text

COLUMNS: tuple[str, ...] = ("all", "flat")


@dataclass(frozen=True)
class PairCounts:
    """Every integer a headline ratio is built from, for one pair and one column."""

    labelled_links: int = 0
    reported_links: int = 0
    hit_links: int = 0
    spurious_links: int = 0
    labelled_moves: int = 0
    reported_moves: int = 0
    hit_moves: int = 0
    move_pairs_hit: int = 0
    move_ceiling_lost: int = 0
    labelled_renumbers: int = 0
    reported_renumbers: int = 0
    hit_renumbers: int = 0
    splits: int = 0
    merges: int = 0
    unscored: int = 0
    twin_hit_links: int = 0  # hits with byte-identical siblings interchangeable (ceiling.twin_classes)
    # The parent changed but reading order did not (issue #27): counted, never scored as a move.
    labelled_reparented: int = 0
    reported_reparented: int = 0

    def __add__(self, other: PairCounts) -> PairCounts:
        return PairCounts(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def reported_pairs(alignment: Mapping[str, Any], where: str) -> list[tuple[str, str]]:
    """The engine's (source, test) pairs, root included (the caller filters)."""
    try:
        return [(p["source"], p["test"]) for p in alignment["pairs"]]
    except (KeyError, TypeError):
        raise AlignbenchError(
            f"{where}: 'pairs' must be a list of {{source, test, ...}}; re-run align"
        ) from None


def credit_move(pairs: list[tuple[str, str]], source: str, test: str) -> tuple[str, str] | None:
    """The labelled (source, test) pair a reported move is credited at, or ``None`` if there is none.

    A moved container (a section, a table) has no label row; its move is credited at its first
    labelled descendant in source document order among the engine's own pairs - for a headed section,
    its heading. This mirrors how a section move is labelled: once, at the topmost labelled block.
    """
    if kind_of(source) in LABELLED_KINDS:
        return (source, test)
    inside = [p for p in pairs if is_under(p[0], source) and kind_of(p[0]) in LABELLED_KINDS]
    return inside[0] if inside else None


def raw_moves(alignment: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Moves exactly as the engine's ``changes`` list reports them (one per moved subtree)."""
    return [(c["source"], c["test"]) for c in alignment.get("changes") or [] if c.get("kind") == "move"]


def reported_moves(alignment: Mapping[str, Any], where: str) -> list[tuple[str, str]]:
    """Moves read off ``changes`` and credited at a labelled block (see :func:`credit_move`)."""
    return _credited(reported_pairs(alignment, where), alignment)


def _credited(pairs: list[tuple[str, str]], alignment: Mapping[str, Any]) -> list[tuple[str, str]]:
    credited = (credit_move(pairs, source, test) for source, test in raw_moves(alignment))
    return [c for c in credited if c is not None]


def reported_renumbers(alignment: Mapping[str, Any]) -> set[RenumberKey]:
    """Renumbers on the 4-tuple; a move whose labels differ is also a renumber (move > renumber)."""
    found: set[RenumberKey] = set()
    for change in alignment.get("changes") or []:
        if change.get("kind") not in ("move", "renumber"):
            continue
        source_label, test_label = (
            label_text(change.get("source_label")),
            label_text(change.get("test_label")),
        )
        if is_renumber(source_label, test_label):
            found.add((change["source"], change["test"], source_label, test_label))
    return found


def in_column(source: str, test: str, column: str) -> bool:
    """A pair is scored when one side is a labelled kind; the flat column also drops rows and cells."""
    source_kind, test_kind = kind_of(source), kind_of(test)
    if column == "flat" and (source_kind in FLAT_UNADDRESSABLE or test_kind in FLAT_UNADDRESSABLE):
        return False
    return source_kind in LABELLED_KINDS or test_kind in LABELLED_KINDS


@dataclass(frozen=True)
class Reported:
    """What one engine output reports, read once for every column it is counted in."""

    links: tuple[tuple[str, str], ...]
    moves: tuple[tuple[str, str], ...]
    renumbers: frozenset[RenumberKey]
    reparented: tuple[tuple[str, str], ...] = ()


def reported(alignment: Mapping[str, Any], where: str) -> Reported:
    pairs = reported_pairs(alignment, where)
    reparented = tuple((p["source"], p["test"]) for p in alignment["pairs"] if p.get("reparented") is True)
    return Reported(
        tuple(pairs),
        tuple(_credited(pairs, alignment)),
        frozenset(reported_renumbers(alignment)),
        reparented,
    )


def count_pair(
    truth: Truth,
    alignment: Mapping[str, Any],
    column: str,
    *,
    move_ceiling_lost: frozenset[tuple[str, str]] = frozenset(),
    reading: TruthReading | None = None,
    twins: tuple[Mapping[str, str], Mapping[str, str]] | None = None,
    where: str = "alignment",
) -> PairCounts:
    """Count one engine output against the truth in one column (``all`` or ``flat``)."""
    if column not in COLUMN_KINDS:
        raise AlignbenchError(f"unknown column {column!r}; expected one of {', '.join(COLUMNS)}")
    return count_reported(
        truth,
        reported(alignment, where),
        column,
        move_ceiling_lost=move_ceiling_lost,
        reading=reading,
        twins=twins,
    )


def count_reported(
    truth: Truth,
    found: Reported,
    column: str,
    *,
    move_ceiling_lost: frozenset[tuple[str, str]] = frozenset(),
    reading: TruthReading | None = None,
    twins: tuple[Mapping[str, str], Mapping[str, str]] | None = None,
) -> PairCounts:
    """:func:`count_pair` of an output already read by :func:`reported`."""
    if column not in COLUMN_KINDS:
        raise AlignbenchError(f"unknown column {column!r}; expected one of {', '.join(COLUMNS)}")
    scored = _scorer(truth, column)
    truth_links, truth_moves, truth_renumbers = _scored_truth(truth, column)
    engine_links = {p for p in found.links if scored(*p)}
    engine_moves = {p for p in found.moves if scored(*p)}
    engine_renumbers = {r for r in found.renumbers if scored(r[0], r[1])}
    deleted, inserted = truth.deleted, truth.inserted
    spurious = sum(1 for p in engine_links if p[0] in deleted or p[1] in inserted)
    hits = len(truth_links & engine_links)
    twin_hits = hits if twins is None else _twin_hits(truth_links, engine_links, twins)
    return PairCounts(
        labelled_links=len(truth_links),
        reported_links=len(engine_links),
        hit_links=hits,
        spurious_links=spurious,
        labelled_moves=len(truth_moves),
        reported_moves=len(engine_moves),
        hit_moves=credited_moves(truth_moves, engine_moves, reading.tie_group if reading else {}),
        move_pairs_hit=len(truth_moves & engine_links),
        move_ceiling_lost=len(truth_moves & move_ceiling_lost),
        labelled_renumbers=len(truth_renumbers),
        reported_renumbers=len(engine_renumbers),
        hit_renumbers=len(truth_renumbers & engine_renumbers),
        splits=truth.splits,
        merges=truth.merges,
        unscored=truth.unscored,
        twin_hit_links=twin_hits,
        labelled_reparented=sum(1 for p in (reading.reparented if reading else ()) if scored(*p)),
        reported_reparented=sum(1 for p in found.reparented if scored(*p)),
    )


def _scorer(truth: Truth, column: str) -> Callable[[str, str], bool]:
    """``in_column`` for the pairs whose blocks the truth does not exclude (one test per reported pair,
    ~1M per score run: the kinds' column membership is looked up once per address)."""
    excluded_source, excluded_test = truth.excluded_source, truth.excluded_test
    flat = column == "flat"

    def scored(source: str, test: str) -> bool:
        if source in excluded_source or test in excluded_test:
            return False
        source_kind, test_kind = kind_of(source), kind_of(test)
        if flat and (source_kind in FLAT_UNADDRESSABLE or test_kind in FLAT_UNADDRESSABLE):
            return False
        return source_kind in LABELLED_KINDS or test_kind in LABELLED_KINDS

    return scored


ScoredTruth = tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]], frozenset[RenumberKey]]
_TRUTH_SETS: dict[tuple[int, str], tuple[Truth, ScoredTruth]] = {}


def _scored_truth(truth: Truth, column: str) -> ScoredTruth:
    """The truth's scored links, moves and renumbers in ``column``: the same for every engine scored
    against this truth, so computed once (the last few truths are remembered, by identity)."""
    key = (id(truth), column)
    found = _TRUTH_SETS.get(key)
    if found is not None and found[0] is truth:
        return found[1]
    scored = _scorer(truth, column)
    sets = (
        frozenset(p for p in truth.links if scored(*p)),
        frozenset(p for p in truth.moves if scored(*p)),
        frozenset(r for r in truth.renumbers if scored(r[0], r[1])),
    )
    if len(_TRUTH_SETS) >= 16:
        _TRUTH_SETS.clear()
    _TRUTH_SETS[key] = (truth, sets)
    return sets


def _twin_hits(
    truth_links: AbstractSet[tuple[str, str]],
    engine_links: AbstractSet[tuple[str, str]],
    twins: tuple[Mapping[str, str], Mapping[str, str]],
) -> int:
    """Hits when a block may stand for any byte-identical sibling: the multiset overlap of class pairs."""
    from collections import Counter

    source_class, test_class = twins

    def classed(links: AbstractSet[tuple[str, str]]) -> Counter[tuple[str, str]]:
        return Counter((source_class.get(s, s), test_class.get(t, t)) for s, t in links)

    return sum((classed(truth_links) & classed(engine_links)).values())
