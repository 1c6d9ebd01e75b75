"""Re-map row addresses by digest after a reader or document change, and never guess.

An address is a position, not an identity: when a block moves, every following ``section[n]`` shifts.
A row whose block still carries its digest keeps its address; otherwise the row moves to the one
labelled block that now carries that digest. Zero or several candidates are an error naming the row,
so the repair is either exact or refused, and it shows up in a diff.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

from alignbench.blocks import LABELLED_KINDS
from alignbench.errors import AlignbenchError
from alignbench.labels.documents import SIDES, Side
from alignbench.labels.io import row_id

_ANCHORED: tuple[tuple[str, str, str, str | None], ...] = (
    # section, side, digest field, label field
    ("correspondences", "source", "source_digest", "source_label"),
    ("correspondences", "test", "test_digest", "test_label"),
    ("deleted", "source", "digest", "label"),
    ("inserted", "test", "digest", "label"),
)
_ID_PREFIX = {"correspondences": "c", "inserted": "i", "deleted": "d"}


def reanchor(data: dict[str, Any], sides: dict[str, Side], where: str) -> tuple[dict[str, Any], list[str]]:
    """Return the re-anchored document and one line per address changed (in file order).

    Raises one :class:`AlignbenchError` listing every row with zero or several digest matches.
    """
    by_digest: dict[str, dict[str, list[str]]] = {}
    for side in SIDES:
        index: dict[str, list[str]] = defaultdict(list)
        for block in sides[side].tree.blocks():
            if block.kind in LABELLED_KINDS:
                index[block.digest].append(block.address)
        by_digest[side] = index

    result = copy.deepcopy(data)
    changes: list[str] = []
    refused: list[str] = []
    for section, side, digest_field, label_field in _ANCHORED:
        tree = sides[side].tree
        for i, row in enumerate(result[section]):
            current = tree.get(row[side])
            if current is not None and current.kind in LABELLED_KINDS and current.digest == row[digest_field]:
                continue
            candidates = by_digest[side].get(row[digest_field], [])
            if len(candidates) != 1:
                found = (
                    "no block" if not candidates else f"{len(candidates)} blocks ({', '.join(candidates)})"
                )
                refused.append(
                    f"$.{section}[{i}].{side} {row[side]}: {found} of {sides[side].file} "
                    f"carrying digest {row[digest_field]}"
                )
                continue
            changes.append(f"$.{section}[{i}].{side}: {row[side]} -> {candidates[0]}")
            row[side] = candidates[0]
            if label_field is not None and label_field in row:
                row[label_field] = tree.find(candidates[0]).label
    if refused:
        listed = "\n".join(f"  {where}: {line}" for line in refused)
        raise AlignbenchError(
            f"{where}: cannot re-anchor {len(refused)} row(s) by digest; relabel each by hand "
            f"(reanchor never guesses):\n{listed}"
        )
    for section, prefix in _ID_PREFIX.items():
        for row in result[section]:
            if "id" in row:
                row["id"] = row_id(prefix, row.get("source"), row.get("test"))
    for side in SIDES:
        if result[side]["sha256"] != sides[side].sha256:
            changes.append(f"$.{side}.sha256: {result[side]['sha256']} -> {sides[side].sha256}")
            result[side]["sha256"] = sides[side].sha256
    return result, changes
