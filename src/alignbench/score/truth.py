"""The labelled truth of one pair as sets the metrics intersect with.

Only ``labels.yaml`` content is used; rows in splits, merges and ``unscored`` become exclusions that
drop a block from both the truth and the engine's reported set, as seed 000 requires.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from alignbench.blocks import is_renumber
from alignbench.errors import AlignbenchError

RenumberKey = tuple[str, str, str | None, str | None]


def label_text(value: Any) -> str | None:
    """Labels compare as strings: YAML may hand back ``1.1`` as a float if a writer forgot to quote it."""
    if value is None:
        return None
    return str(value)


@dataclass(frozen=True)
class Truth:
    """Labelled sets of one pair, all keyed by (source address, test address)."""

    links: frozenset[tuple[str, str]]
    moves: frozenset[tuple[str, str]]
    renumbers: frozenset[RenumberKey]
    inserted: frozenset[str]
    deleted: frozenset[str]
    excluded_source: frozenset[str]
    excluded_test: frozenset[str]
    splits: int
    merges: int
    unscored: int


def _rows(labels: Mapping[str, Any], section: str, where: str) -> list[Mapping[str, Any]]:
    rows = labels.get(section) or []
    if not isinstance(rows, list):
        raise AlignbenchError(f"{where}: '{section}' must be a list of rows; fix the label file")
    return rows


def truth_from_labels(labels: Mapping[str, Any], where: str = "labels.yaml") -> Truth:
    """Build the truth sets; ``where`` names the file in any error message."""
    links: set[tuple[str, str]] = set()
    moves: set[tuple[str, str]] = set()
    renumbers: set[RenumberKey] = set()
    for index, row in enumerate(_rows(labels, "correspondences", where)):
        try:
            source, test, kind = row["source"], row["test"], row["kind"]
        except (KeyError, TypeError):
            raise AlignbenchError(
                f"{where}: correspondences[{index}] needs source, test and kind; run `alignbench label check`"
            ) from None
        links.add((source, test))
        if kind == "move":
            moves.add((source, test))
        source_label, test_label = label_text(row.get("source_label")), label_text(row.get("test_label"))
        if is_renumber(source_label, test_label):
            renumbers.add((source, test, source_label, test_label))
    excluded_source: set[str] = set()
    excluded_test: set[str] = set()
    for section in ("splits", "merges", "unscored"):
        for row in _rows(labels, section, where):
            excluded_source.update(row.get("source") or [])
            excluded_test.update(row.get("test") or [])
    return Truth(
        links=frozenset(links),
        moves=frozenset(moves),
        renumbers=frozenset(renumbers),
        inserted=frozenset(r["test"] for r in _rows(labels, "inserted", where)),
        deleted=frozenset(r["source"] for r in _rows(labels, "deleted", where)),
        excluded_source=frozenset(excluded_source),
        excluded_test=frozenset(excluded_test),
        splits=len(_rows(labels, "splits", where)),
        merges=len(_rows(labels, "merges", where)),
        unscored=len(_rows(labels, "unscored", where)),
    )
