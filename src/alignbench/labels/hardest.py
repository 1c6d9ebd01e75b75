"""The hardest disagreements of the blind pass, quoted in REPORT.md from a data file, never from code.

``corpus/labels/real/hardest-disagreements.yaml`` holds the prose (what happened, both readings, why
the ruling went the way it did). The prose is a human choice; the facts it rests on are not, so each
entry is checked against the committed labels: every id must be a disagreement recorded in the pair's
frozen ``agreement.json``, and the adjudicator's ruling on each must be the entry's ``ruling``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError
from alignbench.labels.blind_summary import RULINGS, agreement_record, pair_rulings

HARDEST_FILE = "corpus/labels/real/hardest-disagreements.yaml"
TEXT_FIELDS: tuple[str, ...] = ("pair", "what", "primary", "blind", "ruling", "why")


def _entry(root: Path, index: int, raw: Any) -> dict[str, Any]:
    at = f"{HARDEST_FILE}: hardest[{index}]"
    if not isinstance(raw, Mapping):
        raise AlignbenchError(f"{at}: expected a mapping with {', '.join(TEXT_FIELDS)} and ids")
    for field in TEXT_FIELDS:
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            raise AlignbenchError(f"{at}: field '{field}' is missing or empty")
    ids = raw.get("ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise AlignbenchError(f"{at}: 'ids' must be a non-empty list of disagreement ids")
    if len(set(ids)) != len(ids):
        raise AlignbenchError(f"{at}: 'ids' lists an id twice")
    if raw["ruling"] not in RULINGS:
        raise AlignbenchError(f"{at}: ruling {raw['ruling']!r} is not one of {', '.join(RULINGS)}")
    pair = raw["pair"]
    recorded = {str(d["id"]) for d in agreement_record(root, pair)["disagreements"]}
    rulings = pair_rulings(root, pair)
    for i, disagreement in enumerate(ids):
        if disagreement not in recorded:
            raise AlignbenchError(
                f"{at}: ids[{i}] {disagreement} is not a disagreement in "
                f"corpus/labels/real/{pair}/agreement.json; copy the id from that file"
            )
        if rulings.get(disagreement) != raw["ruling"]:
            raise AlignbenchError(
                f"{at}: ids[{i}] {disagreement} was ruled {rulings.get(disagreement)!r} in "
                f"corpus/labels/real/{pair}/labels.yaml, not {raw['ruling']!r}; quote the ruling as made"
            )
    return {**{field: " ".join(raw[field].split()) for field in TEXT_FIELDS}, "ids": list(ids)}


def load_hardest(root: Path) -> list[dict[str, Any]]:
    """The entries in file order, whitespace-normalised, each checked against its pair's labels."""
    path = root / HARDEST_FILE
    if not path.is_file():
        raise AlignbenchError(f"{HARDEST_FILE}: not found; restore it from git")
    data = load_yaml(path)
    entries = data.get("hardest") if isinstance(data, Mapping) else None
    if not isinstance(entries, list) or not entries:
        raise AlignbenchError(f"{HARDEST_FILE}: expected a non-empty 'hardest:' list")
    return [_entry(root, i, raw) for i, raw in enumerate(entries)]
