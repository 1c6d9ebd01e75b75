"""A fresh directory for the blind labeller, holding only what a blind pass may see.

A blind pass is only blind if the labeller never sees engine output or the primary's files. Telling
a labeller "do not open X" is a convention; handing them a directory that holds nothing but the two
documents and a blank sheet is a control. The directory's manifest records every file's sha256 at
creation, and `label agree --blind-dir` checks the directory again and copies that record into the
agreement file, so a reader of `agreement.json` can see exactly what the blind labeller was given and
that nothing else appeared in the directory.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, write_text
from alignbench.errors import AlignbenchError
from alignbench.labels.documents import SIDES
from alignbench.labels.init import real_pair_documents
from alignbench.labels.move_rule import MOVE_RULE
from alignbench.labels.workflow import BLIND_LABELS_NAME, BLIND_SHEET_NAME, write_blank_sheet

MANIFEST_NAME = "blind-workdir.json"
INSTRUCTIONS_NAME = "INSTRUCTIONS.txt"
# What a blind labeller may add or change: the filled sheet and the labels compiled from it.
MAY_CHANGE: tuple[str, ...] = (BLIND_SHEET_NAME, BLIND_LABELS_NAME)

_INSTRUCTIONS = """Blind second pass for pair {pair}

This directory holds everything you may look at: the two documents ({source} and {test}) and
{sheet}, a blank decision sheet listing every labelled block of both versions as S1.. and T1...
Do not open anything outside this directory (no labels, no engine output, no reports).

Write one decision per line in {sheet}: `S3 = T3`, `S4 = T9 move`, `S5 = -` (deleted),
`- = T4` (inserted), `S6 = T6 T7 split`, `S8 S9 = T8 merge`, `S10 unscored: reason`.
{move_rule}
Then compile it:

    alignbench label compile {pair} {sheet} --by agent:YOUR-ID --out {labels}

and hand the directory back. Only {sheet} and {labels} may change or appear here.
"""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_blind_workdir(root: Path, pair: str, workdir: Path) -> dict[str, Any]:
    """Create ``workdir`` (new or empty) for the blind pass of ``pair``; return its manifest."""
    if workdir.exists() and (not workdir.is_dir() or any(workdir.iterdir())):
        raise AlignbenchError(f"{workdir}: exists and is not an empty directory; name a fresh one")
    documents, _ = real_pair_documents(root, pair)
    workdir.mkdir(parents=True, exist_ok=True)
    names = {}
    for side in SIDES:
        src = root / documents[side]["file"]
        names[side] = src.name
        shutil.copyfile(src, workdir / src.name)
    write_blank_sheet(root, pair, workdir / BLIND_SHEET_NAME)
    write_text(
        workdir / INSTRUCTIONS_NAME,
        _INSTRUCTIONS.format(
            pair=pair,
            source=names["source"],
            test=names["test"],
            sheet=BLIND_SHEET_NAME,
            labels=BLIND_LABELS_NAME,
            move_rule=MOVE_RULE,
        ),
    )
    files = {p.name: _sha256(p) for p in sorted(workdir.iterdir()) if p.is_file()}
    manifest = {"pair": pair, "documents": names, "given": files}
    write_text(workdir / MANIFEST_NAME, dump_json(manifest))
    return manifest


def verify_blind_workdir(workdir: Path, pair: str) -> dict[str, Any]:
    """Check the directory against its manifest; return the record that goes into agreement.json."""
    path = workdir / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        given: dict[str, str] = manifest["given"]
        made_for = manifest["pair"]
    except (OSError, ValueError, KeyError, TypeError):
        raise AlignbenchError(
            f"{path}: missing or unreadable; make a blind directory with "
            "`alignbench label blind PAIR --dir DIR`"
        ) from None
    if made_for != pair:
        raise AlignbenchError(f"{path}: this directory was made for pair {made_for!r}, not {pair!r}")
    present = sorted(p.name for p in workdir.iterdir() if p.name != MANIFEST_NAME)
    problems = []
    for name in present:
        if name not in given and name not in MAY_CHANGE:
            problems.append(f"{name} was not given to the blind labeller")
    for name, digest in sorted(given.items()):
        if name in MAY_CHANGE:
            continue
        if name not in present:
            problems.append(f"{name} is missing")
        elif _sha256(workdir / name) != digest:
            problems.append(f"{name} changed since the directory was made")
    if problems:
        raise AlignbenchError(f"{workdir}: not a clean blind pass: " + "; ".join(problems))
    returned = {name: _sha256(workdir / name) for name in present if name in MAY_CHANGE}
    return {"given": dict(sorted(given.items())), "returned": dict(sorted(returned.items()))}
