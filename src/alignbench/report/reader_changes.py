"""What this round's reader change did, from ``corpus/reader-changes.yaml`` and the scored corpus.

The changes and their measured effects are recorded once, as data, by whoever measured them; the
figures the pipeline can still compute (the synthetic pair count now) come from ``latest.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

READER_CHANGES = "corpus/reader-changes.yaml"


def _texts(data: Mapping[str, Any], key: str, fields: tuple[str, str]) -> list[tuple[str, str]]:
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        raise AlignbenchError(f"{READER_CHANGES}: '{key}' must be a non-empty list")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping) or not all(isinstance(row.get(f), str) and row[f] for f in fields):
            raise AlignbenchError(f"{READER_CHANGES}: {key}[{i}] needs non-empty {' and '.join(fields)}")
        out.append((" ".join(row[fields[0]].split()), " ".join(row[fields[1]].split())))
    return out


def load_reader_changes(root: Path) -> dict[str, Any]:
    path = root / READER_CHANGES
    if not path.is_file():
        raise AlignbenchError(f"{READER_CHANGES}: not found; restore it from git")
    data = load_yaml(path)
    if not isinstance(data, Mapping):
        raise AlignbenchError(f"{READER_CHANGES}: expected a mapping with round, changes and effects")
    regenerated = data.get("synthetic_regenerated")
    if not isinstance(regenerated, Mapping) or not isinstance(regenerated.get("pairs_before"), int):
        raise AlignbenchError(f"{READER_CHANGES}: synthetic_regenerated.pairs_before must be an integer")
    return {
        "round": str(data.get("round") or ""),
        "changes": _texts(data, "changes", ("change", "detail")),
        "effects": _texts(data, "effects", ("what", "effect")),
        "pairs_before": regenerated["pairs_before"],
        "note": " ".join(str(regenerated.get("note") or "").split()),
    }


def reader_change_lines(changes: Mapping[str, Any] | None, latest: Mapping[str, Any]) -> list[str]:
    if not changes:
        return []
    after = len((latest["tiers"].get("synthetic") or {}).get("pairs") or [])
    lines = [
        "## What the reader change did",
        "",
        f"Reader changes of this round ({changes['round']}), from `{READER_CHANGES}`:",
        "",
    ]
    lines += [f"- **{change}.** {detail}" for change, detail in changes["changes"]]
    lines += ["", "Measured effect on the corpus:", ""]
    lines += [f"- **{what}:** {effect}" for what, effect in changes["effects"]]
    note = f" ({changes['note']})" if changes["note"] else ""
    lines += [
        f"- **Synthetic tier:** regenerated, {changes['pairs_before']} → {after} pairs{note}.",
        "",
    ]
    return lines
