"""A pair's labels describe that pair's own documents, and its directories hold nothing else.

A digest proves a document's bytes, not whose they are: a labels file pointing at another pair's
byte-identical document passes every digest check while the pair's own documents go unchecked (and
unscored). So each tier fixes where a pair's documents live, and label_check refuses a labels file
naming a document anywhere else, and any file in a pair's document directory (a stage's output:
``corpus/real/<pair>``, ``corpus/synthetic/<pair>``) that its stage does not write: leftover work, or
something a later reader may pick up.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

# tier -> the directory each pair's documents live in, {pair} replaced by the pair id
DOCUMENT_DIRS: dict[str, str] = {
    "real": "corpus/real/{pair}",
    "synthetic": "corpus/synthetic/{pair}",
}
# What prepare writes beside a real pair's two documents.
REAL_DOCUMENT_EXTRAS = frozenset({"manifest.json", "NOTICE.md"})


def _strays(directory: Path, allowed: frozenset[str] | set[str]) -> list[str]:
    if not directory.is_dir():
        return []
    return sorted(p.name for p in directory.iterdir() if p.name not in allowed or not p.is_file())


def ownership_problems(
    data: Mapping[str, Any], tier: str, pair: str, labels_path: Path, root: Path
) -> list[str]:
    """Problems with where the labels' documents are and what the pair's directories hold, for a labels
    file in its tier's layout (a loose file checked by path, a test fixture, has no pair directory)."""
    from alignbench.tiers import TIER_DIRS

    template = DOCUMENT_DIRS.get(tier)
    if template is None or tier not in TIER_DIRS:
        return []
    if Path(labels_path).resolve() != (root / TIER_DIRS[tier] / pair / "labels.yaml").resolve():
        return []
    home = PurePosixPath(template.format(pair=pair))
    problems: list[str] = []
    names: set[str] = set()
    for side in ("source", "test"):
        spec = data.get(side)
        file = spec.get("file") if isinstance(spec, Mapping) else None
        if not isinstance(file, str):
            continue  # the schema check names a missing file
        path = PurePosixPath(file)
        if path.parent != home or ".." in path.parts:
            problems.append(
                f"$.{side}.file: {file} is not this pair's document (a {tier} pair's documents live in "
                f"{home}/, even when another pair's file holds the same bytes); point it at {home}/"
            )
        names.add(path.name)
    if tier == "synthetic":
        strays = [f"{home}/{n}" for n in _strays(root / home, {"labels.yaml", *names})]
    else:  # corpus/labels/real/<pair>/ is the labeller's hand-made workspace: only prepare's side is fixed
        strays = [f"{home}/{n}" for n in _strays(root / home, set(REAL_DOCUMENT_EXTRAS | names))]
    for stray in strays:
        problems.append(
            f"{stray}: a file its stage does not write sits in the pair's directory; "
            "remove it (or re-run the stage that owns the directory)"
        )
    return problems
