"""Load and validate ``corpus/pairs.yaml``: which two source files make each real pair."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

PAIRS_FILE = "corpus/pairs.yaml"
FORMATS: dict[str, str] = {"markdown": "md", "text": "txt"}  # format -> prepared file extension
PROFILES: tuple[str, ...] = ("markdown", "contract")
_PAIR_ID = re.compile(r"[a-z0-9][a-z0-9.-]*")
_FIELDS = ("pair", "source", "test", "format", "profile", "note", "control", "restructured")


@dataclass(frozen=True)
class PairSpec:
    pair: str
    source: str
    test: str
    format: str
    profile: str
    note: str | None = None
    control: bool = False
    # One line saying how the pair is heavily restructured (sections reordered, articles merged or
    # split, clauses rewritten); None for an ordinary revision. Issue 12 counts these pairs.
    restructured: str | None = None

    @property
    def extension(self) -> str:
        return FORMATS[self.format]


def load_pairs(root: str | Path) -> list[PairSpec]:
    """Every pair of ``corpus/pairs.yaml`` in file order; ids unique, fields checked."""
    data = load_yaml(Path(root) / PAIRS_FILE, "pairs")
    if not isinstance(data, dict) or not isinstance(data.get("pairs"), list):
        raise AlignbenchError(f"{PAIRS_FILE}: expected a mapping with a 'pairs' list")
    seen: set[str] = set()
    pairs: list[PairSpec] = []
    for index, entry in enumerate(data["pairs"], start=1):
        where = f"{PAIRS_FILE} entry {index}"
        if not isinstance(entry, dict):
            raise AlignbenchError(f"{where}: expected a mapping with pair, source, test, format, profile")
        missing = [f for f in ("pair", "source", "test", "format", "profile") if f not in entry]
        if missing:
            raise AlignbenchError(f"{where}: missing field(s) {', '.join(missing)}; add them")
        unknown = sorted(set(entry) - set(_FIELDS))
        if unknown:
            raise AlignbenchError(f"{where}: unknown field(s) {', '.join(unknown)}; remove them")
        pair_id = entry["pair"]
        if not isinstance(pair_id, str) or not _PAIR_ID.fullmatch(pair_id):
            raise AlignbenchError(
                f"{where}: pair id {pair_id!r} must be lowercase letters, digits, '.' and '-'"
            )
        if pair_id in seen:
            raise AlignbenchError(f"{where}: duplicate pair id {pair_id!r}")
        seen.add(pair_id)
        if entry["format"] not in FORMATS:
            raise AlignbenchError(f"{where} ({pair_id}): format must be one of {', '.join(FORMATS)}")
        if entry["profile"] not in PROFILES:
            raise AlignbenchError(f"{where} ({pair_id}): profile must be one of {', '.join(PROFILES)}")
        if not isinstance(entry.get("control", False), bool):
            raise AlignbenchError(f"{where} ({pair_id}): control must be true or false")
        restructured = entry.get("restructured")
        if restructured is not None and (not isinstance(restructured, str) or not restructured.strip()):
            raise AlignbenchError(
                f"{where} ({pair_id}): restructured must be a one-line reason (what moved, merged, split "
                "or was rewritten); leave it out for an ordinary revision"
            )
        if restructured is not None and "\n" in restructured.strip():
            raise AlignbenchError(f"{where} ({pair_id}): restructured must be a single line")
        if restructured is not None and entry.get("control", False):
            raise AlignbenchError(f"{where} ({pair_id}): a control cannot also be restructured")
        if entry["source"] == entry["test"]:
            raise AlignbenchError(f"{where} ({pair_id}): source and test are the same file")
        pairs.append(
            PairSpec(
                pair=pair_id,
                source=str(entry["source"]),
                test=str(entry["test"]),
                format=entry["format"],
                profile=entry["profile"],
                note=entry.get("note"),
                control=bool(entry.get("control", False)),
                restructured=restructured.strip() if restructured is not None else None,
            )
        )
    return pairs
